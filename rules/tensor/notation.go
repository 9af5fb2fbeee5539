package tensor

import (
	"fmt"
	"strings"

	"arbiter/rules/internal/chesscore"
)

// dialect gives the engine Tensor's notation TLAN (section 4).
type dialect struct{}

// MoveText returns m in canonical TLAN (4.3) without the check mark.
func (dialect) MoveText(b *chesscore.Board, m chesscore.Move) string { return tlan(b, m) }

// FormatMove returns m in canonical TLAN with the check or mate mark.
func (dialect) FormatMove(b *chesscore.Board, m chesscore.Move) string {
	return tlan(b, m) + b.CheckSuffix(m)
}

func tlan(b *chesscore.Board, m chesscore.Move) string {
	c := b.Config()
	from, to := int(m.From), int(m.To)
	name := c.CellName
	p := b.At(from)
	letter := ""
	if k := p.Kind(); k != chesscore.Pawn {
		letter = string(k.Letter())
	}
	v := newView(b, from)
	switch m.Kind {
	case chesscore.Castle:
		return "K" + name(from) + "-" + name(to)
	case chesscore.EnPassant:
		return name(from) + "x" + name(to)
	case chesscore.Push:
		return letter + name(from) + "-" + name(to) + "T" + name(int(m.Aux))
	case chesscore.MonsterCapture:
		over := int(m.Aux)
		a := 2*over - to // the cell before the capturing hop
		dirs := orth
		if isDiagonal(c, over, to) {
			dirs = diag
		}
		route, _ := v.chain(dirs, a)
		return "T" + name(from) + joinRoute(c, route, ":") + "x" + name(to)
	}
	sep := "-"
	if b.At(to) != chesscore.Empty {
		sep = "x"
	}
	promo := ""
	if m.Promo != chesscore.NoKind {
		promo = "=" + string(m.Promo.Letter())
	}
	switch p.Kind() {
	case chesscore.Pawn:
		return name(from) + sep + name(to) + promo
	case chesscore.Monster:
		ff, fr := c.FileRank(from)
		tf, tr := c.FileRank(to)
		if abs(ff-tf) <= 1 && abs(fr-tr) <= 1 {
			return "T" + name(from) + "-" + name(to)
		}
		var best []int
		for _, dirs := range [][][2]int{diag, orth} {
			if r, ok := v.chain(dirs, to); ok && (best == nil || v.lessRoute(r, best)) {
				best = r
			}
		}
		return "T" + name(from) + joinRoute(c, best, ":")
	}
	if v.straight(p.Kind(), from, to) {
		return letter + name(from) + sep + name(to)
	}
	// Bounce: the own monster with the smallest square index.
	for _, mc := range bouncers(b, from) {
		if v.bounce(p.Kind(), from, mc, to) {
			return letter + name(from) + "-" + name(mc) + sep + name(to)
		}
	}
	return letter + name(from) + sep + name(to) // not reached for legal moves
}

func isDiagonal(c *chesscore.Config, a, b int) bool {
	fa, ra := c.FileRank(a)
	fb, rb := c.FileRank(b)
	return fa != fb && ra != rb
}

// bouncers returns the cells of the mover's monsters in square order.
func bouncers(b *chesscore.Board, from int) []int {
	c := b.Config()
	own := chesscore.MakePiece(b.Turn(), chesscore.Monster)
	var out []int
	for sq := range c.Width() * c.Height() {
		cell := c.CellAt(sq%c.Width(), sq/c.Width())
		if cell != from && b.At(cell) == own {
			out = append(out, cell)
		}
	}
	return out
}

func joinRoute(c *chesscore.Config, route []int, sep string) string {
	var sb strings.Builder
	for _, l := range route {
		sb.WriteString(sep)
		sb.WriteString(c.CellName(l))
	}
	return sb.String()
}

// ParseMove reads TLAN (any valid route, not only the canonical one, with
// or without check marks) and the castling aliases O-O-h, O-O-i, O-O-O-c,
// O-O-O-b. Errors say which rule the text breaks.
func (dialect) ParseMove(b *chesscore.Board, s string) (chesscore.Move, error) {
	text := strings.TrimRight(strings.TrimSpace(s), "+#!?")
	m, err := parseTLAN(b, text)
	if err != nil {
		return chesscore.Move{}, fmt.Errorf("move %q: %w", s, err)
	}
	var buf [256]chesscore.Move
	for _, l := range b.Legal(buf[:0]) {
		if l == m {
			return m, nil
		}
		// A monster capture that returns to its start: any monster that
		// can make it names the same move (D46).
		if m.Kind == chesscore.MonsterCapture && l.Kind == chesscore.MonsterCapture &&
			m.From == m.To && l.From == l.To && m.Aux == l.Aux {
			return l, nil
		}
	}
	return chesscore.Move{}, fmt.Errorf("move %q: not legal in this position", s)
}

