package replay_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/hardware/sensorboard/sim"
	"arbiter/replay"
)

// BenchmarkReplayGame replays a stored 40-ply chess game from the
// database: reading, decoding, the link, the session and the report. The
// second game on the board warms up from the board's last HELLO, through
// all of the first game's frames: replay --all pays that once per game.
func BenchmarkReplayGame(b *testing.B) {
	rc, _ := record(b, table{"chess/identity", "chess", identity}, sim.Faults{}, 21, nil, "15m+5s")
	require.GreaterOrEqual(b, len(rc.games), 2)
	for i, id := range rc.games[:2] {
		b.Run(fmt.Sprintf("game=%d", i+1), func(b *testing.B) {
			frames, warm := 0, 0
			b.ReportAllocs()
			for b.Loop() {
				rep, err := replay.Game(context.Background(), rc.db, id, replay.Options{})
				require.NoError(b, err)
				require.True(b, rep.OK())
				frames, warm = rep.Frames+rep.WarmUp, rep.WarmUp
			}
			b.ReportMetric(float64(frames)*float64(b.N)/b.Elapsed().Seconds(), "frames/s")
			b.ReportMetric(float64(warm), "warm-up-frames")
		})
	}
}
