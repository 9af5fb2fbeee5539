package millennium_test

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/hardware/eboard"
	"arbiter/hardware/eboard/emu"
	"arbiter/hardware/millennium"
	"arbiter/hardware/millennium/sim"
	"arbiter/internal/benchlat"
	"arbiter/internal/eboardtest"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// BenchmarkReportToCommittedMove measures, over a pseudo-terminal, the
// time from the emulated board's first status report that shows a move
// made to the move committed by an arbiter session as a table runs one,
// through the driver. A move on a board with no clock to press is
// committed once the board has been still for the session's settle time
// (300 ms): over-settle is the rest, which the board's scan (it reports
// every scan, each report a heartbeat) and our work make. Moves are
// random legal chess moves, captures included. Run it with -benchtime 40x.
func BenchmarkReportToCommittedMove(b *testing.B) {
	for _, scan := range []byte{15, 20} {
		period := time.Duration(scan) * millennium.ScanUnit
		b.Run("scan="+period.String(), func(b *testing.B) { benchReport(b, scan) })
	}
}

func benchReport(b *testing.B, scan byte) {
	var clock eboardtest.ReportClock
	board := sim.NewBoard(sim.Config{Seed: 1, Reported: clock.Reported})
	var pos rules.Position = chess.Start()
	board.SetUp(pos.View())
	line, err := emu.Attach(filepath.Join(b.TempDir(), "mil0"), board)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { line.Close() })
	live := eboardtest.NewLive()
	epoch := time.Now()
	drv, err := millennium.New(millennium.DriverConfig{Session: millennium.Config{ScanTime: scan}, Config: eboard.Config{
		Paths: []string{line.Path()}, Now: func() time.Duration { return time.Since(epoch) }, Handler: live.Handle,
		Logger: slog.New(slog.DiscardHandler)}})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = drv.Run(ctx) }()
	b.Cleanup(func() { cancel(); <-done })
	if err := live.Start(drv.Resync, 10*time.Second); err != nil {
		b.Fatal(err)
	}
	pl := &emu.Player{Board: board, Rng: rand.New(rand.NewPCG(5, 6)), Carry: true}
	b.ReportAllocs()
	b.ResetTimer()
	lat, over, err := live.TimeMoves(&clock, pl, pos, b.N, rand.New(rand.NewPCG(3, 4)), 5*time.Second)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	benchlat.Report(b, lat, "")
	benchlat.Report(b, over, "over-settle-")
	b.ReportMetric(float64(time.Duration(scan)*millennium.ScanUnit)/float64(time.Millisecond), "scan-ms")
}

// BenchmarkSessionMove measures the host's own work for one move on
// virtual time: the status report that shows it, through the session into
// an arbiter session as a table runs one, and the report a settle later
// whose heartbeat commits it. What a daemon with many boards pays per
// move, without the board's scan.
func BenchmarkSessionMove(b *testing.B) {
	g, err := rules.New("chess", nil)
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := arbiter.BoardConfig(g, "", "")
	if err != nil {
		b.Fatal(err)
	}
	cfg.Caps = arbiter.CapsOf(millennium.Caps)
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
	ses := millennium.NewSession(millennium.Config{}, "bench", eboard.Wire{Emit: handle})
	if err := ses.Assume(board.Info{ID: "MIL-00000001"}, 0); err != nil {
		b.Fatal(err)
	}
	report := func(p rules.Position) []byte {
		var st millennium.Status
		v := p.View()
		for sq := range 64 {
			if q, ok := v.Top(rules.Square(sq)); ok {
				st[eboard.Normal.Field(rules.Square(sq))] = millennium.PieceOf(q)
			}
		}
		return millennium.Append(nil, 's', st.String())
	}
	now := time.Duration(0)
	var pos rules.Position
	// newGame sets the board up for a new game, read as a table reads it:
	// a game of random moves ends by the rules, or runs into the 50-move
	// rule.
	newGame := func() {
		pos = g.Start()
		if s, err = arbiter.NewSession(cfg, g, pos, nil); err != nil {
			b.Fatal(err)
		}
		now += time.Second
		ses.Feed(report(pos), now)
		s.Start(now)
		if err := ses.Resync(now); err != nil { // as the table asks at a game's start
			b.Fatal(err)
		}
		now += time.Second
		ses.Feed(report(pos), now)
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
		shown, still := report(next), report(next)
		b.StartTimer()
		now += 100 * time.Millisecond
		ses.Feed(shown, now)
		now += cfg.Settle
		ses.Feed(still, now)
		pos = next
	}
	b.StopTimer()
	if moves < b.N {
		b.Fatalf("%d moves committed of %d", moves, b.N)
	}
}
