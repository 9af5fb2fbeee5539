package shogi

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"arbiter/rules"
)

// Japanese move notation of KIF and KI2 (spec 5.3, 5.5).

const (
	zenDigits  = "１２３４５６７８９"
	kanjiDigit = "一二三四五六七八九"
	ideoSpace  = "\u3000"
)

// kifNames are the names KIF and KI2 write for each type.
var kifNames = [...]string{
	Pawn: "歩", Lance: "香", Knight: "桂", Silver: "銀", Gold: "金", Bishop: "角", Rook: "飛", King: "玉",
	Tokin: "と", PromotedLance: "成香", PromotedKnight: "成桂", PromotedSilver: "成銀", Horse: "馬", Dragon: "龍",
}

// kifAliases are further names readers accept (spec 5.3).
var kifAliases = map[string]PieceType{"王": King, "竜": Dragon, "杏": PromotedLance, "圭": PromotedKnight, "全": PromotedSilver, "仝": NoPieceType}

// KIFName returns the name KIF and KI2 write for t: 歩, 成銀, 龍.
func (t PieceType) KIFName() string {
	if !t.Valid() {
		return "?"
	}
	return kifNames[t]
}

// ParseKIFPiece reads a piece name (歩 .. 龍, also 王 竜 杏 圭 全) at the
// start of s and returns its type and the rest of s.
func ParseKIFPiece(s string) (PieceType, string, bool) {
	for t := PromotedLance; t <= PromotedSilver; t++ {
		if rest, ok := strings.CutPrefix(s, kifNames[t]); ok {
			return t, rest, true
		}
	}
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return 0, s, false
	}
	name := s[:n]
	for t := Pawn; t <= Dragon; t++ {
		if kifNames[t] == name {
			return t, s[n:], true
		}
	}
	if t, ok := kifAliases[name]; ok && t != NoPieceType {
		return t, s[n:], true
	}
	return 0, s, false
}

// zenDigit returns the full-width digit of n (1..9).
func zenDigit(n int) string { return zenDigits[(n-1)*3 : n*3] }

// kanjiNum returns the kanji numeral of n (1..9).
func kanjiNum(n int) string { return kanjiDigit[(n-1)*3 : n*3] }

// japaneseSquare writes sq as "７六".
func japaneseSquare(sq rules.Square) string {
	f, r := fileRank(sq)
	return zenDigit(f) + kanjiNum(r)
}

// digitValue reads one file or rank digit (ASCII, full-width or kanji) at
// the start of s.
func digitValue(s string) (int, string, bool) {
	if s == "" {
		return 0, s, false
	}
	if s[0] >= '1' && s[0] <= '9' {
		return int(s[0] - '0'), s[1:], true
	}
	r, n := utf8.DecodeRuneInString(s)
	if i := strings.IndexRune(zenDigits, r); i >= 0 {
		return i/3 + 1, s[n:], true
	}
	if i := strings.IndexRune(kanjiDigit, r); i >= 0 {
		return i/3 + 1, s[n:], true
	}
	return 0, s, false
}

// promotionChoice reports whether m's piece could have promoted on this
// move (so that declining must or may be written as 不成).
func promotionChoice(m Move, c rules.Color) bool {
	return !m.IsDrop() && m.piece().Type().Promotable() && (inZone[c][m.from()] || inZone[c][m.to()])
}

// sideMark returns ▲ for Black and △ for White.
func sideMark(c rules.Color) string {
	if c == rules.First {
		return "▲"
	}
	return "△"
}

// jmove is a move in Japanese notation taken apart.
type jmove struct {
	side    int          // 0 none, 1 Black, 2 White
	to      rules.Square // NoSquare for 同 until resolved
	same    bool         // 同
	piece   PieceType
	mods    string // 右 左 直 上 引 寄
	promote int    // 0 none written, 1 成, -1 不成
	drop    bool   // 打
	from    rules.Square
	hasFrom bool
}

// sideMarks are the marks a Japanese move may start with, and the side
// (as in jmove.side) each names.
var sideMarks = []struct {
	mark string
	side int
}{{"▲", 1}, {"☗", 1}, {"△", 2}, {"☖", 2}, {"▽", 2}}

