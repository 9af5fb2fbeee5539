package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/store"
)

// BenchmarkAppendMove measures acknowledged move commits (one fsynced
// transaction each) with nothing else writing.
func BenchmarkAppendMove(b *testing.B) {
	db, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), nil)
	require.NoError(b, err)
	defer db.Close()
	g := store.Game{Game: "tavreli", Started: wall}
	require.NoError(b, db.CreateGame(&g))
	b.ReportAllocs()
	ply := 0
	for b.Loop() {
		ply++
		m := crashMove(g.ID, ply)
		if err := db.AppendMove(&m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
}

// BenchmarkMoveUnderRawLoad measures the latency from "move decided" to
// "committed" while 500 boards' raw logs (20 frames/s each, 10,000
// frames/s) are written at the same time, and the raw log's lag.
func BenchmarkMoveUnderRawLoad(b *testing.B) {
	const boards, rate = 500, 20
	db, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), nil)
	require.NoError(b, err)
	defer db.Close()
	games := make([]store.Game, 50)
	for i := range games {
		games[i] = store.Game{Game: "tavreli", BoardID: fmt.Sprintf("B%03d", i), Started: wall}
		require.NoError(b, db.CreateGame(&games[i]))
	}
	raw := db.NewRawLog(0)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = raw.Run(ctx) })
	wg.Go(func() {
		frame := []byte("\x02E 0123 h e4 3 t=123456 crc=ABCD\n")
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			// Every tick, each board is due 20/s * 10ms = 0.2 frames: 100 frames a tick.
			for j := range boards * rate / 100 {
				board := fmt.Sprintf("B%03d", (i*boards*rate/100+j)%boards)
				if _, err := raw.Append(board, int64(i), time.Now(), frame); err != nil {
					return
				}
			}
		}
	})
	time.Sleep(300 * time.Millisecond) // let the raw load settle
	lat := make([]time.Duration, 0, 1024)
	plies := make([]int, len(games))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		g := i % len(games)
		plies[g]++
		m := crashMove(games[g].ID, plies[g])
		start := time.Now()
		if err := db.AppendMove(&m); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	cancel()
	wg.Wait()
	flushed, pending, maxLag := raw.Stats()
	slices.Sort(lat)
	p := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(p(0.5), "p50-ms")
	b.ReportMetric(p(0.99), "p99-ms")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
	b.ReportMetric(float64(maxLag.Microseconds())/1000, "rawlag-max-ms")
	b.ReportMetric(float64(flushed), "raw-frames")
	if pending != 0 {
		b.Errorf("%d raw frames still pending after the final flush", pending)
	}
}
