package tavreli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Alphabet is the script of the file letters in move notation (spec 1.2,
// D3). Internal data always uses Latin letters.
type Alphabet uint8

const (
	// AutoAlphabet detects the alphabet from the letters themselves.
	AutoAlphabet Alphabet = iota
	// Latin files a..h; the canonical alphabet.
	Latin
	// Cyrillic files а б в г д е ж з (U+0430..U+0437 without ё).
	Cyrillic
)

// String returns "auto", "latin" or "cyrillic", the words of the Alphabet
// header.
func (a Alphabet) String() string {
	switch a {
	case Latin:
		return "latin"
	case Cyrillic:
		return "cyrillic"
	}
	return "auto"
}

// ParseAlphabet is the inverse of [Alphabet.String], ignoring case.
func ParseAlphabet(s string) (Alphabet, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "latin":
		return Latin, nil
	case "cyrillic":
		return Cyrillic, nil
	case "auto", "":
		return AutoAlphabet, nil
	}
	return AutoAlphabet, fmt.Errorf("alphabet %q: want latin or cyrillic", s)
}

var cyrillicFiles = [8]rune{'а', 'б', 'в', 'г', 'д', 'е', 'ж', 'з'}

const (
	cyrTowerMark = 'х' // U+0445, the source's tower mark
	cyrC         = 'с' // U+0441, a look-alike of Latin c
)

// FormatMove writes m, a legal move of b, in the record notation of spec
// section 4: split prefix for genuine splits, "x" for tower formation and
// en passant, "=X" after the square where a promotion happens, and "+" or
// "++" for check and mate. Castling is 0-0 or 0-0-0. A move that is not
// legal in b is written as "?" and its machine form.
func FormatMove(b *Board, m Move, a Alphabet) string {
	if !b.IsLegal(m) {
		return "?" + m.String()
	}
	return string(appendMoveText(nil, b, m, a))
}

func appendMoveText(dst []byte, b *Board, m Move, a Alphabet) []byte {
	switch m.kind {
	case CastleShort:
		dst = append(dst, "0-0"...)
	case CastleLong:
		dst = append(dst, "0-0-0"...)
	default:
		originPromo, destPromo := b.promotions(m)
		if int(m.n) < int(b.height[m.from]) {
			dst = append(dst, '(')
			dst = strconv.AppendInt(dst, int64(m.n), 10)
			dst = append(dst, ')')
		}
		dst = appendSquareIn(dst, m.from, a)
		if originPromo != NoRole {
			dst = append(dst, '=', originPromo.Letter())
		}
		if b.top[m.to] != 0 || m.kind == EnPassant {
			if a == Cyrillic {
				dst = utf8.AppendRune(dst, cyrTowerMark)
			} else {
				dst = append(dst, 'x')
			}
		} else {
			dst = append(dst, '-')
		}
		dst = appendSquareIn(dst, m.to, a)
		if destPromo != NoRole {
			dst = append(dst, '=', destPromo.Letter())
		}
	}
	return append(dst, b.checkSuffix(m)...)
}

func appendSquareIn(dst []byte, sq int8, a Alphabet) []byte {
	if a == Cyrillic {
		dst = utf8.AppendRune(dst, cyrillicFiles[fileOf(sq)])
		return append(dst, '1'+byte(rankOf(sq)))
	}
	return appendSquare(dst, sq)
}

// promotions returns the role a Ratnik promotes into on the origin (the
// remainder's new top) and on the destination (the mover) when m is
// played, NoRole where there is none.
func (b *Board) promotions(m Move) (origin, dest Role) {
	if m.kind != GroupMove && m.kind != EnPassant {
		return NoRole, NoRole
	}
	u := b.Make(m)
	if u.rem != 0 && u.toggled&(1<<u.rem) != 0 && b.role(u.rem) != Ratnik {
		origin = b.role(u.rem)
	}
	g := b.top[m.to]
	if u.toggled&(1<<g) != 0 && b.role(g) != Ratnik {
		dest = b.role(g)
	}
	b.Unmake(m, u)
	return origin, dest
}

// checkSuffix returns "+", "++" or "" for the position after m.
func (b *Board) checkSuffix(m Move) string {
	u := b.Make(m)
	defer b.Unmake(m, u)
	if !b.InCheck() {
		return ""
	}
	var buf [128]Move
	if len(b.GenerateLegal(buf[:0])) == 0 {
		return "++"
	}
	return "+"
}

