package dgt_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/hardware/dgt"
	"arbiter/hardware/dgt/sim"
	"arbiter/internal/scenariotest"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// memLine is a bus line in memory: every board hears what the host
// writes, and the boards' bytes come back through a pipe. It runs the
// real loop at the speed of the machine, with no pseudo-terminal.
type memLine struct {
	boards []*sim.Board
	r      *io.PipeReader
	w      *io.PipeWriter
}

func newMemLine(boards ...*sim.Board) *memLine {
	r, w := io.Pipe()
	l := &memLine{boards: boards, r: r, w: w}
	for _, b := range boards {
		b.SetOutput(func(p []byte) { _, _ = w.Write(p) })
	}
	return l
}

func (l *memLine) Read(p []byte) (int, error) { return l.r.Read(p) }

func (l *memLine) Write(p []byte) (int, error) {
	for _, b := range l.boards {
		b.HandleHost(p)
	}
	return len(p), nil
}

// mute makes board i silent (its replies are lost) or speak again.
func (l *memLine) mute(i int, silent bool) {
	if silent {
		l.boards[i].SetOutput(nil)
		return
	}
	l.boards[i].SetOutput(func(p []byte) { _, _ = l.w.Write(p) })
}

// Close unplugs the line: the host's reads end.
func (l *memLine) Close() error {
	for _, b := range l.boards {
		b.SetOutput(nil)
	}
	return l.w.Close()
}

// busRecord is a record of a bus board's raw log.
type busRecord struct {
	Host time.Duration
	Sent bool
	Data []byte
}

// busLog keeps the raw log by board address, and the events by board.
type busLog struct {
	mu     sync.Mutex
	recs   map[uint16][]busRecord
	events map[uint16][]dgt.Event
}

func newBusLog() *busLog {
	return &busLog{recs: map[uint16][]busRecord{}, events: map[uint16][]dgt.Event{}}
}

func (l *busLog) raw(addr uint16, host time.Duration, sent bool, data []byte) {
	l.mu.Lock()
	l.recs[addr] = append(l.recs[addr], busRecord{host, sent, bytes.Clone(data)})
	l.mu.Unlock()
}

func (l *busLog) emit(e dgt.Event) {
	l.mu.Lock()
	l.events[e.Addr] = append(l.events[e.Addr], e)
	l.mu.Unlock()
}

// replayBus replays one board's records and returns its events and the
// records that did not fit.
func replayBus(t testing.TB, r *dgt.BusReplayer, recs []busRecord, until time.Duration) ([]dgt.Event, []string) {
	var out []dgt.Event
	var bad []string
	advance := func(to time.Duration) {
		for n := r.Next(); n <= to; n = r.Next() {
			out = append(out, r.Tick(n)...)
		}
	}
	for i, rec := range recs {
		advance(rec.Host)
		evs, err := r.Record(rec.Host, rec.Sent, rec.Data)
		out = append(out, evs...)
		if err != nil {
			bad = append(bad, fmt.Sprintf("record %d: %v", i+1, err))
		}
	}
	advance(until)
	return out, bad
}

