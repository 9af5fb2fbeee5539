package kvaa

import (
	"fmt"
	"strconv"
	"strings"

	"arbiter/internal/oneline"
	"arbiter/rules"
)

// Tag is one header pair of a record: [Name "Value"].
type Tag struct {
	Name, Value string
}

// Comment is a braced comment of the movetext.
type Comment struct {
	// Before is the index in [Record.Turns] of the turn the comment comes
	// before; len(Turns) places it after the last turn.
	Before int
	Text   string
}

// Record is a game record (6.2, 6.4): the header tags, which carry every
// option of the game, and the turns, numbered in entries of the first
// mover's turn and the other side's reply.
type Record struct {
	Tags []Tag
	// Number is the number of the first entry: the setup's turn number.
	Number   int
	Turns    []Turn
	Comments []Comment
	Result   rules.Result
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

// NewRecord returns the record of a game played under g: the info tags
// (Event, Site, Date, South, North, ...), then a tag for every option of the
// game, then Result and, unless term is empty, Termination.
func NewRecord(g *Game, turns []Turn, result rules.Result, term Termination, info ...Tag) *Record {
	r := &Record{Number: int(g.start.Number), Turns: turns, Result: result}
	r.Tags = append(r.Tags, info...)
	c := g.cfg
	r.Tags = append(r.Tags, Tag{tagSouthColour, c.Colours[0]}, Tag{tagNorthColour, c.Colours[1]})
	for _, o := range options {
		if o.tag != "" {
			r.Tags = append(r.Tags, Tag{o.tag, o.format(&c)})
		}
	}
	r.Tags = append(r.Tags, Tag{"Result", result.String()})
	if term != "" {
		r.Tags = append(r.Tags, Tag{"Termination", string(term)})
	}
	return r
}

// Config returns the configuration the record's tags give; options without
// a tag take their defaults, and tags that are not options are ignored.
func (r *Record) Config() (Config, error) {
	opts := rules.Options{}
	for _, o := range options {
		if v, ok := r.Tag(o.tag); ok && o.tag != "" {
			opts[o.key] = v
		}
	}
	s, sok := r.Tag(tagSouthColour)
	n, nok := r.Tag(tagNorthColour)
	if sok || nok {
		d := DefaultConfig().Colours
		if !sok {
			s = d[0]
		}
		if !nok {
			n = d[1]
		}
		opts["colours"] = s + "/" + n
	}
	c, err := ParseConfig(opts)
	if err != nil {
		return Config{}, fmt.Errorf("record tags: %w", err)
	}
	return c, nil
}

// Replay makes the record's game and plays its turns. It returns the game
// and the positions from the start to the last, one more than the turns;
// the error names the first turn that is not legal.
func (r *Record) Replay() (*Game, []*Position, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, nil, err
	}
	g, err := New(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("record: %w", err)
	}
	pos := g.Position(g.start)
	if len(r.Turns) > 0 && r.Number != int(g.start.Number) {
		return nil, nil, fmt.Errorf("record: first entry is number %d but the setup is at turn %d", r.Number, g.start.Number)
	}
	out := make([]*Position, 0, len(r.Turns)+1)
	out = append(out, pos)
	for i, t := range r.Turns {
		next, err := pos.PlayTurn(t)
		if err != nil {
			return g, out, fmt.Errorf("record entry %d, %s's turn: %w", r.Number+i/2, g.SideName(pos.Turn()), err)
		}
		pos = next
		out = append(out, pos)
	}
	return g, out, nil
}

// ParseRecord reads a record (6.4). It checks the syntax, the entry
// numbering and that every turn is well formed; [Record.Replay] checks that
// the turns are legal. Errors give the line and column.
func ParseRecord(text string) (*Record, error) {
	r := &Record{}
	lines := strings.SplitAfter(text, "\n")
	ln := 0
	for ; ln < len(lines); ln++ {
		l := strings.TrimRight(lines[ln], "\r\n")
		if strings.TrimSpace(l) == "" {
			if len(r.Tags) > 0 {
				ln++
				break
			}
			continue
		}
		if !strings.HasPrefix(l, "[") {
			break
		}
		t, err := parseTag(l)
		if err != nil {
			return nil, fmt.Errorf("record line %d: %w", ln+1, err)
		}
		if _, dup := r.Tag(t.Name); dup {
			return nil, fmt.Errorf("record line %d: tag %s given twice", ln+1, t.Name)
		}
		r.Tags = append(r.Tags, t)
	}
	if err := r.parseMovetext(lines[ln:], ln); err != nil {
		return nil, err
	}
	if v, ok := r.Tag("Result"); ok && v != r.Result.String() {
		return nil, fmt.Errorf("record: Result tag %q but the movetext ends with %s", v, r.Result)
	}
	return r, nil
}

// parseTag reads `[Name "Value"]`.
func parseTag(l string) (Tag, error) {
	bad := fmt.Errorf("tag pair %q: want [Name \"value\"]", l)
	body, ok := strings.CutPrefix(l, "[")
	if !ok {
		return Tag{}, bad
	}
	if body, ok = strings.CutSuffix(body, "\"]"); !ok {
		return Tag{}, bad
	}
	name, value, ok := strings.Cut(body, " \"")
	if !ok || !validTagName(name) || strings.Contains(value, "\"") {
		return Tag{}, bad
	}
	return Tag{name, value}, nil
}