// MoveText is a move read from text, with what the reader noticed.
type MoveText struct {
	Move Move
	// Warnings lists the accepted irregularities: look-alike letters,
	// wrong separators, a redundant split count, a wrong check mark.
	Warnings []string
}

// Reader reads moves in record notation.
type Reader struct {
	// Alphabet is the record's alphabet; AutoAlphabet detects it from the
	// move text itself (a token whose letters are all look-alikes of one
	// script is read in that script; a mix is rejected as ambiguous).
	Alphabet Alphabet
	// Strict rejects a wrong separator or check mark, a castling written
	// as a Volkhv move and other irregularities a lenient reader accepts
	// with a warning (spec 4.3).
	Strict bool
}

// ErrIllegal is wrapped by errors for moves that are well formed but not
// legal in the position.
var ErrIllegal = errors.New("illegal move")

// ParseMoveText reads one move of b in record notation, leniently, with
// the alphabet detected from the text.
func ParseMoveText(b *Board, s string) (MoveText, error) {
	return Reader{}.ParseMove(b, s)
}

// syntax is a move token taken apart.
type syntax struct {
	castle             MoveKind // CastleShort, CastleLong, or GroupMove
	count              int      // 0 when no split prefix
	from, to           int8
	sep                rune   // '-', 'x', or 0 when missing
	fromPromo, toPromo rune   // 0 when not written
	check              string // "", "+", "++"
	alpha              Alphabet
	trailingX          bool
}

// ParseMove reads one move of b. What the move is comes from the position:
// origin, destination and count; punctuation (separator, promotion suffix,
// check mark, annotations) is checked against it, never trusted.
func (r Reader) ParseMove(b *Board, s string) (MoveText, error) {
	var mt MoveText
	warn := func(format string, args ...any) { mt.Warnings = append(mt.Warnings, fmt.Sprintf(format, args...)) }
	sy, err := r.parseSyntax(s, warn)
	if err != nil {
		return mt, fmt.Errorf("move %q: %w", s, err)
	}
	var buf [256]Move
	legal := b.GenerateLegal(buf[:0])
	var m Move
	if sy.castle != GroupMove {
		m, err = findCastling(legal, sy.castle)
	} else {
		m, err = r.findGroupMove(b, legal, sy, warn)
	}
	if err == nil {
		err = r.checkMark(b, m, sy.check, warn)
	}
	if err != nil {
		return mt, fmt.Errorf("move %q: %w", s, err)
	}
	mt.Move = m
	return mt, nil
}

// castlingNames are the record forms of the castlings.
var castlingNames = map[MoveKind]string{CastleShort: "0-0", CastleLong: "0-0-0"}

// findCastling returns the legal castling of the given kind.
func findCastling(legal []Move, kind MoveKind) (Move, error) {
	for _, l := range legal {
		if l.kind == kind {
			return l, nil // one of each kind at most
		}
	}
	return Move{}, fmt.Errorf("%s is not legal here: %w", castlingNames[kind], ErrIllegal)
}

// findGroupMove returns the legal move sy describes: the group of sy.count
// pieces (the whole tower without a count) from sy.from to sy.to, a
// castling written as the Volkhv's move, and checks its punctuation.
func (r Reader) findGroupMove(b *Board, legal []Move, sy syntax, warn func(string, ...any)) (Move, error) {
	k, err := splitCount(b, sy, warn)
	if err != nil {
		return Move{}, err
	}
	for _, l := range legal {
		if l.from == sy.from && l.to == sy.to && int(l.n) == k && (l.kind == GroupMove || l.kind == EnPassant) {
			return l, r.checkPunctuation(b, l, sy, warn) // the generator lists a move once
		}
	}
	if sy.count == 0 {
		if m, ok, err := r.castlingAsVolkhvMove(legal, sy, warn); ok || err != nil {
			return m, err
		}
	}
	return Move{}, fmt.Errorf("%w: %s", ErrIllegal, b.whyIllegal(sy.from, sy.to, k))
}

// splitCount returns how many pieces sy moves from its origin: the count
// written, or the whole tower.
func splitCount(b *Board, sy syntax, warn func(string, ...any)) (int, error) {
	h := int(b.height[sy.from])
	switch {
	case h == 0:
		return 0, fmt.Errorf("%s is empty: %w", squareName(sy.from), ErrIllegal)
	case sy.count == 0:
		return h, nil
	case sy.count > h:
		return 0, fmt.Errorf("count %d is greater than the height %d of %s", sy.count, h, squareName(sy.from))
	case sy.count == h:
		warn("split count (%d) equals the height of %s: a whole-tower move, written without a count", h, squareName(sy.from))
	}
	return sy.count, nil
}

