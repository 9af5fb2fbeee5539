package shogi

import (
	"fmt"
	"strconv"
	"strings"

	"arbiter/rules"
)

// StartSFEN is the even game's initial position (hirate, spec 1.5).
const StartSFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

// ParseSFEN reads a position in SFEN (spec 5.1) and validates it: piece
// counts, dead pieces, nifu, and the side not to move not in check. The
// move number may be left out (it is then 1). A leading "sfen " and the
// word "startpos" are accepted too.
func ParseSFEN(s string) (*Board, error) {
	s = strings.TrimSpace(s)
	if s == "startpos" {
		s = StartSFEN
	}
	s = strings.TrimPrefix(s, "sfen ")
	f := strings.Fields(s)
	if len(f) != 3 && len(f) != 4 {
		return nil, fmt.Errorf("sfen %q: want 4 fields (board side hands moveno), got %d", s, len(f))
	}
	b := NewBoard()
	if err := b.parseBoard(f[0]); err != nil {
		return nil, fmt.Errorf("sfen board field: %w", err)
	}
	switch f[1] {
	case "b":
		b.turn = rules.First
	case "w":
		b.turn = rules.Second
	default:
		return nil, fmt.Errorf("sfen side field %q: want b or w", f[1])
	}
	if err := b.parseHands(f[2]); err != nil {
		return nil, fmt.Errorf("sfen hands field: %w", err)
	}
	if len(f) == 4 {
		n, err := strconv.Atoi(f[3])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("sfen move number %q: want an integer >= 1", f[3])
		}
		b.ply = n
	}
	if err := b.Validate(); err != nil {
		return nil, fmt.Errorf("sfen %q: %w", s, err)
	}
	return b, nil
}

func (b *Board) parseBoard(s string) error {
	ranks := strings.Split(s, "/")
	if len(ranks) != 9 {
		return fmt.Errorf("%d ranks, want 9", len(ranks))
	}
	for r, rank := range ranks {
		if err := b.parseRank(r, rank); err != nil {
			return err
		}
	}
	return nil
}

// parseRank reads rank r (0 for rank a) of an SFEN board field.
func (b *Board) parseRank(r int, rank string) error {
	col := 0
	prevDigit := false
	for i := 0; i < len(rank); i++ {
		if ch := rank[i]; ch >= '1' && ch <= '9' {
			if prevDigit {
				return fmt.Errorf("rank %c: two digits in a row at column %d", 'a'+r, i+1)
			}
			prevDigit = true
			col += int(ch - '0')
			if col > 9 {
				return fmt.Errorf("rank %c: more than 9 squares", 'a'+r)
			}
			continue
		}
		prevDigit = false
		p, n, err := parseSFENPiece(rank[i:])
		if err != nil {
			return fmt.Errorf("rank %c: %w", 'a'+r, err)
		}
		i += n - 1
		if col >= 9 {
			return fmt.Errorf("rank %c: more than 9 squares", 'a'+r)
		}
		if p.Type() == King && b.king[p.Color()] != 0 {
			return fmt.Errorf("rank %c: a second %s king", 'a'+r, sideWord(p.Color()))
		}
		b.put(int(padOf[r*9+col]), p)
		col++
	}
	if col != 9 {
		return fmt.Errorf("rank %c covers %d squares, want 9", 'a'+r, col)
	}
	return nil
}

// parseSFENPiece reads a piece of an SFEN board field, a letter with '+'
// before it for a promoted piece, at the start of s, and returns it and
// the number of bytes read.
func parseSFENPiece(s string) (Piece, int, error) {
	n := 1
	promoted := s[0] == '+'
	if promoted {
		if len(s) == 1 {
			return NoPiece, 0, fmt.Errorf("'+' at the end")
		}
		n = 2
	}
	ch := s[n-1]
	c, t := pieceOfLetter(ch)
	if t == NoPieceType {
		return NoPiece, 0, fmt.Errorf("bad piece letter %q", ch)
	}
	if promoted {
		if !t.Promotable() {
			return NoPiece, 0, fmt.Errorf("%q cannot be promoted", ch)
		}
		t = t.Promote()
	}
	return MakePiece(c, t), n, nil
}

// pieceOfLetter returns the side and the unpromoted type of an SFEN
// letter: upper case for Black, lower case for White; NoPieceType for a
// letter that names no piece.
func pieceOfLetter(ch byte) (rules.Color, PieceType) {
	if ch >= 'a' && ch <= 'z' {
		return rules.Second, typeOfLetter(ch - ('a' - 'A'))
	}
	return rules.First, typeOfLetter(ch)
}