// playMem plays random chess games of plies on the boards of an in-memory
// line while a live Tournament polls them, with noisy replies, changes
// lost for good, a rotated board, a board silent for a while, and the
// host stopped in mid-game while the players go on (a new Tournament then
// resumes each board from its start tag). It returns the log of both
// runs together, each run's log and events, and the instant each run was
// stopped (taken just before: a request cut short by the stop has no
// outcome, and one that failed before it has).
func playMem(t testing.TB, plies int, seed uint64) (*busLog, []*busLog, []time.Duration) {
	rng := rand.New(rand.NewPCG(seed, 1))
	var boards []*sim.Board
	var players []*sim.Player
	var pos []rules.Position
	for i := range 3 {
		b := sim.NewBoard(sim.Config{Serial: fmt.Sprintf("%05d", 5001+i), Rotated: i == 1, Seed: seed + uint64(i),
			PingSpread: 20 * time.Millisecond, Faults: sim.Faults{BusCorrupt: 0.05, BusSilent: 0.05}})
		b.ConnectClock(5*time.Minute, 5*time.Minute)
		start := chess.Start()
		b.SetUp(start.View())
		boards = append(boards, b)
		players = append(players, &sim.Player{Board: b, Rng: rand.New(rand.NewPCG(seed, uint64(i))), Step: 100 * time.Microsecond, Slide: 0.3})
		pos = append(pos, start)
	}
	var addrs []uint16
	for _, b := range boards {
		addrs = append(addrs, b.Addr())
	}
	epoch := time.Now()
	now := func() time.Duration { return time.Since(epoch) }
	var runs []*busLog
	var stops []time.Duration
	run := func(f func(line *memLine)) {
		log := newBusLog()
		line := newMemLine(boards...)
		bus, err := dgt.NewBus(line, dgt.BusConfig{PingWindow: 40 * time.Millisecond, Timeout: 10 * time.Millisecond, Now: now, Raw: log.raw})
		require.NoError(t, err)
		// Every address is known: a board whose answers to the general
		// pings were all lost would not join once the others are tagged.
		tour := dgt.NewTournament(bus, dgt.TournamentConfig{Boards: addrs, Poll: 3 * time.Millisecond, Verify: 3,
			Clock: 10 * time.Millisecond, Now: now, Emit: log.emit, Logger: slog.New(slog.DiscardHandler)})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- tour.Run(ctx) }()
		require.Eventually(t, func() bool { return tour.StatsNow().Polls > 6 }, 10*time.Second, time.Millisecond, "the boards are polled")
		f(line)
		time.Sleep(50 * time.Millisecond)
		stops = append(stops, now())
		cancel()
		<-done
		line.Close()
		runs = append(runs, log)
	}
	play := func(n int) {
		for range n {
			for i, b := range boards {
				legal := pos[i].Legal()
				if len(legal) == 0 {
					continue
				}
				next, err := pos[i].Play(legal[rng.IntN(len(legal))])
				require.NoError(t, err)
				players[i].Move(pos[i].View(), next.View())
				if rng.Float64() < 0.1 {
					b.DropChanges()
				}
				time.Sleep(2 * time.Millisecond)
				b.Press(pos[i].Turn() == rules.White)
				pos[i] = next
			}
			time.Sleep(8 * time.Millisecond)
		}
	}
	run(func(line *memLine) {
		play(plies / 4)
		line.mute(2, true)
		play(1)
		time.Sleep(40 * time.Millisecond)
		line.mute(2, false)
		play(plies/2 - plies/4)
	})
	play(2) // no host: the players go on
	run(func(*memLine) { play(plies - plies/2) })
	all := newBusLog()
	for _, r := range runs {
		for a, recs := range r.recs {
			all.recs[a] = append(all.recs[a], recs...)
		}
	}
	return all, runs, stops
}

// replayUntil is how far a replay's time runs: to the live loop's last
// event for the board, or to the stop when it emitted none. A request
// whose failure the live loop emitted failed by then; one cut off by the
// stop had no outcome, even when the loaded host took the stop's instant
// after its timeout was due.
func replayUntil(live []dgt.Event, stop time.Duration) time.Duration {
	if len(live) == 0 {
		return stop
	}
	var last time.Duration
	for _, e := range live {
		last = max(last, e.At)
	}
	return min(last, stop)
}

