package main

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"arbiter/hardware/certabo"
	certsim "arbiter/hardware/certabo/sim"
	"arbiter/hardware/eboard/emu"
	"arbiter/hardware/millennium"
	milsim "arbiter/hardware/millennium/sim"
	"arbiter/internal/benchlat"
	"arbiter/internal/config"
	"arbiter/internal/eboardtest"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// BenchmarkEBoardReportToCommittedMove measures, through serve, the time
// from the first status report (a ChessLink board's status, a Certabo
// frame) that shows a move made on an emulated board to the move
// committed to the store and shown on its table. A board with no clock to
// press has its move taken once it has been still for the arbiter's
// settle time (300 ms): over-settle is the rest, which the board's own
// scan (its reports are its heartbeats) and our work make (the board's
// scan time or frame period is scan-ms). Moves are random legal chess
// moves, captures included. Run it with -benchtime 40x.
func BenchmarkEBoardReportToCommittedMove(b *testing.B) {
	b.Run("millennium", func(b *testing.B) {
		var clock eboardtest.ReportClock
		bd := milsim.NewBoard(milsim.Config{ID: [4]byte{0, 0, 0, 1}, Seed: 1, Reported: clock.Reported})
		benchEBoard(b, bd, &clock, millennium.Protocol, "MIL-00000001", bd.ScanPeriod(), nil)
	})
	b.Run("certabo", func(b *testing.B) {
		var clock eboardtest.ReportClock
		bd := certsim.NewBoard(certsim.Config{Seed: 1, Reported: clock.Reported})
		benchEBoard(b, bd, &clock, certabo.Protocol, certabo.IDPrefix+"eboard0", bd.ScanPeriod(), func() {
			bd.SetUpCalibration()
			time.Sleep(12 * bd.ScanPeriod()) // the set calibrated
		})
	})
}

// eboardOnLine is an emulated e-board: its firmware and its squares.
type eboardOnLine interface {
	emu.Firmware
	emu.Table
}

func benchEBoard(b *testing.B, bd eboardOnLine, clock *eboardtest.ReportClock, protocol, id string, scan time.Duration, prepare func()) {
	dir := b.TempDir()
	line, err := emu.Attach(filepath.Join(dir, "eboard0"), bd)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { line.Close() })
	cfg := boardEvent(b, dir)
	cfg.Boards.Ports = []config.Port{{Path: line.Path(), Protocol: protocol}}
	cfg.Boards.Assign = nil
	club := cfg.Tournaments[0]
	club.Players = club.Players[:2]
	cfg.Tournaments = []config.Tournament{club}
	ctx, cancel := context.WithCancel(context.Background())
	directorOf := serveDirectors(b, cfg)
	_, _, errc := startServe(b, ctx, cfg, false)
	b.Cleanup(func() { cancel(); <-errc })
	if prepare != nil {
		prepare()
	}
	var p rules.Position = chess.Start()
	bd.SetUp(p.View())
	d := directorOf(cfg)
	deadline := time.Now().Add(15 * time.Second)
	for {
		if t, ok := d.Table(id); ok && t.Live().GameID != 0 && t.Live().Clock[0].Running {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("the board %s has no game under way", id)
		}
		time.Sleep(10 * time.Millisecond)
	}
	tbl, _ := d.Table(id)
	rng := rand.New(rand.NewPCG(3, 4))
	pl := &emu.Player{Board: bd, Rng: rand.New(rand.NewPCG(5, 6)), Carry: true}
	settle := eboardtest.Settle()
	var lat, over []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		next := eboardtest.KeepGoing(p, rng)
		if next == nil {
			b.Fatalf("ply %d: no move keeps the game going in %s", i+1, p)
		}
		clock.Arm(false)
		pl.Move(p.View(), next.View())
		clock.Arm(true)
		t0 := time.Now()
		for tbl.Live().Plies != i+1 {
			if time.Since(t0) > 5*time.Second {
				b.Fatalf("ply %d not committed within 5 s: the table shows %+v", i+1, tbl.Live())
			}
			time.Sleep(time.Millisecond)
		}
		l := time.Since(clock.First())
		lat, over = append(lat, l), append(over, l-settle)
		p = next
	}
	b.StopTimer()
	benchlat.Report(b, lat, "")
	benchlat.Report(b, over, "over-settle-")
	b.ReportMetric(float64(scan)/float64(time.Millisecond), "scan-ms")
}
