package pairing

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/internal/shared"
	"arbiter/pairing/trf"
	"github.com/stretchr/testify/require"
)

// corpusFiles lists the pairing corpus: skipped when it is missing, failed
// in CI.
func corpusFiles(t testing.TB) []string {
	t.Helper()
	return shared.Files(t, "pairing-corpus/*.trf")
}

// loadCorpus reads a corpus file and sets the initial colour as the corpus
// README defines it: the colour player 1 had in round 1.
func loadCorpus(t testing.TB, file string) *trf.Tournament {
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	tour, err := trf.Parse(data)
	require.NoError(t, err, file)
	if p := tour.PlayerByID(1); p != nil && len(p.Games) > 0 && p.Games[0].Colour != '-' {
		tour.InitialColour = p.Games[0].Colour
	} else {
		tour.InitialColour = InferInitialColour(tour)
	}
	return tour
}

// TestCorpus pairs every round of every corpus tournament from the history
// before it and reports every round that differs from the reference
// engine's pairing. With -short only the small "tiny" files run, and under
// the race detector every tenth file; CORPUS_ONLY=substring selects files.
func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	total, bad := 0, 0
	var report []string
	only := os.Getenv("CORPUS_ONLY")
	for i, f := range files {
		switch {
		case only != "" && !strings.Contains(f, only):
			continue
		case only == "" && testing.Short() && !strings.Contains(f, "tiny"):
			continue
		case only == "" && raceEnabled && i%10 != 0:
			continue
		}
		tour := loadCorpus(t, f)
		diffs, err := Check(tour, Options{})
		require.NoError(t, err)
		total += tour.PlayedRounds()
		bad += len(diffs)
		for _, d := range diffs {
			report = append(report, filepath.Base(f)+" "+d.String())
		}
	}
	for _, r := range report {
		t.Error(r)
	}
	require.Positive(t, total, "no rounds were checked")
	t.Logf("%d of %d rounds differ", bad, total)
}
