package chesscore

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"arbiter/internal/oneline"
)

// Tag is one PGN tag pair.
type Tag struct {
	Name, Value string
}

// RecordMove is one move of a [Record] as written in its notation, with
// the clock reading after it and any comment.
type RecordMove struct {
	Text string
	// Clock is the mover's remaining time after the move ([%clk]), valid
	// when HasClock is set.
	Clock    time.Duration
	HasClock bool
	// Comment is the comment text after the move, without the clock command.
	Comment string
	// Line and Col locate the move in imported text (1-based), zero when
	// the record was built in memory.
	Line, Col int
}

// Record is a game score shared by the chess family: tags in order, the
// moves as text, and the result. The start position is the FEN tag when
// present (with SetUp "1"), else the game's initial position.
type Record struct {
	Tags   []Tag
	Moves  []RecordMove
	Result string // "1-0", "0-1", "1/2-1/2" or "*"
}

// Tag returns the value of the named tag.
func (r *Record) Tag(name string) (string, bool) {
	for _, t := range r.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// SetTag sets the named tag, replacing its value or appending it.
func (r *Record) SetTag(name, value string) {
	for i, t := range r.Tags {
		if t.Name == name {
			r.Tags[i].Value = value
			return
		}
	}
	r.Tags = append(r.Tags, Tag{name, value})
}

// sevenTags is the PGN Seven Tag Roster, in its export order.
var sevenTags = []struct{ name, def string }{
	{"Event", "?"}, {"Site", "?"}, {"Date", "????.??.??"}, {"Round", "?"},
	{"White", "?"}, {"Black", "?"}, {"Result", "*"},
}

// FormatClock writes d as a [%clk] value: H:MM:SS, with tenths when d has
// a fraction of a second.
func FormatClock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	tenths := d / (100 * time.Millisecond)
	s := int64(tenths / 10)
	out := fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	if t := tenths % 10; t != 0 {
		out += "." + strconv.Itoa(int(t))
	}
	return out
}

// ParseClock reads a [%clk] value: H:MM:SS with an optional fraction.
func ParseClock(s string) (time.Duration, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return 0, fmt.Errorf("clock %q: want H:MM:SS", s)
	}
	h, err1 := strconv.Atoi(parts[0])
	m, err2 := strconv.Atoi(parts[1])
	sec, err3 := strconv.ParseFloat(parts[2], 64)
	if err1 != nil || err2 != nil || err3 != nil || h < 0 || m < 0 || m > 59 || sec < 0 || sec >= 60 ||
		strings.ContainsAny(parts[2], "eE+-") || h > 10000 {
		return 0, fmt.Errorf("clock %q: want H:MM:SS", s)
	}
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec*float64(time.Second)+0.5), nil
}

// WritePGN writes the record in PGN export format: the Seven Tag Roster
// first (defaults for missing ones), the other tags in order, then the
// movetext with move numbers and [%clk] comments, wrapped below 80 columns.
func (r *Record) WritePGN(w io.Writer) error {
	bw := bufio.NewWriter(w)
	result := r.Result
	if result == "" {
		result = "*"
	}
	r.writeTags(bw, result)
	bw.WriteByte('\n')
	lw := lineWriter{w: bw}
	r.writeMoves(&lw)
	lw.word(result)
	bw.WriteString("\n\n")
	return bw.Flush()
}

// writeTags writes the Seven Tag Roster (defaults for missing ones, the
// given result), then the other tags in order.
func (r *Record) writeTags(bw *bufio.Writer, result string) {
	for _, st := range sevenTags {
		v, ok := r.Tag(st.name)
		if st.name == "Result" {
			v, ok = result, true
		}
		if !ok {
			v = st.def
		}
		writeTag(bw, st.name, v)
	}
	for _, t := range r.Tags {
		if isSevenTag(t.Name) {
			continue
		}
		writeTag(bw, t.Name, t.Value)
	}
}

// firstMove returns the number of the record's first move and whether
// Black plays it, from the FEN tag (move 1, White, without one).
func (r *Record) firstMove() (num int, black bool) {
	num = 1
	fen, ok := r.Tag("FEN")
	if !ok {
		return num, false
	}
	f := strings.Fields(fen)
	black = len(f) >= 2 && f[1] == "b"
	if len(f) >= 6 {
		if n, err := strconv.Atoi(f[5]); err == nil && n > 0 {
			num = n
		}
	}
	return num, black
}

// writeMoves writes the movetext's moves with their numbers and comments.
func (r *Record) writeMoves(lw *lineWriter) {
	num, black := r.firstMove()
	commented := false // the word before is a comment
	for i, m := range r.Moves {
		// A move number stays on the line of its move; Black's move after
		// a comment takes "N..." again (PGN standard 8.2.2.2).
		switch {
		case !black:
			lw.word(strconv.Itoa(num) + ". " + m.Text)
		case i == 0 || commented:
			lw.word(strconv.Itoa(num) + "... " + m.Text)
		default:
			lw.word(m.Text)
		}
		comment := m.exportComment()
		commented = comment != ""
		if commented {
			lw.word("{" + comment + "}")
		}
		if black {
			num++
		}
		black = !black
	}
}

