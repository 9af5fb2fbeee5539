package driver

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/dgt"
	"arbiter/hardware/dgt/sim"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// busRun is one run of the bus driver (a daemon from its start to its
// stop): what it delivered and logged.
type busRun struct {
	rec    *live
	drv    *Bus
	cancel context.CancelFunc
	done   chan struct{}
	stopAt time.Duration // taken just before the stop
}

// busTestConfig is the bus driver's configuration in these tests, and the
// replay's.
var busTestConfig = BusConfig{Scan: 50 * time.Millisecond, Poll: 30 * time.Millisecond,
	Bus: dgt.BusConfig{PingWindow: 150 * time.Millisecond, Timeout: 40 * time.Millisecond}}

func startBusRun(t *testing.T, path string, addrs []uint16, now func() time.Duration) *busRun {
	t.Helper()
	rec := &live{chunks: map[string][]board.Record{}}
	cfg := busTestConfig
	cfg.Lines = []Line{{Path: path, Addresses: addrs}}
	cfg.Now, cfg.Handler, cfg.Raw, cfg.Logger = now, rec.handle, rec.raw, slog.New(slog.DiscardHandler)
	drv, err := NewBus(cfg)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	r := &busRun{rec: rec, drv: drv, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		_ = drv.Run(ctx)
	}()
	return r
}

// stop stops the run after the last moves had time to settle and
// returns its events by board: Run returns once it has handed over every
// event it read.
func (r *busRun) stop(now func() time.Duration) map[string][]board.Event {
	time.Sleep(time.Second)
	r.stopAt = now()
	r.cancel()
	<-r.done
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	got := map[string][]board.Event{}
	for _, e := range r.rec.events {
		got[e.Board] = append(got[e.Board], e)
	}
	return got
}

// replayBusLog replays one board's log through the registered replayer,
// as arbiter replay reads it: the replayer's timers fire before each
// record, and time runs on to until after the last one.
func replayBusLog(t testing.TB, port string, recs []board.Record, until time.Duration) ([]board.Event, []error, board.Replayer) {
	var out []board.Event
	var bad []error
	// The replay takes the requests with the live timeouts.
	r, err := board.NewReplayer(BusProtocol, board.ReplayConfig{Port: port, Setting: busTestConfig.ReplaySetting(), Emit: func(e board.Event) { out = append(out, e) },
		Bad: func(seq uint64, _ time.Duration, err error) { bad = append(bad, fmt.Errorf("record %d: %w", seq, err)) }})
	require.NoError(t, err)
	advance := func(to time.Duration) {
		for n := r.Next(); n <= to; n = r.Next() {
			r.Tick(n)
		}
	}
	for i, rec := range recs {
		rec.Seq = uint64(i + 1)
		advance(rec.Host)
		r.Feed(rec)
	}
	advance(until)
	return out, bad, r
}