func (b *Board) parseHands(s string) error {
	if s == "-" {
		return nil
	}
	seen := [2][8]bool{}
	for i := 0; i < len(s); {
		n, j, err := parseHandCount(s, i)
		if err != nil {
			return err
		}
		c, t := pieceOfLetter(s[j])
		if t == NoPieceType || t == King {
			return fmt.Errorf("bad hand piece %q at offset %d", s[j], j)
		}
		if seen[c][t] {
			return fmt.Errorf("hand piece %q listed twice", s[j])
		}
		seen[c][t] = true
		b.hand[c][t] = uint8(n)
		i = j + 1
	}
	return nil
}

// parseHandCount reads the count of a hand piece, 2 to 18 or none for 1,
// at offset i of an SFEN hands field, and returns it and the offset of the
// piece letter that must follow.
func parseHandCount(s string, i int) (n, j int, err error) {
	j = i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	n = 1
	if j > i {
		v, err := strconv.Atoi(s[i:j])
		if err != nil || v < 2 || v > 18 || s[i] == '0' {
			return 0, 0, fmt.Errorf("bad count %q at offset %d", s[i:j], i)
		}
		n = v
	}
	if j == len(s) {
		return 0, 0, fmt.Errorf("count without a piece at offset %d", i)
	}
	return n, j, nil
}

// maxCount is the number of pieces of each base type in a full set.
var maxCount = [9]int{Pawn: 18, Lance: 4, Knight: 4, Silver: 4, Gold: 4, Bishop: 2, Rook: 2, King: 2}

// Validate checks the import rules of spec 5.1: at most one king per side
// and no more pieces of a type than a set has, no dead pieces, no nifu, and
// the side not to move not in check.
func (b *Board) Validate() error {
	var count [9]int
	var pawns [2][9]bool
	for i, s := range padOf {
		p := b.sq[s]
		if p == NoPiece {
			continue
		}
		t, c := p.Type(), p.Color()
		count[t.Base()]++
		if dead(c, t, int(s)) {
			return fmt.Errorf("%s %s on %s can never move", sideWord(c), t, SquareName(rules.Square(i)))
		}
		if t == Pawn {
			if pawns[c][i%9] {
				return fmt.Errorf("two unpromoted %s pawns on file %d (nifu)", sideWord(c), 9-i%9)
			}
			pawns[c][i%9] = true
		}
	}
	for c := range 2 {
		for t := Pawn; t <= Gold; t++ {
			count[t] += int(b.hand[c][t])
		}
	}
	for t := Pawn; t <= King; t++ {
		if count[t] > maxCount[t] {
			return fmt.Errorf("%d pieces of type %s, a set has %d", count[t], t, maxCount[t])
		}
	}
	if k := b.king[b.turn.Other()]; k != 0 && b.attacked(int(k), b.turn) {
		return fmt.Errorf("%s, not to move, is in check", sideWord(b.turn.Other()))
	}
	return nil
}

func sideWord(c rules.Color) string {
	if c == rules.First {
		return "Black"
	}
	return "White"
}

// SFEN returns the position in SFEN, hands in the writer's order of spec
// 5.1 (Black first, then White, each R B G S N L P).
func (b *Board) SFEN() string {
	var sb strings.Builder
	sb.Grow(90)
	b.writeBoard(&sb)
	if b.turn == rules.First {
		sb.WriteString(" b ")
	} else {
		sb.WriteString(" w ")
	}
	b.writeHands(&sb)
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(b.ply))
	return sb.String()
}

func (b *Board) writeBoard(sb *strings.Builder) {
	for r := range 9 {
		if r > 0 {
			sb.WriteByte('/')
		}
		empty := 0
		for f := range 9 {
			p := b.sq[padOf[r*9+f]]
			if p == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			sb.WriteString(p.String())
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
	}
}

func (b *Board) writeHands(sb *strings.Builder) {
	any := false
	for c := rules.First; c <= rules.Second; c++ {
		for _, t := range handTypes {
			n := int(b.hand[c][t])
			if n == 0 {
				continue
			}
			any = true
			if n > 1 {
				sb.WriteString(strconv.Itoa(n))
			}
			sb.WriteString(MakePiece(c, t).String())
		}
	}
	if !any {
		sb.WriteByte('-')
	}
}

// String returns the position in SFEN.
func (b *Board) String() string { return b.SFEN() }
