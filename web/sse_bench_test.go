package web

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/rules"
)

var sseClients = flag.Int("sse.clients", 10000, "live-stream clients BenchmarkSSE holds open")

// The client side of BenchmarkSSE runs in a child process (TestSSESwarm),
// so that the memory measured is the daemon's alone.
const (
	swarmURL     = "ARBITER_SSE_SWARM_URL"
	swarmClients = "ARBITER_SSE_SWARM_CLIENTS"
)

// raiseFDs lifts the open-file limit to hold n connections, or fails
// saying why.
func raiseFDs(tb testing.TB, n int) {
	tb.Helper()
	var lim syscall.Rlimit
	require.NoError(tb, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim), "read the open-file limit")
	want := uint64(n) + 512
	if lim.Cur >= want {
		return
	}
	if lim.Max < want {
		tb.Fatalf("the open-file limit is %d (hard %d); %d connections need %d: raise it (ulimit -Hn) or pass -sse.clients", lim.Cur, lim.Max, n, want)
	}
	lim.Cur = want
	require.NoError(tb, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim), "raise the open-file limit to %d", want)
}

// rssMiB is the process's resident memory, from /proc.
func rssMiB(tb testing.TB) float64 {
	tb.Helper()
	b, err := os.ReadFile("/proc/self/status")
	require.NoError(tb, err)
	for l := range strings.Lines(string(b)) {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, err := strconv.ParseFloat(f[1], 64)
			require.NoError(tb, err)
			return kb / 1024
		}
	}
	tb.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// sseMove is one quiet move of the benchmark's game.
type sseMove struct {
	from, to string
	side     rules.Color
}

// sseGame is a long chess game without captures, checks or repetitions:
// knights go out and back between pawn pushes on files a, b, d, e, g and
// h. 120 plies.
func sseGame() []sseMove {
	var plan []sseMove
	w := func(from, to string) { plan = append(plan, sseMove{from, to, rules.White}) }
	bl := func(from, to string) { plan = append(plan, sseMove{from, to, rules.Black}) }
	for _, file := range "abdegh" {
		for step := range 2 {
			w("g1", "f3")
			bl("g8", "f6")
			w("b1", "c3")
			bl("b8", "c6")
			w("f3", "g1")
			bl("f6", "g8")
			w("c3", "b1")
			bl("c6", "b8")
			f := string(file)
			w(f+strconv.Itoa(2+step), f+strconv.Itoa(3+step))
			bl(f+strconv.Itoa(7-step), f+strconv.Itoa(6-step))
		}
	}
	return plan
}

// boardMove plays a move on the board and returns how long the table took
// from the clock press to the move stored: the board's latency.
func (e *event) boardMove(m sseMove) time.Duration {
	e.t.Helper()
	in := func(ev arbiter.Event) {
		ev.At = e.d.Now()
		e.table.Input(e.ctx, ev)
	}
	plies := e.table.Live().Plies
	in(arbiter.Event{Kind: arbiter.SquareChanged, Square: e.square(m.from), Height: 0})
	in(arbiter.Event{Kind: arbiter.SquareChanged, Square: e.square(m.to), Height: 1})
	start := time.Now()
	in(arbiter.Event{Kind: arbiter.ClockPressed, Side: m.side})
	deadline := start.Add(10 * time.Second)
	for e.table.Live().Plies == plies {
		if time.Now().After(deadline) {
			e.t.Fatalf("the move %s%s was not taken", m.from, m.to)
		}
		time.Sleep(100 * time.Microsecond)
	}
	return time.Since(start)
}

// nextMoveFrame waits for the live feed's next move after id after and
// returns it.
func (e *event) nextMoveFrame(after uint64) liveFrame {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		frames, wake, _ := e.site.feed.since(after+1, nil)
		for _, f := range frames {
			if f.kind == "move" {
				return f
			}
			after = f.id
		}
		select {
		case <-wake:
		case <-time.After(time.Second):
		}
	}
	e.t.Fatal("no move in the live feed")
	return liveFrame{}
}

