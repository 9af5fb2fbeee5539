package replay_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/hardware/sensorboard/sim"
	"arbiter/replay"
)

// BenchmarkReplayGame replays a stored 40-ply chess game (with a second
// game after it on the board) from the database: reading, decoding, the
// link, the session and the report.
func BenchmarkReplayGame(b *testing.B) {
	rc, _ := record(b, table{"chess/identity", "chess", identity}, sim.Faults{}, 21, nil, "15m+5s")
	id := rc.games[0]
	frames := 0
	b.ReportAllocs()
	for b.Loop() {
		rep, err := replay.Game(context.Background(), rc.db, id, replay.Options{})
		require.NoError(b, err)
		require.True(b, rep.OK())
		frames = rep.Frames + rep.WarmUp
	}
	b.ReportMetric(float64(frames)*float64(b.N)/b.Elapsed().Seconds(), "frames/s")
}
