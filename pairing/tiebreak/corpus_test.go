package tiebreak

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/internal/shared"
	"arbiter/pairing/trf"
)

// corpusDir is the shared pairing corpus: skipped when it is missing,
// failed in CI.
func corpusDir(t testing.TB) string {
	t.Helper()
	return shared.Dir(t, "pairing-corpus")
}

// loadCorpus reads one corpus tournament.
func loadCorpus(t testing.TB, dir, name string) *Tournament {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, name+".trf"))
	require.NoError(t, err)
	defer f.Close()
	tf, err := trf.Read(f)
	require.NoError(t, err)
	tour, err := FromTRF(tf)
	require.NoError(t, err)
	return tour
}

// TestCorpusReference compares every value and the rank order with the
// reference standings computed by Gacrux for each corpus tournament.
func TestCorpusReference(t *testing.T) {
	dir := corpusDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "tiebreaks", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, ref := range files {
		name := strings.TrimSuffix(filepath.Base(ref), ".txt")
		t.Run(name, func(t *testing.T) {
			header, rows := readReference(t, ref)
			specs, err := ParseSpecs(strings.Join(header[2:], " "))
			require.NoError(t, err)
			st, err := Compute(loadCorpus(t, dir, name), specs, Options{})
			require.NoError(t, err)
			require.Len(t, st.Rows, len(rows))
			for i, row := range st.Rows {
				got := []string{itoa(row.Rank), itoa(row.ID)}
				for c, v := range row.Values {
					s := v.Format(st.Tiebreaks[c].Kind)
					if !v.OK {
						s = "-0" // how the reference prints "not applicable"
					}
					got = append(got, s)
				}
				require.Equal(t, strings.Join(rows[i], " "), strings.Join(got, " "), "line %d\n%s", i+2, strings.Join(header, " "))
			}
		})
	}
}

func itoa(i int) string { return Value{Num: float64(i), OK: true}.Format(WIN) }

// readReference returns the header fields and the rows of a reference file.
func readReference(t testing.TB, path string) ([]string, [][]string) {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	var header []string
	var rows [][]string
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) == 0 || fields[0] == "Check:":
		case header == nil:
			header = fields
		default:
			rows = append(rows, fields)
		}
	}
	require.NoError(t, sc.Err())
	return header, rows
}