// castlingAsVolkhvMove returns the legal castling whose Volkhv goes from
// sy.from to sy.to, which a lenient reader accepts with a warning.
func (r Reader) castlingAsVolkhvMove(legal []Move, sy syntax, warn func(string, ...any)) (Move, bool, error) {
	for _, l := range legal {
		if l.from == sy.from && l.to == sy.to && (l.kind == CastleShort || l.kind == CastleLong) {
			if r.Strict {
				return Move{}, false, errors.New("castling must be written 0-0 or 0-0-0")
			}
			warn("castling written as a Volkhv move; read as %s", castlingNames[l.kind])
			return l, true, nil
		}
	}
	return Move{}, false, nil
}

// checkMark checks the written check mark, if any, against what m gives.
func (r Reader) checkMark(b *Board, m Move, check string, warn func(string, ...any)) error {
	if check == "" {
		return nil
	}
	want := b.checkSuffix(m)
	if want == check {
		return nil
	}
	gives := map[string]string{"": "no check", "+": "check (+)", "++": "mate (++)"}[want]
	if r.Strict {
		return fmt.Errorf("check mark %q is wrong: the move gives %s", check, gives)
	}
	warn("check mark %q is wrong: the move gives %s", check, gives)
	return nil
}

// whyIllegal explains why no legal move takes k pieces from o to d.
func (b *Board) whyIllegal(o, d int8, k int) string {
	if owner := b.ownerOf(o); owner != b.side {
		return fmt.Sprintf("%s belongs to %s and %s is to move", squareName(o), sideName(owner), sideName(b.side))
	}
	var buf [256]Move
	var counts []string
	for _, l := range b.GenerateLegal(buf[:0]) {
		if l.from == o && l.to == d {
			counts = append(counts, strconv.Itoa(int(l.n)))
		}
	}
	if len(counts) > 0 {
		return fmt.Sprintf("%s to %s is legal only with %s of the %d pieces", squareName(o), squareName(d), strings.Join(counts, " or "), b.height[o])
	}
	role := b.role(b.top[o])
	var tg [40]int8
	for _, t := range b.targets(o, role, b.side, tg[:0]) {
		if t == d {
			return fmt.Sprintf("it would leave the %s Volkhv attacked", sideName(b.side))
		}
	}
	return fmt.Sprintf("the %s on %s cannot go to %s", role, squareName(o), squareName(d))
}

func (r Reader) checkPunctuation(b *Board, m Move, sy syntax, warn func(string, ...any)) error {
	tower := b.top[m.to] != 0 || m.kind == EnPassant
	switch {
	case sy.sep == 'x' && !tower:
		if r.Strict {
			return errors.New("wrong separator: x, but the destination is empty")
		}
		warn("separator x, but %s is empty: read as -", squareName(m.to))
	case sy.sep == '-' && tower:
		if r.Strict {
			return errors.New("wrong separator: -, but the move forms a tower")
		}
		warn("separator -, but the move forms a tower on %s: read as x", squareName(m.to))
	}
	if sy.trailingX && !tower {
		warn("trailing x, but the move forms no tower")
	}
	op, dp := b.promotions(m)
	if err := checkPromo(sy.fromPromo, sy.alpha, op, "origin", squareName(m.from)); err != nil {
		return err
	}
	return checkPromo(sy.toPromo, sy.alpha, dp, "destination", squareName(m.to))
}

func checkPromo(letter rune, a Alphabet, actual Role, where, sq string) error {
	if letter == 0 {
		return nil
	}
	written := promoLetter(letter, a)
	if actual == NoRole {
		return fmt.Errorf("promotion written on the %s %s, but none happens there", where, sq)
	}
	for _, w := range written {
		if w == actual {
			return nil
		}
	}
	return fmt.Errorf("wrong promotion target on %s: the Ratnik's mark is %c", sq, actual.Letter())
}

