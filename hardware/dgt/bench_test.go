package dgt_test

import (
	"testing"
	"time"

	"arbiter/hardware/dgt"
	"arbiter/hardware/dgt/sim"
	"arbiter/internal/benchlat"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// BenchmarkFieldUpdateToSettled measures, over a pseudo-terminal, the time
// from a move's last field update on the emulated board to the settled
// square events the host delivers: Settle (the quiet time DGT's scan
// needs: 250 ms by default, 25 ms for the emulator's fast hands) plus the
// full-board read that confirms it. over-settle is the part that is not
// the deliberate wait.
func BenchmarkFieldUpdateToSettled(b *testing.B) {
	for _, cfg := range []dgt.Config{fastSession, {}} {
		settle := cfg.Settle
		if settle == 0 {
			settle = 250 * time.Millisecond
		}
		b.Run("settle="+settle.String(), func(b *testing.B) { benchSettle(b, cfg, settle) })
	}
}

func benchSettle(b *testing.B, cfg dgt.Config, settle time.Duration) {
	r := newRig(b, sim.Config{Serial: "10009"}, cfg)
	r.board.SetUp(chess.Start().View())
	if err := r.mirror.wait(viewBoard(chess.Start().View()), 5*time.Second, "set-up"); err != nil {
		b.Fatal(err)
	}
	e2, _ := chess.Start().View().Top(12)
	views := [2][64]rules.Piece{}
	views[0] = viewBoard(chess.Start().View())
	views[1] = views[0]
	views[1][12], views[1][28] = rules.Piece{}, e2
	var lat, over []time.Duration
	b.ResetTimer()
	for i := range b.N {
		from, to := rules.Square(12), rules.Square(28)
		if i%2 == 1 {
			from, to = to, from
		}
		r.board.LiftSquare(from)
		r.board.PlaceSquare(to, e2)
		t0 := time.Now()
		if err := r.mirror.wait(views[(i+1)%2], 5*time.Second, "settled"); err != nil {
			b.Fatal(err)
		}
		d := time.Since(t0)
		lat = append(lat, d)
		over = append(over, d-settle)
	}
	b.StopTimer()
	benchlat.Report(b, lat, "")
	benchlat.Report(b, over, "over-settle-")
}

// BenchmarkSessionSettle measures the host's own work for one move (two
// field updates, the settle read and its events) on virtual time: what a
// daemon with hundreds of boards pays per move. Each move comes after a
// second of silence, so the watchdog's full-board read that falls due
// then is part of it, as it is on a live line.
func BenchmarkSessionSettle(b *testing.B) {
	s := dgt.NewSession(dgt.Config{})
	pos := dgt.StartPosition
	var pending []byte
	now := time.Duration(0)
	s.Send = func(p []byte) {
		for _, c := range p {
			if c == dgt.CmdSendBoard {
				s.Feed(dgt.AppendMessage(nil, dgt.MsgBoardDump, (&dgt.BoardDump{Position: pos}).AppendPayload(nil)), now, &pending)
			}
		}
	}
	events := 0
	s.Emit = func(dgt.Event) { events++ }
	s.Start(now)
	lift := dgt.AppendMessage(nil, dgt.MsgFieldUpdate, []byte{52, 0})
	place := dgt.AppendMessage(nil, dgt.MsgFieldUpdate, []byte{36, byte(dgt.WPawn)})
	back := dgt.AppendMessage(nil, dgt.MsgFieldUpdate, []byte{52, byte(dgt.WPawn)})
	clear := dgt.AppendMessage(nil, dgt.MsgFieldUpdate, []byte{36, 0})
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		now += time.Second
		if i%2 == 0 {
			pos[52], pos[36] = dgt.Empty, dgt.WPawn
			s.Feed(lift, now, &pending)
			s.Feed(place, now, &pending)
		} else {
			pos[52], pos[36] = dgt.WPawn, dgt.Empty
			s.Feed(clear, now, &pending)
			s.Feed(back, now, &pending)
		}
		now += 300 * time.Millisecond
		s.Tick(now)
	}
	b.StopTimer()
	if events < b.N {
		b.Fatalf("%d settled events for %d moves", events, b.N)
	}
}