// The per-board state machine of the tournament loop, driven from a raw
// log by the BusReplayer, emits exactly the events the live loop emitted
// for each board (kinds, squares, pieces, presses, clock readings, link
// lost and back, identification; the same instants), through noise on
// the bus, lost changes, a rotated board and a host restarted in
// mid-game.
func TestBusReplayerRecreatesTheLiveLoop(t *testing.T) {
	_, runs, stops := playMem(t, 12, 7)
	kinds := map[dgt.EventKind]int{}
	for n, run := range runs {
		require.Len(t, run.recs, 3, "run %d: a log per board", n)
		for addr, recs := range run.recs {
			live := run.events[addr]
			for _, e := range live {
				kinds[e.Kind]++
			}
			got, bad := replayBus(t, dgt.NewBusReplayer(dgt.TournamentConfig{Verify: 3}, dgt.BusConfig{Timeout: 10 * time.Millisecond}), recs, replayUntil(live, stops[n]))
			assert.Empty(t, bad, "run %d board %d", n, addr)
			if len(live) != len(got) {
				for i, e := range live {
					t.Logf("live %d: %v %+v", i, e.At, e)
				}
				for i, e := range got {
					t.Logf("replayed %d: %v %+v", i, e.At, e)
				}
				for i, r := range recs[max(0, len(recs)-12):] {
					t.Logf("record %d: %v %t % x", len(recs)-12+i+1, r.Host, r.Sent, r.Data)
				}
			}
			require.Equal(t, len(live), len(got), "run %d board %d: as many events", n, addr)
			for i := range live {
				require.Equal(t, live[i], got[i], "run %d board %d: event %d", n, addr, i)
			}
		}
	}
	for _, k := range []dgt.EventKind{dgt.EventIdentified, dgt.EventSquare, dgt.EventLever, dgt.EventClock, dgt.EventLinkLost, dgt.EventLinkBack} {
		assert.Positive(t, kinds[k], "events of kind %v happened", k)
	}
}

// scriptLog is a hand-made log of one board (address 3001): found, set up
// at the start position, tagged, and polled.
func scriptLog() []busRecord {
	const addr = 3001
	var recs []busRecord
	at := time.Duration(0)
	cmd := func(c byte) {
		at += time.Millisecond
		recs = append(recs, busRecord{at, true, dgt.BusCommand(c, addr)})
	}
	reply := func(id byte, payload []byte) {
		at += time.Millisecond
		recs = append(recs, busRecord{at, false, dgt.AppendBusMessage(nil, id, addr, payload)})
	}
	start := (&dgt.BoardDump{Position: dgt.StartPosition}).AppendPayload(nil)
	cmd(dgt.BusSendVersion)
	reply(dgt.MsgBusVersion, []byte{1, 10})
	cmd(dgt.BusSendBoard)
	reply(dgt.MsgBusBoardDump, start)
	cmd(dgt.BusSetStartGame)
	reply(dgt.MsgBusStartWritten, nil)
	for range 3 {
		cmd(dgt.BusSendChanges)
		reply(dgt.MsgBusUpdate, nil)
	}
	return recs
}

// A log that leaves the loop's path (a full read that no poll asked for,
// a reply that no request waits for) is reported with its record, and
// the replay adopts the board's next full read and goes on.
func TestBusReplayerReportsAMismatchAndResyncs(t *testing.T) {
	recs := scriptLog()
	const addr = 3001
	moved := dgt.StartPosition
	moved[12], moved[28] = dgt.Empty, moved[12] // a pawn moved two fields
	at := recs[len(recs)-1].Host
	recs = append(recs,
		busRecord{at + time.Millisecond, false, dgt.AppendBusMessage(nil, dgt.MsgBusVersion, addr, []byte{1, 10})}, // no request
		busRecord{at + 2*time.Millisecond, true, dgt.BusCommand(dgt.BusSendBoard, addr)},                           // no poll before
		busRecord{at + 3*time.Millisecond, false, dgt.AppendBusMessage(nil, dgt.MsgBusBoardDump, addr, (&dgt.BoardDump{Position: moved}).AppendPayload(nil))},
		busRecord{at + 4*time.Millisecond, true, dgt.BusCommand(dgt.BusSendChanges, addr)},
		busRecord{at + 5*time.Millisecond, false, dgt.AppendBusMessage(nil, dgt.MsgBusUpdate, addr, nil)},
	)
	r := dgt.NewBusReplayer(dgt.TournamentConfig{}, dgt.BusConfig{})
	got, bad := replayBus(t, r, recs, at+time.Second)
	require.Len(t, bad, 2, "%v", bad)
	assert.Contains(t, bad[0], "record 13: ")
	assert.Contains(t, bad[0], "no request waits for")
	assert.Contains(t, bad[1], "record 14: ")
	assert.Contains(t, bad[1], "that no poll asked for")
	require.NotEmpty(t, got)
	assert.Equal(t, dgt.EventIdentified, got[0].Kind)
	var squares int
	for _, e := range got {
		if e.Kind == dgt.EventSquare && e.At == at+3*time.Millisecond {
			squares++
		}
	}
	assert.Equal(t, 2, squares, "the adopted read is settled: %+v", got)
	assert.Equal(t, uint64(4), r.Stats.Polls, "the replay goes on after the mismatch")
}

