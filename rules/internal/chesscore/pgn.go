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
	bw.WriteByte('\n')
	num, black := 1, false
	if fen, ok := r.Tag("FEN"); ok {
		f := strings.Fields(fen)
		if len(f) >= 2 && f[1] == "b" {
			black = true
		}
		if len(f) >= 6 {
			if n, err := strconv.Atoi(f[5]); err == nil && n > 0 {
				num = n
			}
		}
	}
	lw := lineWriter{w: bw}
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
		var comment []string
		if m.HasClock {
			comment = append(comment, "[%clk "+FormatClock(m.Clock)+"]")
		}
		if m.Comment != "" {
			comment = append(comment, strings.NewReplacer("}", ")", "{", "(").Replace(m.Comment))
		}
		commented = len(comment) > 0
		if commented {
			lw.word("{" + strings.Join(comment, " ") + "}")
		}
		if black {
			num++
		}
		black = !black
	}
	lw.word(result)
	bw.WriteString("\n\n")
	return bw.Flush()
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
	var out []Record
	var cur *Record
	inMoves := false
	finish := func(result string) {
		if cur != nil {
			cur.Result = result
			out = append(out, *cur)
		}
		cur, inMoves = nil, false
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			break
		}
		line, col := p.line, p.col
		c := p.peek()
		switch {
		case c == '%' && col == 1:
			for p.pos < len(p.src) && p.peek() != '\n' {
				p.next()
			}
		case c == '[':
			if inMoves {
				return nil, p.errorf(line, col, "tag after movetext without a result token")
			}
			if cur == nil {
				cur = &Record{}
			}
			t, err := p.tag()
			if err != nil {
				return nil, err
			}
			cur.Tags = append(cur.Tags, t)
		case c == '{':
			text, err := p.comment()
			if err != nil {
				return nil, err
			}
			if cur == nil {
				cur = &Record{}
			}
			inMoves = true
			if n := len(cur.Moves); n > 0 {
				attachComment(&cur.Moves[n-1], text)
			}
		case c == ';':
			for p.pos < len(p.src) && p.peek() != '\n' {
				p.next()
			}
		case c == '(':
			if err := p.variation(); err != nil {
				return nil, err
			}
		case c == ')':
			return nil, p.errorf(line, col, "unmatched ')'")
		case c == '$':
			p.next()
			if !isDigit(p.peek()) {
				return nil, p.errorf(line, col, "'$' without a NAG number")
			}
			for isDigit(p.peek()) {
				p.next()
			}
		default:
			tok := p.symbol()
			if tok == "" {
				return nil, p.errorf(line, col, "unexpected character %q", c)
			}
			if cur == nil {
				cur = &Record{}
			}
			inMoves = true
			switch tok {
			case "1-0", "0-1", "1/2-1/2", "*":
				finish(tok)
				continue
			}
			// Move numbers: "12." "12..." and "12.e4" written together.
			if isDigit(tok[0]) {
				i := 0
				for i < len(tok) && isDigit(tok[i]) {
					i++
				}
				j := i
				for j < len(tok) && tok[j] == '.' {
					j++
				}
				if j > i {
					tok = tok[j:]
					col += j
					if tok == "" {
						continue
					}
				}
				if strings.Trim(tok, "0123456789") == "" {
					return nil, p.errorf(line, col, "token %q: a move number without '.'", tok)
				}
			}
			tok = strings.TrimRight(tok, "!?")
			if tok == "" {
				continue
			}
			cur.Moves = append(cur.Moves, RecordMove{Text: tok, Line: line, Col: col})
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("PGN line %d column %d: game ends without a result token", p.line, p.col)
	}
	return out, nil
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
	start := p.pos
	for p.pos < len(p.src) {
		c := p.peek()
		if isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'z' || c == '_' {
			p.next()
			continue
		}
		break
	}
	name := p.src[start:p.pos]
	if name == "" {
		return Tag{}, p.errorf(line, col, "tag without a name")
	}
	p.skipSpace()
	if p.peek() != '"' {
		return Tag{}, p.errorf(p.line, p.col, "tag %s: value must be a quoted string", name)
	}
	p.next()
	var v strings.Builder
	for {
		if p.pos >= len(p.src) || p.peek() == '\n' {
			return Tag{}, p.errorf(line, col, "tag %s: unterminated string", name)
		}
		c := p.next()
		if c == '"' {
			break
		}
		if c == '\\' && p.pos < len(p.src) && (p.peek() == '"' || p.peek() == '\\') {
			c = p.next()
		}
		v.WriteByte(c)
	}
	p.skipSpace()
	if p.peek() != ']' {
		return Tag{}, p.errorf(p.line, p.col, "tag %s: missing ']'", name)
	}
	p.next()
	return Tag{Name: name, Value: v.String()}, nil
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
