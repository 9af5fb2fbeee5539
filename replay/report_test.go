package replay

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/internal/scenariotest"
	"arbiter/rules"
)

// A report built by hand, so the golden file tests the text form alone.
func sampleReport() *Report {
	r := &Report{
		GameID: 7, Game: "chess", Board: "TB-0042", Caps: arbiter.Caps{TopKind: true, TopColor: true},
		FirstSeq: 120, LastSeq: 480, Frames: 361, WarmUp: 40,
		Stats:        ReaderStats{Bad: 1, Gaps: 2, Dumps: 3, Duplicate: 1},
		StoredAlerts: map[string]int{"touch-move": 1},
		Alerts: []Alert{
			{Kind: "touch-move", Side: rules.Second, At: 12500 * time.Millisecond, Ply: 4, Message: "touch-move: Black touched g8 first and must move it"},
			{Kind: "illegal-move", Side: rules.First, At: 30 * time.Second, Ply: 5, Message: "illegal move by White (number 1)"},
		},
		Prompts:      1,
		Corrupt:      []CorruptFrame{{Seq: 300, At: 41 * time.Second, Err: "CRC mismatch", FromPly: 5, ToPly: 6, HealedBy: 304}, {Seq: 470, At: 90 * time.Second, Err: "bad COBS encoding", FromPly: 7}},
		Actions:      []AppliedAction{{ID: 3, What: "resignation", Ply: 7, Result: "applied"}, {ID: 4, What: "resolve-alert", Ply: 7, Result: "skipped: no effect on the session"}},
		Outcome:      rules.Loss(rules.First, rules.Resignation),
		StoredResult: "0-1", StoredReason: "resignation",
	}
	stored := []Ply{
		{Stored: "e2e4", StoredNotation: "e4", StoredAt: 2 * time.Second, StoredRaw: 130},
		{Stored: "e7e5", StoredNotation: "e5", StoredAt: 5 * time.Second, StoredRaw: 140},
		{Stored: "g1f3", StoredNotation: "Nf3", StoredAt: 9 * time.Second, StoredRaw: 150},
		{Stored: "b8c6", StoredNotation: "Nc6", StoredAt: 14 * time.Second, StoredRaw: 170},
	}
	replayed := []Ply{
		{Replayed: "e2e4", ReplayedNotation: "e4", ReplayedAt: 2 * time.Second, Raw: 130},
		{Replayed: "e7e5", ReplayedNotation: "e5", ReplayedAt: 5 * time.Second, Raw: 140},
		{Replayed: "g1f3", ReplayedNotation: "Nf3", ReplayedAt: 9 * time.Second, Raw: 150},
		{Replayed: "g8f6", ReplayedNotation: "Nf6", ReplayedAt: 14 * time.Second, Raw: 170},
		{Replayed: "f3e5", ReplayedNotation: "Nxe5", ReplayedAt: 20 * time.Second, Raw: 190},
	}
	r.pair(stored, replayed)
	return r
}

func TestReportText(t *testing.T) {
	r := sampleReport()
	require.False(t, r.OK())
	require.Equal(t, 4, r.FirstDiff)
	require.Equal(t, 1, r.Extra())
	require.Zero(t, r.Missing())

	var b bytes.Buffer
	require.NoError(t, r.WriteText(&b))
	scenariotest.Golden(t, filepath.Join("testdata", "report.golden"), b.Bytes())

	same := &Report{GameID: 1}
	same.pair(r.Plies[:3], r.Plies[:3])
	require.True(t, same.OK())
}
