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
	text := strings.Join(lines, "")
	inEntry := 0 // turns read in the current entry; -1 right after its number
	next := 0    // the number the next entry must have, 0 before the first
	done := false
	line, lineStart := first+1, 0
	for i := 0; i < len(text); {
		c := text[i]
		if c == '\n' {
			line, lineStart = line+1, i+1
		}
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		at := func(format string, args ...any) error {
			return fmt.Errorf("record line %d column %d: %s", line, i-lineStart+1, fmt.Sprintf(format, args...))
		}
		if done {
			return at("text after the result")
		}
		if c == '{' {
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				return at("comment not closed")
			}
			body := text[i+1 : i+end]
			r.Comments = append(r.Comments, Comment{len(r.Turns), body})
			if nl := strings.LastIndexByte(body, '\n'); nl >= 0 {
				line += strings.Count(body, "\n")
				lineStart = i + 1 + nl + 1
			}
			i += end + 1
			continue
		}
		end := i
		for end < len(text) && !strings.ContainsRune(" \t\r\n{", rune(text[end])) {
			end++
		}
		tok := text[i:end]
		switch res, isResult := rules.ParseResult(tok); {
		case isResult:
			if inEntry < 0 {
				return at("entry %d has no turn before the result", next-1)
			}
			r.Result, done = res, true
		case strings.HasSuffix(tok, "."):
			n, err := parseCount(tok[:len(tok)-1], 1, 1e9)
			if err != nil {
				return at("turn number %q: %v", tok, err)
			}
			if inEntry < 0 {
				return at("entry %d has no turn", next-1)
			}
			if next == 0 {
				r.Number = n
			} else if n != next {
				return at("entry number %d, want %d", n, next)
			}
			next, inEntry = n+1, -1
		default:
			if next == 0 {
				return at("turn %q before the first entry number", tok)
			}
			if inEntry == 2 {
				return at("turn %q: entry %d already has two turns", tok, next-1)
			}
			t, err := ParseTurn(tok)
			if err != nil {
				return at("%v", err)
			}
			r.Turns = append(r.Turns, t)
			inEntry = max(inEntry, 0) + 1
		}
		i = end
	}
	if !done {
		return fmt.Errorf("record: the movetext has no result (1-0, 0-1, 1/2-1/2 or *)")
	}
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
