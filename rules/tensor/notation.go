package tensor

import (
	"bytes"
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
	name := b.Config().CellName
	from, to := int(m.From), int(m.To)
	switch m.Kind {
	case chesscore.Castle:
		return "K" + name(from) + "-" + name(to)
	case chesscore.EnPassant:
		return name(from) + "x" + name(to)
	case chesscore.Push:
		return pieceLetter(b.At(from).Kind()) + name(from) + "-" + name(to) + "T" + name(int(m.Aux))
	case chesscore.MonsterCapture:
		return monsterCaptureTLAN(b, m)
	}
	switch b.At(from).Kind() {
	case chesscore.Pawn:
		promo := ""
		if m.Promo != chesscore.NoKind {
			promo = "=" + string(m.Promo.Letter())
		}
		return name(from) + captureSep(b, to) + name(to) + promo
	case chesscore.Monster:
		return monsterTLAN(b, m)
	}
	return pieceTLAN(b, m)
}

// pieceLetter returns the letter TLAN writes for a piece of kind k: none
// for a pawn.
func pieceLetter(k chesscore.Kind) string {
	if k == chesscore.Pawn {
		return ""
	}
	return string(k.Letter())
}

// captureSep returns the separator of a move onto cell to: "x" when it
// holds a piece, else "-".
func captureSep(b *chesscore.Board, to int) string {
	if b.At(to) != chesscore.Empty {
		return "x"
	}
	return "-"
}

// monsterCaptureTLAN writes a monster capture: the hop chain that reaches
// the cell before the capturing hop, then the capture.
func monsterCaptureTLAN(b *chesscore.Board, m chesscore.Move) string {
	c := b.Config()
	from, to, over := int(m.From), int(m.To), int(m.Aux)
	a := 2*over - to // the cell before the capturing hop
	dirs := orth
	if isDiagonal(c, over, to) {
		dirs = diag
	}
	route, _ := newView(b, from).chain(dirs, a)
	return "T" + c.CellName(from) + joinRoute(c, route, ":") + "x" + c.CellName(to)
}

// monsterTLAN writes a monster's step, or its hop chain: the least route,
// diagonal chains tried first.
func monsterTLAN(b *chesscore.Board, m chesscore.Move) string {
	c := b.Config()
	from, to := int(m.From), int(m.To)
	ff, fr := c.FileRank(from)
	tf, tr := c.FileRank(to)
	if abs(ff-tf) <= 1 && abs(fr-tr) <= 1 {
		return "T" + c.CellName(from) + "-" + c.CellName(to)
	}
	v := newView(b, from)
	var best []int
	for _, dirs := range [][][2]int{diag, orth} {
		if r, ok := v.chain(dirs, to); ok && (best == nil || v.lessRoute(r, best)) {
			best = r
		}
	}
	return "T" + c.CellName(from) + joinRoute(c, best, ":")
}