// parseSyntax takes a move token apart (grammar of spec 4.3, with the
// input aliases of 4.4 and the looseness of real scoresheets).
func (r Reader) parseSyntax(s string, warn func(string, ...any)) (syntax, error) {
	var sy syntax
	t := trimMarks(strings.TrimSpace(s), &sy.check)
	if t == "" {
		return sy, errors.New("empty")
	}
	if castle, ok := readCastling(t, warn); ok {
		sy.castle = castle
		return sy, nil
	}
	lx := moveLexer{text: t, rs: []rune(t), strict: r.Strict, warn: warn}
	var files [2]rune
	var ranks [2]int
	var err error
	if sy.count, err = lx.leadingCount(); err != nil {
		return sy, err
	}
	if files[0], ranks[0], err = lx.square(); err != nil {
		return sy, err
	}
	if err = lx.originCount(&sy.count); err != nil {
		return sy, err
	}
	if sy.fromPromo, err = lx.promo(); err != nil {
		return sy, err
	}
	if sy.sep, err = lx.separator(); err != nil {
		return sy, err
	}
	if files[1], ranks[1], err = lx.square(); err != nil {
		return sy, err
	}
	if sy.toPromo, err = lx.promo(); err != nil {
		return sy, err
	}
	sy.trailingX = lx.trailingX()
	if err = lx.end(); err != nil {
		return sy, err
	}
	return r.resolveSquares(sy, files, ranks, warn)
}

// trimMarks strips annotations and check marks from the end of t and
// records the check mark in check: "+" for check, "++" for mate (also
// written "+ +" or "#").
func trimMarks(t string, check *string) string {
	for {
		n := len(t)
		t = strings.TrimRight(t, "!?")
		switch {
		case strings.HasSuffix(t, "+ +"):
			*check, t = "++", t[:len(t)-3]
		case strings.HasSuffix(t, "++"):
			*check, t = "++", t[:len(t)-2]
		case strings.HasSuffix(t, "#"):
			*check, t = "++", t[:len(t)-1]
		case strings.HasSuffix(t, "+"):
			if *check == "" {
				*check = "+"
			}
			t = t[:len(t)-1]
		}
		t = strings.TrimSpace(t)
		if len(t) == n {
			return t
		}
	}
}

// readCastling reads castling: zeros or the letter O, joined by dashes.
// It reports false when t is not castling.
func readCastling(t string, warn func(string, ...any)) (MoveKind, bool) {
	c := strings.Map(castlingRune, t)
	if c != "0-0" && c != "0-0-0" {
		return GroupMove, false
	}
	if c != t {
		warn("castling %q normalised to %s", t, c)
	}
	if c == "0-0-0" {
		return CastleLong, true
	}
	return CastleShort, true
}

// castlingRune maps the letters O (Latin and Cyrillic) to zero and long
// dashes to '-'.
func castlingRune(r rune) rune {
	switch r {
	case 'O', 'o', 'О', 'о': // Latin and Cyrillic O
		return '0'
	case '–', '—':
		return '-'
	}
	return r
}

// moveLexer reads the parts of a group move token in order: split count,
// origin, promotion, separator, destination, promotion, trailing marks.
// i is the index of the next rune; error positions are 1-based runes.
type moveLexer struct {
	text   string // the token, marks trimmed
	rs     []rune
	i      int
	strict bool
	warn   func(string, ...any)
}

// count reads a split count "(n)" at the '(' under i.
func (lx *moveLexer) count() (int, error) {
	rs, i := lx.rs, lx.i
	j := i + 1
	for j < len(rs) && rs[j] >= '0' && rs[j] <= '9' {
		j++
	}
	if j == i+1 || j >= len(rs) || rs[j] != ')' {
		return 0, errors.New("split prefix: want (count) with count 1..30")
	}
	n, err := strconv.Atoi(string(rs[i+1 : j]))
	if err != nil || n < 1 || n > MaxHeight-1 || rs[i+1] == '0' {
		return 0, fmt.Errorf("split count %q: want 1..%d", string(rs[i+1:j]), MaxHeight-1)
	}
	lx.i = j + 1
	return n, nil
}

// leadingCount reads the split prefix "(n)" of spec 4.3, 0 when there is
// none.
func (lx *moveLexer) leadingCount() (int, error) {
	if lx.rs[0] != '(' {
		return 0, nil
	}
	return lx.count()
}

// originCount reads a split count written after the origin, as published
// records also do (h2(1)-h1), into *count.
func (lx *moveLexer) originCount(count *int) error {
	i := lx.i
	if i >= len(lx.rs) || lx.rs[i] != '(' {
		return nil
	}
	origin := string(lx.rs[i-2 : i])
	if *count > 0 {
		return fmt.Errorf("character %d: a second split count", i+1)
	}
	if lx.strict {
		return fmt.Errorf("character %d: split count after the origin square: write it first, (n)%s", i+1, origin)
	}
	n, err := lx.count()
	if err != nil {
		return err
	}
	*count = n
	lx.warn("split count written after the origin square: read as (%d)%s", n, origin)
	return nil
}

