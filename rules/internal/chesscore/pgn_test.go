package chesscore

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClockFormat(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		text string
	}{
		{0, "0:00:00"},
		{90 * time.Minute, "1:30:00"},
		{59*time.Second + 500*time.Millisecond, "0:00:59.5"},
		{12*time.Hour + 3*time.Minute + 4*time.Second, "12:03:04"},
	} {
		assert.Equal(t, tc.text, FormatClock(tc.d))
		d, err := ParseClock(tc.text)
		require.NoError(t, err)
		assert.Equal(t, tc.d, d)
	}
	for _, bad := range []string{"", "1:2", "1:60:00", "a:00:00", "1:00:60", "-1:00:00", "1:00:1e1"} {
		_, err := ParseClock(bad)
		assert.Error(t, err, bad)
	}
}

func TestReadPGNSyntax(t *testing.T) {
	recs, err := ReadPGN(strings.NewReader(`[Event "A \"quoted\" name"]
[Result "*"]

{opening comment} 1.e4 e5!? 2. Nf3 $14 (2. f4 (2. Nc3) exf4) 2... Nc6 {[%clk 0:05:00] fast}
3.Bb5 *
1. d4 1/2-1/2
`))
	require.NoError(t, err)
	require.Len(t, recs, 2)
	ev, _ := recs[0].Tag("Event")
	assert.Equal(t, `A "quoted" name`, ev)
	var texts []string
	for _, m := range recs[0].Moves {
		texts = append(texts, m.Text)
	}
	assert.Equal(t, []string{"e4", "e5", "Nf3", "Nc6", "Bb5"}, texts)
	assert.Equal(t, 5*time.Minute, recs[0].Moves[3].Clock)
	assert.Equal(t, "fast", recs[0].Moves[3].Comment)
	assert.Equal(t, "*", recs[0].Result)
	assert.Equal(t, "1/2-1/2", recs[1].Result)
	bad, err := ReadPGN(strings.NewReader("1. e4 {[%clk 9:99:99] x} *"))
	require.NoError(t, err)
	assert.False(t, bad[0].Moves[0].HasClock)
	assert.Equal(t, "[%clk 9:99:99] x", bad[0].Moves[0].Comment)
	assert.Equal(t, 4, recs[0].Moves[0].Line)
	assert.Equal(t, 21, recs[0].Moves[0].Col)
}

func TestWritePGNEscapes(t *testing.T) {
	r := &Record{Result: "1-0"}
	r.SetTag("White", `Smith "Jr" \ Co`)
	r.SetTag("Annotator", "x")
	r.Moves = []RecordMove{{Text: "e4", Comment: "a {b} c"}}
	var out bytes.Buffer
	require.NoError(t, r.WritePGN(&out))
	assert.Contains(t, out.String(), `[White "Smith \"Jr\" \\ Co"]`)
	assert.Contains(t, out.String(), "[Annotator \"x\"]\n\n1. e4 {a (b) c} 1-0\n")
	back, err := ReadPGN(&out)
	require.NoError(t, err)
	w, _ := back[0].Tag("White")
	assert.Equal(t, `Smith "Jr" \ Co`, w)
}

// FuzzReadPGN: the reader never panics, and what it reads it can write
// and read back to the same moves, clocks and tags.
func FuzzReadPGN(f *testing.F) {
	for _, s := range []string{
		"[Event \"x\"]\n\n1. e4 e5 2. Nf3 {[%clk 1:00:00]} *\n",
		"1. d4 (1. e4 {c} (1. c4)) d5 $1 1-0",
		"%escape\n[A \"b\\\"c\"]\n1.e4 0-1 [B \"c\"] 1... e5 *",
		"1. Ti1:i3 Tb8:b6 2. b2-b3Tb4 *",
		"{unterminated",
		"[Tag",
		"1. e4 ; comment\n e5 1/2-1/2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		recs, err := ReadPGN(strings.NewReader(s))
		if err != nil {
			return
		}
		var out bytes.Buffer
		for i := range recs {
			require.NoError(t, recs[i].WritePGN(&out))
		}
		again, err := ReadPGN(&out)
		require.NoError(t, err, out.String())
		require.Len(t, again, len(recs))
		for i := range recs {
			require.Len(t, again[i].Moves, len(recs[i].Moves), out.String())
			for j, m := range recs[i].Moves {
				require.Equal(t, m.Text, again[i].Moves[j].Text)
				require.Equal(t, m.HasClock, again[i].Moves[j].HasClock)
			}
			require.Equal(t, recs[i].Result, again[i].Result)
		}
	})
}
