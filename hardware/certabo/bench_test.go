package certabo_test

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/hardware/certabo"
	"arbiter/hardware/certabo/sim"
	"arbiter/hardware/eboard"
	"arbiter/hardware/eboard/emu"
	"arbiter/internal/benchlat"
	"arbiter/internal/eboardtest"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// BenchmarkReportToCommittedMove measures, over a pseudo-terminal, the
// time from the emulated board's first frame that shows a move made to
// the move committed by an arbiter session as a table runs one, through
// the driver. The host takes a square's new value once two of three
// frames agree, dated halfway between the last frame without it and the
// first with it; the move is committed once the board has been still for
// the session's settle time (300 ms) by that date, at the first frame that
// proves it: over-settle is the rest, which the board's frame period and
// our work make. Moves are random legal chess moves, captures included.
// Run it with -benchtime 40x.
func BenchmarkReportToCommittedMove(b *testing.B) {
	for _, period := range []time.Duration{100 * time.Millisecond, 300 * time.Millisecond} {
		b.Run("period="+period.String(), func(b *testing.B) { benchReport(b, period) })
	}
}

func benchReport(b *testing.B, period time.Duration) {
	var clock eboardtest.ReportClock
	bd := sim.NewBoard(sim.Config{Seed: 1, Period: period, Reported: clock.Reported})
	line, err := emu.Attach(filepath.Join(b.TempDir(), "certabo0"), bd)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { line.Close() })
	live := eboardtest.NewLive()
	epoch := time.Now()
	calibrated := make(chan struct{}, 1)
	drv, err := certabo.New(certabo.DriverConfig{Calibrated: func([]byte) { calibrated <- struct{}{} }, Config: eboard.Config{
		Paths: []string{line.Path()}, Now: func() time.Duration { return time.Since(epoch) }, Handler: live.Handle,
		Logger: slog.New(slog.DiscardHandler)}})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = drv.Run(ctx) }()
	b.Cleanup(func() { cancel(); <-done })
	bd.SetUpCalibration()
	select {
	case <-calibrated:
	case <-time.After(20 * period):
		b.Fatal("the set is not calibrated")
	}
	var pos rules.Position = chess.Start()
	bd.SetUp(pos.View())
	if err := live.Start(drv.Resync, 20*period); err != nil {
		b.Fatal(err)
	}
	pl := &emu.Player{Board: bd, Rng: rand.New(rand.NewPCG(5, 6)), Carry: true}
	b.ReportAllocs()
	b.ResetTimer()
	lat, over, err := live.TimeMoves(&clock, pl, pos, b.N, rand.New(rand.NewPCG(3, 4)), 10*period+5*time.Second)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	benchlat.Report(b, lat, "")
	benchlat.Report(b, over, "over-settle-")
	b.ReportMetric(float64(period)/float64(time.Millisecond), "period-ms")
}

// BenchmarkSessionMove measures the host's own work for one move on
// virtual time: the frames that show it (two, for the filter), through the
// session into an arbiter session as a table runs one, and the frame a
// settle later that commits it. What a daemon with many boards pays per
// move, without the board's frame period.
func BenchmarkSessionMove(b *testing.B) {
	g, err := rules.New("chess", nil)
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := arbiter.BoardConfig(g, "", "")
	if err != nil {
		b.Fatal(err)
	}
	cfg.Caps = arbiter.CapsOf(certabo.Caps)
	// The set's chips, known to the host.
	chips := map[rules.Square]certabo.ID{}
	known := map[certabo.ID]rules.Piece{}
	start := chess.Start().View()
	for sq := range 64 {
		if p, ok := start.Top(rules.Square(sq)); ok {
			id := certabo.ID{3, 0, byte(0x50 + sq), byte(0x20 + sq), byte(0x80 + sq)}
			chips[rules.Square(sq)], known[id] = id, p
		}
	}
	var s *arbiter.Session
	moves := 0
	handle := func(e board.Event) {
		if ev, ok := arbiter.FromSensor(e); ok && s != nil {
			for _, o := range s.Handle(ev) {
				if _, ok := o.(arbiter.MoveMade); ok {
					moves++
				}
			}
		}
	}
	ses := certabo.NewSession(certabo.Config{Calibration: certabo.NewCalibration(known, nil)}, "bench", eboard.Wire{Emit: handle})
	ses.Start(0)
	frame := func() []byte {
		var f certabo.Frame
		for sq, id := range chips {
			f[eboard.Normal.Field(sq)] = id
		}
		return certabo.AppendFrame(nil, &f)
	}
	now := time.Duration(0)
	const period = 300 * time.Millisecond
	var pos rules.Position
	newGame := func() {
		pos = g.Start()
		chips = map[rules.Square]certabo.ID{}
		for id, p := range known {
			for sq := range 64 {
				if q, ok := start.Top(rules.Square(sq)); ok && q == p {
					if _, taken := chips[rules.Square(sq)]; !taken {
						chips[rules.Square(sq)] = id
						break
					}
				}
			}
		}
		for range 3 {
			now += period
			ses.Feed(frame(), now)
		}
		if s, err = arbiter.NewSession(cfg, g, pos, nil); err != nil {
			b.Fatal(err)
		}
		s.Start(now)
		if err := ses.Resync(now); err != nil {
			b.Fatal(err)
		}
		now += period
		ses.Feed(frame(), now)
	}
	newGame()
	rng := rand.New(rand.NewPCG(7, 8))
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer() // the players' part
		if i%40 == 39 {
			newGame()
		}
		next := eboardtest.KeepGoing(pos, rng)
		v := next.View()
		// The chips follow the pieces: the mover's from its square, a
		// promotion's new piece a chip of its kind.
		moved := map[rules.Square]certabo.ID{}
		for sq := range 64 {
			p, ok := v.Top(rules.Square(sq))
			if !ok {
				continue
			}
			if q, was := pos.View().Top(rules.Square(sq)); was && q == p {
				moved[rules.Square(sq)] = chips[rules.Square(sq)]
				continue
			}
			for id, kp := range known {
				if kp == p {
					moved[rules.Square(sq)] = id
					break
				}
			}
		}
		chips = moved
		shown := frame()
		b.StartTimer()
		for range 3 {
			now += period
			ses.Feed(shown, now)
		}
		pos = next
	}
	b.StopTimer()
	if moves < b.N {
		b.Fatalf("%d moves committed of %d", moves, b.N)
	}
}
