package director

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"arbiter/arbiter"
	"arbiter/pairing"
	"arbiter/pairing/roundrobin"
	"arbiter/pairing/tiebreak"
	"arbiter/pairing/trf"
	"arbiter/rules"
	"arbiter/store"
)

var (
	errRoundRunning   = errors.New("the current round has unfinished games")
	errTournamentOver = errors.New("every round has been played")
)

// Result codes stored on pairings besides the game results "1-0", "0-1"
// and "1/2-1/2".
const (
	ResultBye          = "bye" // pairing-allocated bye
	ResultFirstForfeit = "+/-" // the first player wins by forfeit
	ResultSecondForfit = "-/+"
	ResultDoubleForfit = "-/-"
)

// Reports builds tournament reports and standings from an event database
// alone, for tools that run without the daemon (exports).
type Reports struct {
	DB *store.DB
}

// TRF builds the tournament report of a tournament from the database: the
// model the pairing engine and the tie-breaks work on.
func (d *Director) TRF(id uint64) (*trf.Tournament, error) { return Reports{d.db}.TRF(id) }

// Standings computes a tournament's standings with its tie-breaks.
func (d *Director) Standings(id uint64) (*tiebreak.Standings, error) {
	return Reports{d.db}.Standings(id)
}

// TRF builds the tournament report of a tournament.
func (r Reports) TRF(id uint64) (*trf.Tournament, error) {
	tr, err := r.DB.Tournament(id)
	if err != nil {
		return nil, err
	}
	players, err := r.DB.Players(id)
	if err != nil {
		return nil, err
	}
	rounds, err := r.DB.Rounds(id)
	if err != nil {
		return nil, err
	}
	t := &trf.Tournament{Name: tr.Name, Rounds: tr.Rounds, InitialColour: 'w', Scoring: trf.DefaultScoring, TimeControl: tr.TimeControl}
	db := r.DB // r names each round below
	index := map[int]int{}
	for i, p := range players {
		index[p.ID] = i
		t.Players = append(t.Players, trf.Player{ID: p.ID, Name: p.Name, Rating: p.Rating, Federation: p.Federation, FideID: p.FideID, Title: p.Title})
	}
	for _, r := range rounds {
		for i := range t.Players {
			t.Players[i].Games = append(t.Players[i].Games, trf.Game{Colour: '-', Result: 'Z'})
		}
		set := func(id int, g trf.Game) {
			if i, ok := index[id]; ok {
				t.Players[i].Games[r.Number-1] = g
			}
		}
		for _, p := range r.Pairings {
			if p.Second == 0 {
				set(p.First, trf.Game{Colour: '-', Result: 'U'})
				continue
			}
			fr, sr := resultCodes(p.Result)
			if p.GameID != 0 && (fr == '1' || fr == '0') {
				// A game decided by forfeit is stored as 1-0 or 0-1 with
				// the reason "forfeit": TRF writes it + and -, unplayed.
				g, err := db.Game(p.GameID)
				if err != nil {
					return nil, fmt.Errorf("round %d board %d: %w", r.Number, p.Board, err)
				}
				if g.Reason == rules.Forfeit.String() {
					fr, sr = forfeitCodes[fr], forfeitCodes[sr]
				}
			}
			set(p.First, trf.Game{Opponent: p.Second, Colour: 'w', Result: fr})
			set(p.Second, trf.Game{Opponent: p.First, Colour: 'b', Result: sr})
		}
	}
	for i := range t.Players {
		pts := 0.0
		for _, g := range t.Players[i].Games {
			pts += t.Scoring.Points(g)
		}
		t.Players[i].Points = pts
	}
	return t, nil
}

// forfeitCodes turns a played result's code into its forfeit's.
var forfeitCodes = map[byte]byte{'1': '+', '0': '-'}

// resultCodes returns the TRF result codes of a stored pairing result for
// the first and the second player; ' ' while the game is unfinished.
func resultCodes(result string) (byte, byte) {
	switch result {
	case "1-0":
		return '1', '0'
	case "0-1":
		return '0', '1'
	case "1/2-1/2":
		return '=', '='
	case ResultFirstForfeit:
		return '+', '-'
	case ResultSecondForfit:
		return '-', '+'
	case ResultDoubleForfit:
		return '-', '-'
	}
	return ' ', ' '
}

// Standings computes a tournament's standings with the tie-breaks it was
// created with.
func (r Reports) Standings(id uint64) (*tiebreak.Standings, error) {
	rec, err := r.DB.Tournament(id)
	if err != nil {
		return nil, err
	}
	t, err := r.TRF(id)
	if err != nil {
		return nil, err
	}
	model, err := tiebreak.FromTRF(t)
	if err != nil {
		return nil, err
	}
	model.RoundRobin = strings.Contains(rec.System, "round-robin")
	specs, err := tiebreak.ParseSpecs(strings.Join(rec.TieBreaks, " "))
	if err != nil {
		return nil, fmt.Errorf("tournament %s: tie-breaks: %w", rec.Name, err)
	}
	return tiebreak.Compute(model, specs, tiebreak.Options{})
}

// PairNextRound pairs the next round of a tournament on the arbiter's
// command and starts its games.
func (d *Director) PairNextRound(ctx context.Context, id uint64, who, why string) error {
	return d.advance(ctx, id, who, why)
}