// A line of three emulated boards in bus mode plays random chess games
// through the bus driver with noise: replies that fail their checksum or
// never come, changes lost for good, a board set up rotated, the line
// unplugged and plugged in again, and the daemon stopped in mid-game
// while the players go on and started again (it resumes every board from
// its start tag). Each board's raw log, replayed through the registered
// "dgt-bus" replayer, recreates every event the driver delivered for the
// board, instant for instant: the replies' instants are the host's
// instants of taking them, and a request that got none fails at its
// last command's instant plus the timeout, in the live loop and in the
// replay alike.
func TestBusRawLogReplaysTheLiveEvents(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games on emulated DGT boards in bus mode in real time")
	}
	t.Parallel() // on its own pseudo-terminal; it mostly waits
	rng := rand.New(rand.NewPCG(20, 26))
	var boards []*sim.Board
	var players []*sim.Player
	var pos []rules.Position
	var history [][]rules.Position
	for i := range 3 {
		b := sim.NewBoard(sim.Config{Serial: fmt.Sprintf("%05d", 4001+i), Rotated: i == 1, Seed: uint64(40 + i),
			PingSpread: 100 * time.Millisecond, Faults: sim.Faults{BusCorrupt: 0.05, BusSilent: 0.05}})
		b.ConnectClock(15*time.Minute, 15*time.Minute)
		start := chess.Start()
		b.SetUp(start.View())
		boards = append(boards, b)
		players = append(players, &sim.Player{Board: b, Rng: rand.New(rand.NewPCG(uint64(i), 7)), Step: time.Millisecond, Slide: 0.3})
		pos = append(pos, start)
		history = append(history, nil)
	}
	line, err := sim.Attach(filepath.Join(t.TempDir(), "bus0"), boards...)
	require.NoError(t, err)
	t.Cleanup(func() { line.Close() })
	epoch := time.Now()
	now := func() time.Duration { return time.Since(epoch) }
	// Every address is known: a board whose answers to the general pings
	// were all lost would not join once the others are tagged.
	var addrs []uint16
	for _, b := range boards {
		addrs = append(addrs, b.Addr())
	}

	// play makes a random move on every board, now and then losing its
	// changes for good, and presses the clock.
	play := func(plies int) {
		for range plies {
			for i, b := range boards {
				if pos[i].Outcome(history[i]).Over() {
					continue
				}
				legal := pos[i].Legal()
				next, err := pos[i].Play(legal[rng.IntN(len(legal))])
				require.NoError(t, err)
				players[i].Move(pos[i].View(), next.View())
				if rng.Float64() < 0.1 {
					b.DropChanges()
				}
				time.Sleep(20 * time.Millisecond)
				b.Press(pos[i].Turn() == rules.White)
				history[i], pos[i] = append(history[i], pos[i]), next
			}
			time.Sleep(60 * time.Millisecond)
		}
	}

	first := startBusRun(t, line.Path(), addrs, now)
	for _, b := range boards {
		id := busID(b.Addr())
		require.Eventually(t, func() bool { return first.drv.Owns(id) }, 10*time.Second, 10*time.Millisecond, "board %s found", id)
	}
	time.Sleep(500 * time.Millisecond) // the start tags
	play(6)
	line.Unplug()
	time.Sleep(200 * time.Millisecond)
	require.NoError(t, line.Replug())
	time.Sleep(time.Second)
	play(6)
	firstEvents := first.stop(now)

	play(3) // the daemon is down; the players go on
	second := startBusRun(t, line.Path(), addrs, now)
	time.Sleep(time.Second)
	play(6)
	secondEvents := second.stop(now)

	var corrupt, silent int
	for _, b := range boards {
		c := b.Counters()
		corrupt += c.BusCorrupted
		silent += c.BusSilenced
	}
	t.Logf("replies corrupted %d, silenced %d", corrupt, silent)
	require.Positive(t, corrupt, "the noise happened")
	require.Positive(t, silent, "the noise happened")

	var stats dgt.TournamentStats
	for n, run := range []*busRun{first, second} {
		events := []map[string][]board.Event{firstEvents, secondEvents}[n]
		for _, b := range boards {
			id := busID(b.Addr())
			got := events[id]
			recs := run.rec.chunks[id]
			require.NotEmpty(t, recs, "run %d board %s: a raw log", n, id)
			kinds := map[board.EventKind]int{}
			for _, e := range got {
				kinds[e.Kind]++
			}
			assert.Positive(t, kinds[board.EventButton], "run %d board %s: presses", n, id)
			assert.Positive(t, kinds[board.EventClock], "run %d board %s: clock readings", n, id)
			if n == 0 {
				assert.Positive(t, kinds[board.EventHealth], "run %d board %s: lost with the line", n, id)
			}
			port := line.Path() + "#" + strconv.Itoa(int(b.Addr()))
			// Time runs on to the live driver's last event: a request that
			// failed before the stop has its outcome, one cut short by the
			// stop has none, even on a loaded host that took the stop's
			// instant after its timeout was due.
			until := run.stopAt
			if len(got) > 0 {
				until = 0
				for _, e := range got {
					until = max(until, e.Host)
				}
				until = min(until, run.stopAt)
			}
			replayed, bad, r := replayBusLog(t, port, recs, until)
			if !assert.Empty(t, bad, "run %d board %s: every record fits", n, id) {
				for i, r := range recs {
					t.Logf("%d %v %t % x", i+1, r.Host, r.Sent, r.Data)
				}
			}
			st := r.(*BusReplayer).Replayer().Stats
			stats.Polls += st.Polls
			stats.Verifies += st.Verifies
			stats.Replays += st.Replays
			stats.Resyncs += st.Resyncs
			require.Equal(t, len(got), len(replayed), "run %d board %s: as many events (%d records)", n, id, len(recs))
			for i := range got {
				e := replayed[i]
				e.RawSeq = 0 // the live driver leaves the numbering to the raw log
				require.Equal(t, got[i], e, "run %d board %s: event %d of %d", n, id, i, len(got))
			}
			require.NotNil(t, r.Info())
			assert.Equal(t, id, r.Info().ID)
		}
	}
	t.Logf("replayed loops: %+v", stats)
	assert.Positive(t, stats.Replays, "changes were lost and replayed from the start tag")
}