// decodeRecords reads a fuzzer's bytes as records: a flag byte (bit 0:
// sent, bits 1-7: milliseconds since the last record), a length, and
// the record's bytes.
func decodeRecords(p []byte) []busRecord {
	var recs []busRecord
	at := time.Duration(0)
	for len(p) >= 2 {
		flag, n := p[0], int(p[1])
		p = p[2:]
		n = min(n, len(p))
		at += time.Duration(flag>>1) * time.Millisecond
		recs = append(recs, busRecord{at, flag&1 == 1, p[:n]})
		p = p[n:]
	}
	return recs
}

func encodeRecords(recs []busRecord) []byte {
	var out []byte
	var last time.Duration
	for _, r := range recs {
		flag := byte(min((r.Host-last)/time.Millisecond, 127)) << 1
		if r.Sent {
			flag |= 1
		}
		data := r.Data[:min(len(r.Data), 255)]
		out = append(out, flag, byte(len(data)))
		out = append(out, data...)
		last = r.Host
	}
	return out
}

// busLogFixture is a bus board's raw log recorded by playMem: its noisy
// game, the board silent a while, and a host restart in mid-game.
const busLogFixture = "testdata/buslog.txt"

// loadBusLog reads the fixture: a record a line, "host-ns s|r hex".
func loadBusLog(t testing.TB) []busRecord {
	var recs []busRecord
	for _, c := range scenariotest.Read(t, busLogFixture, scenariotest.Syntax{}).Commands {
		f := c.Fields
		require.Len(t, f, 3, "%s: want host-ns, s or r, hex", c.Pos())
		ns, err := strconv.ParseInt(f[0], 10, 64)
		require.NoError(t, err, c.Pos())
		data, err := hex.DecodeString(f[2])
		require.NoError(t, err, c.Pos())
		recs = append(recs, busRecord{time.Duration(ns), f[1] == "s", data})
	}
	return recs
}

// The recorded log of a noisy game replays with every record fitting the
// loop, its board identified, resumed after the host's restart and its
// moves read; the replay is the same every time. Run with -rewrite to
// record the fixture again (in real time: a new recording, wholly
// different, which this test then replays).
func TestBusLogFixtureReplays(t *testing.T) {
	if scenariotest.Rewriting() {
		all, _, _ := playMem(t, 16, 11)
		recs := all.recs[5001]
		var b strings.Builder
		for _, r := range recs {
			dir := "r"
			if r.Sent {
				dir = "s"
			}
			fmt.Fprintf(&b, "%d %s %x\n", r.Host.Nanoseconds(), dir, r.Data)
		}
		scenariotest.Golden(t, busLogFixture, []byte(b.String()))
	}
	recs := loadBusLog(t)
	replay := func() ([]dgt.Event, []string) {
		return replayBus(t, dgt.NewBusReplayer(dgt.TournamentConfig{Verify: 3}, dgt.BusConfig{Timeout: 10 * time.Millisecond}), recs, recs[len(recs)-1].Host)
	}
	got, bad := replay()
	assert.Empty(t, bad)
	kinds := map[dgt.EventKind]int{}
	for _, e := range got {
		kinds[e.Kind]++
	}
	assert.Equal(t, 2, kinds[dgt.EventIdentified], "a session per host run")
	assert.Positive(t, kinds[dgt.EventLever], "presses")
	assert.Positive(t, kinds[dgt.EventSquare], "squares")
	again, _ := replay()
	assert.Equal(t, got, again, "deterministic")
}