// parseJapanese takes a KIF or KI2 move apart: [▲△]dest piece [mods]
// [成|不成] [打] [(ff)].
func parseJapanese(s string) (jmove, error) {
	j := jmove{to: rules.NoSquare, from: rules.NoSquare}
	orig := s
	s = strings.TrimSpace(s)
	for _, mk := range sideMarks {
		if rest, ok := strings.CutPrefix(s, mk.mark); ok {
			j.side, s = mk.side, rest
			break
		}
	}
	s, err := j.parseDestination(s, orig)
	if err != nil {
		return j, err
	}
	t, rest, ok := ParseKIFPiece(s)
	if !ok {
		return j, fmt.Errorf("move %q: unknown piece name at %q", orig, s)
	}
	j.piece, s = t, rest
	for s != "" {
		if s, err = j.parseSuffix(s, orig); err != nil {
			return j, err
		}
	}
	return j, j.checkDrop(orig)
}

// checkDrop checks that j, if a drop (打), has no promotion and no
// origin and drops a piece a hand can hold. orig is the whole move, for
// errors.
func (j *jmove) checkDrop(orig string) error {
	switch {
	case !j.drop:
		return nil
	case j.promote != 0 || j.hasFrom:
		return fmt.Errorf("move %q: a drop has no promotion and no origin", orig)
	case j.piece.IsPromoted() || j.piece == King:
		return fmt.Errorf("move %q: a %s cannot be dropped", orig, kifNames[j.piece])
	}
	return nil
}

// parseDestination reads the destination at the start of s, a square
// such as ７六 or 同, and returns the rest of s. orig is the whole move,
// for errors.
func (j *jmove) parseDestination(s, orig string) (string, error) {
	if rest, ok := strings.CutPrefix(s, "同"); ok {
		j.same = true
		return strings.TrimLeft(rest, " "+ideoSpace), nil
	}
	f, rest, ok1 := digitValue(s)
	r, rest2, ok2 := digitValue(rest)
	if !ok1 || !ok2 {
		return s, fmt.Errorf("move %q: want a destination such as ７六 or 同", orig)
	}
	j.to = SquareAt(f, r)
	return strings.TrimLeft(rest2, ideoSpace), nil
}

// parseSuffix reads one of what may follow the piece name at the start of
// s (成, 不成 or 生, 打, an origin (ff), a modifier 右 左 直 上 引 寄 or the
// old 行 入) and returns the rest of s.
func (j *jmove) parseSuffix(s, orig string) (string, error) {
	switch {
	case strings.HasPrefix(s, "不成"):
		j.promote = -1
		return s[len("不成"):], nil
	case strings.HasPrefix(s, "生"): // old spelling of 不成
		j.promote = -1
		return s[len("生"):], nil
	case strings.HasPrefix(s, "成"):
		j.promote = 1
		return s[len("成"):], nil
	case strings.HasPrefix(s, "打"):
		j.drop = true
		return s[len("打"):], nil
	case s[0] == '(':
		return j.parseOrigin(s, orig)
	}
	r, n := utf8.DecodeRuneInString(s)
	switch {
	case !strings.ContainsRune("右左直上引寄行入", r):
		return s, fmt.Errorf("move %q: unexpected %q", orig, s)
	case r == '行' || r == '入': // old spellings of 上
		j.mods += "上"
	default:
		j.mods += s[:n]
	}
	return s[n:], nil
}

// parseOrigin reads a KIF origin, (ff), at the start of s and returns the
// rest of s.
func (j *jmove) parseOrigin(s, orig string) (string, error) {
	if strings.IndexByte(s, ')') != 3 {
		return s, fmt.Errorf("move %q: origin must be (ff) with two digits", orig)
	}
	f, r := int(s[1]-'0'), int(s[2]-'0')
	if f < 1 || f > 9 || r < 1 || r > 9 {
		return s, fmt.Errorf("move %q: bad origin %q", orig, s[:4])
	}
	j.from, j.hasFrom = SquareAt(f, r), true
	return s[4:], nil
}

// resolve finds the legal move of b that j names. prev is the previous
// move's destination, for 同.
func (j jmove) resolve(b *Board, prev rules.Square) (Move, error) {
	if j.side != 0 && rules.Color(j.side-1) != b.turn {
		return 0, fmt.Errorf("%s is not to move", sideWord(rules.Color(j.side-1)))
	}
	to := j.to
	if j.same {
		if prev == rules.NoSquare {
			return 0, fmt.Errorf("同 with no previous move")
		}
		to = prev
	}
	var buf [MaxMoves]Move
	legal := b.GenerateLegal(buf[:0])
	if j.hasFrom {
		return j.resolveFrom(b, to)
	}
	var cands []Move
	if !j.drop {
		var near [8]Move // room for the usual few candidates, off the heap
		cands = filterModifiers(j.appendMovesTo(near[:0], legal, to), j.mods, b.turn)
	}
	if len(cands) == 0 && j.mayBeDrop() {
		if m, ok := dropTo(legal, to, j.piece); ok {
			return m, nil
		}
	}
	switch len(cands) {
	case 1:
		return cands[0], nil
	case 0:
		if j.drop {
			return b.Find(USIMove{Drop: j.piece, From: rules.NoSquare, To: to})
		}
		return 0, fmt.Errorf("no legal %s move to %s", kifNames[j.piece], SquareName(to))
	}
	return 0, fmt.Errorf("%d %s moves to %s: ambiguous without 右/左/上/引/寄/直", len(cands), kifNames[j.piece], SquareName(to))
}

