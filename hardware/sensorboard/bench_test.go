package sensorboard_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arbiter/board"
	sb "arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
)

// squareStream returns n SQUARE frames as a board sends them.
func squareStream(n int) []byte {
	var enc sb.Encoder
	var out []byte
	for i := range n {
		m := &sb.SquareMsg{Square: uint16(i % 64), Height: uint8(i % 3), Top: board.Ident{Known: i%2 == 0, Piece: rules.Piece{Kind: 'P'}}}
		out = enc.Append(out, m, uint32(i*37))
	}
	return out
}

func BenchmarkDecode(b *testing.B) {
	stream := squareStream(4096)
	d := sb.NewDecoder()
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	frames := 0
	for b.Loop() {
		p := stream
		for len(p) > 0 {
			n, _, err := d.Decode(p)
			p = p[n:]
			if err == nil {
				frames++
			}
		}
	}
	b.ReportMetric(float64(len(stream))/4096, "B/frame")
}

// BenchmarkEventPath measures a frame's whole way through the host:
// decoding, sequence check, time mapping and the typed event handed to
// the handler. It must not allocate.
func BenchmarkEventPath(b *testing.B) {
	var enc sb.Encoder
	hello := enc.Append(nil, &sb.Hello{Major: 1, Boot: 1, Caps: board.CapHeight, Heartbeat: 500, Width: 8, Height: 8, Cells: 64, ID: "B"}, 0)
	delivered := 0
	l := &sb.Link{Emit: func(e board.Event) { delivered++ }, Send: func(sb.Message) {}}
	l.SetPort("p", 0)
	d := sb.NewDecoder()
	feed := func(p []byte, host time.Duration) {
		for len(p) > 0 {
			n, f, err := d.Decode(p)
			p = p[n:]
			if err == nil {
				l.Frame(f, host)
			}
		}
	}
	feed(hello, 0)
	// Pre-encode a long run of frames that continue the sequence.
	const n = 1 << 14
	frames := make([][]byte, n)
	for i := range frames {
		frames[i] = enc.Append(nil, &sb.SquareMsg{Square: uint16(i % 64), Height: uint8(i % 2)}, uint32(i))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i == n {
			// Start a new boot so the sequence stays in order.
			b.StopTimer()
			enc.Reset()
			feed(enc.Append(nil, &sb.Hello{Major: 1, Boot: uint32(i), Caps: board.CapHeight, Heartbeat: 500, Width: 8, Height: 8, Cells: 64, ID: "B"}, 0), 0)
			for j := range frames {
				frames[j] = enc.Append(frames[j][:0], &sb.SquareMsg{Square: uint16(j % 64), Height: uint8(j % 2)}, uint32(j))
			}
			i = 0
			b.StartTimer()
		}
		feed(frames[i], time.Duration(i)*time.Millisecond)
		i++
	}
}

// The simulated boards of BenchmarkManyBoards run in a child process, as
// they would on real hardware: go.bug.st/serial waits with select(2),
// which cannot watch file descriptors above 1024, so the driver's process
// must not also hold the thousand pty descriptors of the simulators.
const (
	envSimDir    = "SENSORBOARD_SIM_DIR"
	envSimBoards = "SENSORBOARD_SIM_BOARDS"
	envSimRate   = "SENSORBOARD_SIM_RATE"
)

// TestSimHelperProcess is not a test: it is the simulator process of
// BenchmarkManyBoards, started by it with the environment set.
func TestSimHelperProcess(t *testing.T) {
	dir := os.Getenv(envSimDir)
	if dir == "" {
		t.Skip("helper process for BenchmarkManyBoards")
	}
	boards, _ := strconv.Atoi(os.Getenv(envSimBoards))
	rate, _ := strconv.Atoi(os.Getenv(envSimRate))
	g := rules.NewRect(8, 8)
	clock := sim.NewReal()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The parent closes our stdin to stop us.
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); cancel() }()
	var wg sync.WaitGroup
	for i := range boards {
		b, err := sim.NewBoard(sim.Config{ID: fmt.Sprintf("B%03d", i), Geometry: g, Caps: board.CapHeight, Seed: uint64(i)}, clock)
		if err != nil {
			t.Fatal(err)
		}
		p, err := sim.Attach(b, filepath.Join(dir, fmt.Sprintf("b-%03d", i)))
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-b.Connected():
			case <-ctx.Done():
				return
			}
			// Toggle a square every 1/rate s, at a random phase.
			time.Sleep(time.Duration(i) * time.Second / time.Duration(rate*boards))
			tk := time.NewTicker(time.Second / time.Duration(rate))
			defer tk.Stop()
			sq := rules.Square(i % 64)
			for up := true; ; up = !up {
				select {
				case <-ctx.Done():
					return
				case <-tk.C:
				}
				if up {
					b.Place(sq, rules.Piece{Kind: 'P'})
				} else if _, err := b.Lift(sq, 1); err != nil {
					panic(err)
				}
			}
		}()
	}
	wg.Wait()
}

// BenchmarkManyBoards runs 500 simulated boards, each sending 20 events a
// second through its own pseudo-terminal into one driver, and reports the
// 99th percentile of the time from the read that completed a frame to the
// delivery of its event. Each iteration is one second of steady load.
func BenchmarkManyBoards(b *testing.B) {
	if testing.Short() {
		b.Skip("500 ptys: skipped under -short")
	}
	const boards = 500
	const rate = 20
	dir := b.TempDir()
	now := sb.MonotonicSince(time.Now())

	var mu sync.Mutex
	lat := make([]time.Duration, 0, 1<<20)
	var hellos atomic.Int64
	var measuring atomic.Bool
	handler := func(e board.Event) {
		switch e.Kind {
		case board.EventHello:
			hellos.Add(1)
		case board.EventSquare:
			if measuring.Load() {
				d := now() - e.Host
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}
	}
	drv, err := sb.New(sb.Config{Ports: []sb.PortSpec{{Glob: filepath.Join(dir, "b-*")}}, Handler: handler, Now: now, Scan: 200 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestSimHelperProcess$", "-test.bench=^$")
	cmd.Env = append(os.Environ(), envSimDir+"="+dir, envSimBoards+"="+strconv.Itoa(boards), envSimRate+"="+strconv.Itoa(rate))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { stdin.Close(); _ = cmd.Wait() }()

	ctx, cancel := context.WithCancel(context.Background())
	runDone := make(chan struct{})
	go func() { _ = drv.Run(ctx); close(runDone) }()
	defer func() { cancel(); <-runDone }()
	deadline := time.Now().Add(90 * time.Second)
	for hellos.Load() < boards {
		if time.Now().After(deadline) {
			b.Fatalf("only %d of %d boards connected", hellos.Load(), boards)
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(time.Second) // settle into the steady state
	measuring.Store(true)
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		time.Sleep(time.Second)
	}
	elapsed := time.Since(start)
	b.StopTimer()
	measuring.Store(false)

	mu.Lock()
	defer mu.Unlock()
	if len(lat) == 0 {
		b.Fatal(errors.New("no events measured"))
	}
	slices.Sort(lat)
	p := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))]) / 1e3 }
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "events/s")
	b.ReportMetric(p(0.50), "p50-µs")
	b.ReportMetric(p(0.99), "p99-µs")
	b.ReportMetric(float64(lat[len(lat)-1])/1e3, "max-µs")
}
