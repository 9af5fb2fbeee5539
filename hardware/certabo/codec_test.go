package certabo_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/hardware/certabo"
)

func frameOf(ids map[int]certabo.ID) *certabo.Frame {
	var f certabo.Frame
	for sq, id := range ids {
		f[sq] = id
	}
	return &f
}

func TestParseLine(t *testing.T) {
	f := frameOf(map[int]certabo.ID{0: {3, 0, 83, 12, 200}, 63: {18, 0, 1, 2, 3}})
	wire := certabo.AppendFrame(nil, f)
	assert.True(t, strings.HasPrefix(string(wire), ":3 0 83 12 200 0 0 0 0 0 "))
	assert.True(t, strings.HasSuffix(string(wire), " 18 0 1 2 3 \r\n"))
	for _, line := range []string{string(wire), strings.TrimSuffix(string(wire), "\r\n"), strings.TrimPrefix(string(wire), ":")} {
		kind, got, err := certabo.ParseLine([]byte(line))
		require.NoError(t, err)
		assert.Equal(t, certabo.LineFrame, kind)
		assert.Equal(t, *f, got)
	}
	for _, tc := range []struct{ line, err string }{
		{"L\r", ""}, {"D", ""},
		{string(wire[100:]), "frame"},
		{":1 2 3 4 5 6 7 8 ", "Sentio"},
		{":1 2 256 " + strings.Repeat("0 ", 317), "number 3"},
		{":1 2 x " + strings.Repeat("0 ", 317), `"x"`},
		{":" + strings.Repeat("0 ", 321), "more than 320"},
		{"", "empty line"},
	} {
		_, _, err := certabo.ParseLine([]byte(tc.line))
		if tc.err == "" {
			assert.NoError(t, err, tc.line)
		} else {
			assert.ErrorContains(t, err, tc.err)
		}
	}
}

func TestLinesAndEmptySquares(t *testing.T) {
	var l certabo.Lines
	var got []string
	take := func(b []byte) { got = append(got, string(b)) }
	l.Feed([]byte("ab"), take)
	l.Feed([]byte("c\r\nL\r\n:1"), take)
	l.Feed([]byte(" 2\n"), take)
	assert.Equal(t, []string{"abc\r", "L\r", ":1 2"}, got)
	l.Feed([]byte(strings.Repeat("9", certabo.MaxLine+1)), take)
	assert.Equal(t, certabo.MaxLine+1, l.Dropped, "a line without end is noise")

	assert.True(t, certabo.ID{}.Empty())
	assert.True(t, certabo.ID{0, 7, 0, 0, 9}.Empty(), "more than two zero bytes")
	assert.False(t, certabo.ID{118, 144, 181, 62, 197}.Empty(), "junk reads as a chip: the filter and the calibration deal with it")
	id, err := certabo.ParseID(certabo.ID{3, 0, 83, 12, 200}.String())
	require.NoError(t, err)
	assert.Equal(t, certabo.ID{3, 0, 83, 12, 200}, id)
}

// A square takes a value once two of the last three frames vote for it:
// junk read on an empty square and a chip misread once never get
// through, junk read twice on a square just emptied is no chip, and a
// change is dated halfway between the last frame that did not show it and
// the first that did.
func TestFilter(t *testing.T) {
	chip := certabo.ID{3, 0, 83, 12, 200}
	misread := certabo.ID{3, 0, 83, 99, 200}
	junk := certabo.ID{118, 144, 181, 62, 197}
	junk2 := certabo.ID{0, 14, 1, 62, 9}
	known := func(id certabo.ID) bool { return id == chip }
	var f certabo.Filter
	at := func(n int) time.Duration { return time.Duration(n) * 300 * time.Millisecond }
	add := func(n int, ids map[int]certabo.ID) (bool, time.Duration) { return f.Add(frameOf(ids), at(n), known) }
	changed, _ := add(1, map[int]certabo.ID{0: chip})
	assert.False(t, changed)
	changed, _ = add(2, map[int]certabo.ID{0: chip, 5: junk})
	assert.True(t, changed, "ready: the first board (junk on an empty square is no chip)")
	assert.True(t, f.Ready())
	assert.Equal(t, chip, f.State()[0])
	assert.Equal(t, certabo.ID{}, f.State()[5])
	changed, _ = add(3, map[int]certabo.ID{0: misread, 5: junk2})
	assert.False(t, changed, "a misread, junk")
	assert.False(t, f.Pending(), "nothing under way")
	// The chip moves from square 0 to square 9; square 0 reads junk
	// twice after it.
	changed, _ = add(4, map[int]certabo.ID{0: junk, 9: chip})
	assert.False(t, changed, "moved, seen once")
	assert.True(t, f.Pending(), "a change under way")
	changed, since := add(5, map[int]certabo.ID{0: junk2, 9: chip})
	assert.True(t, changed)
	assert.Equal(t, at(3)+150*time.Millisecond, since, "dated halfway between the last frame that did not show it and the first that did")
	assert.Equal(t, certabo.ID{}, f.State()[0])
	assert.Equal(t, chip, f.State()[9])
	assert.False(t, f.Pending())
	// A chip never learnt stands for itself once it is read twice.
	stranger := certabo.ID{7, 7, 7, 7, 7}
	changed, _ = add(6, map[int]certabo.ID{9: chip, 20: stranger})
	assert.False(t, changed)
	changed, _ = add(7, map[int]certabo.ID{9: chip, 20: stranger})
	assert.False(t, changed, "its first reading was a vote for empty")
	changed, _ = add(8, map[int]certabo.ID{9: chip, 20: stranger})
	assert.True(t, changed)
	assert.Equal(t, stranger, f.State()[20])
}
