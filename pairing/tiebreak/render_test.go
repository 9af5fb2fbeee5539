package tiebreak

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/scenariotest"
	"arbiter/pairing/trf"
)

// golden compares got with testdata/name, or rewrites it with -rewrite.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	scenariotest.Golden(t, filepath.Join("testdata", name), got)
}

// The golden files render corpus tournament tiny-01000, whose numbers the
// corpus test checks against the reference implementation.
func TestGoldenText(t *testing.T) {
	tour := loadCorpus(t, corpusDir(t), "tiny-01000")
	st, err := Compute(tour, MustParseSpecs("PTS BH/C1 BH SB DE WIN BPG ARO TPR PS"), Options{})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, st.WriteText(&buf))
	golden(t, "tiny-01000.standings.golden", buf.Bytes())

	ct, err := NewCrosstable(tour, st)
	require.NoError(t, err)
	buf.Reset()
	require.NoError(t, ct.WriteText(&buf))
	golden(t, "tiny-01000.crosstable.golden", buf.Bytes())
}

func TestCrosstable(t *testing.T) {
	tour := build(t, small)
	st, err := Compute(tour, nil, Options{})
	require.NoError(t, err)
	ct, err := NewCrosstable(tour, st)
	require.NoError(t, err)
	require.Len(t, ct.Rows, 4)
	// Standings: 1, 4, 3, 2.
	row := ct.Rows[0]
	assert.Equal(t, 1, row.ID)
	assert.Equal(t, []string{"4w1", "3b1", "2b="}, codes(row.Cells, 'w', 'b'))
	assert.Equal(t, []string{"3b=", "U", "1w="}, codes(ct.Rows[1].Cells, 'w', 'b'))
	assert.Equal(t, []string{"1g0", "Z", "Z"}, codes(ct.Rows[3].Cells, 's', 'g'))
	assert.Equal(t, 2.5, row.Points)
	assert.Equal(t, 1.0, ct.Rows[1].Cells[1].Points)

	other := build(t, "9 0: U")
	_, err = NewCrosstable(other, st)
	require.ErrorContains(t, err, "standings have 4 players")
}

func codes(cells []Cell, first, second byte) []string {
	var out []string
	for _, c := range cells {
		out = append(out, c.Code(first, second))
	}
	return out
}

func TestFromTRF(t *testing.T) {
	text := strings.Join([]string{
		"012 Test",
		"202 BH/C1 SB",
		"XXR 3",
		trfLine(1, "A", 2000, 1.5, "2 w 1", "0 - H", "3 b -"),
		trfLine(2, "B", 1900, 0, "1 b 0", "3 w 0", "0 - Z"),
		trfLine(3, "C", 0, 3, "0 - U", "2 b 1", "1 w +"),
	}, "\n")
	f, err := trf.Parse([]byte(text))
	require.NoError(t, err)
	tour, err := FromTRF(f)
	require.NoError(t, err)
	assert.Equal(t, 3, tour.Rounds)
	assert.Equal(t, []Game{{2, White, Win}, {0, NoColour, HalfBye}, {3, Black, ForfeitLoss}}, tour.Players[0].Games)
	assert.Equal(t, []Game{{0, NoColour, PairingBye}, {2, Black, Win}, {1, White, ForfeitWin}}, tour.Players[2].Games)
	assert.Equal(t, Game{}, tour.Players[1].Games[2])
	specs, err := SpecsFromTRF(f)
	require.NoError(t, err)
	assert.Equal(t, []Spec{{Kind: BH, CutLow: 1}, {Kind: SB}}, specs)
	st, err := Compute(tour, specs, Options{})
	require.NoError(t, err)
	assert.Equal(t, []int{3, 1, 2}, []int{st.Rows[0].ID, st.Rows[1].ID, st.Rows[2].ID})

	// A round paired but not played yet is left out of the standings.
	f.Players[0].Games = append(f.Players[0].Games, trf.Game{Opponent: 3, Colour: 'w', Result: ' '})
	f.Players[2].Games = append(f.Players[2].Games, trf.Game{Opponent: 1, Colour: 'b', Result: ' '})
	tour, err = FromTRF(f)
	require.NoError(t, err)
	assert.Equal(t, 3, tour.Rounds)
	assert.Len(t, tour.Players[0].Games, 3)

	f.Players[0].Games[0].Result = 'H'
	_, err = FromTRF(f)
	require.ErrorContains(t, err, "player 1 round 1")
	f.Players[0].Games[0].Result = '?'
	_, err = FromTRF(f)
	require.ErrorContains(t, err, "unknown result code")
	f.Extra = []string{"202 BH/Q"}
	_, err = SpecsFromTRF(f)
	require.ErrorContains(t, err, "TRF record 202")
}

// trfLine formats a 001 record; each round is "OPP COLOUR RESULT".
func trfLine(id int, name string, rating int, points float64, rounds ...string) string {
	line := fmt.Sprintf("001 %4d %4s %-33s %4d %3s %11s %10s %4.1f %4d", id, "", name, rating, "", "", "", points, 0)
	for _, r := range rounds {
		var opp int
		var col, res string
		fmt.Sscan(r, &opp, &col, &res)
		line += fmt.Sprintf("  %4d %s %s", opp, col, res)
	}
	return line
}

// FuzzFromTRF feeds arbitrary TRF text through the reader, the adapter and
// Compute: bad input must give an error, never a panic.
func FuzzFromTRF(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join(corpusDir(f), "tiny-01000.trf"))
	require.NoError(f, err)
	f.Add(seed)
	f.Add([]byte("001    1      A                                 2000                             1.0     0000 - U\nXXR 1\n"))
	f.Add([]byte("001    1      A                                                                  0.0         2 w 1\n001    2      B                                                                  0.0         1 b -\n"))
	specs := MustParseSpecs("PTS BH BH/C1 BH/M1 FB AOB SB DE WIN WON BPG BWG REP ARO TPR PTP APRO APPO PS KS")
	f.Fuzz(func(t *testing.T, data []byte) {
		tf, err := trf.Parse(data)
		if err != nil || len(tf.Players) > 200 || tf.Rounds > 50 {
			return
		}
		tour, err := FromTRF(tf)
		if err != nil {
			return
		}
		st, err := Compute(tour, specs, Options{})
		if err != nil {
			return
		}
		require.Len(t, st.Rows, len(tour.Players))
		for i := 1; i < len(st.Rows); i++ {
			require.LessOrEqual(t, st.Rows[i-1].Rank, st.Rows[i].Rank)
		}
	})
}
