package export_test

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/export"
	"arbiter/rules/chess"
)

// pgnTimeControl is the PGN standard's TimeControl value (section 9.6.1):
// "?", "-", "*" and seconds (sandclock), or periods joined by ":", each
// seconds, "moves/seconds" or either with "+increment" (FIDE's
// "40/5400+30:1800+30"). Only digits: no units.
var pgnTimeControl = regexp.MustCompile(`^(\?|-|\*\d+|(\d+/)?\d+(\+\d+)?(:(\d+/)?\d+(\+\d+)?)*)$`)

func TestPGNTimeControl(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"90m+30s", "5400+30", true},
		{"40/90m+30s:30m+30s", "40/5400+30:1800+30", true},
		{"40/5400+30:1800+30", "40/5400+30:1800+30", true},
		{"5m", "300", true},
		{"3m+2s", "180+2", true},
		{"40/2h:1h", "40/7200:3600", true},
		{"*60", "*60", true},
		{"-", "-", true},
		// What the tag cannot say is unknown.
		{"90m+d10s", "?", false},
		{"10m:byo=30s", "?", false},
		{"6h@1m:byo=1m", "?", false},
		{"1m+0.5s", "?", false},
		{"garbage", "?", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := export.PGNTimeControl(tt.in)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.ok, ok)
			assert.Regexp(t, pgnTimeControl, got, "the PGN standard's form")
		})
	}
}

// TestPGNTimeControlTag: the exported PGN's TimeControl tag is in the
// standard's form, which strict PGN readers parse.
func TestPGNTimeControlTag(t *testing.T) {
	f := newFixture(t)
	var buf bytes.Buffer
	require.NoError(t, f.sheet(t, "chess").Write(&buf, "pgn"))
	imp, err := chess.ImportPGN(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	tc, ok := imp[0].Record.Tag("TimeControl")
	require.True(t, ok)
	assert.Equal(t, "5400+30", tc)
	assert.Regexp(t, pgnTimeControl, tc)
}
