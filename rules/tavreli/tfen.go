package tavreli

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"arbiter/rules"
)

// Mode says how strictly a TFEN position is validated (D29).
type Mode uint8

const (
	// GameMode accepts only positions that a real game can have: 16
	// pieces per colour with the full inventory and Ratnik marks.
	GameMode Mode = iota
	// AnalysisMode accepts composed positions with fewer pieces. Every
	// other rule of spec 6.3 still applies.
	AnalysisMode
)

// String returns "game" or "analysis".
func (m Mode) String() string {
	if m == AnalysisMode {
		return "analysis"
	}
	return "game"
}

var fieldNames = [...]string{"", "board", "side", "castling", "en-passant", "double-step", "halfmove", "fullmove"}

// TFENError is a syntax or validation error in a TFEN string. Field is the
// field number of spec 6.1 (1 = board); Column is the 1-based character
// position in the whole string, or 0 when the error concerns the field or
// the position as a whole.
type TFENError struct {
	Field  int
	Column int
	Char   rune
	Msg    string
}

// Error names the field and, when there is one, the offending character.
func (e *TFENError) Error() string {
	var b strings.Builder
	b.WriteString("TFEN")
	if e.Field > 0 {
		fmt.Fprintf(&b, " field %d (%s)", e.Field, fieldNames[e.Field])
	}
	if e.Column > 0 {
		fmt.Fprintf(&b, ", character %d %q", e.Column, e.Char)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// ParseTFEN reads a position in TFEN (spec section 6) with the default
// initial array, validating it in the given mode.
func ParseTFEN(s string, mode Mode) (*Board, error) {
	return DefaultArray.ParseTFEN(s, mode)
}

// ParseTFEN reads a position in TFEN. The array decides which mark each
// file's Ratnik must carry for its double-step right.
func (a Array) ParseTFEN(s string, mode Mode) (*Board, error) {
	p := tfenParser{s: s, arr: a}
	b, err := p.parse()
	if err != nil {
		return nil, err
	}
	if err := a.validate(b, mode); err != nil {
		return nil, err
	}
	return b, nil
}

type tfenParser struct {
	s   string
	arr Array
}

func (p *tfenParser) errAt(field, off int, format string, args ...any) error {
	r, _ := utf8.DecodeRuneInString(p.s[off:])
	return &TFENError{Field: field, Column: utf8.RuneCountInString(p.s[:off]) + 1, Char: r, Msg: fmt.Sprintf(format, args...)}
}

func fieldErr(field int, format string, args ...any) error {
	return &TFENError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

func (p *tfenParser) parse() (*Board, error) {
	fields, offs, err := p.fields()
	if err != nil {
		return nil, err
	}
	b := &Board{ep: noSquare}
	if err := p.board(b, fields[0], offs[0]); err != nil {
		return nil, err
	}
	if b.side, err = p.side(fields[1], offs[1]); err != nil {
		return nil, err
	}
	castle, err := p.flags(3, fields[2], offs[2], castleLetters)
	if err != nil {
		return nil, err
	}
	b.castle = uint8(castle)
	if b.ep, err = p.epSquare(fields[3], offs[3]); err != nil {
		return nil, err
	}
	if b.dstep, err = p.flags(5, fields[4], offs[4], dstepLetters); err != nil {
		return nil, err
	}
	half, err := p.number(6, fields[5], offs[5], 0)
	if err != nil {
		return nil, err
	}
	full, err := p.number(7, fields[6], offs[6], 1)
	if err != nil {
		return nil, err
	}
	b.half, b.full = int32(half), int32(full)
	b.finish()
	return b, nil
}

// fields splits the TFEN into its seven fields and returns each with its
// byte offset.
func (p *tfenParser) fields() ([]string, [7]int, error) {
	var offs [7]int
	fields := strings.Split(p.s, " ")
	if len(fields) != 7 {
		return nil, offs, &TFENError{Msg: fmt.Sprintf("want 7 fields separated by single spaces, have %d", len(fields))}
	}
	o := 0
	for i, f := range fields {
		offs[i] = o
		o += len(f) + 1
		if f == "" {
			return nil, offs, fieldErr(i+1, "empty")
		}
	}
	return fields, offs, nil
}

// side reads the side-to-move field.
func (p *tfenParser) side(f string, off int) (rules.Color, error) {
	switch f {
	case "w":
		return rules.First, nil
	case "b":
		return rules.Second, nil
	}
	return rules.First, p.errAt(2, off, "want w or b")
}

// epSquare reads the en passant field: "-" or a square on rank 3 or 6.
func (p *tfenParser) epSquare(f string, off int) (int8, error) {
	if f == "-" {
		return noSquare, nil
	}
	if len(f) != 2 || f[0] < 'a' || f[0] > 'h' || (f[1] != '3' && f[1] != '6') {
		return noSquare, p.errAt(4, off, "want - or a square on rank 3 or 6")
	}
	return sqOf(int(f[0]-'a'), int(f[1]-'1')), nil
}

func (p *tfenParser) number(field int, f string, off, min int) (int, error) {
	for i := 0; i < len(f); i++ {
		if f[i] < '0' || f[i] > '9' {
			return 0, p.errAt(field, off+i, "not a digit")
		}
	}
	if len(f) > 1 && f[0] == '0' {
		return 0, p.errAt(field, off, "leading zero")
	}
	n, err := strconv.Atoi(f)
	if err != nil || n > 1<<30 {
		return 0, fieldErr(field, "number %q out of range", f)
	}
	if n < min {
		return 0, p.errAt(field, off, "must be at least %d", min)
	}
	return n, nil
}

// board reads the board field f, which starts at byte off of the TFEN,
// into b: ranks 8 to 1, each from file a.
func (p *tfenParser) board(b *Board, f string, off int) error {
	rank := 7
	file := 0
	var err error
	for i := 0; i < len(f) && err == nil; {
		ch := f[i]
		switch {
		case ch == '/':
			err = p.nextRank(off+i, &rank, &file)
			i++
		case ch >= '1' && ch <= '8':
			file += int(ch - '0')
			if file > 8 {
				err = p.errAt(1, off+i, "rank %d covers more than 8 squares", rank+1)
			}
			i++
		case file >= 8:
			err = p.errAt(1, off+i, "rank %d covers more than 8 squares", rank+1)
		case ch == '[':
			i, err = p.stack(b, f, off, i, sqOf(file, rank))
			file++
		default:
			var pc Piece
			var n int
			if pc, n, err = p.token(f, off, i); err == nil {
				if perr := b.push(sqOf(file, rank), pc); perr != nil {
					err = p.errAt(1, off+i, "%v", perr)
				}
			}
			file++
			i += n
		}
	}
	if err != nil {
		return err
	}
	if rank != 0 {
		return fieldErr(1, "%d ranks, want 8", 8-rank)
	}
	if file != 8 {
		return fieldErr(1, "rank 1 covers %d squares, want 8", file)
	}
	return nil
}

// nextRank reads the '/' at column off that ends a full rank.
func (p *tfenParser) nextRank(off int, rank, file *int) error {
	if *file != 8 {
		return p.errAt(1, off, "rank %d covers %d squares, want 8", *rank+1, *file)
	}
	if *rank == 0 {
		return p.errAt(1, off, "more than 8 ranks")
	}
	*rank--
	*file = 0
	return nil
}

// stack reads the bracketed stack "[...]" at f[i:], bottom piece first,
// onto sq, and returns the index after it.
func (p *tfenParser) stack(b *Board, f string, off, i int, sq int8) (int, error) {
	j := i + 1
	for j < len(f) && f[j] != ']' {
		pc, n, err := p.token(f, off, j)
		if err != nil {
			return i, err
		}
		if err := b.push(sq, pc); err != nil {
			return i, p.errAt(1, off+j, "%v", err)
		}
		j += n
	}
	if j >= len(f) {
		return i, p.errAt(1, off+i, "unclosed [")
	}
	if j == i+1 {
		return i, p.errAt(1, off+i, "empty stack []")
	}
	return j + 1, nil
}

// token reads one piece token at f[i:], returning it and its length.
func (p *tfenParser) token(f string, off, i int) (Piece, int, error) {
	ch := f[i]
	var pc Piece
	up := ch
	if ch >= 'a' && ch <= 'z' {
		pc.Color = rules.Second
		up = ch - 'a' + 'A'
	}
	r := roleOfLetter(up)
	if r == NoRole {
		return pc, 0, p.errAt(1, off+i, "not a piece letter")
	}
	pc.Role = r
	n := 1
	if r == Ratnik {
		if i+1 >= len(f) {
			return pc, 0, p.errAt(1, off+i, "Ratnik without a mark letter")
		}
		m := f[i+1]
		mu := m
		if pc.Color == rules.Second {
			mu = m - 'a' + 'A'
		}
		if (pc.Color == rules.First) != (m >= 'A' && m <= 'Z') || !validMark(roleOfLetter(mu)) {
			return pc, 0, p.errAt(1, off+i+1, "not a Ratnik mark (Q R B N H in the Ratnik's case)")
		}
		pc.Mark = roleOfLetter(mu)
		n = 2
	}
	if i+n < len(f) && f[i+n] == '~' {
		if r == Ratnik || r == Volkhv {
			return pc, 0, p.errAt(1, off+i+n, "%s cannot be promoted", r)
		}
		pc.Mark = r
		n++
	} else if r == Helgi {
		return pc, 0, p.errAt(1, off+i, "a Helgi is always a promoted Ratnik: write H~")
	}
	return pc, n, nil
}

// The letters of the castling and double-step fields, bit i for letter i.
const (
	castleLetters = "KQkq"
	dstepLetters  = "ABCDEFGHabcdefgh"
)

// flags reads a set of letters written in the order of letters (the
// castling and double-step fields), or "-", as a bit set: bit i for
// letters[i].
func (p *tfenParser) flags(field int, f string, off int, letters string) (uint16, error) {
	if f == "-" {
		return 0, nil
	}
	var set uint16
	last := -1
	for i := 0; i < len(f); i++ {
		k := strings.IndexByte(letters, f[i])
		if k < 0 {
			return 0, p.errAt(field, off+i, "not one of the letters %s", letters)
		}
		if k <= last {
			return 0, p.errAt(field, off+i, "letters out of order or repeated (want the order %s)", letters)
		}
		last = k
		set |= 1 << uint(k)
	}
	return set, nil
}

// validate applies spec 6.3.
func (a Array) validate(b *Board, mode Mode) error {
	if err := validateStacks(b); err != nil {
		return err
	}
	if err := validateCheck(b); err != nil {
		return err
	}
	if err := validateCastling(b); err != nil {
		return err
	}
	if err := a.validateDoubleSteps(b); err != nil {
		return err
	}
	if err := validateEnPassant(b); err != nil {
		return err
	}
	if mode == GameMode {
		return a.validateInventory(b)
	}
	return nil
}

// validateStacks checks every stack: a Volkhv only on top, no promoted
// captive, no unpromoted Ratnik on top on its last rank; and one Volkhv a
// side.
func validateStacks(b *Board) error {
	var volkhv [2]int
	for sq := int8(0); sq < numSquares; sq++ {
		t := b.top[sq]
		if t == 0 {
			continue
		}
		tc := b.color(t)
		for p := t; p != 0; p = b.below[p] {
			if b.role(p) == Volkhv {
				volkhv[b.color(p)]++
				if p != t {
					return fieldErr(1, "%s: a Volkhv must be the top piece of its square", squareName(sq))
				}
			}
			if b.color(p) != tc && b.mark[p] != NoRole && b.role(p) != Ratnik {
				return fieldErr(1, "%s: promoted piece %s is a captive (it would have been demoted)", squareName(sq), b.piece(p))
			}
		}
		if b.role(t) == Ratnik && rankOf(sq) == lastRank(tc) {
			return fieldErr(1, "%s: unpromoted Ratnik on top on its last rank", squareName(sq))
		}
	}
	for c, n := range volkhv {
		if n != 1 {
			return fieldErr(1, "%d %s Volkhvs, want exactly one", n, sideName(rules.Color(c)))
		}
	}
	return nil
}

// validateCheck rejects a position whose side not to move is in check.
func validateCheck(b *Board) error {
	if b.attacked(b.king[b.side.Other()], b.side) {
		return fieldErr(2, "the side not to move (%s) is in check", sideName(b.side.Other()))
	}
	return nil
}

// castlingRights are the castling rights in the order of the letters
// KQkq, with the Ratoborets' and the Volkhv's squares.
var castlingRights = [4]struct {
	right   uint8
	c       rules.Color
	rook, k int8
}{
	{CastleWhiteShort, rules.First, sqOf(7, 0), sqOf(4, 0)},
	{CastleWhiteLong, rules.First, sqOf(0, 0), sqOf(4, 0)},
	{CastleBlackShort, rules.Second, sqOf(7, 7), sqOf(4, 7)},
	{CastleBlackLong, rules.Second, sqOf(0, 7), sqOf(4, 7)},
}

// validateCastling checks that each castling right has its Volkhv alone
// on its square and an original Ratoborets at the bottom of its corner.
func validateCastling(b *Board) error {
	for i, r := range castlingRights {
		if b.castle&r.right == 0 {
			continue
		}
		if b.height[r.k] != 1 || b.topCode(r.k) != codeOf(r.c, Volkhv) {
			return fieldErr(3, "right %c: the %s Volkhv does not stand alone on %s", "KQkq"[i], sideName(r.c), squareName(r.k))
		}
		bot := b.bottom(r.rook)
		if bot == 0 || b.code[bot] != codeOf(r.c, Ratoborets) || b.mark[bot] != NoRole {
			return fieldErr(3, "right %c: the bottom piece of %s is not an original %s Ratoborets", "KQkq"[i], squareName(r.rook), sideName(r.c))
		}
	}
	return nil
}

// validateDoubleSteps checks that each double-step right has the Ratnik
// of its file, with the array's mark, at the bottom of its start square.
func (a Array) validateDoubleSteps(b *Board) error {
	for bit := range 16 {
		if b.dstep&(1<<uint(bit)) == 0 {
			continue
		}
		c := rules.Color(bit / 8)
		f := bit % 8
		sq := sqOf(f, startRank(c))
		bot := b.bottom(sq)
		if bot == 0 || b.code[bot] != codeOf(c, Ratnik) || b.mark[bot] != a.Mark(f) {
			letter := byte('A' + f)
			if c == rules.Second {
				letter = byte('a' + f)
			}
			return fieldErr(5, "right %c: the bottom piece of %s is not the %s Ratnik marked %c", letter, squareName(sq), sideName(c), a.Mark(f).Letter())
		}
	}
	return nil
}

// validateEnPassant checks that an en passant square is one a double step
// of the side that just moved crossed: on its rank, empty, with the
// Ratnik in front and its start square empty.
func validateEnPassant(b *Board) error {
	if b.ep < 0 {
		return nil
	}
	mover := b.side.Other()
	wantRank := 2
	if mover == rules.Second {
		wantRank = 5
	}
	if rankOf(b.ep) != wantRank {
		return fieldErr(4, "%s is not on the rank a %s double step crosses", squareName(b.ep), sideName(mover))
	}
	front := b.ep + forward(mover)
	if b.topCode(front) != codeOf(mover, Ratnik) {
		return fieldErr(4, "%s: no %s Ratnik on top of %s", squareName(b.ep), sideName(mover), squareName(front))
	}
	if b.top[b.ep] != 0 {
		return fieldErr(4, "%s: the square crossed is not empty", squareName(b.ep))
	}
	if start := b.ep - forward(mover); b.top[start] != 0 {
		return fieldErr(4, "%s: the start square %s is not empty", squareName(b.ep), squareName(start))
	}
	return nil
}

func (a Array) validateInventory(b *Board) error {
	for _, c := range []rules.Color{rules.First, rules.Second} {
		var orig [8]int
		var marks [8]int
		total := 0
		for p := uint8(1); p <= b.n; p++ {
			if b.color(p) != c {
				continue
			}
			total++
			if b.mark[p] != NoRole {
				marks[b.mark[p]]++
			} else {
				orig[b.role(p)]++
			}
		}
		if total != 16 {
			return fieldErr(1, "%s has %d pieces, want 16 (use analysis mode for composed positions)", sideName(c), total)
		}
		var want [8]int
		for f, r := range a {
			want[r]++
			marks[a.Mark(f)]--
		}
		for r := Vsadnik; r <= Volkhv; r++ {
			if orig[r] != want[r] {
				return fieldErr(1, "%s has %d original %ss, want %d", sideName(c), orig[r], r, want[r])
			}
		}
		for r, n := range marks {
			if n != 0 {
				return fieldErr(1, "%s Ratnik marks do not form the multiset of the initial array (mark %c off by %d)", sideName(c), Role(r).Letter(), n)
			}
		}
	}
	return nil
}

// bottom returns the bottom piece of sq, or 0.
func (b *Board) bottom(sq int8) uint8 {
	p := b.top[sq]
	for p != 0 && b.below[p] != 0 {
		p = b.below[p]
	}
	return p
}

func sideName(c rules.Color) string {
	if c == rules.First {
		return "White"
	}
	return "Black"
}

// TFEN returns the position in canonical TFEN.
func (b *Board) TFEN() string {
	buf := b.appendKeyFields(make([]byte, 0, 128), b.ep)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(b.half), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(b.full), 10)
	return string(buf)
}

// appendKeyFields writes the first five TFEN fields with the given en
// passant square.
func (b *Board) appendKeyFields(buf []byte, ep int8) []byte {
	var stack [MaxPieces]uint8
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := range 8 {
			sq := sqOf(f, r)
			h := int(b.height[sq])
			if h == 0 {
				empty++
				continue
			}
			if empty > 0 {
				buf = append(buf, byte('0'+empty))
				empty = 0
			}
			i := h
			for p := b.top[sq]; p != 0; p = b.below[p] {
				i--
				stack[i] = p
			}
			if h > 1 {
				buf = append(buf, '[')
			}
			for _, p := range stack[:h] {
				buf = b.piece(p).appendToken(buf)
			}
			if h > 1 {
				buf = append(buf, ']')
			}
		}
		if empty > 0 {
			buf = append(buf, byte('0'+empty))
		}
		if r > 0 {
			buf = append(buf, '/')
		}
	}
	buf = append(buf, ' ')
	if b.side == rules.First {
		buf = append(buf, 'w')
	} else {
		buf = append(buf, 'b')
	}
	buf = append(buf, ' ')
	buf = appendFlags(buf, uint16(b.castle), castleLetters)
	buf = append(buf, ' ')
	if ep >= 0 {
		buf = appendSquare(buf, ep)
	} else {
		buf = append(buf, '-')
	}
	buf = append(buf, ' ')
	return appendFlags(buf, b.dstep, dstepLetters)
}

// appendFlags writes the letters of the bits set in set, in order, or "-"
// for none: the inverse of tfenParser.flags.
func appendFlags(buf []byte, set uint16, letters string) []byte {
	if set == 0 {
		return append(buf, '-')
	}
	for i := range len(letters) {
		if set&(1<<uint(i)) != 0 {
			buf = append(buf, letters[i])
		}
	}
	return buf
}

// RepetitionKey returns the repetition key of spec 6.4: the first five
// TFEN fields, with the en passant square only when an en passant capture
// is legal (D25, D27).
func (b *Board) RepetitionKey() string {
	ep := int8(noSquare)
	if b.ep >= 0 && b.hasLegalEnPassant() {
		ep = b.ep
	}
	return string(b.appendKeyFields(make([]byte, 0, 128), ep))
}

func (b *Board) hasLegalEnPassant() bool {
	var buf [64]Move
	for _, m := range b.GenerateLegal(buf[:0]) {
		if m.kind == EnPassant {
			return true
		}
	}
	return false
}