func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkSSE holds -sse.clients live streams (10,000 by default) open on
// one daemon and plays moves on a board: per move, the time from the move
// (decided, then stored) to the last client receiving it, and to the
// median and 99th-percentile client; the daemon's memory; and the board's
// own latency (clock press to move stored) with the clients connected and
// without. The clients run in a child process over loopback. One
// iteration is one move; run with -benchtime 50x for steadier figures
// (the game has 120 plies).
func BenchmarkSSE(b *testing.B) {
	n := *sseClients
	raiseFDs(b, n)
	e := newEvent(b)
	plan := sseGame()

	// The board's latency with nobody watching.
	var idle []time.Duration
	for _, m := range plan[:8] {
		idle = append(idle, e.boardMove(m))
	}
	plan = plan[8:]
	runtime.GC()
	rssBefore := rssMiB(b)
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	// The spectators.
	cmd := exec.Command(os.Args[0], "-test.run=^TestSSESwarm$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), swarmURL+"="+e.srv.URL, swarmClients+"="+strconv.Itoa(n))
	stdin, err := cmd.StdinPipe()
	require.NoError(b, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(b, err)
	var stderr strings.Builder
	cmd.Stderr = io.MultiWriter(&stderr, os.Stderr)
	require.NoError(b, cmd.Start())
	lines := make(chan string, 1024)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	defer func() {
		// The swarm ends when its stdin closes; one stuck is killed.
		stdin.Close()
		go func() {
			for range lines { // drain, so the swarm never blocks on its stdout
			}
		}()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}()
	type arrival struct{ p50, p99, last int64 }
	arrivals := map[uint64]arrival{}
	// await reads the swarm's lines until want says stop.
	await := func(what string, timeout time.Duration, want func() bool) {
		b.Helper()
		t := time.After(timeout)
		for !want() {
			select {
			case l, ok := <-lines:
				if !ok {
					b.Fatalf("the clients ended while waiting for %s: %s", what, stderr.String())
				}
				f := strings.Fields(l)
				switch {
				case len(f) == 5 && f[0] == "got":
					var a arrival
					id, _ := strconv.ParseUint(f[1], 10, 64)
					a.p50, _ = strconv.ParseInt(f[2], 10, 64)
					a.p99, _ = strconv.ParseInt(f[3], 10, 64)
					a.last, _ = strconv.ParseInt(f[4], 10, 64)
					arrivals[id] = a
				case len(f) > 0 && f[0] == "lost":
					b.Fatalf("a client lost its stream: %s; the swarm said: %s", l, stderr.String())
				case l == "ready":
					arrivals[0] = arrival{}
				}
			case <-t:
				b.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	connect := time.Now()
	await(fmt.Sprintf("%d clients to connect", n), 5*time.Minute, func() bool { _, ok := arrivals[0]; return ok })
	e.waitFor("the streams to open", func() bool { return e.streams() == n })
	connected := time.Since(connect)
	runtime.GC()
	rss := rssMiB(b)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)

	var busy, last, p50, p99 []time.Duration
	lastID := uint64(0)
	if frames, _, _ := e.site.feed.since(1, nil); len(frames) > 0 {
		lastID = frames[len(frames)-1].id
	}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if i == len(plan) {
			b.Fatalf("the game has only %d moves: use a smaller -benchtime", len(plan))
		}
		busy = append(busy, e.boardMove(plan[i]))
		i++
		f := e.nextMoveFrame(lastID)
		lastID = f.id
		await(fmt.Sprintf("move %d to reach every client", i), 60*time.Second, func() bool { _, ok := arrivals[f.id]; return ok })
		a := arrivals[f.id]
		at := f.at.UnixNano()
		last = append(last, time.Duration(a.last-at))
		p50 = append(p50, time.Duration(a.p50-at))
		p99 = append(p99, time.Duration(a.p99-at))
	}
	b.StopTimer()
	b.ReportMetric(float64(n), "clients")
	b.ReportMetric(ms(quantile(last, 0.99)), "p99-last-ms")
	b.ReportMetric(ms(quantile(last, 1)), "max-last-ms")
	b.ReportMetric(ms(quantile(p99, 1)), "p99-client-ms")
	b.ReportMetric(ms(quantile(p50, 0.5)), "p50-client-ms")
	b.ReportMetric(rss, "MiB-rss")
	b.ReportMetric((rss-rssBefore)*1024/float64(n), "KiB/client")
	b.ReportMetric(float64(after.HeapInuse+after.StackInuse)/(1<<20), "MiB-go")
	b.ReportMetric(ms(quantile(busy, 0.99)), "board-p99-ms")
	b.ReportMetric(ms(quantile(idle, 0.99)), "board-idle-p99-ms")
	b.Logf("%d clients connected in %v; %d moves; last client p50 %.1f ms p99 %.1f ms max %.1f ms; RSS %.0f MiB (%.0f before); Go heap+stacks %.0f MiB (%.0f before); board p50 %.2f ms p99 %.2f ms (idle p99 %.2f ms)",
		n, connected.Round(time.Millisecond), len(last), ms(quantile(last, 0.5)), ms(quantile(last, 0.99)), ms(quantile(last, 1)),
		rss, rssBefore, float64(after.HeapInuse+after.StackInuse)/(1<<20), float64(before.HeapInuse+before.StackInuse)/(1<<20),
		ms(quantile(busy, 0.5)), ms(quantile(busy, 0.99)), ms(quantile(idle, 0.99)))
	series := make([]string, len(last))
	for i, d := range last {
		series[i] = strconv.FormatFloat(ms(d), 'f', 0, 64)
	}
	b.Logf("last client per move, ms: %s", strings.Join(series, " "))
	if p := quantile(last, 0.99); p > time.Second {
		b.Errorf("p99 from a move to the last client is %v, over the 1 s goal", p)
	}
	if rss > 1024 {
		b.Errorf("the daemon holds %.0f MiB with %d clients, over the 1 GiB goal", rss, n)
	}
}

// TestSSESwarm is the client side of BenchmarkSSE, which runs it in a
// child process: it opens the streams, says "ready" once all are open,
// and for every event id prints "got ID P50 P99 LAST" (wall-clock
// nanoseconds at which the median, the 99th-percentile and the last
// client read it) once every client has. It ends when its stdin closes.
func TestSSESwarm(t *testing.T) {
	base := os.Getenv(swarmURL)
	if base == "" {
		t.Skip("the client side of BenchmarkSSE, run by it")
	}
	n, err := strconv.Atoi(os.Getenv(swarmClients))
	require.NoError(t, err)
	raiseFDs(t, n)
	u, err := url.Parse(base)
	require.NoError(t, err)
	go func() {
		// The benchmark closes stdin when it is done, or gives up.
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	var mu sync.Mutex // guards lost and stdout
	lost := 0
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		_ = out.Flush()
	}
	// The arrival times of an event, in a slot of a small ring by id:
	// each client takes an index, writes its time, and the one that
	// completes the count reports and clears the slot. No lock on the
	// path of each event.
	type slot struct {
		taken, written atomic.Int64
		times          []int64
	}
	slots := make([]slot, 64)
	for i := range slots {
		slots[i].times = make([]int64, n)
	}
	arrive := func(id uint64, now int64) {
		sl := &slots[id%uint64(len(slots))]
		sl.times[sl.taken.Add(1)-1] = now
		if sl.written.Add(1) < int64(n) {
			return
		}
		ts := sl.times
		slices.Sort(ts)
		mu.Lock()
		say("got %d %d %d %d", id, ts[n/2], ts[n*99/100], ts[n-1])
		mu.Unlock()
		sl.taken.Store(0)
		sl.written.Store(0)
	}
	conns := make([]net.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	var open sync.WaitGroup
	open.Add(n)
	for range n {
		c, err := net.Dial("tcp", u.Host)
		require.NoError(t, err, "connection %d", len(conns)+1)
		conns = append(conns, c)
		if len(conns)%2000 == 0 {
			fmt.Fprintf(os.Stderr, "swarm: %d connections\n", len(conns))
		}
		go func() {
			// HTTP/1.0: the stream comes unchunked, one event per few
			// lines.
			if _, err := io.WriteString(c, "GET /events HTTP/1.0\r\nHost: bench\r\n\r\n"); err != nil {
				mu.Lock()
				if lost++; lost == 1 {
					say("lost %v", err)
				}
				mu.Unlock()
				open.Done()
				return
			}
			r := bufio.NewReaderSize(c, 2048)
			opened := false
			for {
				line, err := r.ReadSlice('\n')
				if err == bufio.ErrBufferFull {
					continue // a long data line: only ids matter
				}
				if err != nil {
					if !opened {
						open.Done()
					}
					mu.Lock()
					if lost++; lost == 1 {
						say("lost %v", err)
					}
					mu.Unlock()
					return
				}
				if !opened && strings.HasPrefix(string(line), ": hello") {
					opened = true
					open.Done()
				}
				if id, ok := strings.CutPrefix(string(line), "id: "); ok {
					now := time.Now().UnixNano()
					v, _ := strconv.ParseUint(strings.TrimSpace(id), 10, 64)
					arrive(v, now)
				}
			}
		}()
	}
	open.Wait()
	mu.Lock()
	say("ready")
	mu.Unlock()
	select {} // until stdin closes
}
