package arbiter_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/rules"
)

// rockerGame is a chess game on an identity-sensing board whose clock
// tells whose turn it shows (a DGT board and clock), driven event by
// event.
type rockerGame struct {
	t   *testing.T
	s   *arbiter.Session
	g   rules.Game
	at  time.Duration
	out []arbiter.Output
}

func newRockerGame(t *testing.T, judgeAtPress bool) *rockerGame {
	g, err := rules.New("chess", nil)
	require.NoError(t, err)
	cfg := arbiter.DefaultConfig(g)
	cfg.Caps = arbiter.Caps{TopKind: true, TopColor: true}
	cfg.JudgeAtPress = judgeAtPress
	s, err := arbiter.NewSession(cfg, g, nil, nil)
	require.NoError(t, err)
	r := &rockerGame{t: t, s: s, g: g}
	r.take(s.Start(0))
	return r
}

func (r *rockerGame) take(outs []arbiter.Output) { r.out = append(r.out, outs...) }

func (r *rockerGame) handle(e arbiter.Event) {
	r.at += 100 * time.Millisecond
	e.At = r.at
	r.take(r.s.Handle(e))
}

// set puts piece p on the square named (the zero piece: lifts it).
func (r *rockerGame) set(name string, p rules.Piece) {
	q, ok := r.g.Geometry().Lookup(name)
	require.True(r.t, ok, name)
	h := 0
	if p != (rules.Piece{}) {
		h = 1
	}
	r.handle(arbiter.Event{Kind: arbiter.SquareChanged, Square: rules.Square(r.g.Geometry().SensorIndex(q)), Height: h, Top: p})
}

// move moves the piece on from to to.
func (r *rockerGame) move(from, to string) {
	q, _ := r.g.Geometry().Lookup(from)
	p, ok := r.s.Position().View().Top(q)
	require.True(r.t, ok, from)
	r.set(from, rules.Piece{})
	r.set(to, p)
}

func (r *rockerGame) press(c rules.Color) {
	r.handle(arbiter.Event{Kind: arbiter.ClockPressed, Side: c})
}

// clockShows is a reading of the board's clock showing c to move.
func (r *rockerGame) clockShows(c rules.Color) {
	r.handle(arbiter.Event{Kind: arbiter.Heartbeat, Clock: true, ClockTurn: c, ClockTurnKnown: true})
}

// settle lets the board stay as it is past the settle time.
func (r *rockerGame) settle() {
	r.at += time.Second
	r.take(r.s.Tick(r.at))
}

func (r *rockerGame) moves() []string {
	m := moves(r.out)
	r.out = nil
	return m
}

// The opening: e4 and e5, each with its press, the clock turned by each.
func (r *rockerGame) opening() {
	r.move("e2", "e4")
	r.press(rules.White)
	r.clockShows(rules.Black)
	r.move("e7", "e5")
	r.press(rules.Black)
	r.clockShows(rules.White)
	require.Equal(r.t, []string{"e4", "e5"}, r.moves())
}

// After an illegal move and its press, the player's side of a rocker
// lever is down: he cannot press again. His legal move is taken when the
// board settles on it while the clock shows his opponent to move (issue
// 32 F2); then the game goes on, press by press.
func TestLegalMoveTakenWhileTheClockShowsTheOpponent(t *testing.T) {
	r := newRockerGame(t, false)
	r.opening()
	r.move("e1", "e3") // the king two squares: illegal
	r.press(rules.White)
	r.clockShows(rules.Black)
	require.True(t, r.s.InRecovery(), "the illegal move: %v", r.out)
	r.set("e3", rules.Piece{})
	r.set("e1", rules.Piece{Color: rules.White, Kind: 'K'})
	r.settle()
	require.False(t, r.s.InRecovery(), "the position is put back")
	assert.Empty(t, r.moves(), "the position put back is no move")
	r.move("e1", "e2")
	r.settle()
	assert.Equal(t, []string{"Ke2"}, r.moves(), "taken at the settle, without a press")
	r.press(rules.White) // a press that moves nothing, had it come
	r.move("b8", "c6")
	r.press(rules.Black)
	r.clockShows(rules.White)
	assert.Equal(t, []string{"Nc6"}, r.moves())
}

// Where the clock shows the side to move its own turn (it has not
// pressed), a legal position is a move in progress until the press; so
// it is where the board's clock says nothing, or where its link was lost
// since, or where a move is judged only at its press.
func TestLegalMoveWaitsForThePressOtherwise(t *testing.T) {
	for _, tc := range []struct {
		name         string
		judgeAtPress bool
		before       func(r *rockerGame)
	}{
		{"the clock shows the mover to move", false, func(r *rockerGame) { r.clockShows(rules.White) }},
		{"the clock's turn unknown since the link was lost", false, func(r *rockerGame) {
			r.clockShows(rules.Black)
			r.handle(arbiter.Event{Kind: arbiter.LinkLost})
			r.handle(arbiter.Event{Kind: arbiter.LinkRestored})
		}},
		{"judged at the press", true, func(r *rockerGame) { r.clockShows(rules.Black) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRockerGame(t, tc.judgeAtPress)
			r.opening()
			tc.before(r)
			r.move("g1", "f3")
			r.settle()
			assert.Empty(t, r.moves(), "no move before the press")
			r.press(rules.White)
			assert.Equal(t, []string{"Nf3"}, r.moves())
		})
	}
}