// exportComment returns the text of the comment written after m: its
// [%clk] command and its comment, braces turned into parentheses.
func (m *RecordMove) exportComment() string {
	var comment []string
	if m.HasClock {
		comment = append(comment, "[%clk "+FormatClock(m.Clock)+"]")
	}
	if m.Comment != "" {
		comment = append(comment, strings.NewReplacer("}", ")", "{", "(").Replace(m.Comment))
	}
	return strings.Join(comment, " ")
}

func isSevenTag(name string) bool {
	for _, st := range sevenTags {
		if st.name == name {
			return true
		}
	}
	return false
}

// tagEscaper escapes what a PGN tag value may hold only escaped.
var tagEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// writeTag writes a tag pair on one line: a value's control characters
// and line breaks become spaces (PGN allows none).
func writeTag(w *bufio.Writer, name, value string) {
	value = tagEscaper.Replace(oneline.Clean(value))
	fmt.Fprintf(w, "[%s \"%s\"]\n", name, value)
}

// lineWriter writes words separated by spaces, breaking lines before 80
// columns.
type lineWriter struct {
	w   *bufio.Writer
	col int
}

func (l *lineWriter) word(s string) {
	if l.col > 0 && l.col+1+len(s) > 79 {
		l.w.WriteByte('\n')
		l.col = 0
	}
	if l.col > 0 {
		l.w.WriteByte(' ')
		l.col++
	}
	l.w.WriteString(s)
	l.col += len(s)
}

// ReadPGN reads every game of a PGN text. It checks the syntax only; the
// game's package checks the moves. Errors give the line and column and
// the offending text.
func ReadPGN(r io.Reader) ([]Record, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read PGN: %w", err)
	}
	p := pgnParser{src: string(data), line: 1, col: 1}
	return p.games()
}

type pgnParser struct {
	src       string
	pos       int
	line, col int

	out     []Record // the games read
	cur     *Record  // the game being read, nil between games
	inMoves bool     // cur's movetext has begun
}

func (p *pgnParser) errorf(line, col int, format string, args ...any) error {
	return fmt.Errorf("PGN line %d column %d: %s", line, col, fmt.Sprintf(format, args...))
}

func (p *pgnParser) peek() byte {
	if p.pos >= len(p.src) {
		return 0
	}
	return p.src[p.pos]
}

func (p *pgnParser) next() byte {
	c := p.src[p.pos]
	p.pos++
	if c == '\n' {
		p.line++
		p.col = 1
	} else {
		p.col++
	}
	return c
}

func (p *pgnParser) games() ([]Record, error) {
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			break
		}
		if err := p.token(); err != nil {
			return nil, err
		}
	}
	if p.cur != nil {
		return nil, fmt.Errorf("PGN line %d column %d: game ends without a result token", p.line, p.col)
	}
	return p.out, nil
}

// token reads the token at the parser's position and applies it to the
// game being read.
func (p *pgnParser) token() error {
	line, col := p.line, p.col
	switch c := p.peek(); {
	case c == '%' && col == 1, c == ';':
		p.skipLine()
	case c == '[':
		return p.tagPair(line, col)
	case c == '{':
		return p.moveComment()
	case c == '(':
		return p.variation()
	case c == ')':
		return p.errorf(line, col, "unmatched ')'")
	case c == '$':
		return p.nag(line, col)
	default:
		return p.symbolToken(line, col, c)
	}
	return nil
}

// game returns the game being read, starting one if there is none.
func (p *pgnParser) game() *Record {
	if p.cur == nil {
		p.cur = &Record{}
	}
	return p.cur
}

// finish ends the game being read with result.
func (p *pgnParser) finish(result string) {
	if p.cur != nil {
		p.cur.Result = result
		p.out = append(p.out, *p.cur)
	}
	p.cur, p.inMoves = nil, false
}

// skipLine skips an escape line or a rest-of-line comment.
func (p *pgnParser) skipLine() {
	for p.pos < len(p.src) && p.peek() != '\n' {
		p.next()
	}
}

// tagPair reads a tag pair, which may not follow movetext before a result.
func (p *pgnParser) tagPair(line, col int) error {
	if p.inMoves {
		return p.errorf(line, col, "tag after movetext without a result token")
	}
	cur := p.game()
	t, err := p.tag()
	if err != nil {
		return err
	}
	cur.Tags = append(cur.Tags, t)
	return nil
}

// moveComment reads a brace comment and attaches it to the move before.
func (p *pgnParser) moveComment() error {
	text, err := p.comment()
	if err != nil {
		return err
	}
	cur := p.game()
	p.inMoves = true
	if n := len(cur.Moves); n > 0 {
		attachComment(&cur.Moves[n-1], text)
	}
	return nil
}

// nag skips a numeric annotation glyph ("$14").
func (p *pgnParser) nag(line, col int) error {
	p.next()
	if !isDigit(p.peek()) {
		return p.errorf(line, col, "'$' without a NAG number")
	}
	for isDigit(p.peek()) {
		p.next()
	}
	return nil
}