// square reads a file letter, still unresolved, and a rank digit.
func (lx *moveLexer) square() (file rune, rank int, err error) {
	rs, i := lx.rs, lx.i
	if i+1 >= len(rs) {
		return 0, 0, fmt.Errorf("want a square at character %d", i+1)
	}
	f, rk := rs[i], rs[i+1]
	if rk < '1' || rk > '8' {
		return 0, 0, fmt.Errorf("character %d %q: want a rank digit 1..8", i+2, rk)
	}
	lx.i += 2
	return f, int(rk - '1'), nil
}

// promo reads an optional promotion suffix "=X", 0 when there is none.
func (lx *moveLexer) promo() (rune, error) {
	rs, i := lx.rs, lx.i
	if i >= len(rs) || rs[i] != '=' {
		return 0, nil
	}
	if i+1 >= len(rs) {
		return 0, errors.New("promotion: want a piece letter after =")
	}
	c := rs[i+1]
	if promoLetter(c, Latin) == nil {
		return 0, fmt.Errorf("character %d %q: not a promotion letter (Q R B N H, or К Р Л В Х)", i+2, c)
	}
	lx.i += 2
	return c, nil
}

// separator reads the separator between the squares: '-', 'x', or 0 for
// two bare squares.
func (lx *moveLexer) separator() (rune, error) {
	if lx.i >= len(lx.rs) {
		return 0, errors.New("want a separator and a destination square")
	}
	c := lx.rs[lx.i]
	var sep rune
	switch c {
	case '-':
		sep = '-'
	case ' ':
		// Two bare squares, "b1 e1" (joined by the record reader).
		if lx.strict {
			return 0, errors.New("two bare squares: want a separator - or x between them")
		}
		lx.warn("two bare squares %q read as a move from the first to the second", lx.text)
	case '–', '—':
		lx.warn("dash %q read as -", c)
		sep = '-'
	case 'x', 'X', cyrTowerMark, 'Х', ':', '×':
		sep = 'x'
	default:
		return 0, fmt.Errorf("character %d %q: want a separator - or x", lx.i+1, c)
	}
	lx.i++
	return sep, nil
}

// trailingX skips tower marks after the destination and reports whether
// there were any.
func (lx *moveLexer) trailingX() bool {
	found := false
	for lx.i < len(lx.rs) && (lx.rs[lx.i] == 'x' || lx.rs[lx.i] == cyrTowerMark) {
		found = true
		lx.i++
	}
	return found
}

// end checks that nothing follows the move but a stray mark ending a
// published game's last move: "g5*", or an x apart, "g5 x" (joined by the
// record reader).
func (lx *moveLexer) end() error {
	i := lx.i
	if rest := string(lx.rs[i:]); rest == "*" || strayX[rest] {
		if lx.strict {
			return fmt.Errorf("character %d: stray %q after the move", i+1, strings.TrimSpace(rest))
		}
		lx.warn("stray %s after the move ignored", strings.TrimSpace(rest))
		i = len(lx.rs)
	}
	if i < len(lx.rs) {
		return fmt.Errorf("character %d %q: unexpected after the move", i+1, lx.rs[i])
	}
	return nil
}

// resolveSquares decides the token's alphabet (the reader's, or detected
// from the two file letters) and sets the origin and destination.
func (r Reader) resolveSquares(sy syntax, files [2]rune, ranks [2]int, warn func(string, ...any)) (syntax, error) {
	alpha := r.Alphabet
	if alpha == AutoAlphabet {
		var set letterSet
		set.add(files[0])
		set.add(files[1])
		var err error
		if alpha, err = set.decide(false); err != nil {
			return sy, err
		}
	}
	sy.alpha = alpha
	var sqs [2]int8
	for k := range 2 {
		f, err := resolveFile(files[k], alpha, warn)
		if err != nil {
			return sy, err
		}
		sqs[k] = sqOf(f, ranks[k])
	}
	sy.from, sy.to = sqs[0], sqs[1]
	return sy, nil
}

