package web

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"arbiter/director"
	"arbiter/export"
	"arbiter/pairing/tiebreak"
	"arbiter/rules"
	"arbiter/store"
)

// The view models shared by the pages and the JSON API: what a page shows
// is exactly what its API route returns.

// tourSummary is a tournament in the event's list.
type tourSummary struct {
	store.Tournament
	Players int  `json:"players"`
	Paired  int  `json:"roundsPaired"` // rounds paired so far
	Running bool `json:"running"`      // the last paired round has unfinished games
	// Blocked says why the next round cannot be paired, until the arbiter
	// decides.
	Blocked string `json:"blocked,omitempty"`
	// Last is the number of rounds the tournament has now: the planned
	// rounds, or fewer if it was ended early.
	Last int `json:"lastRound"`
}

// tourDetail is a tournament with its players and its rounds.
type tourDetail struct {
	tourSummary
	PlayerList []store.Player `json:"playerList"`
	RoundList  []roundView    `json:"roundList"`
}

// roundView is one round's pairings with names.
type roundView struct {
	Number   int         `json:"number"`
	PairedAt time.Time   `json:"pairedAt"`
	How      string      `json:"how,omitempty"` // "manual", "rematches" or "" (the engine)
	Boards   []boardLine `json:"boards"`
}

// boardLine is one pairing of a round.
type boardLine struct {
	Board      int    `json:"board"`
	First      int    `json:"first"`
	FirstName  string `json:"firstName"`
	Second     int    `json:"second,omitempty"`
	SecondName string `json:"secondName,omitempty"`
	Result     string `json:"result,omitempty"`
	GameID     uint64 `json:"game,omitempty"`
	Bye        bool   `json:"bye,omitempty"`
	// Manual is set on a board paired by hand: "manual", or the FIDE
	// criteria it breaks.
	Manual string `json:"manual,omitempty"`
}

// gameView is a game with its moves and record formats.
type gameView struct {
	Game       store.Game     `json:"game"`
	Tournament string         `json:"tournament,omitempty"`
	FirstSide  string         `json:"firstSide"`
	SecondSide string         `json:"secondSide"`
	Moves      []moveView     `json:"moves"`
	Formats    []formatView   `json:"formats"`
	Live       *director.Live `json:"live,omitempty"`
}

// moveView is one move of the game viewer.
type moveView struct {
	Ply         int           `json:"ply"`
	Side        string        `json:"side"`
	Second      bool          `json:"-"`
	Notation    string        `json:"notation"`
	Canonical   string        `json:"canonical"`
	Used        time.Duration `json:"usedNs"`
	ClockFirst  time.Duration `json:"clockFirstNs"`
	ClockSecond time.Duration `json:"clockSecondNs"`
	Wall        time.Time     `json:"wall"`
	UsedText    string        `json:"used"`
	ClockText   string        `json:"clock,omitempty"` // the mover's clock after the move
}

// errBadRequest marks an error caused by the request itself.
var errBadRequest = errors.New("bad request")

// pathID reads a numeric path value.
func pathID(r *http.Request, name string) (uint64, error) {
	v := r.PathValue(name)
	id, err := strconv.ParseUint(v, 10, 64)
	if err != nil || id == 0 {
		return 0, fmt.Errorf("%w: %s %q is not a positive number", errBadRequest, name, v)
	}
	return id, nil
}

// statusOf maps an error onto an HTTP status.
func statusOf(err error) int {
	switch {
	case errors.Is(err, errBadRequest), errors.Is(err, export.ErrFormat):
		return http.StatusBadRequest
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, director.ErrNoTable):
		return http.StatusConflict
	}
	return http.StatusInternalServerError
}

