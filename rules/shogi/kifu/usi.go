package kifu

import (
	"strings"

	"arbiter/rules/shogi"
)

// WriteUSI writes r's start position and moves as the USI game line (spec
// 5.1, 5.2), the engines' record: "position startpos moves 7g7f ..." for
// the even game, "position sfen <SFEN> moves ..." for any other start, a
// handicap's included. Names, times and the result have no place in it.
func WriteUSI(r *Record) (string, error) {
	pos, moves, err := r.Replay(nil)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	if start := pos[0].String(); start == shogi.StartSFEN {
		sb.WriteString("position startpos")
	} else {
		sb.WriteString("position sfen " + start)
	}
	if len(moves) > 0 {
		sb.WriteString(" moves")
		for _, m := range moves {
			sb.WriteString(" " + m.String())
		}
	}
	sb.WriteByte('\n')
	return sb.String(), nil
}