// FuzzBusReplayer feeds the replayer damaged logs: it never panics, its
// events never go back in time, and its timer is always ahead of a tick.
func FuzzBusReplayer(f *testing.F) {
	f.Add(encodeRecords(scriptLog()))
	if recs := loadBusLog(f); len(recs) > 0 {
		f.Add(encodeRecords(recs[:min(len(recs), 200)]))
	}
	f.Add([]byte{})
	f.Add(encodeRecords([]busRecord{{0, true, dgt.BusCommand(dgt.BusSendChanges, 7)}, {time.Millisecond, true, dgt.BusCommand(dgt.BusRepeatChanges, 7)}}))
	f.Add(binary.BigEndian.AppendUint32(encodeRecords(scriptLog()[:5]), 0x03048300))
	f.Fuzz(func(t *testing.T, p []byte) {
		r := dgt.NewBusReplayer(dgt.TournamentConfig{}, dgt.BusConfig{})
		var last time.Duration
		check := func(evs []dgt.Event) {
			for _, e := range evs {
				if e.At < last {
					t.Fatalf("event %+v before %v", e, last)
				}
				last = e.At
			}
		}
		for _, rec := range decodeRecords(p) {
			for n := r.Next(); n <= rec.Host; n = r.Next() {
				check(r.Tick(n))
				if r.Next() <= n {
					t.Fatalf("the timer stays at %v after a tick", n)
				}
			}
			evs, _ := r.Record(rec.Host, rec.Sent, rec.Data)
			check(evs)
		}
	})
}

// BenchmarkBusReplay measures the replay of a bus board's raw log, per
// record: the recorded noisy game of the fixture, replayed again and
// again.
func BenchmarkBusReplay(b *testing.B) {
	recs := loadBusLog(b)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		r := dgt.NewBusReplayer(dgt.TournamentConfig{Verify: 3}, dgt.BusConfig{Timeout: 10 * time.Millisecond})
		for _, rec := range recs {
			for t := r.Next(); t <= rec.Host; t = r.Next() {
				r.Tick(t)
			}
			_, _ = r.Record(rec.Host, rec.Sent, rec.Data)
		}
		n += len(recs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/record")
}

// lateHost is a line whose host is descheduled after every write: its
// clock has moved on by the time it reads the board's reply.
type lateHost struct {
	*memLine
	mu   sync.Mutex
	now  time.Duration
	late time.Duration
}

func (l *lateHost) Write(p []byte) (int, error) {
	n, err := l.memLine.Write(p)
	l.mu.Lock()
	l.now += l.late
	l.mu.Unlock()
	return n, err
}

func (l *lateHost) clock() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.now
}

// A reply that a loaded host takes at or after its request's deadline is
// a late answer, as a replay of the log has it (the request failed at its
// deadline): the request is sent again, the reply is not logged, and
// after every try the board has not answered. In time, it is taken.
func TestBusReplyTakenAfterItsDeadlineIsLate(t *testing.T) {
	const timeout = 10 * time.Second // in time, the reply surely comes first
	for _, tc := range []struct {
		name  string
		late  time.Duration
		reply bool
	}{
		{"in time", 0, true},
		{"at the deadline", timeout, false},
		{"after it", 2 * timeout, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := sim.NewBoard(sim.Config{Serial: "05101", Seed: 1})
			b.SetUp(chess.Start().View())
			line := &lateHost{memLine: newMemLine(b), late: tc.late}
			defer line.Close()
			log := newBusLog()
			bus, err := dgt.NewBus(line, dgt.BusConfig{Timeout: timeout, Now: line.clock, Raw: log.raw})
			require.NoError(t, err)
			_, err = bus.Version(context.Background(), b.Addr())
			log.mu.Lock()
			defer log.mu.Unlock()
			recs := log.recs[b.Addr()]
			if tc.reply {
				require.NoError(t, err)
				require.Len(t, recs, 2)
				assert.False(t, recs[1].Sent, "the reply is logged")
				return
			}
			require.ErrorIs(t, err, dgt.ErrNoReply)
			require.Len(t, recs, 3, "three tries, no reply logged")
			for _, r := range recs {
				assert.True(t, r.Sent)
			}
		})
	}
}