// tlanMove is a TLAN text split into its parts.
type tlanMove struct {
	piece   byte  // 0 for a pawn
	squares []int // cells
	seps    []byte
	promo   chesscore.Kind
	pushTo  int // cell, -1 if no push tail
}

func lexTLAN(c *chesscore.Config, text string) (tlanMove, error) {
	t := tlanMove{pushTo: -1}
	i := 0
	if i < len(text) && strings.IndexByte("KQRBNT", text[i]) >= 0 {
		t.piece = text[i]
		i++
	}
	readSquare := func() (int, error) {
		j := i
		for j < len(text) && text[j] >= 'a' && text[j] <= 'z' {
			j++
		}
		k := j
		for k < len(text) && text[k] >= '0' && text[k] <= '9' {
			k++
		}
		if j == i || k == j {
			return 0, fmt.Errorf("want a square at column %d", i+1)
		}
		cell, ok := c.LookupCell(text[i:k])
		if !ok {
			return 0, fmt.Errorf("%q at column %d is not a square of the board", text[i:k], i+1)
		}
		i = k
		return cell, nil
	}
	sq, err := readSquare()
	if err != nil {
		return t, err
	}
	t.squares = append(t.squares, sq)
	for i < len(text) && strings.IndexByte("-x:", text[i]) >= 0 {
		t.seps = append(t.seps, text[i])
		i++
		if sq, err = readSquare(); err != nil {
			return t, err
		}
		t.squares = append(t.squares, sq)
	}
	if len(t.seps) == 0 {
		return t, fmt.Errorf("want a separator -, x or : after the first square")
	}
	if i < len(text) && text[i] == '=' {
		if i+1 >= len(text) {
			return t, fmt.Errorf("promotion without a piece letter")
		}
		k, ok := chesscore.KindOf(text[i+1])
		if !ok || k == chesscore.Pawn || k == chesscore.King {
			return t, fmt.Errorf("promotion to %q: want Q, R, B, N or T", text[i+1])
		}
		t.promo = k
		i += 2
	} else if i < len(text) && text[i] == 'T' {
		i++
		if t.pushTo, err = readSquare(); err != nil {
			return t, fmt.Errorf("push tail: %w", err)
		}
	}
	if i != len(text) {
		return t, fmt.Errorf("unexpected %q at column %d", text[i:], i+1)
	}
	return t, nil
}

var castleAliases = map[string]int{"O-O-h": 7, "O-O-i": 8, "O-O-O-c": 2, "O-O-O-b": 1}

// parseTLAN checks the text's route against the rules and returns the
// effect it describes; the caller checks legality.
func parseTLAN(b *chesscore.Board, text string) (chesscore.Move, error) {
	c := b.Config()
	us := b.Turn()
	if f, ok := castleAliases[text]; ok {
		ks := b.KingCell(us)
		_, r := c.FileRank(ks)
		return castleMove(b, ks, c.CellAt(f, r))
	}
	if text == "O-O" || text == "O-O-O" || text == "0-0" || text == "0-0-0" {
		return chesscore.Move{}, fmt.Errorf("ambiguous castling: write the king's move (Kf1-i1) or O-O-h, O-O-i, O-O-O-c, O-O-O-b")
	}
	t, err := lexTLAN(c, text)
	if err != nil {
		return chesscore.Move{}, err
	}
	from := t.squares[0]
	p := b.At(from)
	if !p.IsPiece() || p.Color() != us {
		return chesscore.Move{}, fmt.Errorf("no piece of the side to move on %s", c.CellName(from))
	}
	want := chesscore.Pawn
	if t.piece != 0 {
		want, _ = chesscore.KindOf(t.piece)
	}
	if p.Kind() != want {
		return chesscore.Move{}, fmt.Errorf("%s holds a %c, not a %c", c.CellName(from), p.Kind().Letter(), want.Letter())
	}
	v := newView(b, from)
	last := t.squares[len(t.squares)-1]
	capture := t.seps[len(t.seps)-1] == 'x'
	if want == chesscore.Monster {
		return parseMonster(v, t)
	}
	for _, s := range t.seps {
		if s == ':' {
			return chesscore.Move{}, fmt.Errorf("':' (hop) is for monsters only")
		}
	}
	for _, s := range t.seps[:len(t.seps)-1] {
		if s != '-' {
			return chesscore.Move{}, fmt.Errorf("only the last part of a move may be a capture")
		}
	}
	if t.pushTo >= 0 {
		if len(t.squares) != 2 || capture {
			return chesscore.Move{}, fmt.Errorf("a push is written S-MTd and never captures")
		}
		if !v.ownMonster(b.At(last)) {
			return chesscore.Move{}, fmt.Errorf("push onto %s, which holds no own monster", c.CellName(last))
		}
		return chesscore.Move{From: uint8(from), To: uint8(last), Aux: uint8(t.pushTo), Kind: chesscore.Push}, nil
	}
	if len(t.squares) > 3 {
		return chesscore.Move{}, fmt.Errorf("too many squares")
	}
	target := b.At(last)
	switch {
	case capture && !v.enemyOrdinary(target) && !(want == chesscore.Pawn && last == b.EP()):
		return chesscore.Move{}, fmt.Errorf("'x' but %s holds no enemy piece that can be captured", c.CellName(last))
	case !capture && target != chesscore.Empty:
		return chesscore.Move{}, fmt.Errorf("'-' onto the occupied square %s (write x for a capture, or a push tail)", c.CellName(last))
	}
	if len(t.squares) == 3 {
		if !v.bounce(want, from, t.squares[1], last) {
			return chesscore.Move{}, fmt.Errorf("%s-%s-%s is not a bounce off an own monster", c.CellName(from), c.CellName(t.squares[1]), c.CellName(last))
		}
		return chesscore.Move{From: uint8(from), To: uint8(last)}, nil
	}
	switch want {
	case chesscore.Pawn:
		if last == b.EP() && capture {
			return chesscore.Move{From: uint8(from), To: uint8(last), Kind: chesscore.EnPassant}, nil
		}
		return chesscore.Move{From: uint8(from), To: uint8(last), Promo: t.promo}, nil
	case chesscore.King:
		ff, fr := c.FileRank(from)
		lf, _ := c.FileRank(last)
		if abs(lf-ff) >= 2 && !capture {
			return castleMove(b, from, c.CellAt(lf, fr))
		}
	}
	if t.promo != chesscore.NoKind {
		return chesscore.Move{}, fmt.Errorf("only pawns promote")
	}
	if !v.straight(want, from, last) {
		return chesscore.Move{}, fmt.Errorf("%s cannot go straight from %s to %s (a bounce is written S-M-D)", string(want.Letter()), c.CellName(from), c.CellName(last))
	}
	return chesscore.Move{From: uint8(from), To: uint8(last)}, nil
}

