package trf

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SyntaxError reports a malformed TRF line. Line and Column are 1-based.
type SyntaxError struct {
	Line   int
	Column int
	Msg    string
}

// Error formats the error with its line and column.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("trf: line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Read parses a TRF file from r. See Parse.
func Read(r io.Reader) (*Tournament, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("trf: read: %w", err)
	}
	return Parse(data)
}

// Parse parses a TRF16 or TRF26 file. Lines may end with CR, LF or CRLF, and
// a UTF-8 byte order mark is skipped.
// Columns are counted in characters when the file is valid UTF-8 and in
// bytes otherwise (Latin-1 files).
func Parse(data []byte) (*Tournament, error) {
	// Windows tools start UTF-8 files with a byte order mark; left in, it
	// would hide the first line's record code and lose that line.
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	t := &Tournament{Scoring: DefaultScoring}
	p := parser{t: t, utf8: utf8.Valid(data), text: map[string]*string{
		"012": &t.Name, "022": &t.City, "032": &t.Federation, "042": &t.StartDate,
		"052": &t.EndDate, "102": &t.Arbiter, "122": &t.TimeControl, "192": &t.System,
	}}
	for n, line := range splitLines(data) {
		if err := p.line(n+1, line); err != nil {
			return nil, err
		}
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return t, nil
}

// splitLines splits on CRLF, CR or LF.
func splitLines(data []byte) []string {
	var lines []string
	for len(data) > 0 {
		i := bytes.IndexAny(data, "\r\n")
		if i < 0 {
			lines = append(lines, string(data))
			break
		}
		lines = append(lines, string(data[:i]))
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
	}
	return lines
}

type parser struct {
	t      *Tournament
	utf8   bool
	idLine map[int]int // player ID -> line number
	// pointsGiven holds the players whose points column is not blank.
	pointsGiven map[int]bool
	no          int                // current line number
	text        map[string]*string // header records holding free text
}

func (p *parser) errorf(col int, format string, args ...any) error {
	return &SyntaxError{Line: p.no, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// columns returns the line as a slice of characters (runes or bytes).
func (p *parser) columns(line string) []rune {
	if p.utf8 {
		return []rune(line)
	}
	r := make([]rune, len(line))
	for i := 0; i < len(line); i++ {
		r[i] = rune(line[i])
	}
	return r
}

// field returns columns from..to (1-based, inclusive) of cols, trimmed.
func field(cols []rune, from, to int) string {
	if from > len(cols) {
		return ""
	}
	to = min(to, len(cols))
	return strings.TrimSpace(string(cols[from-1 : to]))
}

// line reads line number no by the kind its record code names; lines of
// an unknown kind are kept in Extra.
func (p *parser) line(no int, line string) error {
	p.no = no
	if strings.TrimSpace(line) == "" {
		return nil
	}
	cols := p.columns(line)
	code := field(cols, 1, 3)
	rest := field(cols, 4, len(cols))
	if f, ok := p.text[code]; ok {
		*f = rest
		return nil
	}
	switch code {
	case "001":
		return p.player(cols)
	case "142", "XXR":
		return p.rounds(code, rest)
	case "152":
		return p.colour152(rest)
	case "162":
		return p.scoring162(cols)
	case "XXC":
		return p.xxc(rest)
	case "XXA":
		return p.xxa(rest)
	case "XXP":
		return p.xxp(rest)
	case "XXS":
		return p.xxs(rest)
	case "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU":
		return p.bb(code, rest)
	}
	p.t.Extra = append(p.t.Extra, line)
	return nil
}

// rounds reads the number of rounds of a 142 or XXR record.
func (p *parser) rounds(code, rest string) error {
	n, err := strconv.Atoi(rest)
	if err != nil || n < 0 || n > 999 {
		return p.errorf(5, "%s: number of rounds %q is not a number from 0 to 999", code, rest)
	}
	p.t.Rounds = n
	return nil
}

// colour152 reads the initial colour of a 152 record: W or B.
func (p *parser) colour152(rest string) error {
	switch strings.ToLower(rest) {
	case "w":
		p.t.InitialColour = 'w'
	case "b":
		p.t.InitialColour = 'b'
	default:
		return p.errorf(5, "152: initial colour %q is not W or B", rest)
	}
	return nil
}

// bb reads a bbpPairings scoring record: BBW, BBD, BBL, BBZ, BBF or BBU
// and its points.
func (p *parser) bb(code, rest string) error {
	v, err := parsePoints(rest)
	if err != nil {
		return p.errorf(5, "%s: %v", code, err)
	}
	s := &p.t.Scoring
	switch code {
	case "BBW":
		s.Win = v
	case "BBD":
		s.Draw = v
	case "BBL":
		s.Loss = v
	case "BBZ":
		s.ZeroBye = v
	case "BBF":
		s.ForfeitLoss = v
	case "BBU":
		s.PAB = v
	}
	return nil
}

// scoring162 reads a TRF26 scoring record: a result symbol followed by its
// points, repeated. The format puts the symbols at columns 6, 15, 24, …
// with the points in the next four columns; the reader takes any spacing
// (files written one column early, "W1.0" without a blank), as long as
// every symbol has its points. W is a win (and the PAB unless P is given),
// D a draw, L a loss, A a zero-point bye or forfeit loss, P the
// pairing-allocated bye, X an unknown result (an adjourned game), which no
// 001 record can hold and is read without effect.
func (p *parser) scoring162(cols []rune) error {
	sc := &p.t.Scoring
	pab := false
	for c := 4; c < len(cols); {
		if cols[c] == ' ' {
			c++
			continue
		}
		sym, v, next, err := p.scoring162Pair(cols, c)
		if err != nil {
			return err
		}
		c = next
		switch sym {
		case 'W':
			sc.Win = v
			if !pab {
				sc.PAB = v
			}
		case 'D':
			sc.Draw = v
		case 'L':
			sc.Loss = v
		case 'A':
			sc.ZeroBye, sc.ForfeitLoss = v, v
		case 'P':
			sc.PAB, pab = v, true
		}
	}
	return nil
}

// scoring162Pair reads the result symbol at index c of a 162 record and
// the points after it, and returns the index after them.
func (p *parser) scoring162Pair(cols []rune, c int) (sym rune, v float64, next int, err error) {
	symCol, sym := c+1, unicode.ToUpper(cols[c])
	switch {
	case isDigit(sym):
		return 0, 0, 0, p.errorf(symCol, "162: points without a result symbol")
	case !strings.ContainsRune("WDLAPX", sym):
		return 0, 0, 0, p.errorf(symCol, "162: result symbol %q is not W, D, L, A, P or X", cols[c])
	}
	for c++; c < len(cols) && cols[c] == ' '; c++ {
	}
	from := c
	for c < len(cols) && cols[c] != ' ' && !isLetter(cols[c]) {
		c++
	}
	if from == c {
		return 0, 0, 0, p.errorf(symCol, "162: %c has no points", sym)
	}
	v, err = parsePoints(string(cols[from:c]))
	if err != nil {
		return 0, 0, 0, p.errorf(from+1, "162: %c: %v", sym, err)
	}
	return sym, v, c, nil
}

func isLetter(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' }
func isDigit(r rune) bool  { return r >= '0' && r <= '9' || r == '.' }

func (p *parser) xxc(rest string) error {
	for _, tok := range strings.Fields(rest) {
		switch strings.ToLower(tok) {
		case "white1":
			p.t.InitialColour = 'w'
		case "black1":
			p.t.InitialColour = 'b'
		case "rank":
			// Pair by order in the file: IDs are ranks already in our files.
		default:
			return p.errorf(5, "XXC: unknown token %q", tok)
		}
	}
	return nil
}

func (p *parser) xxa(rest string) error {
	f := strings.Fields(rest)
	if len(f) == 0 {
		return p.errorf(5, "XXA: missing player number")
	}
	id, err := strconv.Atoi(f[0])
	if err != nil || id <= 0 {
		return p.errorf(5, "XXA: player number %q is not a positive number", f[0])
	}
	vals := make([]float64, 0, len(f)-1)
	for i, s := range f[1:] {
		v, err := parsePoints(s)
		if err != nil {
			return p.errorf(10+5*i, "XXA: round %d: %v", i+1, err)
		}
		vals = append(vals, v)
	}
	if p.t.Accelerations == nil {
		p.t.Accelerations = make(map[int][]float64)
	}
	p.t.Accelerations[id] = vals
	return nil
}

func (p *parser) xxp(rest string) error {
	f := strings.Fields(rest)
	if len(f)%2 != 0 {
		return p.errorf(5, "XXP: odd number of player numbers")
	}
	for i := 0; i < len(f); i += 2 {
		a, err1 := strconv.Atoi(f[i])
		b, err2 := strconv.Atoi(f[i+1])
		if err1 != nil || err2 != nil || a <= 0 || b <= 0 {
			return p.errorf(5, "XXP: pair %q %q is not two player numbers", f[i], f[i+1])
		}
		p.t.Forbidden = append(p.t.Forbidden, [2]int{a, b})
	}
	return nil
}

// xxs reads JaVaFo scoring codes. Colour-specific values must agree: the
// engine does not model colour-dependent scoring.
func (p *parser) xxs(rest string) error {
	s := &p.t.Scoring
	for _, tok := range strings.Fields(rest) {
		k, v, ok := strings.Cut(tok, "=")
		if !ok {
			return p.errorf(5, "XXS: token %q is not CODE=VALUE", tok)
		}
		x, err := parsePoints(v)
		if err != nil {
			return p.errorf(5, "XXS: %s: %v", k, err)
		}
		switch strings.ToUpper(k) {
		case "WW", "BW", "W", "FW", "FPB":
			s.Win = x
		case "WD", "BD", "D", "HPB":
			s.Draw = x
		case "WL", "BL", "L":
			s.Loss = x
		case "ZPB":
			s.ZeroBye = x
		case "FL":
			s.ForfeitLoss = x
		case "PAB":
			s.PAB = x
		default:
			return p.errorf(5, "XXS: unknown code %q", k)
		}
	}
	return nil
}

func parsePoints(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v < 0 || v > 9999 {
		return 0, fmt.Errorf("points %q are not a number like 1.5", s)
	}
	return v, nil
}

// player reads a 001 record: the player's fields at their columns, then
// a round entry every ten columns from column 92.
func (p *parser) player(cols []rune) error {
	id, err := p.playerID(cols)
	if err != nil {
		return err
	}
	pl := Player{ID: id}
	if sex := field(cols, 10, 10); sex != "" {
		pl.Sex = p.sex(sex)
	}
	pl.Title = field(cols, 11, 13)
	pl.Name = field(cols, 15, 47)
	pl.Federation = field(cols, 54, 56)
	pl.FideID = field(cols, 58, 68)
	pl.Birth = field(cols, 70, 79)
	if err := p.playerNumbers(cols, &pl); err != nil {
		return err
	}
	if pl.Games, err = p.games(cols); err != nil {
		return err
	}
	p.t.Players = append(p.t.Players, pl)
	return nil
}

// playerID reads the starting rank of a 001 record, which no other
// record may have used.
func (p *parser) playerID(cols []rune) (int, error) {
	idText := field(cols, 5, 8)
	id, err := strconv.Atoi(idText)
	if err != nil || id <= 0 {
		return 0, p.errorf(5, "001: starting rank %q is not a positive number", idText)
	}
	if p.idLine == nil {
		p.idLine = make(map[int]int)
	}
	if prev, dup := p.idLine[id]; dup {
		return 0, p.errorf(5, "001: starting rank %d already used on line %d", id, prev)
	}
	p.idLine[id] = p.no
	return id, nil
}

// playerNumbers reads the rating, points and rank of a 001 record, each
// of which may be blank.
func (p *parser) playerNumbers(cols []rune, pl *Player) error {
	var err error
	if r := field(cols, 49, 52); r != "" {
		if pl.Rating, err = strconv.Atoi(r); err != nil || pl.Rating < 0 {
			return p.errorf(49, "001: rating %q is not a number", r)
		}
	}
	if s := field(cols, 81, 84); s != "" {
		if pl.Points, err = parsePoints(s); err != nil {
			return p.errorf(81, "001: %v", err)
		}
		if p.pointsGiven == nil {
			p.pointsGiven = make(map[int]bool)
		}
		p.pointsGiven[pl.ID] = true
	}
	if r := field(cols, 86, 89); r != "" {
		if pl.Rank, err = strconv.Atoi(r); err != nil || pl.Rank < 0 {
			return p.errorf(86, "001: rank %q is not a number", r)
		}
	}
	return nil
}

// games reads the round entries of a 001 record, without the trailing
// blank ones, which carry no information.
func (p *parser) games(cols []rune) ([]Game, error) {
	var games []Game
	for start := 92; start <= len(cols); start += 10 {
		g, err := p.game(cols, start)
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
	for len(games) > 0 && games[len(games)-1] == (Game{Colour: '-', Result: ' '}) {
		games = games[:len(games)-1]
	}
	return games, nil
}

// sex reads the sex column. The format says m or w; real files also hold
// f, and u for unknown (the FIDE tie-break reference generator writes it
// for every player), which are kept as written, in lower case. Pairing and
// tie-breaks never look at the column, so anything else is dropped with a
// warning rather than refusing the file.
func (p *parser) sex(s string) byte {
	if c := strings.ToLower(s)[0]; len(s) == 1 && strings.IndexByte("mwfu", c) >= 0 {
		return c
	}
	p.warnf(10, "001: sex %q is not m, w, f or u; ignored", s)
	return 0
}

// warnf records something the reader accepted without understanding it.
func (p *parser) warnf(col int, format string, args ...any) {
	p.t.Warnings = append(p.t.Warnings, (&SyntaxError{Line: p.no, Column: col, Msg: fmt.Sprintf(format, args...)}).Error())
}

// game parses the round entry starting at column start (opponent), with the
// colour at start+5 and the result at start+7.
func (p *parser) game(cols []rune, start int) (Game, error) {
	g := Game{Colour: '-', Result: ' '}
	if s := field(cols, start, start+3); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return g, p.errorf(start, "001: opponent %q is not a starting rank", s)
		}
		g.Opponent = n
	}
	// Columns between the fields must be blank.
	for _, c := range []int{start + 4, start + 6, start + 8} {
		if c <= len(cols) && cols[c-1] != ' ' {
			return g, p.errorf(c, "001: unexpected %q between round fields", cols[c-1])
		}
	}
	var err error
	if g.Colour, err = p.gameColour(cols, start+5); err != nil {
		return g, err
	}
	if g.Result, err = p.gameResult(cols, start+7); err != nil {
		return g, err
	}
	if g.Opponent != 0 && g.Colour == '-' && g.Result != '-' && g.Result != '+' && g.Result != ' ' {
		return g, p.errorf(start+5, "001: game against %d has no colour", g.Opponent)
	}
	return g, nil
}

// gameColour reads the colour of a round entry at column col: w, b, -
// or blank (which is -).
func (p *parser) gameColour(cols []rune, col int) (byte, error) {
	switch c := field(cols, col, col); c {
	case "", "-":
		return '-', nil
	case "w", "W":
		return 'w', nil
	case "b", "B":
		return 'b', nil
	default:
		return 0, p.errorf(col, "001: colour %q is not w, b or -", c)
	}
}

// gameResult reads the result code of a round entry at column col, in
// upper case; blank is ' ', not played yet.
func (p *parser) gameResult(cols []rune, col int) (byte, error) {
	r := field(cols, col, col)
	if r == "" {
		return ' ', nil
	}
	c := strings.ToUpper(r)[0]
	if strings.IndexByte("10=+-WDLHFUZ", c) < 0 {
		return 0, p.errorf(col, "001: result %q is not a TRF result code", r)
	}
	return c, nil
}

// check validates cross-references once every line is read.
func (p *parser) check() error {
	for _, pl := range p.t.Players {
		for r, g := range pl.Games {
			if g.Opponent == 0 {
				continue
			}
			if _, ok := p.idLine[g.Opponent]; !ok {
				p.no = p.idLine[pl.ID]
				return p.errorf(92+10*r, "001: round %d opponent %d of player %d does not exist", r+1, g.Opponent, pl.ID)
			}
			if g.Opponent == pl.ID {
				p.no = p.idLine[pl.ID]
				return p.errorf(92+10*r, "001: round %d: player %d paired with itself", r+1, pl.ID)
			}
		}
		// Engines check the points column against the results; a file
		// that disagrees is read, with a warning naming both.
		if p.pointsGiven[pl.ID] {
			sum := 0.0
			for _, g := range pl.Games {
				if g.Result != ' ' || g.Opponent == 0 { // a game not played yet counts nothing
					sum += p.t.Scoring.Points(g)
				}
			}
			if math.Abs(sum-pl.Points) > 1e-9 {
				p.no = p.idLine[pl.ID]
				p.warnf(81, "001: player %d has %s points but the results give %s",
					pl.ID, strconv.FormatFloat(pl.Points, 'f', -1, 64), strconv.FormatFloat(sum, 'f', -1, 64))
			}
		}
	}
	return nil
}
