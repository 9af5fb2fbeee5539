package dgt

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func logOf(tags ...LogTag) *Log {
	var b []byte
	for _, t := range tags {
		b = AppendLogTag(b, t)
	}
	return ParseLog(append(b, EEEOF))
}

func field(f byte, p Piece) LogTag { return LogTag{Kind: TagField, Field: f, Piece: p} }
func marker(m byte) LogTag         { return LogTag{Kind: TagMarker, Marker: m} }
func press(left bool, d time.Duration) LogTag {
	return LogTag{Kind: TagTime, Left: left, Time: d}
}

func TestRecover(t *testing.T) {
	e4 := StartPosition
	e4[fE2], e4[fE4] = Empty, WPawn
	var rotE4 Position
	for f, p := range StartPosition {
		rotE4[63-f] = p
	}
	rotE4[63-fE2], rotE4[63-fE4] = Empty, WPawn
	cases := []struct {
		name    string
		log     *Log
		anchor  byte
		orient  Orientation
		presses []Position
		final   Position
		err     string
	}{
		{"from the start position", logOf(marker(EEPowerUp), field(3, WKing), marker(EEBeginPos),
			field(fE2, Empty), field(fE4, WPawn), press(true, 5*time.Minute)),
			EEBeginPos, Normal, []Position{e4}, e4, ""},
		{"rotated board", logOf(marker(EEBeginPosRot), field(63-fE4, WPawn), field(63-fE2, Empty), press(false, time.Minute)),
			EEBeginPosRot, Rotated, []Position{rotE4}, rotE4, ""},
		{"a power-up in mid-game", logOf(marker(EEBeginPos), field(fE2, Empty), marker(EEPowerUp),
			field(fE4, WPawn), field(0, BRook), press(true, time.Minute)),
			EEBeginPos, Normal, []Position{{0: BRook, fE4: WPawn}}, Position{0: BRook, fE4: WPawn}, ""},
		{"start tag after the begin position", logOf(marker(EEBeginPos), field(fE2, Empty), marker(EEStartTag), field(5, BKing)),
			EEStartTag, Undecided, nil, Position{5: BKing}, ""},
		{"power-up only", logOf(marker(EEPowerUp), field(5, BKing), field(60, WKing)),
			EEPowerUp, Undecided, nil, Position{5: BKing, 60: WKing}, ""},
		{"no anchor", logOf(field(5, BKing)), 0, 0, nil, Position{}, "holds no start position"},
		{"cut short", ParseLog([]byte{EEBeginPos, 0x41, 0x34}), 0, 0, nil, Position{}, "cut short (no EE_EOF after 2 tags)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Recover(tc.log)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.anchor, r.Anchor)
			assert.Equal(t, tc.orient, r.Orientation)
			var got []Position
			for _, p := range r.Presses {
				got = append(got, p.Position)
			}
			assert.Equal(t, tc.presses, got)
			assert.Equal(t, tc.final, r.Final)
		})
	}
}
