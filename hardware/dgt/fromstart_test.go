package dgt

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A board's answer from its start tag is read whatever it holds: the tag
// or not, the pieces logged with it or not (issue 32 F1); the orientation
// comes from those pieces, or from the changes that only one start
// position explains.
func TestFromStart(t *testing.T) {
	pieces := func(p Position) []LogTag {
		var tags []LogTag
		for f, q := range p {
			if q != Empty {
				tags = append(tags, field(byte(f), q))
			}
		}
		return tags
	}
	e4 := []LogTag{field(fE2, Empty), field(fE4, WPawn), press(true, 5*time.Minute)}
	e4rot := []LogTag{field(63-fE2, Empty), field(63-fE4, WPawn), press(true, 5*time.Minute)}
	after := StartPosition
	after[fE2], after[fE4] = Empty, WPawn
	rot := startIn(Rotated)
	afterRot := rot
	afterRot[63-fE2], afterRot[63-fE4] = Empty, WPawn
	cat := func(parts ...[]LogTag) []LogTag {
		var out []LogTag
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	tag := []LogTag{marker(EEStartTag)}
	old := []LogTag{marker(EEPowerUp), field(5, WKnight), marker(EEStartTag), field(5, Empty)} // an earlier game's
	for _, tc := range []struct {
		name   string
		tags   []LogTag
		fixed  Orientation
		prefer Orientation
		want   Position
		orient Orientation
		err    string
	}{
		{"tag, pieces, a move", cat(tag, pieces(StartPosition), e4), Undecided, Undecided, after, Normal, ""},
		{"tag, pieces, a move, rotated", cat(tag, pieces(rot), e4rot), Undecided, Undecided, afterRot, Rotated, ""},
		{"the last of several tags", cat(old, tag, pieces(StartPosition), e4), Undecided, Undecided, after, Normal, ""},
		{"no tag: pieces, a move", cat(pieces(rot), e4rot), Undecided, Undecided, afterRot, Rotated, ""},
		{"no tag, no pieces: a move", e4, Undecided, Undecided, after, Normal, ""},
		{"no tag, no pieces: a move, rotated", e4rot, Undecided, Normal, afterRot, Rotated, ""},
		{"a tag and nothing since", tag, Undecided, Rotated, rot, Rotated, ""},
		{"a tag and nothing since, nothing to tell", tag, Undecided, Undecided, StartPosition, Undecided, ""},
		{"the orientation configured", e4rot, Rotated, Normal, afterRot, Rotated, ""},
		{"a board never tagged", nil, Undecided, Undecided, Position{}, Undecided, "holds no start tag"},
		{"changes no start explains", []LogTag{field(fE4, WQueen), field(fE2, WQueen)}, Undecided, Undecided, Position{}, Undecided,
			"2 field changes without a start tag that no start position explains"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, o, err := fromStart(logOf(tc.tags...), tc.fixed, tc.prefer)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, p, Diff(&tc.want, &p, Normal))
			assert.Equal(t, tc.orient, o)
		})
	}
}

func TestImplausible(t *testing.T) {
	assert.Zero(t, implausible(&StartPosition))
	p := StartPosition
	p[fE4] = WPawn
	assert.Equal(t, 1, implausible(&p), "a ninth pawn")
	p = StartPosition
	p[fE2], p[fE4] = Empty, WQueen
	assert.Zero(t, implausible(&p), "a pawn promoted")
	p[fE4+1] = BKing
	assert.Equal(t, 1, implausible(&p), "a second king")
}