func validTagName(n string) bool {
	if n == "" {
		return false
	}
	for i := range len(n) {
		c := n[i]
		letter := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// parseMovetext reads the entries, comments and the result; first is the
// index of lines[0] in the whole record, for error positions. Comments may
// span lines.
func (r *Record) parseMovetext(lines []string, first int) error {
	mr := movetextReader{rec: r, text: strings.Join(lines, ""), line: first + 1}
	for mr.i < len(mr.text) {
		if err := mr.step(); err != nil {
			return err
		}
	}
	if !mr.done {
		return fmt.Errorf("record: the movetext has no result (1-0, 0-1, 1/2-1/2 or *)")
	}
	return nil
}

// movetextReader is parseMovetext's state: where it is in the text, and
// what it has read of the entries.
type movetextReader struct {
	rec             *Record
	text            string
	i               int
	line, lineStart int  // the line of text[i], and where it starts
	inEntry         int  // turns read in the current entry; -1 right after its number
	next            int  // the number the next entry must have, 0 before the first
	done            bool // the result has been read
}

// at returns an error at the current position.
func (mr *movetextReader) at(format string, args ...any) error {
	return fmt.Errorf("record line %d column %d: %s", mr.line, mr.i-mr.lineStart+1, fmt.Sprintf(format, args...))
}

// step reads what starts at i: white space, a comment or a token.
func (mr *movetextReader) step() error {
	c := mr.text[mr.i]
	if c == '\n' {
		mr.line, mr.lineStart = mr.line+1, mr.i+1
	}
	switch {
	case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		mr.i++
		return nil
	case mr.done:
		return mr.at("text after the result")
	case c == '{':
		return mr.comment()
	}
	end := mr.i
	for end < len(mr.text) && !strings.ContainsRune(" \t\r\n{", rune(mr.text[end])) {
		end++
	}
	if err := mr.token(mr.text[mr.i:end]); err != nil {
		return err
	}
	mr.i = end
	return nil
}

// comment reads the {comment} at i, which may span lines.
func (mr *movetextReader) comment() error {
	text, i := mr.text, mr.i
	end := strings.IndexByte(text[i:], '}')
	if end < 0 {
		return mr.at("comment not closed")
	}
	body := text[i+1 : i+end]
	mr.rec.Comments = append(mr.rec.Comments, Comment{len(mr.rec.Turns), body})
	if nl := strings.LastIndexByte(body, '\n'); nl >= 0 {
		mr.line += strings.Count(body, "\n")
		mr.lineStart = i + 1 + nl + 1
	}
	mr.i += end + 1
	return nil
}

// token reads a result, an entry number "n." or a turn.
func (mr *movetextReader) token(tok string) error {
	if res, isResult := rules.ParseResult(tok); isResult {
		if mr.inEntry < 0 {
			return mr.at("entry %d has no turn before the result", mr.next-1)
		}
		mr.rec.Result, mr.done = res, true
		return nil
	}
	if strings.HasSuffix(tok, ".") {
		return mr.entryNumber(tok)
	}
	return mr.turn(tok)
}

// entryNumber reads the number "n." that starts an entry.
func (mr *movetextReader) entryNumber(tok string) error {
	n, err := parseCount(tok[:len(tok)-1], 1, 1e9)
	if err != nil {
		return mr.at("turn number %q: %v", tok, err)
	}
	if mr.inEntry < 0 {
		return mr.at("entry %d has no turn", mr.next-1)
	}
	if mr.next == 0 {
		mr.rec.Number = n
	} else if n != mr.next {
		return mr.at("entry number %d, want %d", n, mr.next)
	}
	mr.next, mr.inEntry = n+1, -1
	return nil
}

// turn reads one of the (at most two) turns of the current entry.
func (mr *movetextReader) turn(tok string) error {
	if mr.next == 0 {
		return mr.at("turn %q before the first entry number", tok)
	}
	if mr.inEntry == 2 {
		return mr.at("turn %q: entry %d already has two turns", tok, mr.next-1)
	}
	t, err := ParseTurn(tok)
	if err != nil {
		return mr.at("%v", err)
	}
	mr.rec.Turns = append(mr.rec.Turns, t)
	mr.inEntry = max(mr.inEntry, 0) + 1
	return nil
}

// Format writes the record: the tags, a blank line, and the movetext
// wrapped at 80 columns. A tag value's control characters and line breaks
// are written as spaces. It fails on a tag or comment that the format
// cannot hold (a quote in a value, a brace in a comment).
func (r *Record) Format() (string, error) {
	var b strings.Builder
	for _, t := range r.Tags {
		if !validTagName(t.Name) || strings.Contains(t.Value, "\"") {
			return "", fmt.Errorf("tag %s %q: names are letters and digits, values have no quote", t.Name, t.Value)
		}
		fmt.Fprintf(&b, "[%s \"%s\"]\n", t.Name, oneline.Clean(t.Value))
	}
	b.WriteByte('\n')
	width := 0
	word := func(w string) {
		if width > 0 && width+1+len(w) > 80 {
			b.WriteByte('\n')
			width = 0
		} else if width > 0 {
			b.WriteByte(' ')
			width++
		}
		b.WriteString(w)
		width += len(w)
	}
	ci := 0
	comments := func(before int) error {
		for ; ci < len(r.Comments) && r.Comments[ci].Before <= before; ci++ {
			c := r.Comments[ci].Text
			if strings.Contains(c, "}") {
				return fmt.Errorf("comment %q: may not hold }", c)
			}
			word("{" + c + "}")
		}
		return nil
	}
	for i, t := range r.Turns {
		if err := comments(i); err != nil {
			return "", err
		}
		if i%2 == 0 {
			word(strconv.Itoa(r.Number+i/2) + ". " + t.String())
		} else {
			word(t.String())
		}
	}
	if err := comments(len(r.Turns)); err != nil {
		return "", err
	}
	word(r.Result.String())
	b.WriteByte('\n')
	return b.String(), nil
}
