package replay_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/clock"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/replay"
	"arbiter/rules"
	"arbiter/store"
)

// A Tavreli pawn set down on e3 is committed on release; carried on to e4
// before White's press, the move is amended to e2-e4 (issue 18 §1). The
// replay of the raw frames gives the stored, amended move.
func TestReplayAmendedMove(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "event.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	rc := &recording{db: db, raw: db.NewRawLog(time.Hour), board: "R-tavreli", wall0: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC), control: "15m+5s"}
	g := newGame(t, "tavreli")
	r, err := newRig(rigConfig{game: g, caps: heightOnly, seed: 1, human: fastHuman, raw: rc.rawFrame(t), noGame: true})
	require.NoError(t, err)
	r.wait(3 * time.Second)

	rec := &store.Game{Game: g.Name(), BoardID: rc.board, First: "Ann", Second: "Bob", Started: rc.wall(r.clock.Now()), TimeControl: rc.control}
	require.NoError(t, db.CreateGame(rec))
	rec.RawFrom, err = rc.raw.Next(rc.board)
	require.NoError(t, err)
	require.NoError(t, db.UpdateGame(rec))
	ctl, err := clock.Parse(rc.control)
	require.NoError(t, err)
	clk, err := clock.New(ctl, clock.Options{})
	require.NoError(t, err)
	epoch := r.clock.Now()
	require.NoError(t, r.startGame(g, nil, nil, clk))
	r.wait(2 * time.Second)

	sq := func(name string) rules.Square {
		s, ok := r.geo.Lookup(name)
		require.True(t, ok, name)
		return s
	}
	pawn, ok := g.Start().View().Top(sq("e2"))
	require.True(t, ok)
	step := func(from, to string) []sim.Step {
		return []sim.Step{{Op: sim.OpLift, Square: sq(from), N: 1}, {At: 200 * time.Millisecond, Op: sim.OpPlace, Square: sq(to), Pieces: []rules.Piece{pawn}}}
	}
	require.NoError(t, r.run(step("e2", "e3")))
	r.wait(time.Second)
	require.Len(t, r.moves, 1)
	require.Equal(t, "e2-e3", r.moves[0].Notation)
	require.NoError(t, r.run(step("e3", "e4")))
	r.wait(time.Second)
	require.NoError(t, r.run([]sim.Step{{Op: sim.OpPress, Button: board.ButtonClock, Side: board.SideOf(rules.First)}}))
	r.wait(time.Second)
	require.Len(t, r.moves, 1)
	require.Equal(t, "e2-e4", r.moves[0].Notation)
	m := r.moves[0]
	require.NoError(t, db.AppendMove(&store.Move{GameID: rec.ID, Ply: m.Ply, Notation: m.Notation, Canonical: m.Move.String(),
		Position: m.Position.String(), BoardMs: m.BoardMs, HostNs: int64(m.At - epoch), Wall: rc.wall(m.At), RawSeq: m.RawSeq,
		ClockFirst: m.Clock[0], ClockSecond: m.Clock[1], Used: m.Used}))
	r.wait(2 * time.Second)
	require.NoError(t, rc.raw.Flush())

	rep, err := replay.Game(context.Background(), db, rec.ID, replay.Options{})
	require.NoError(t, err)
	require.True(t, rep.OK(), "%+v", rep.Plies)
	require.Len(t, rep.Plies, 1)
	require.Equal(t, "e2-e4", rep.Plies[0].ReplayedNotation)
	require.Equal(t, m.RawSeq, rep.Plies[0].Raw)
}
