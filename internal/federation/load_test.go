package federation_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/internal/federation"
	"arbiter/store"
)

var (
	loadBoards = flag.Int("fed.boards", 1000, "BenchmarkEventLoad: boards, over 4 halls")
	loadRate   = flag.Float64("fed.rate", 20, "BenchmarkEventLoad: facts per board per second (a fact per sensor event: the worst case)")
	loadFor    = flag.Duration("fed.for", 5*time.Second, "BenchmarkEventLoad: how long the halls commit")
)

// BenchmarkEventLoad feeds committed moves into 4 halls' stores at
// fed.rate per board of fed.boards (one fact per sensor event: every event
// a commit, the worst case), with their outboxes and the hub's inbox
// running, all in this process on loopback. It reports the halls' achieved
// commit rate, the hub's lag from a hall's commit to the hub's (p50, p99),
// the CPU used per wall second and the peak heap. Run it with
// -benchtime 1x.
func BenchmarkEventLoad(b *testing.B) {
	halls := []string{"h1", "h2", "h3", "h4"}
	for range b.N {
		b.StopTimer()
		ctx := b.Context()
		top := startTopology(b, halls...)
		dir := b.TempDir()
		hub := openDB(b, filepath.Join(dir, "hub.db"))
		type key struct {
			hall string
			game uint64
			ply  int
		}
		var committed sync.Map // key -> time.Time
		var latMu sync.Mutex
		var lat []time.Duration
		var applied atomic.Int64
		in := &federation.Inbox{DB: hub, JS: top.hub.js, Applied: func(f federation.Fact) {
			if f.Kind != federation.KindMove {
				return
			}
			if v, ok := committed.Load(key{f.Hall, f.GameID, f.Move.Ply}); ok {
				latMu.Lock()
				lat = append(lat, time.Since(v.(time.Time)))
				latMu.Unlock()
			}
			applied.Add(1)
		}}
		stop, err := in.Start(ctx)
		require.NoError(b, err)
		perHall := *loadBoards / len(halls)
		perTick := *loadRate * float64(perHall) / 100 // every 10 ms
		var made atomic.Int64
		var wg sync.WaitGroup
		var peak atomic.Uint64
		sample := func() {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
		}
		type hallLoad struct {
			db    *store.DB
			games []store.Game
			ob    *federation.Outbox
		}
		loads := map[string]hallLoad{}
		for _, h := range halls {
			db := openDB(b, filepath.Join(dir, h+".db"))
			games := make([]store.Game, perHall)
			for i := range games {
				games[i] = store.Game{Game: "chess", Started: wall}
				require.NoError(b, db.CreateGame(&games[i]))
			}
			ob := &federation.Outbox{DB: db, JS: top.halls[h].js, Hall: h, Poll: 50 * time.Millisecond}
			loads[h] = hallLoad{db, games, ob}
		}
		// The games reach the hub before the clock starts.
		for _, l := range loads {
			for {
				n, err := l.ob.Flush(ctx)
				require.NoError(b, err)
				if n == 0 {
					break
				}
			}
		}
		require.Eventually(b, func() bool {
			gs, err := hub.Games()
			return err == nil && len(gs) == perHall*len(halls)
		}, 60*time.Second, 50*time.Millisecond)
		var ru0 syscall.Rusage
		require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &ru0))
		start := time.Now()
		b.StartTimer()
		for _, h := range halls {
			db, games, ob := loads[h].db, loads[h].games, loads[h].ob
			plies := make([]int, perHall)
			go ob.Run(ctx) //nolint:errcheck // ends with ctx
			wg.Go(func() {
				owed, next := 0.0, 0
				t := time.NewTicker(10 * time.Millisecond)
				defer t.Stop()
				for time.Since(start) < *loadFor {
					<-t.C
					for owed += perTick; owed >= 1 && time.Since(start) < *loadFor; owed-- {
						i := next % perHall
						next++
						plies[i]++
						m := store.Move{GameID: games[i].ID, Ply: plies[i], Notation: fmt.Sprintf("m%d", plies[i]), Wall: wall}
						if err := db.AppendMove(&m); err != nil {
							b.Error(err)
							return
						}
						committed.Store(key{h, games[i].ID, plies[i]}, time.Now())
						made.Add(1)
						ob.Notify()
					}
					if next%256 == 0 {
						sample()
					}
				}
			})
		}
		wg.Wait()
		fed := time.Since(start)
		deadline := time.Now().Add(60 * time.Second)
		for applied.Load() < made.Load() && time.Now().Before(deadline) {
			sample()
			time.Sleep(20 * time.Millisecond)
		}
		b.StopTimer()
		total := time.Since(start)
		var ru1 syscall.Rusage
		require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &ru1))
		stop()
		require.Equal(b, made.Load(), applied.Load(), "every move reached the hub")
		cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) * time.Nanosecond
		slices.Sort(lat)
		b.ReportMetric(float64(made.Load())/fed.Seconds(), "hall-commits/s")
		b.ReportMetric(*loadRate*float64(*loadBoards), "wanted/s")
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-lag-ms")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-lag-ms")
		b.ReportMetric(cpu.Seconds()/total.Seconds(), "cpu-cores")
		b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
	}
}