func castleMove(b *chesscore.Board, ks, kt int) (chesscore.Move, error) {
	var buf [256]chesscore.Move
	for _, m := range b.Legal(buf[:0]) {
		if m.Kind == chesscore.Castle && int(m.From) == ks && int(m.To) == kt {
			return m, nil
		}
	}
	return chesscore.Move{}, fmt.Errorf("castling with the king to %s is not legal here", b.Config().CellName(kt))
}

// parseMonster checks a monster step, hop chain or capture.
func parseMonster(v view, t tlanMove) (chesscore.Move, error) {
	c := v.c
	from := t.squares[0]
	if t.promo != chesscore.NoKind || t.pushTo >= 0 {
		return chesscore.Move{}, fmt.Errorf("a monster neither promotes nor pushes")
	}
	if len(t.seps) == 1 && t.seps[0] == '-' {
		to := t.squares[1]
		ff, fr := c.FileRank(from)
		tf, tr := c.FileRank(to)
		if abs(ff-tf) > 1 || abs(fr-tr) > 1 {
			return chesscore.Move{}, fmt.Errorf("a monster step goes one square; hops are written with ':'")
		}
		if v.at(tf, tr) != chesscore.Empty {
			return chesscore.Move{}, fmt.Errorf("a monster steps only onto an empty square")
		}
		return chesscore.Move{From: uint8(from), To: uint8(to)}, nil
	}
	for i, s := range t.seps {
		if s == '-' || (s == 'x' && i != len(t.seps)-1) {
			return chesscore.Move{}, fmt.Errorf("a hop chain is written with ':' and only its last hop may be 'x'")
		}
	}
	dirs := orth
	if isDiagonal(c, from, t.squares[1]) {
		dirs = diag
	}
	cur := from
	for i, l := range t.squares[1:] {
		over, ok := v.hop(dirs, cur, l)
		if !ok {
			return chesscore.Move{}, fmt.Errorf("hop %d %s:%s: want a jump over an adjacent piece onto the empty square beyond, all hops diagonal or all straight",
				i+1, c.CellName(cur), c.CellName(l))
		}
		if i == len(t.seps)-1 && t.seps[i] == 'x' {
			enemy := chesscore.MakePiece(v.us.Other(), chesscore.Monster)
			if v.b.At(over) != enemy {
				return chesscore.Move{}, fmt.Errorf("'x' but the hop over %s jumps no enemy monster", c.CellName(over))
			}
			return chesscore.Move{From: uint8(from), To: uint8(l), Aux: uint8(over), Kind: chesscore.MonsterCapture}, nil
		}
		cur = l
	}
	if cur == from {
		return chesscore.Move{}, fmt.Errorf("a hop chain without capture may not end on its start (a pass)")
	}
	return chesscore.Move{From: uint8(from), To: uint8(cur)}, nil
}
