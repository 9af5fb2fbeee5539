package eboard_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/hardware/eboard"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// code is a test piece: a chess piece, zero for empty.
type code rules.Piece

func (c code) Rules() (rules.Piece, bool) { return rules.Piece(c), c.Kind != 0 }

// blind is a piece sensed but never identified.
type blind bool

func (b blind) Rules() (rules.Piece, bool) { return rules.Piece{}, bool(b) }

// fields lays a chess view out in field order for a board lying in o.
func fields(v rules.View, o eboard.Orientation) *[64]code {
	var f [64]code
	for sq := range 64 {
		p, _ := v.Top(rules.Square(sq))
		f[o.Field(rules.Square(sq))] = code(p)
	}
	return &f
}

func TestOrientationSquares(t *testing.T) {
	for _, tc := range []struct {
		o     eboard.Orientation
		field int
		sq    string
	}{
		{eboard.Normal, 0, "a8"}, {eboard.Normal, 7, "h8"}, {eboard.Normal, 56, "a1"}, {eboard.Normal, 63, "h1"},
		{eboard.Rotated, 0, "h1"}, {eboard.Rotated, 63, "a8"}, {eboard.Undecided, 0, "a8"},
	} {
		sq := tc.o.Square(tc.field)
		assert.Equal(t, tc.sq, string(rune('a'+sq%8))+string(rune('1'+sq/8)), "%s field %d", tc.o, tc.field)
		assert.Equal(t, tc.field, tc.o.Field(sq), "%s: Field undoes Square", tc.o)
	}
}

func TestDetectOrientation(t *testing.T) {
	start := chess.Start().View()
	empty := rules.View{Stacks: make([][]rules.Piece, 64)}
	assert.Equal(t, eboard.Normal, eboard.DetectOrientation(fields(start, eboard.Normal)))
	assert.Equal(t, eboard.Rotated, eboard.DetectOrientation(fields(start, eboard.Rotated)))
	assert.Equal(t, eboard.Undecided, eboard.DetectOrientation(fields(empty, eboard.Normal)))
	assert.Equal(t, eboard.Normal, eboard.StartOrientation(fields(start, eboard.Normal)))
	assert.Equal(t, eboard.Rotated, eboard.StartOrientation(fields(start, eboard.Rotated)))
	// A piece the board could not identify is no colour's.
	var unknown [64]blind
	for i, c := range fields(start, eboard.Normal) {
		unknown[i] = blind(c.Kind != 0)
	}
	assert.Equal(t, eboard.Undecided, eboard.DetectOrientation(&unknown))
}

func TestTrackerSettle(t *testing.T) {
	var pos rules.Position = chess.Start()
	_, e4, err := rules.PlayText(pos, "e4")
	require.NoError(t, err)
	_, exd, err := rules.PlayText(fen(t, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"), "exd5")
	require.NoError(t, err)

	var tr eboard.Tracker[code]
	whole, _ := tr.Settle(fields(pos.View(), eboard.Rotated), nil)
	assert.True(t, whole, "the first read is whole")
	assert.Equal(t, eboard.Rotated, tr.Orientation(), "decided by the set-up")
	whole, changed := tr.Settle(fields(e4.View(), eboard.Rotated), nil)
	require.False(t, whole)
	o := tr.Orientation()
	require.Len(t, changed, 2)
	assert.Equal(t, rules.Square(12), o.Square(changed[0]), "e2 emptied first")
	assert.Equal(t, rules.Square(28), o.Square(changed[1]))

	// Turned round between two games: the next start position decides
	// again where Redetect says so, not otherwise.
	for _, redetect := range []bool{true, false} {
		tr := eboard.Tracker[code]{Redetect: redetect}
		tr.Settle(fields(pos.View(), eboard.Normal), nil)
		tr.Settle(fields(e4.View(), eboard.Normal), nil)
		whole, _ = tr.Settle(fields(pos.View(), eboard.Rotated), nil)
		if redetect {
			assert.True(t, whole, "a new orientation makes the read whole")
			assert.Equal(t, eboard.Rotated, tr.Orientation())
		} else {
			assert.False(t, whole)
			assert.Equal(t, eboard.Normal, tr.Orientation())
		}
	}
	// A capture changes two squares, the emptied one first.
	tr = eboard.Tracker[code]{Fixed: eboard.Normal}
	tr.Settle(fields(exd.View(), eboard.Normal), nil) // whole
	before := fields(fen(t, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").View(), eboard.Normal)
	tr.Settle(before, nil)
	_, changed = tr.Settle(fields(exd.View(), eboard.Normal), nil)
	require.Len(t, changed, 2)
	assert.Equal(t, "e4", name(eboard.Normal.Square(changed[0])))
	assert.Equal(t, "d5", name(eboard.Normal.Square(changed[1])))
	tr.Forget()
	whole, _ = tr.Settle(before, nil)
	assert.True(t, whole, "after Forget the board is whole again")
}

func name(sq rules.Square) string { return string(rune('a'+sq%8)) + string(rune('1'+sq/8)) }

func fen(t *testing.T, s string) rules.Position {
	t.Helper()
	p, err := chess.ParseFEN(s)
	require.NoError(t, err)
	return p
}
