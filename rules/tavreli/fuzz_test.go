package tavreli

import (
	"strings"
	"testing"
)

func FuzzParseTFEN(f *testing.F) {
	for _, tc := range specCounts {
		f.Add(tc.tfen)
	}
	f.Add("rnbqkbnr/prpnpbpqphpbpnpr/8/8/4PH3/8/PRPNPBPQ1PBPNPR/RNBQKBNR b KQkq e3 ABCDFGHabcdefgh 0 1")
	f.Add("[k]7/8/8/8/8/8/8/K43 w - - - 0 1")
	f.Add("k7/8/8/8/3[RN4/8/8/K7 w - - - 0 1")
	f.Fuzz(func(t *testing.T, s string) {
		for _, mode := range []Mode{GameMode, AnalysisMode} {
			b, err := ParseTFEN(s, mode)
			if err != nil {
				continue
			}
			// A position that parses formats canonically, and the canonical
			// form parses to the same position.
			out := b.TFEN()
			b2, err := ParseTFEN(out, mode)
			if err != nil {
				t.Fatalf("canonical %q of %q does not parse: %v", out, s, err)
			}
			if b2.TFEN() != out || b2.Hash() != b.Hash() {
				t.Fatalf("round trip of %q: %q", s, b2.TFEN())
			}
			var buf [256]Move
			for _, m := range b.GenerateLegal(buf[:0]) {
				u := b.Make(m)
				b.Unmake(m, u)
			}
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"e2-e4", "д2-д4", "е2-е4", "(2)d4-d8+", "(1)c8=B-c1+", "0-0", "O-O-O", "e4xd3", "g1-e2x",
		"d4-b6+ +", "b1-в3", "(0)e2-e4", "e2-е4", "d7xe8=Q+", "e2e4", "(99999999999999999999)a1-a2", "a1=", "=Q",
		"d2(1)-d4", "d2(1)(1)-d4", "d2(0)-d4", "e2 e4", "e2-e4*", "e2-e4 x", "e2-e4x*"} {
		f.Add(s)
	}
	starts := []*Board{ptr(StartBoard())}
	for _, tc := range specCounts {
		b, err := ParseTFEN(tc.tfen, tc.mode)
		if err != nil {
			f.Fatal(err)
		}
		starts = append(starts, b)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, b := range starts {
			for _, r := range []Reader{{}, {Strict: true}, {Alphabet: Cyrillic}, {Alphabet: Latin}} {
				mt, err := r.ParseMove(b, s)
				if err != nil {
					if !strings.Contains(err.Error(), "move") {
						t.Fatalf("error without the token: %v", err)
					}
					continue
				}
				// What the reader accepts is a legal move that formats
				// to text reading back as itself.
				text := FormatMove(b, mt.Move, Latin)
				back, err := (Reader{Alphabet: Latin, Strict: true}).ParseMove(b, text)
				if err != nil || back.Move != mt.Move {
					t.Fatalf("%q -> %v -> %q -> %v, %v", s, mt.Move, text, back.Move, err)
				}
			}
		}
	})
}

func FuzzParseGame(f *testing.F) {
	f.Add("[Alphabet \"latin\"]\n1. e2-e4 e7-e5 2. g1-f3 {c} b8-c6 1-0")
	f.Add("1.д2-д4 д7-д5 2.ж1-е3 б8-в6 *")
	f.Add("[TFEN \"7k/8/8/8/3[nR]4/8/2K5/8 w - - - 0 1\"]\n1. d4-d8+ h8-h7 *")
	f.Add("[White \"a\\\"b\"] ; comment\n1... e7-e5")
	f.Add("1. e2 e4 e7(1)-e5 2. G1-F3 b8-c6 x *")
	f.Add("1. e2-e4 e7-e5* 1-0")
	f.Fuzz(func(t *testing.T, s string) {
		rec, err := ParseGame(s)
		if err != nil {
			return
		}
		out := rec.Format(Latin, DefaultArray)
		back, err := ParseGameWith(out, RecordOptions{Strict: true})
		if err != nil {
			t.Fatalf("canonical record does not read back: %v\n%s", err, out)
		}
		if len(back.Plies) != len(rec.Plies) {
			t.Fatalf("%d plies read back as %d", len(rec.Plies), len(back.Plies))
		}
	})
}