// promoLetter returns the roles a promotion letter may mean in a record of
// alphabet a: the Latin codes Q R B N H, the Cyrillic aliases К Р Л В Х,
// and the look-alikes of those aliases (K P X, Н). Latin B and Cyrillic В
// look the same but mean Luchnik and Vsadnik: the letter of the record's
// own alphabet is read as written, the foreign one may mean either, and
// the position decides.
func promoLetter(c rune, a Alphabet) []Role {
	switch c {
	case 'Q':
		return []Role{Knyaz}
	case 'R':
		return []Role{Ratoborets}
	case 'N':
		return []Role{Vsadnik}
	case 'H', 'Н':
		return []Role{Helgi}
	case 'B':
		if a == Cyrillic {
			return []Role{Luchnik, Vsadnik}
		}
		return []Role{Luchnik}
	case 'В':
		if a == Cyrillic {
			return []Role{Vsadnik}
		}
		return []Role{Vsadnik, Luchnik}
	case 'К', 'K':
		return []Role{Knyaz}
	case 'Р', 'P':
		return []Role{Ratoborets}
	case 'Л':
		return []Role{Luchnik}
	case 'Х', 'X':
		return []Role{Helgi}
	}
	return nil
}

// Letter classes for alphabet detection (4.4).
func latinOnly(c rune) bool {
	return c == 'b' || c == 'c' || c == 'd' || c == 'f' || c == 'g' || c == 'h'
}
func cyrillicOnly(c rune) bool {
	return c == 'б' || c == 'в' || c == 'г' || c == 'д' || c == 'ж' || c == 'з'
}

// letterSet records which kinds of file letters a text uses (4.4).
type letterSet struct {
	latin, cyrillic         bool // unambiguous letters: b c d f g h, б в г д ж з
	latinLook, cyrillicLook bool // look-alikes: a e (and Cyrillic с), а е
}

func (s *letterSet) add(c rune) {
	c = unicode.ToLower(c)
	switch {
	case latinOnly(c):
		s.latin = true
	case cyrillicOnly(c):
		s.cyrillic = true
	case c == 'a' || c == 'e' || c == cyrC: // с is only ever a look-alike of Latin c
		s.latinLook = true
	case c == 'а' || c == 'е':
		s.cyrillicLook = true
	}
}

// decide returns the alphabet the letters settle (spec 4.4): the
// unambiguous letters decide, and both kinds are an error. Without them,
// a record (wholeRecord) is rejected as ambiguous, while a single move
// whose look-alikes all come from one script is read in that script and
// only a mix is ambiguous.
func (s letterSet) decide(wholeRecord bool) (Alphabet, error) {
	switch {
	case s.latin && s.cyrillic:
		return AutoAlphabet, errors.New("both Latin and Cyrillic file letters")
	case s.latin:
		return Latin, nil
	case s.cyrillic:
		return Cyrillic, nil
	case wholeRecord && (s.latinLook || s.cyrillicLook):
		return AutoAlphabet, errors.New("ambiguous alphabet: only a- and e-file letters, which look alike in both scripts; add an Alphabet header")
	case s.latinLook && s.cyrillicLook:
		return AutoAlphabet, errors.New("ambiguous alphabet: Latin and Cyrillic look-alike letters (a/а, e/е) mixed; declare the alphabet")
	case s.cyrillicLook:
		return Cyrillic, nil
	}
	return Latin, nil
}

// resolveFile returns the file index of letter c read in alphabet a,
// normalising look-alikes with a warning (4.4).
func resolveFile(c rune, a Alphabet, warn func(string, ...any)) (int, error) {
	if l := unicode.ToLower(c); l != c {
		warn("upper-case file letter %q read as %q", c, l)
		c = l
	}
	if a == Cyrillic {
		for f, fc := range cyrillicFiles {
			if c == fc {
				return f, nil
			}
		}
		switch c {
		case 'a':
			warn("Latin a read as Cyrillic а (the a-file)")
			return 0, nil
		case 'e':
			warn("Latin e read as Cyrillic е: the f-file")
			return 5, nil
		}
		return 0, fmt.Errorf("file letter %q is not a Cyrillic file letter", c)
	}
	if c >= 'a' && c <= 'h' {
		return int(c - 'a'), nil
	}
	switch c {
	case 'а':
		warn("Cyrillic а read as Latin a")
		return 0, nil
	case 'е':
		warn("Cyrillic е read as Latin e: the e-file")
		return 4, nil
	case cyrC:
		warn("Cyrillic с read as Latin c")
		return 2, nil
	}
	return 0, fmt.Errorf("file letter %q is not a Latin file letter", c)
}
