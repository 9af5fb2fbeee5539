package shogi

import "testing"

func FuzzSFEN(f *testing.F) {
	for _, s := range []string{StartSFEN, matsuriSFEN, maxSFEN, "startpos", "sfen 4k4/9/9/9/9/9/9/9/4K4 b 18P 1",
		"4k4/9/9/9/9/9/9/9/4K4 b - ", "+P8/9/9/9/9/9/9/9/9 w 10p 3", "9/9/9/9/9/9/9/9/9 b - 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseSFEN(s)
		if err != nil {
			return
		}
		out := b.SFEN()
		b2, err := ParseSFEN(out)
		if err != nil {
			t.Fatalf("SFEN %q of %q does not parse: %v", out, s, err)
		}
		if b2.SFEN() != out {
			t.Fatalf("SFEN not stable: %q then %q", out, b2.SFEN())
		}
		var buf [MaxMoves]Move
		for _, m := range b.GenerateLegal(buf[:0]) {
			b.Make(m)
			b.Unmake(m)
		}
		if b.SFEN() != out {
			t.Fatalf("make/unmake changed %q to %q", out, b.SFEN())
		}
	})
}

func FuzzUSI(f *testing.F) {
	for _, s := range []string{"7g7f", "8h2b+", "P*5e", "B*4e", "5i5h", "7g7f+", "K*5e", "1a1a", "9i9a+", "+7776FU", "７六歩(77)", "▲７六歩", "同　銀", "２二角成"} {
		f.Add(s)
	}
	g, _ := NewGame(nil)
	positions := []*Position{}
	for _, s := range []string{"startpos", matsuriSFEN, maxSFEN, "startpos moves 7g7f 3c3d 8h2b+"} {
		p, err := g.Position(s)
		if err != nil {
			f.Fatal(err)
		}
		positions = append(positions, p)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if u, err := ParseUSIMove(s); err == nil {
			if got := u.String(); got != s {
				t.Fatalf("USI %q formats as %q", s, got)
			}
		}
		for _, p := range positions {
			m, err := p.ParseMoveText(s)
			if err != nil {
				continue
			}
			if _, err := p.PlayMove(m); err != nil {
				t.Fatalf("parsed move %s of %q does not play: %v", m, s, err)
			}
			back, err := p.ParseMoveText(p.FormatMove(m))
			if err != nil || back != m {
				t.Fatalf("KI2 %q of %s reads back as %v, %v", p.FormatMove(m), m, back, err)
			}
		}
	})
}