// FuzzBusBoardReplayer feeds the registered "dgt-bus" replayer a board's
// start (found, set up, tagged) and then three records of any bytes in
// either direction: it never panics, reports every record it cannot fit
// through Bad, and its events never go back in time.
func FuzzBusBoardReplayer(f *testing.F) {
	const addr = 3001
	start := (&dgt.BoardDump{Position: dgt.StartPosition}).AppendPayload(nil)
	f.Add(dgt.BusCommand(dgt.BusSendChanges, addr), dgt.AppendBusMessage(nil, dgt.MsgBusUpdate, addr, []byte{0x41, 0x34, 0x7b}),
		dgt.BusCommand(dgt.BusSendBoard, addr), uint8(0b001))
	f.Add(dgt.BusCommand(dgt.BusSendClock, addr), dgt.BusCommand(dgt.BusSendClock, addr), dgt.BusCommand(dgt.BusSendClock, addr), uint8(0b111))
	f.Add([]byte{}, dgt.AppendBusMessage(nil, dgt.MsgBusPing, addr, nil), dgt.BusCommand(dgt.BusSendVersion, 7), uint8(0b100))
	f.Fuzz(func(t *testing.T, a, b, c []byte, sent uint8) {
		recs := []board.Record{
			{Sent: true, Data: dgt.BusCommand(dgt.BusSendVersion, addr)},
			{Data: dgt.AppendBusMessage(nil, dgt.MsgBusVersion, addr, []byte{1, 10})},
			{Sent: true, Data: dgt.BusCommand(dgt.BusSendBoard, addr)},
			{Data: dgt.AppendBusMessage(nil, dgt.MsgBusBoardDump, addr, start)},
			{Sent: true, Data: dgt.BusCommand(dgt.BusSetStartGame, addr)},
			{Data: dgt.AppendBusMessage(nil, dgt.MsgBusStartWritten, addr, nil)},
			{Sent: sent&1 != 0, Data: a},
			{Sent: sent&2 != 0, Data: b},
			{Sent: sent&4 != 0, Data: c},
			{Sent: true, Data: dgt.BusCommand(dgt.BusSendChanges, addr)},
			{Data: dgt.AppendBusMessage(nil, dgt.MsgBusUpdate, addr, nil)},
		}
		for i := range recs {
			recs[i].Host = time.Duration(i) * time.Millisecond
		}
		out, bad, r := replayBusLog(t, "fuzz", recs, time.Second)
		assert.Len(t, bad, r.Stats().Bad)
		for i := 1; i < len(out); i++ {
			if out[i].Host < out[i-1].Host {
				t.Fatalf("event %d at %v before %v", i, out[i].Host, out[i-1].Host)
			}
		}
	})
}
