package sim_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/hardware/certabo"
	"arbiter/hardware/certabo/sim"
	"arbiter/hardware/eboard/emu"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// frames returns the frames a board sends at its next n scans.
func frames(t *testing.T, b *sim.Board, n int) []certabo.Frame {
	t.Helper()
	var buf bytes.Buffer
	b.SetOutput(func(p []byte) { buf.Write(p) })
	for range n {
		b.Scan()
	}
	var out []certabo.Frame
	var l certabo.Lines
	l.Feed(buf.Bytes(), func(line []byte) {
		if kind, f, err := certabo.ParseLine(line); err == nil && kind == certabo.LineFrame {
			out = append(out, f)
		}
	})
	return out
}

// The board streams its frames, the first after power-up cut; its pieces
// are chips: a move carries the moved piece's chip, a captured piece's
// chip leaves the board, and a promotion takes a spare's.
func TestChipsFollowThePieces(t *testing.T) {
	b := sim.NewBoard(sim.Config{Seed: 1})
	var pos rules.Position = chess.Start()
	b.SetUp(pos.View())
	fs := frames(t, b, 3)
	require.Len(t, fs, 2, "the first frame is cut")
	f := fs[1]
	e2 := f[eboardField(12)]
	require.NotEqual(t, certabo.ID{}, e2)
	pl := &emu.Player{Board: b, Rng: newRng(), Carry: true, PushOff: 1}
	for _, san := range []string{"e4", "d5", "exd5"} {
		_, next, err := rules.PlayText(pos, san)
		require.NoError(t, err)
		pl.Move(pos.View(), next.View())
		pos = next
	}
	f = frames(t, b, 1)[0]
	assert.Equal(t, e2, f[eboardField(35)], "the pawn of e2 took on d5 with its chip")
	assert.Equal(t, certabo.ID{}, f[eboardField(12)])
	// A promotion: a spare queen's chip, not one on the board.
	b.SetUp(mustFEN(t, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1").View())
	seen := map[certabo.ID]bool{}
	for _, id := range frames(t, b, 1)[0] {
		seen[id] = true
	}
	b.LiftSquare(48)
	b.PlaceSquare(56, rules.Piece{Color: rules.White, Kind: 'Q'})
	b.Flush()
	q := frames(t, b, 1)[0][eboardField(56)]
	assert.NotEqual(t, certabo.ID{}, q)
	assert.False(t, seen[q], "the queen's chip is a new one on this board")
	assert.Zero(t, b.Counters().Unknown, "a spare of the set")
}

// LEDs are taken eight bytes at a time, each command replacing the last.
func TestLEDs(t *testing.T) {
	b := sim.NewBoard(sim.Config{AckLEDs: true})
	var acks bytes.Buffer
	b.SetOutput(func(p []byte) { acks.Write(p) })
	var l certabo.LEDs
	l.Light(eboardField(12))
	l.Light(eboardField(28))
	b.HandleHost(l[:4])
	assert.False(t, b.Lit(12), "half a command")
	b.HandleHost(l[4:])
	assert.True(t, b.Lit(12))
	assert.True(t, b.Lit(28))
	assert.False(t, b.Lit(20))
	assert.Equal(t, certabo.LEDs{0, 0, 0, 0, 0x10, 0, 0x10, 0}, l, "e4 and e2, as the notes have them")
	assert.Equal(t, "L\r\n", acks.String())
}
