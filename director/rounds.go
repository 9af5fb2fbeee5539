package director

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
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
	ResultHalfBye      = "H"   // a requested half-point bye
	ResultFullBye      = "F"   // a full-point bye the arbiter granted
	ResultZeroBye      = "Z"   // not paired: absent, withdrawn or a zero-point bye
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
	st, err := r.DB.TournamentState(id)
	if err != nil {
		return nil, err
	}
	return trfOf(&st), nil
}

// trfOf is the tournament report of a tournament as read in st.
func trfOf(st *store.TournamentState) *trf.Tournament {
	tr, players, rounds := st.Tournament, st.Players, st.Rounds
	t := &trf.Tournament{Name: tr.Name, Rounds: tr.PlayedRounds(), InitialColour: 'w', Scoring: trf.DefaultScoring, TimeControl: tr.TimeControl}
	index := map[int]int{}
	for i, p := range players {
		index[p.ID] = i
		t.Players = append(t.Players, trf.Player{ID: p.ID, Name: p.Name, Rating: p.Rating, Federation: p.Federation, FideID: p.FideID, Title: p.Title})
	}
	for _, r := range rounds {
		for i := range t.Players {
			// Not in the round's pairings: a bye granted for a round
			// missed (a late entry), else absent.
			g := trf.Game{Colour: '-', Result: 'Z'}
			if code, ok := players[i].Byes[r.Number]; ok && len(code) == 1 {
				g.Result = code[0]
			}
			t.Players[i].Games = append(t.Players[i].Games, g)
		}
		set := func(id int, g trf.Game) {
			if i, ok := index[id]; ok {
				t.Players[i].Games[r.Number-1] = g
			}
		}
		for _, p := range r.Pairings {
			if p.Second == 0 {
				set(p.First, trf.Game{Colour: '-', Result: byeCode(p.Result)})
				continue
			}
			// A game lost by forfeit before a move is stored on its
			// pairing as "+/-" (store.PairingResult): TRF's + and -.
			fr, sr := resultCodes(p.Result)
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
	return t
}

// byeCode returns the TRF code of a player not paired in a round, from the
// result stored on their pairing.
func byeCode(result string) byte {
	switch result {
	case ResultHalfBye, ResultFullBye, ResultZeroBye:
		return result[0]
	}
	return 'U' // the pairing-allocated bye
}

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

// plan is a round as paired, before it is stored: the boards (first mover,
// second mover), the player with the pairing-allocated bye, the players
// not paired with the TRF code of their entry, and how it was made.
type plan struct {
	boards [][2]int
	bye    int
	out    map[int]string
	trace  string
	how    string            // "", "rematches" or "manual"
	manual map[[2]int]string // per hand-made board: the criteria it breaks
	data   string            // what the audit log records of it
}

// advance pairs and starts the next round if the current one is complete.
func (d *Director) advance(ctx context.Context, id uint64, who, why string) error {
	return d.newRound(ctx, id, "pair-round", who, why, func(tr *tour, st *store.TournamentState, number int) (*plan, error) {
		return d.pair(tr, st, number, 0)
	})
}

// planner makes the plan of round number of tr's tournament, from the
// tournament as read in st.
type planner func(tr *tour, st *store.TournamentState, number int) (*plan, error)

// repairs bounds how often newRound pairs a round again that the
// tournament changed under.
const repairs = 3

// newRound makes the next round of a tournament with planner, stores it
// with the arbiter's action and starts its games. It refuses while the
// current round has unfinished games or when every round has been played.
// When the engine finds no valid pairing, the tournament is blocked: an
// alert tells the arbiter what can be done.
//
// The round is paired from the tournament as read in one transaction,
// outside the director's lock (a big Swiss takes a good part of a second,
// and board events must not wait for it); it is stored whole, in one
// transaction, under the lock, only if nothing it was paired from changed
// meanwhile. Otherwise it is paired again.
func (d *Director) newRound(ctx context.Context, id uint64, what, who, why string, planner planner) error {
	tr := d.tour(id)
	if tr == nil {
		return fmt.Errorf("tournament %d: %w", id, store.ErrNotFound)
	}
	if d.pairedBy != "" {
		return fmt.Errorf("pair a round of %s: %w", d.tourName(tr), &PairedElsewhereError{By: d.pairedBy})
	}
	d.pairMu.Lock() // one pairing at a time
	defer d.pairMu.Unlock()
	for attempt := 1; ; attempt++ {
		err := d.pairRound(ctx, id, tr, what, who, why, planner)
		if errors.Is(err, store.ErrStale) && attempt < repairs {
			d.log.Info("the tournament changed while its round was paired: pairing it again", "err", err)
			continue
		}
		return err
	}
}

// pairRound pairs the next round of tr's tournament with plan, stores it
// and starts its games.
func (d *Director) pairRound(ctx context.Context, id uint64, tr *tour, what, who, why string, planner planner) error {
	st, err := d.db.TournamentState(id)
	if err != nil {
		return err
	}
	rec := st.Tournament
	if !roundsComplete(st.Rounds) {
		return errRoundRunning
	}
	if len(st.Rounds) >= rec.PlayedRounds() {
		return errTournamentOver
	}
	number := len(st.Rounds) + 1
	var pl *plan
	lowPriority(func() { pl, err = planner(tr, &st, number) })
	if err != nil {
		var nv *pairing.NoValidPairingError
		if errors.As(err, &nv) {
			d.mu.Lock()
			d.blockLocked(tr, number, nv)
			d.mu.Unlock()
		}
		return fmt.Errorf("pair round %d of %s: %w", number, rec.Name, err)
	}
	nr := &store.NewRound{Round: store.Round{TournamentID: id, Number: number, PairedAt: d.wall(), Trace: pl.trace, How: pl.how},
		From: st.Digest, Decided: map[int]*store.Action{}}
	byID := map[int]store.Player{}
	for _, p := range st.Players {
		byID[p.ID] = p
	}
	name := func(pid int) string {
		if p, ok := byID[pid]; ok {
			return p.Name
		}
		return fmt.Sprintf("player %d", pid)
	}
	for i, b := range pl.boards {
		g := d.roundGame(tr, &rec, number, i+1, b, name)
		nr.Round.Pairings = append(nr.Round.Pairings, store.Pairing{Board: i + 1, First: b[0], Second: b[1], Manual: pl.manual[b]})
		// A scheduled game against a player who is not there (a round
		// robin's withdrawn player) is a forfeit at once: the absent
		// first player loses (both absent: the arbiter may correct it).
		ok1, _ := byID[b[0]].Paired(number)
		ok2, _ := byID[b[1]].Paired(number)
		switch {
		case !ok1:
			g.Result = "0-1"
		case !ok2:
			g.Result = "1-0"
		}
		if g.Result != "" {
			g.Reason, g.Ended = rules.Forfeit.String(), d.wall()
			nr.Decided[i] = &store.Action{Who: who, What: "set-result", Why: "a player is withdrawn or absent", Data: g.Result + " forfeit", At: d.wall()}
		}
		nr.Games = append(nr.Games, g)
	}
	if pl.bye != 0 {
		nr.Round.Pairings = append(nr.Round.Pairings, store.Pairing{Board: len(pl.boards) + 1, First: pl.bye, Result: ResultBye})
	}
	outs := make([]int, 0, len(pl.out))
	for pid := range pl.out {
		outs = append(outs, pid)
	}
	slices.Sort(outs)
	for _, pid := range outs {
		nr.Round.Pairings = append(nr.Round.Pairings, store.Pairing{Board: len(nr.Round.Pairings) + 1, First: pid, Result: pl.out[pid]})
	}
	if why == "" {
		why = "the previous round is complete"
	}
	data := fmt.Sprintf("round %d of %s", number, rec.Name)
	if pl.data != "" {
		data += ": " + pl.data
	}
	nr.Paired = &store.Action{Who: who, What: what, Why: why, Data: data, At: d.wall()}
	// From the commit until its games are started, no waiting game is
	// started (startWaiting): a board back meanwhile would pick a game of
	// the new round that its own table is about to start.
	d.waitMu.Lock()
	defer d.waitMu.Unlock()
	// Stored under the director's lock, as the arbiter's changes to the
	// players and the tournament are: the store refuses the round if any
	// of them came between (ErrStale).
	// A blocked tournament's alerts are settled with the round.
	d.mu.Lock()
	if tr.blocked != "" {
		nr.Settles = d.noPairingSettled(who, "round "+strconv.Itoa(number)+" was paired ("+what+")")
	}
	err = d.db.CreateRound(nr)
	if err == nil {
		tr.blocked = ""
	}
	d.mu.Unlock()
	if err != nil {
		return err
	}
	d.log.Info("round paired", "tournament", rec.Name, "round", number, "boards", len(pl.boards), "bye", pl.bye, "how", pl.how)
	d.hub.Publish(Update{Kind: "round", At: d.wall(), Data: map[string]any{"tournament": id, "round": number}})
	// Start the games on the tournament's tables, board n on table n.
	onTable := make(map[int]*store.Game, len(nr.Games))
	for i, g := range nr.Games {
		onTable[i+1] = g
	}
	return d.startGames(ctx, tr, onTable)
}

// tourName is the name of tr's tournament.
func (d *Director) tourName(tr *tour) string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return tr.rec.Name
}

// roundGame is the game of board (first and second player) in round
// number of tr's tournament (stored as rec), not yet stored.
func (d *Director) roundGame(tr *tour, rec *store.Tournament, number, board int, b [2]int, name func(int) string) *store.Game {
	return &store.Game{TournamentID: rec.ID, Round: number, BoardNo: board, Game: rec.Game, Options: tr.game.Options().String(),
		TimeControl: rec.TimeControlOf(number), First: name(b[0]), Second: name(b[1]), FirstID: b[0], SecondID: b[1], Started: d.wall()}
}

// startGames starts each game on its table (by table number) of tr's
// tournament, where the table's board is there; a game whose board is gone
// waits for it. It is called with d.waitMu held from the round's commit
// on, so that no board back meanwhile starts one of its games elsewhere
// (startWaiting).
func (d *Director) startGames(ctx context.Context, tr *tour, onTable map[int]*store.Game) error {
	d.mu.RLock()
	tables := slices.Clone(d.tables)
	d.mu.RUnlock()
	for _, t := range tables {
		g := onTable[t.Number]
		if t.Tournament != tr.rec.ID || g == nil || g.Result != "" {
			continue
		}
		g.BoardID = t.ID
		if !t.boardPresent() {
			if err := d.db.UpdateGame(g); err != nil {
				return err
			}
			d.tableWaits(t, g)
			continue
		}
		if err := d.startOn(ctx, t, tr, g); err != nil {
			return err
		}
	}
	return nil
}

// startOn starts game g on table t.
func (d *Director) startOn(ctx context.Context, t *Table, tr *tour, g *store.Game) error {
	return d.begin(ctx, t, g, tr.game, d.arbiterConfig(tr), nil)
}

// pair returns the plan of a round of tr's tournament, as read in st, as
// the pairing system makes it. With rematchesBefore > 0, the Swiss engine
// lets players who met only in rounds before it meet again.
func (d *Director) pair(tr *tour, st *store.TournamentState, number, rematchesBefore int) (*plan, error) {
	t, players, rec := trfOf(st), st.Players, st.Tournament
	pl := &plan{out: map[int]string{}}
	switch rec.System {
	case "round-robin", "double-round-robin":
		s, err := roundrobin.Berger(len(t.Players), roundrobin.Options{Double: rec.System == "double-round-robin"})
		if err != nil {
			return nil, err
		}
		if number > len(s.Rounds) {
			return nil, errTournamentOver
		}
		r := s.Rounds[number-1]
		for _, b := range r.Boards {
			pl.boards = append(pl.boards, [2]int{b.First, b.Second})
		}
		pl.bye = r.Bye
		pl.trace = fmt.Sprintf("Berger table, round %d", number)
		return pl, nil
	}
	// Who is not to be paired: an entry for the round being paired.
	for i, p := range players {
		if ok, code := p.Paired(number); !ok {
			pl.out[p.ID] = code
			t.Players[i].Games = append(t.Players[i].Games, trf.Game{Colour: '-', Result: code[0]})
		}
	}
	back := renumber(t, players)
	opts := pairing.Options{Round: number, Trace: true, Colours: pairing.ChessColours,
		Baku: rec.Accelerated == "baku", RematchesBefore: rematchesBefore}
	if rec.System == "swiss-dutch-2017" {
		opts.Edition = pairing.Dutch2017
	}
	opts.Colours = colourPolicy(rules.FactsOf(rec.Game).Colours)
	p, err := pairing.Pair(t, opts)
	if err != nil {
		return nil, err
	}
	for _, b := range p.Boards {
		pl.boards = append(pl.boards, [2]int{back[b.White], back[b.Black]})
	}
	pl.bye = back[p.Bye]
	if p.Trace != nil {
		pl.trace = p.Trace.String()
	}
	return pl, nil
}

// colourPolicy is the pairing engine's colour policy for a game's colour
// rule (rules.Facts.Colours).
func colourPolicy(r rules.ColourRule) pairing.ColourPolicy {
	switch r {
	case rules.ColoursShogi:
		return pairing.ShogiColours
	case rules.ColoursByLot:
		return pairing.FirstPlayerByLot
	}
	return pairing.ChessColours
}

// renumber gives the players of t the pairing numbers of the initial
// ranking when late entrants joined (FIDE C.04.2: numbers are reassigned
// so that a late entrant ranks by rating among the others; the start
// numbers stored with the games do not change). It returns the map from
// pairing numbers back to start numbers.
func renumber(t *trf.Tournament, players []store.Player) map[int]int {
	back := map[int]int{0: 0}
	order := make([]store.Player, 0, len(players))
	late := false
	for _, p := range players {
		if p.Joined <= 1 {
			order = append(order, p)
		} else {
			late = true
		}
	}
	if !late {
		for _, p := range players {
			back[p.ID] = p.ID
		}
		return back
	}
	for _, p := range players {
		if p.Joined <= 1 {
			continue
		}
		i := slices.IndexFunc(order, func(o store.Player) bool { return o.Rating < p.Rating })
		if i < 0 {
			i = len(order)
		}
		order = slices.Insert(order, i, p)
	}
	to := map[int]int{0: 0}
	for i, p := range order {
		to[p.ID] = i + 1
		back[i+1] = p.ID
	}
	for i := range t.Players {
		t.Players[i].ID = to[t.Players[i].ID]
		for j := range t.Players[i].Games {
			t.Players[i].Games[j].Opponent = to[t.Players[i].Games[j].Opponent]
		}
	}
	return back
}

// arbiterConfig is the arbitration policy of a tournament's games.
func (d *Director) arbiterConfig(tr *tour) arbiter.Config {
	// The configuration was validated: the policy words are known.
	c, _ := arbiter.BoardConfig(tr.game, tr.cfg.TouchMove, tr.cfg.IllegalMove)
	return c
}