// resolveFrom finds the move to to of j, which names its origin (KIF).
func (j jmove) resolveFrom(b *Board, to rules.Square) (Move, error) {
	p := b.At(j.from)
	if p == NoPiece || p.Color() != b.turn || p.Type() != j.piece {
		return 0, fmt.Errorf("no %s %s on %s", sideWord(b.turn), kifNames[j.piece], SquareName(j.from))
	}
	return b.Find(USIMove{From: j.from, To: to, Promote: j.promote == 1})
}

// appendMovesTo appends to dst the legal board moves to to of j's piece
// type, promoting as j says.
func (j jmove) appendMovesTo(dst, legal []Move, to rules.Square) []Move {
	for _, m := range legal {
		if !m.IsDrop() && m.To() == to && m.piece().Type() == j.piece && m.Promotes() == (j.promote == 1) {
			dst = append(dst, m)
		}
	}
	return dst
}

// mayBeDrop reports whether j, without 打, may name a drop: KI2 leaves 打
// out when no board move of the type reaches the square, and a drop has
// no modifier or promotion and is of an unpromoted type other than the
// king.
func (j jmove) mayBeDrop() bool {
	return j.mods == "" && j.promote == 0 && j.piece.Valid() && !j.piece.IsPromoted() && j.piece != King
}

// dropTo returns the legal drop of type t on to, if there is one.
func dropTo(legal []Move, to rules.Square, t PieceType) (Move, bool) {
	for _, m := range legal {
		if m.IsDrop() && m.To() == to && m.piece().Type() == t {
			return m, true
		}
	}
	return 0, false
}

// relXY returns the coordinates of sq from c's seat: x grows to c's left
// and y grows toward c, so a forward move lowers y.
func relXY(sq rules.Square, c rules.Color) (x, y int) {
	f, r := fileRank(sq)
	if c == rules.First {
		return f, r
	}
	return 10 - f, 10 - r
}

// motion returns 上, 引 or 寄 for m from its mover's seat.
func motion(m Move, c rules.Color) string {
	_, fy := relXY(m.From(), c)
	_, ty := relXY(m.To(), c)
	switch {
	case ty < fy:
		return "上"
	case ty > fy:
		return "引"
	}
	return "寄"
}

func straightUp(m Move, c rules.Color) bool {
	fx, fy := relXY(m.From(), c)
	tx, ty := relXY(m.To(), c)
	return fx == tx && fy == ty+1
}

// filterModifiers keeps the candidates that match KI2's 直/上/引/寄 and
// then picks the rightmost (右) or leftmost (左) from the mover's seat of
// those left, whatever order the modifiers are written in ("右上" is the
// right one of the pieces moving up).
func filterModifiers(cands []Move, mods string, c rules.Color) []Move {
	for _, r := range mods {
		switch r {
		case '上', '引', '寄':
			cands = appendWithMotion(nil, cands, string(r), c)
		case '直':
			cands = goingStraightUp(cands, c)
		}
	}
	for _, r := range mods {
		if (r == '右' || r == '左') && len(cands) > 0 {
			cands = outermost(cands, r == '右', c)
		}
	}
	return cands
}

// appendWithMotion appends to dst the moves of cands whose motion is mo
// (上, 引 or 寄).
func appendWithMotion(dst, cands []Move, mo string, c rules.Color) []Move {
	for _, m := range cands {
		if motion(m, c) == mo {
			dst = append(dst, m)
		}
	}
	return dst
}

// goingStraightUp returns the moves of cands one square straight forward
// (直).
func goingStraightUp(cands []Move, c rules.Color) []Move {
	var out []Move
	for _, m := range cands {
		if straightUp(m, c) {
			out = append(out, m)
		}
	}
	return out
}

