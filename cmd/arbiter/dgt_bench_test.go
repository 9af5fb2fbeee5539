package main

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"arbiter/hardware/dgt/sim"
	"arbiter/internal/benchlat"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// BenchmarkDGTFieldUpdateToCommittedMove measures, through serve, the time
// from a move's last field update on an emulated DGT board (the lever
// pressed at once) to the move committed to the store and shown on its
// table: the settle (boards.dgt.settle, 100 ms here) plus the full-board
// read that confirms it, the arbiter's judgement and the commit. Moves are
// random legal chess moves, captures included; over-settle is the part
// that is not the deliberate wait. Run it with -benchtime 40x.
func BenchmarkDGTFieldUpdateToCommittedMove(b *testing.B) {
	dir := b.TempDir()
	link := filepath.Join(dir, "dgt0")
	board := sim.NewBoard(sim.Config{Serial: "20002", Seed: 1})
	board.ConnectClock(90*time.Minute, 90*time.Minute)
	var p rules.Position = chess.Start()
	board.SetUp(p.View())
	line, err := sim.Attach(link, board)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { line.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	cfg := dgtEvent(b, dir, link)
	settle := dgtSettings(cfg).Settle
	directorOf := serveDirectors(b, cfg)
	_, _, errc := startServe(b, ctx, cfg, false)
	b.Cleanup(func() { cancel(); <-errc })
	d := directorOf(cfg)
	deadline := time.Now().Add(15 * time.Second)
	for {
		if t, ok := d.Table("DGT-20002"); ok && t.Live().GameID != 0 && t.Live().Health == "active" {
			break
		}
		if time.Now().After(deadline) {
			b.Fatal("the DGT board has no game")
		}
		time.Sleep(10 * time.Millisecond)
	}
	tbl, _ := d.Table("DGT-20002")
	rng := rand.New(rand.NewPCG(3, 4))
	pl := &sim.Player{Board: board, Rng: rand.New(rand.NewPCG(5, 6))}
	var lat, over []time.Duration
	b.ResetTimer()
	for i := range b.N {
		// A random legal move after which the game goes on.
		moves := p.Legal()
		var next rules.Position
		for _, k := range rng.Perm(len(moves)) {
			if n, err := p.Play(moves[k]); err == nil && !n.Outcome(nil).Over() {
				next = n
				break
			}
		}
		if next == nil {
			b.Fatalf("ply %d: no move keeps the game going in %s", i+1, p)
		}
		pl.Move(p.View(), next.View())
		board.Press(p.Turn() == rules.White) // White sits at the clock's left
		t0 := time.Now()
		for tbl.Live().Plies != i+1 {
			if time.Since(t0) > 5*time.Second {
				b.Fatalf("ply %d not committed within 5 s: the table shows %+v", i+1, tbl.Live())
			}
			time.Sleep(time.Millisecond)
		}
		l := time.Since(t0)
		lat, over = append(lat, l), append(over, l-settle)
		p = next
	}
	b.StopTimer()
	benchlat.Report(b, lat, "")
	benchlat.Report(b, over, "over-settle-")
}
