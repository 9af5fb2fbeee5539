package tavreli

import (
	"strings"
	"unicode"
)

// Quirks of published records that the record reader joins into one move
// token, for the move reader to read with a warning (or refuse in strict
// mode): two bare squares "b1 e1", and an x standing apart after a move.

// strayX are the tower marks that may stand apart after a move, joined to
// it with their space.
var strayX = map[string]bool{" x": true, " X": true, " " + string(cyrTowerMark): true, " Х": true, " ×": true}

// joinQuirks joins a bare square followed by a bare square ("b1", "e1")
// into one move token "b1 e1", and a lone tower mark after a move into
// that move ("g5 x"). Nothing it joins could be read on its own.
func joinQuirks(toks []recTok) []recTok {
	out := make([]recTok, 0, len(toks))
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind != tokMove {
			out = append(out, t)
			continue
		}
		if i+1 < len(toks) && toks[i+1].kind == tokMove && bareSquare(t.text, true) &&
			bareSquare(strings.TrimRight(toks[i+1].text, "+#!?xх*"), false) {
			t.text += " " + toks[i+1].text
			i++
		} else if strayX[" "+t.text] && len(out) > 0 && out[len(out)-1].kind == tokMove {
			out[len(out)-1].text += " " + t.text
			continue
		}
		out = append(out, t)
	}
	return out
}

// bareSquare reports whether s is a square alone, a file letter and a
// rank digit, with a split count before it when count is set.
func bareSquare(s string, count bool) bool {
	if count && strings.HasPrefix(s, "(") {
		j := strings.IndexByte(s, ')')
		if j < 2 || strings.Trim(s[1:j], "0123456789") != "" {
			return false
		}
		s = s[j+1:]
	}
	rs := []rune(s)
	return len(rs) == 2 && unicode.IsLetter(rs[0]) && rs[1] >= '1' && rs[1] <= '8'
}