// pieceTLAN writes the move of a piece that is neither a pawn nor a
// monster: straight, or bouncing off the own monster with the smallest
// square index.
func pieceTLAN(b *chesscore.Board, m chesscore.Move) string {
	name := b.Config().CellName
	from, to := int(m.From), int(m.To)
	k := b.At(from).Kind()
	letter, sep := pieceLetter(k), captureSep(b, to)
	v := newView(b, from)
	if v.straight(k, from, to) {
		return letter + name(from) + sep + name(to)
	}
	for _, mc := range bouncers(b, from) {
		if v.bounce(k, from, mc, to) {
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
	lx := tlanLexer{c: c, text: text}
	if lx.i < len(text) && strings.IndexByte("KQRBNT", text[lx.i]) >= 0 {
		t.piece = text[lx.i]
		lx.i++
	}
	if err := lx.route(&t); err != nil {
		return t, err
	}
	if err := lx.tail(&t); err != nil {
		return t, err
	}
	if lx.i != len(text) {
		return t, fmt.Errorf("unexpected %q at column %d", text[lx.i:], lx.i+1)
	}
	return t, nil
}

// tlanLexer reads a TLAN text from byte i on.
type tlanLexer struct {
	c    *chesscore.Config
	text string
	i    int
}

// square reads a cell name: letters, then digits.
func (lx *tlanLexer) square() (int, error) {
	text, i := lx.text, lx.i
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
	cell, ok := lx.c.LookupCell(text[i:k])
	if !ok {
		return 0, fmt.Errorf("%q at column %d is not a square of the board", text[i:k], i+1)
	}
	lx.i = k
	return cell, nil
}

// route reads the first square and each separator -, x or : with the
// square after it.
func (lx *tlanLexer) route(t *tlanMove) error {
	sq, err := lx.square()
	if err != nil {
		return err
	}
	t.squares = append(t.squares, sq)
	for lx.i < len(lx.text) && strings.IndexByte("-x:", lx.text[lx.i]) >= 0 {
		t.seps = append(t.seps, lx.text[lx.i])
		lx.i++
		if sq, err = lx.square(); err != nil {
			return err
		}
		t.squares = append(t.squares, sq)
	}
	if len(t.seps) == 0 {
		return fmt.Errorf("want a separator -, x or : after the first square")
	}
	return nil
}

// tail reads what may follow the route: a promotion "=Q" or a push tail
// "Td".
func (lx *tlanLexer) tail(t *tlanMove) error {
	text, i := lx.text, lx.i
	switch {
	case i < len(text) && text[i] == '=':
		if i+1 >= len(text) {
			return fmt.Errorf("promotion without a piece letter")
		}
		k, ok := chesscore.KindOf(text[i+1])
		if !ok || k == chesscore.Pawn || k == chesscore.King {
			return fmt.Errorf("promotion to %q: want Q, R, B, N or T", text[i+1])
		}
		t.promo = k
		lx.i += 2
	case i < len(text) && text[i] == 'T':
		lx.i++
		var err error
		if t.pushTo, err = lx.square(); err != nil {
			return fmt.Errorf("push tail: %w", err)
		}
	}
	return nil
}

var castleAliases = map[string]int{"O-O-h": 7, "O-O-i": 8, "O-O-O-c": 2, "O-O-O-b": 1}

// parseTLAN checks the text's route against the rules and returns the
// effect it describes; the caller checks legality.
func parseTLAN(b *chesscore.Board, text string) (chesscore.Move, error) {
	c := b.Config()
	if f, ok := castleAliases[text]; ok {
		ks := b.KingCell(b.Turn())
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
	want, err := moverKind(b, t)
	if err != nil {
		return chesscore.Move{}, err
	}
	v := newView(b, t.squares[0])
	if want == chesscore.Monster {
		return parseMonster(v, t)
	}
	if err := checkSeparators(t.seps); err != nil {
		return chesscore.Move{}, err
	}
	if t.pushTo >= 0 {
		return parsePush(v, t)
	}
	return parseRoute(v, t, want)
}

// moverKind checks that the first square holds a piece of the side to
// move of the kind the text names (a pawn when it names none), and
// returns that kind.
func moverKind(b *chesscore.Board, t tlanMove) (chesscore.Kind, error) {
	c := b.Config()
	from := t.squares[0]
	p := b.At(from)
	if !p.IsPiece() || p.Color() != b.Turn() {
		return chesscore.NoKind, fmt.Errorf("no piece of the side to move on %s", c.CellName(from))
	}
	want := chesscore.Pawn
	if t.piece != 0 {
		want, _ = chesscore.KindOf(t.piece)
	}
	if p.Kind() != want {
		return chesscore.NoKind, fmt.Errorf("%s holds a %c, not a %c", c.CellName(from), p.Kind().Letter(), want.Letter())
	}
	return want, nil
}

// checkSeparators checks the separators of a move that is not a
// monster's: no hops, and only the last part a capture.
func checkSeparators(seps []byte) error {
	if bytes.IndexByte(seps, ':') >= 0 {
		return fmt.Errorf("':' (hop) is for monsters only")
	}
	for _, s := range seps[:len(seps)-1] {
		if s != '-' {
			return fmt.Errorf("only the last part of a move may be a capture")
		}
	}
	return nil
}

// parsePush checks a push, S-MTd: a move onto an own monster that pushes
// it on to d.
func parsePush(v view, t tlanMove) (chesscore.Move, error) {
	from, last := t.squares[0], t.squares[len(t.squares)-1]
	if len(t.squares) != 2 || t.seps[len(t.seps)-1] == 'x' {
		return chesscore.Move{}, fmt.Errorf("a push is written S-MTd and never captures")
	}
	if !v.ownMonster(v.b.At(last)) {
		return chesscore.Move{}, fmt.Errorf("push onto %s, which holds no own monster", v.c.CellName(last))
	}
	return chesscore.Move{From: uint8(from), To: uint8(last), Aux: uint8(t.pushTo), Kind: chesscore.Push}, nil
}

// parseRoute checks the straight move or bounce of a piece of kind want
// that is not a monster, with its capture mark, and returns its effect:
// an ordinary move, en passant, a promotion, or castling written as the
// king's move.
func parseRoute(v view, t tlanMove, want chesscore.Kind) (chesscore.Move, error) {
	b, c := v.b, v.c
	from, last := t.squares[0], t.squares[len(t.squares)-1]
	capture := t.seps[len(t.seps)-1] == 'x'
	if err := checkTarget(v, t, want); err != nil {
		return chesscore.Move{}, err
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

// checkTarget checks the number of squares and the capture mark against
// what the last square holds: 'x' onto an enemy piece that can be captured
// (or the en passant square for a pawn), '-' onto an empty square.
func checkTarget(v view, t tlanMove, want chesscore.Kind) error {
	if len(t.squares) > 3 {
		return fmt.Errorf("too many squares")
	}
	last := t.squares[len(t.squares)-1]
	capture := t.seps[len(t.seps)-1] == 'x'
	target := v.b.At(last)
	switch {
	case capture && !v.enemyOrdinary(target) && !(want == chesscore.Pawn && last == v.b.EP()):
		return fmt.Errorf("'x' but %s holds no enemy piece that can be captured", v.c.CellName(last))
	case !capture && target != chesscore.Empty:
		return fmt.Errorf("'-' onto the occupied square %s (write x for a capture, or a push tail)", v.c.CellName(last))
	}
	return nil
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
	if t.promo != chesscore.NoKind || t.pushTo >= 0 {
		return chesscore.Move{}, fmt.Errorf("a monster neither promotes nor pushes")
	}
	if len(t.seps) == 1 && t.seps[0] == '-' {
		return monsterStep(v, t.squares[0], t.squares[1])
	}
	for i, s := range t.seps {
		if s == '-' || (s == 'x' && i != len(t.seps)-1) {
			return chesscore.Move{}, fmt.Errorf("a hop chain is written with ':' and only its last hop may be 'x'")
		}
	}
	return monsterHops(v, t)
}

// monsterStep checks a monster's step from one cell to the next.
func monsterStep(v view, from, to int) (chesscore.Move, error) {
	ff, fr := v.c.FileRank(from)
	tf, tr := v.c.FileRank(to)
	if abs(ff-tf) > 1 || abs(fr-tr) > 1 {
		return chesscore.Move{}, fmt.Errorf("a monster step goes one square; hops are written with ':'")
	}
	if v.at(tf, tr) != chesscore.Empty {
		return chesscore.Move{}, fmt.Errorf("a monster steps only onto an empty square")
	}
	return chesscore.Move{From: uint8(from), To: uint8(to)}, nil
}

// monsterHops follows a hop chain, all hops diagonal or all straight as
// the first one; a last hop written 'x' captures the enemy monster it
// jumps.
func monsterHops(v view, t tlanMove) (chesscore.Move, error) {
	c := v.c
	from := t.squares[0]
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
			return monsterCapture(v, from, l, over)
		}
		cur = l
	}
	if cur == from {
		return chesscore.Move{}, fmt.Errorf("a hop chain without capture may not end on its start (a pass)")
	}
	return chesscore.Move{From: uint8(from), To: uint8(cur)}, nil
}

// monsterCapture checks that the last hop, onto l, jumps an enemy monster
// on over.
func monsterCapture(v view, from, l, over int) (chesscore.Move, error) {
	enemy := chesscore.MakePiece(v.us.Other(), chesscore.Monster)
	if v.b.At(over) != enemy {
		return chesscore.Move{}, fmt.Errorf("'x' but the hop over %s jumps no enemy monster", v.c.CellName(over))
	}
	return chesscore.Move{From: uint8(from), To: uint8(l), Aux: uint8(over), Kind: chesscore.MonsterCapture}, nil
}