func (s *Site) tourSummaries() ([]tourSummary, error) {
	var out []tourSummary
	for _, id := range s.d.TournamentIDs() {
		t, err := s.summary(id)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// tournament returns one of the event's tournaments, store.ErrNotFound for
// any other id: enough for a page that needs only its name and game.
func (s *Site) tournament(id uint64) (store.Tournament, error) {
	if !slices.Contains(s.d.TournamentIDs(), id) {
		return store.Tournament{}, fmt.Errorf("tournament %d: %w", id, store.ErrNotFound)
	}
	return s.d.DB().Tournament(id)
}

func (s *Site) summary(id uint64) (tourSummary, error) {
	db := s.d.DB()
	t, err := s.tournament(id)
	if err != nil {
		return tourSummary{}, err
	}
	ps, err := db.Players(id)
	if err != nil {
		return tourSummary{}, err
	}
	rs, err := db.Rounds(id)
	if err != nil {
		return tourSummary{}, err
	}
	sum := tourSummary{Tournament: t, Players: len(ps), Paired: len(rs), Blocked: s.d.Blocked(id), Last: t.PlayedRounds()}
	if n := len(rs); n > 0 {
		for _, p := range rs[n-1].Pairings {
			if p.Result == "" {
				sum.Running = true
			}
		}
	}
	return sum, nil
}

func (s *Site) tourDetail(id uint64) (*tourDetail, error) {
	sum, err := s.summary(id)
	if err != nil {
		return nil, err
	}
	db := s.d.DB()
	ps, err := db.Players(id)
	if err != nil {
		return nil, err
	}
	rs, err := db.Rounds(id)
	if err != nil {
		return nil, err
	}
	names := map[int]string{}
	for _, p := range ps {
		names[p.ID] = p.Name
	}
	name := func(id int) string {
		if n, ok := names[id]; ok {
			return n
		}
		return fmt.Sprintf("player %d", id)
	}
	// Lists are [] in JSON, never null.
	td := &tourDetail{tourSummary: sum, PlayerList: append([]store.Player{}, ps...), RoundList: []roundView{}}
	for i := len(rs) - 1; i >= 0; i-- { // latest round first
		r := rs[i]
		rv := roundView{Number: r.Number, PairedAt: r.PairedAt, How: r.How, Boards: []boardLine{}}
		for _, p := range r.Pairings {
			b := boardLine{Board: p.Board, First: p.First, FirstName: name(p.First), Second: p.Second, Result: p.Result, GameID: p.GameID, Manual: p.Manual}
			if p.Second == 0 {
				b.Bye = true
			} else {
				b.SecondName = name(p.Second)
			}
			rv.Boards = append(rv.Boards, b)
		}
		td.RoundList = append(td.RoundList, rv)
	}
	return td, nil
}

// standings computes a tournament's standings.
func (s *Site) standings(id uint64) (*tiebreak.Standings, error) {
	if _, err := s.tournament(id); err != nil {
		return nil, err
	}
	return s.d.Standings(id)
}

// crosstable computes a tournament's crosstable.
func (s *Site) crosstable(id uint64) (*tiebreak.Crosstable, *tiebreak.Standings, error) {
	st, err := s.standings(id)
	if err != nil {
		return nil, nil, err
	}
	t, err := s.results(id)
	if err != nil {
		return nil, nil, err
	}
	ct, err := tiebreak.NewCrosstable(t, st)
	return ct, st, err
}

// results reads a tournament's players and results for the tie-break
// engine, as its TRF says them.
func (s *Site) results(id uint64) (*tiebreak.Tournament, error) {
	f, err := s.d.TRF(id)
	if err != nil {
		return nil, err
	}
	return tiebreak.FromTRF(f)
}

// scoresBefore returns each player's score before round n, as the
// crosstable counts it (the tournament's own scoring, byes included).
func scoresBefore(ct *tiebreak.Crosstable, n int) map[int]float64 {
	score := map[int]float64{}
	for _, row := range ct.Rows {
		for i, c := range row.Cells {
			if i < n-1 {
				score[row.ID] += c.Points
			}
		}
	}
	return score
}

// crosstableOnly is crosstable without the standings.
func (s *Site) crosstableOnly(id uint64) (*tiebreak.Crosstable, error) {
	ct, _, err := s.crosstable(id)
	return ct, err
}

// ruleGame returns the rules of a stored game.
func ruleGame(g store.Game) (rules.Game, error) {
	rg, err := rules.NewFromText(g.Game, g.Options)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", g.ID, err)
	}
	return rg, nil
}

// liveOf returns the live state of the table playing a game.
func (s *Site) liveOf(gameID uint64) (*director.Live, bool) {
	for _, l := range s.d.Tables() {
		if l.GameID == gameID {
			return &l, true
		}
	}
	return nil, false
}

func (s *Site) gameView(id uint64) (*gameView, error) {
	db := s.d.DB()
	g, err := db.Game(id)
	if err != nil {
		return nil, err
	}
	moves, err := db.Moves(id)
	if err != nil {
		return nil, err
	}
	rg, err := ruleGame(g)
	if err != nil {
		return nil, err
	}
	v := &gameView{Game: g, FirstSide: rg.SideName(rules.First), SecondSide: rg.SideName(rules.Second), Formats: formatsOf(g), Moves: []moveView{}}
	if g.TournamentID != 0 {
		if t, err := db.Tournament(g.TournamentID); err == nil {
			v.Tournament = t.Name
		}
	}
	v.Game.Clock = nil // internal clock snapshot
	// The side of each move from the positions: the one to move before it.
	turn := rules.First
	if start, err := startPosition(rg, g); err == nil {
		turn = start.Turn()
	}
	timed := g.TimeControl != "" && g.TimeControl != "-"
	for i, m := range moves {
		if i > 0 {
			if p, err := rg.ParsePosition(moves[i-1].Position); err == nil {
				turn = p.Turn()
			} else {
				turn = turn.Other()
			}
		}
		mv := moveView{Ply: m.Ply, Side: rg.SideName(turn), Second: turn == rules.Second, Notation: m.Notation, Canonical: m.Canonical,
			Used: m.Used, ClockFirst: m.ClockFirst, ClockSecond: m.ClockSecond, Wall: m.Wall, UsedText: export.FormatUsed(m.Used)}
		if timed {
			c := m.ClockFirst
			if turn == rules.Second {
				c = m.ClockSecond
			}
			mv.ClockText = export.FormatClock(c)
		}
		v.Moves = append(v.Moves, mv)
	}
	if l, ok := s.liveOf(id); ok {
		pl := publicLive(*l)
		v.Live = &pl
	}
	return v, nil
}

// startPosition returns a stored game's start position.
func startPosition(rg rules.Game, g store.Game) (rules.Position, error) {
	if g.StartPosition == "" {
		return rg.Start(), nil
	}
	return rg.ParsePosition(g.StartPosition)
}

// boardAt draws a game's board after ply moves (0: the start; beyond the
// last move: the last position).
func (s *Site) boardAt(g store.Game, ply int) (*director.BoardView, int, error) {
	bv, ply, _, err := s.boardWithLast(g, ply)
	return bv, ply, err
}

// boardWithLast is boardAt with the names of the squares the last move
// shown (move ply) came from and went to, for the diagram to highlight.
func (s *Site) boardWithLast(g store.Game, ply int) (*director.BoardView, int, []string, error) {
	rg, err := ruleGame(g)
	if err != nil {
		return nil, 0, nil, err
	}
	moves, err := s.d.DB().Moves(g.ID)
	if err != nil {
		return nil, 0, nil, err
	}
	if ply < 0 || ply > len(moves) {
		ply = len(moves)
	}
	before, err := startPosition(rg, g)
	if err == nil && ply >= 2 {
		before, err = rg.ParsePosition(moves[ply-2].Position)
	}
	if err != nil {
		return nil, 0, nil, fmt.Errorf("game %d ply %d: %w", g.ID, ply, err)
	}
	if ply == 0 {
		return director.NewBoardView(rg, before), 0, nil, nil
	}
	pos, err := rg.ParsePosition(moves[ply-1].Position)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("game %d ply %d: %w", g.ID, ply, err)
	}
	var last []string
	// A move the rules no longer read (an old record) is simply not
	// highlighted.
	if m, err := before.ParseMove(moves[ply-1].Canonical); err == nil {
		for _, sq := range []rules.Square{m.From(), m.To()} {
			if sq != rules.NoSquare {
				last = append(last, rules.SquareName(rg, sq))
			}
		}
	}
	return director.NewBoardView(rg, pos), ply, last, nil
}