// outermost returns the moves of cands, not empty, from the rightmost
// origin file from c's seat (right), else from the leftmost.
func outermost(cands []Move, right bool, c rules.Color) []Move {
	bx, _ := relXY(cands[0].From(), c)
	for _, m := range cands[1:] {
		x, _ := relXY(m.From(), c)
		if (right && x < bx) || (!right && x > bx) {
			bx = x
		}
	}
	var out []Move
	for _, m := range cands {
		if x, _ := relXY(m.From(), c); x == bx {
			out = append(out, m)
		}
	}
	return out
}

// modifiers returns the KI2 disambiguation of m among the legal moves
// (spec 5.5: 右/左/直/上/引/寄), empty when m's piece is the only one of its
// kind that can reach the square.
func modifiers(m Move, legal []Move, c rules.Color) string {
	var bufs [2][8]Move // room for the usual few candidates, off the heap
	cands := appendAlike(bufs[0][:0], m, legal)
	if len(cands) <= 1 {
		return ""
	}
	mo := motion(m, c)
	same := appendWithMotion(bufs[1][:0], cands, mo, c)
	if len(same) == 1 {
		return mo
	}
	t := m.piece().Type()
	if t != Dragon && t != Horse && straightUp(m, c) {
		return "直"
	}
	for _, mod := range []string{"右", "左"} {
		if got := filterModifiers(cands, mod, c); len(got) == 1 && got[0] == m {
			return mod
		}
		if got := filterModifiers(same, mod, c); len(got) == 1 && got[0] == m {
			return mod + mo
		}
	}
	// Three or more pieces on one side: fall back on the motion and both
	// sides, which readers filter in order.
	return mo
}

// appendAlike appends to dst the legal board moves of pieces like m's to
// m's destination, promoting or not as m does; m among them.
func appendAlike(dst []Move, m Move, legal []Move) []Move {
	for _, l := range legal {
		if !l.IsDrop() && l.To() == m.To() && l.piece() == m.piece() && l.Promotes() == m.Promotes() {
			dst = append(dst, l)
		}
	}
	return dst
}

// writeDestination writes m's destination (同 when it repeats the
// previous move's) and the moving piece's name.
func writeDestination(sb *strings.Builder, m Move, prev rules.Square) {
	if m.To() == prev {
		sb.WriteString("同" + ideoSpace)
	} else {
		sb.WriteString(japaneseSquare(m.To()))
	}
	sb.WriteString(kifNames[m.piece().Type()])
}

// KIFMove writes m, a legal move of p, in KIF: ７六歩(77), ２二角成(88),
// 同　銀(31), ４五角打. funari writes 不成 when promotion was declined.
func (p *Position) KIFMove(m Move, funari bool) string {
	return formatKIFMove(&p.b, m, p.prev(), funari)
}

// KI2Move writes m, a legal move of p, in KI2 with its side mark:
// ▲７六歩, △同　銀, ▲４五角, ▲５八金右, ▲２三銀不成.
func (p *Position) KI2Move(m Move) string {
	b := p.b
	return formatKI2Move(&b, m, p.prev())
}

// prev returns the destination of the move that led to p, for 同.
func (p *Position) prev() rules.Square {
	if p.last == 0 {
		return rules.NoSquare
	}
	return p.last.To()
}

func formatKIFMove(b *Board, m Move, prev rules.Square, funari bool) string {
	var sb strings.Builder
	writeDestination(&sb, m, prev)
	if m.IsDrop() {
		sb.WriteString("打")
		return sb.String()
	}
	if m.Promotes() {
		sb.WriteString("成")
	} else if funari && promotionChoice(m, b.turn) {
		sb.WriteString("不成")
	}
	f, r := fileRank(m.From())
	fmt.Fprintf(&sb, "(%d%d)", f, r)
	return sb.String()
}

func formatKI2Move(b *Board, m Move, prev rules.Square) string {
	var buf [MaxMoves]Move
	legal := b.GenerateLegal(buf[:0])
	var sb strings.Builder
	sb.WriteString(sideMark(b.turn))
	writeDestination(&sb, m, prev)
	if m.IsDrop() {
		for _, l := range legal {
			if !l.IsDrop() && l.To() == m.To() && l.piece() == MakePiece(b.turn, m.piece().Type()) {
				sb.WriteString("打")
				break
			}
		}
		return sb.String()
	}
	sb.WriteString(modifiers(m, legal, b.turn))
	if m.Promotes() {
		sb.WriteString("成")
	} else if promotionChoice(m, b.turn) {
		sb.WriteString("不成")
	}
	return sb.String()
}