// advance pairs and starts the next round if the current one is complete.
func (d *Director) advance(ctx context.Context, id uint64, who, why string) error {
	tr := d.tour(id)
	if tr == nil {
		return fmt.Errorf("tournament %d: %w", id, store.ErrNotFound)
	}
	d.mu.Lock() // one pairing at a time: the round being stored is the lock's
	defer d.mu.Unlock()
	rounds, err := d.db.Rounds(id)
	if err != nil {
		return err
	}
	if n := len(rounds); n > 0 {
		for _, p := range rounds[n-1].Pairings {
			if p.Result == "" {
				return errRoundRunning
			}
		}
	}
	if len(rounds) >= tr.rec.Rounds {
		return errTournamentOver
	}
	number := len(rounds) + 1
	round := store.Round{TournamentID: id, Number: number, PairedAt: d.wall()}
	boards, bye, trace, err := d.pair(tr, number)
	if err != nil {
		return fmt.Errorf("pair round %d of %s: %w", number, tr.rec.Name, err)
	}
	round.Trace = trace
	players, err := d.db.Players(id)
	if err != nil {
		return err
	}
	name := func(pid int) string {
		for _, p := range players {
			if p.ID == pid {
				return p.Name
			}
		}
		return fmt.Sprintf("player %d", pid)
	}
	var games []*store.Game
	for i, b := range boards {
		g := &store.Game{TournamentID: id, Round: number, BoardNo: i + 1, Game: tr.rec.Game, Options: tr.game.Options().String(),
			TimeControl: tr.rec.TimeControl, First: name(b[0]), Second: name(b[1]), FirstID: b[0], SecondID: b[1], Started: d.wall()}
		if err := d.db.CreateGame(g); err != nil {
			return err
		}
		games = append(games, g)
		round.Pairings = append(round.Pairings, store.Pairing{Board: i + 1, First: b[0], Second: b[1], GameID: g.ID})
	}
	if bye != 0 {
		round.Pairings = append(round.Pairings, store.Pairing{Board: len(boards) + 1, First: bye, Result: ResultBye})
	}
	if err := d.db.PutRound(&round); err != nil {
		return err
	}
	if why == "" {
		why = "the previous round is complete"
	}
	if err := d.db.AddAction(&store.Action{Who: who, What: "pair-round", Why: why, Data: fmt.Sprintf("round %d of %s", number, tr.rec.Name), At: d.wall()}); err != nil {
		return err
	}
	d.log.Info("round paired", "tournament", tr.rec.Name, "round", number, "boards", len(boards), "bye", bye)
	d.hub.Publish(Update{Kind: "round", At: d.wall(), Data: map[string]any{"tournament": id, "round": number}})
	// Start the games on the tournament's tables, board n on table n.
	for _, t := range d.tables {
		if t.Tournament != id || t.Number > len(games) {
			continue
		}
		g := games[t.Number-1]
		g.BoardID = t.ID
		if d.raw != nil {
			if g.RawFrom, err = d.raw.Next(t.ID); err != nil {
				return err
			}
		}
		if err := d.db.UpdateGame(g); err != nil {
			return err
		}
		cfg := d.arbiterConfig(tr)
		if err := t.Do(ctx, func() error { return t.start(g, tr.game, cfg, tr.ctl) }); err != nil {
			return err
		}
	}
	return nil
}

// pair returns the boards (first mover, second mover) of a round, the
// player with the bye, and the pairing engine's explanation.
func (d *Director) pair(tr *tour, number int) ([][2]int, int, string, error) {
	t, err := d.TRF(tr.rec.ID)
	if err != nil {
		return nil, 0, "", err
	}
	var boards [][2]int
	switch tr.rec.System {
	case "round-robin", "double-round-robin":
		s, err := roundrobin.Berger(len(t.Players), roundrobin.Options{Double: tr.rec.System == "double-round-robin"})
		if err != nil {
			return nil, 0, "", err
		}
		if number > len(s.Rounds) {
			return nil, 0, "", errTournamentOver
		}
		r := s.Rounds[number-1]
		for _, b := range r.Boards {
			boards = append(boards, [2]int{b.First, b.Second})
		}
		return boards, r.Bye, fmt.Sprintf("Berger table, round %d", number), nil
	}
	opts := pairing.Options{Round: number, Trace: true, Colours: pairing.ChessColours}
	if tr.rec.System == "swiss-dutch-2017" {
		opts.Edition = pairing.Dutch2017
	}
	if tr.rec.Game == "shogi" {
		opts.Colours = pairing.ShogiColours
	} else if tr.rec.Game == "kvaa" {
		opts.Colours = pairing.FirstPlayerByLot
	}
	p, err := pairing.Pair(t, opts)
	if err != nil {
		return nil, 0, "", err
	}
	for _, b := range p.Boards {
		boards = append(boards, [2]int{b.White, b.Black})
	}
	trace := ""
	if p.Trace != nil {
		trace = p.Trace.String()
	}
	return boards, p.Bye, trace, nil
}

// arbiterConfig is the arbitration policy of a tournament's games.
func (d *Director) arbiterConfig(tr *tour) arbiter.Config {
	// The configuration was validated: the policy words are known.
	c, _ := arbiter.BoardConfig(tr.game, tr.cfg.TouchMove, tr.cfg.IllegalMove)
	return c
}