// symbolToken reads a symbol: a result token ends the game, a move number
// is skipped, and a move (without its "!?" suffixes) is added to the game.
func (p *pgnParser) symbolToken(line, col int, c byte) error {
	tok := p.symbol()
	if tok == "" {
		return p.errorf(line, col, "unexpected character %q", c)
	}
	cur := p.game()
	p.inMoves = true
	switch tok {
	case "1-0", "0-1", "1/2-1/2", "*":
		p.finish(tok)
		return nil
	}
	// Move numbers: "12." "12..." and "12.e4" written together.
	if isDigit(tok[0]) {
		skip := moveNumberLen(tok)
		tok, col = tok[skip:], col+skip
		if skip > 0 && tok == "" {
			return nil
		}
		if strings.Trim(tok, "0123456789") == "" {
			return p.errorf(line, col, "token %q: a move number without '.'", tok)
		}
	}
	tok = strings.TrimRight(tok, "!?")
	if tok == "" {
		return nil
	}
	cur.Moves = append(cur.Moves, RecordMove{Text: tok, Line: line, Col: col})
	return nil
}

// moveNumberLen returns the length of the move number ("12." or "12...")
// that starts tok, or 0 when its digits are not followed by a dot.
func moveNumberLen(tok string) int {
	i := 0
	for i < len(tok) && isDigit(tok[i]) {
		i++
	}
	j := i
	for j < len(tok) && tok[j] == '.' {
		j++
	}
	if j == i {
		return 0
	}
	return j
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (p *pgnParser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.peek() {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			p.next()
		default:
			return
		}
	}
}

// symbol reads a PGN symbol token (moves, move numbers, results).
func (p *pgnParser) symbol() string {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.peek()
		if isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'z' || strings.IndexByte("_+#=:-/.!?*", c) >= 0 {
			p.next()
			continue
		}
		break
	}
	return p.src[start:p.pos]
}

func (p *pgnParser) tag() (Tag, error) {
	line, col := p.line, p.col
	p.next() // '['
	p.skipSpace()
	name := p.tagName()
	if name == "" {
		return Tag{}, p.errorf(line, col, "tag without a name")
	}
	p.skipSpace()
	if p.peek() != '"' {
		return Tag{}, p.errorf(p.line, p.col, "tag %s: value must be a quoted string", name)
	}
	value, ok := p.quoted()
	if !ok {
		return Tag{}, p.errorf(line, col, "tag %s: unterminated string", name)
	}
	p.skipSpace()
	if p.peek() != ']' {
		return Tag{}, p.errorf(p.line, p.col, "tag %s: missing ']'", name)
	}
	p.next()
	return Tag{Name: name, Value: value}, nil
}

// tagName reads a tag name: letters, digits and underscores.
func (p *pgnParser) tagName() string {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.peek()
		if isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'z' || c == '_' {
			p.next()
			continue
		}
		break
	}
	return p.src[start:p.pos]
}

// quoted reads a string token from its opening quote, unescaping \" and
// \\; it reports false if the line or the text ends before the string.
func (p *pgnParser) quoted() (string, bool) {
	p.next() // '"'
	var v strings.Builder
	for {
		if p.pos >= len(p.src) || p.peek() == '\n' {
			return "", false
		}
		c := p.next()
		if c == '"' {
			return v.String(), true
		}
		if c == '\\' && p.pos < len(p.src) && (p.peek() == '"' || p.peek() == '\\') {
			c = p.next()
		}
		v.WriteByte(c)
	}
}

func (p *pgnParser) comment() (string, error) {
	line, col := p.line, p.col
	p.next() // '{'
	start := p.pos
	for p.pos < len(p.src) && p.peek() != '}' {
		p.next()
	}
	if p.pos >= len(p.src) {
		return "", p.errorf(line, col, "unterminated comment")
	}
	text := p.src[start:p.pos]
	p.next()
	return text, nil
}

// variation skips a recursive annotation variation.
func (p *pgnParser) variation() error {
	line, col := p.line, p.col
	depth := 0
	for p.pos < len(p.src) {
		switch p.peek() {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				p.next()
				return nil
			}
		case '{':
			if _, err := p.comment(); err != nil {
				return err
			}
			continue
		}
		p.next()
	}
	return p.errorf(line, col, "unterminated variation")
}

// attachComment stores a comment on m, extracting a [%clk] command.
func attachComment(m *RecordMove, text string) {
	if i := strings.Index(text, "[%clk"); i >= 0 {
		if j := strings.IndexByte(text[i:], ']'); j >= 0 {
			// A malformed clock command stays in the comment text.
			if d, err := ParseClock(strings.TrimSpace(text[i+5 : i+j])); err == nil {
				m.Clock, m.HasClock = d, true
				text = text[:i] + text[i+j+1:]
			}
		}
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	if m.Comment != "" {
		m.Comment += " "
	}
	m.Comment += text
}
