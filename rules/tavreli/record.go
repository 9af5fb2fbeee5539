package tavreli

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"arbiter/internal/oneline"
)

// Tag is one header of a game record: [Name "Value"].
type Tag struct {
	Name, Value string
}

// Ply is one move of a record.
type Ply struct {
	Move Move
	// Text is the move as it was written; empty for records built in code.
	Text string
	// Comment is the text of the brace comments that followed the move.
	Comment string
	// Warnings are the irregularities the reader accepted in Text.
	Warnings []string
}

// Record is a game record (spec 4.5): headers, the start position, the
// moves and the result token.
type Record struct {
	Tags []Tag
	// Start is the position before the first move: the TFEN header's, or
	// the initial position of the array.
	Start Board
	// Comment is the text of brace comments before the first move.
	Comment string
	Plies   []Ply
	// Result is the result token: "1-0", "0-1", "1/2-1/2" or "*".
	Result string
	// Warnings are record-level notes (look-alike letters resolved by the
	// detected alphabet, a composed start position).
	Warnings []string
}

// Tag returns the value of the named header and whether it is present.
func (r *Record) Tag(name string) (string, bool) {
	for _, t := range r.Tags {
		if strings.EqualFold(t.Name, name) {
			return t.Value, true
		}
	}
	return "", false
}

// SetTag sets a header, replacing one of the same name.
func (r *Record) SetTag(name, value string) {
	for i, t := range r.Tags {
		if strings.EqualFold(t.Name, name) {
			r.Tags[i].Value = value
			return
		}
	}
	r.Tags = append(r.Tags, Tag{name, value})
}

// End returns the position after the last move.
func (r *Record) End() Board {
	b := r.Start
	for _, p := range r.Plies {
		b.Make(p.Move)
	}
	return b
}

// RecordOptions control [ParseGame].
type RecordOptions struct {
	// Array is the initial array; the zero value means [DefaultArray].
	Array Array
	// Strict rejects what a lenient reader accepts with a warning.
	Strict bool
}

// ParseGame reads a game record leniently with the default array.
func ParseGame(text string) (*Record, error) {
	return ParseGameWith(text, RecordOptions{})
}

// PlyError is a move of a record that cannot be read or is not legal.
type PlyError struct {
	Ply   int // 1-based half-move number
	Token string
	Err   error
}

// Error names the ply in move-number form ("ply 7 (4. …)") and the token.
func (e *PlyError) Error() string {
	dots := "."
	if e.Ply%2 == 0 {
		dots = "..."
	}
	return fmt.Sprintf("ply %d (%d%s) token %q: %v", e.Ply, (e.Ply+1)/2, dots, e.Token, e.Err)
}

// Unwrap returns the underlying error.
func (e *PlyError) Unwrap() error { return e.Err }

var resultTokens = map[string]bool{"1-0": true, "0-1": true, "1/2-1/2": true, "½-½": true, "*": true}

// ParseGameWith reads a game record: headers in brackets, numbered moves,
// brace and semicolon comments, annotation glyphs ("!", "?!", "$1"), and a
// result token. The alphabet comes from an Alphabet header or is detected
// from all the record's moves (spec 4.4). What each move is comes from the
// position; a token that cannot be a legal move is an error naming it and
// its ply.
func ParseGameWith(text string, opt RecordOptions) (*Record, error) {
	arr := opt.Array
	if arr == (Array{}) {
		arr = DefaultArray
	}
	rec := &Record{Result: "*"}
	toks, err := scanRecord(text, rec)
	if err != nil {
		return nil, err
	}
	toks = joinQuirks(toks)
	if err := rec.readStart(arr); err != nil {
		return nil, err
	}
	alpha, err := rec.alphabet(toks)
	if err != nil {
		return nil, err
	}
	if err := rec.play(toks, Reader{Alphabet: alpha, Strict: opt.Strict}); err != nil {
		return nil, err
	}
	if res, ok := rec.Tag("Result"); ok && rec.Result == "*" && resultTokens[res] {
		rec.Result = res
	}
	return rec, nil
}

// readStart sets the start position: the TFEN header's, read as a game
// position or else, with a warning, as a composed one; without the header
// the initial position of arr.
func (rec *Record) readStart(arr Array) error {
	rec.Start = arr.Start()
	fen, ok := rec.Tag("TFEN")
	if !ok {
		return nil
	}
	b, err := arr.ParseTFEN(fen, GameMode)
	if err != nil {
		b2, err2 := arr.ParseTFEN(fen, AnalysisMode)
		if err2 != nil {
			return fmt.Errorf("TFEN header: %w", err)
		}
		rec.Warnings = append(rec.Warnings, fmt.Sprintf("TFEN header is a composed position (%v)", err))
		b = b2
	}
	rec.Start = *b
	return nil
}

// alphabet returns the record's alphabet: the Alphabet header's, or the
// one the moves' file letters settle (spec 4.4).
func (rec *Record) alphabet(toks []recTok) (Alphabet, error) {
	alpha := AutoAlphabet
	if a, ok := rec.Tag("Alphabet"); ok {
		var err error
		if alpha, err = ParseAlphabet(a); err != nil {
			return alpha, fmt.Errorf("Alphabet header: %w", err)
		}
	}
	if alpha == AutoAlphabet {
		return detectRecordAlphabet(toks)
	}
	return alpha, nil
}

// play reads the tokens in order from the start position: comments go to
// the record or the ply before them, moves are read and played, and the
// result token is kept.
func (rec *Record) play(toks []recTok, reader Reader) error {
	b := rec.Start
	for _, t := range toks {
		switch t.kind {
		case tokComment:
			rec.addComment(t.text)
		case tokResult:
			rec.Result = t.text
			if t.text == "½-½" {
				rec.Result = "1/2-1/2"
			}
		case tokMove:
			mt, err := reader.ParseMove(&b, t.text)
			if err != nil {
				return &PlyError{Ply: len(rec.Plies) + 1, Token: t.text, Err: err}
			}
			b.Make(mt.Move)
			rec.Plies = append(rec.Plies, Ply{Move: mt.Move, Text: t.text, Warnings: mt.Warnings})
		}
	}
	return nil
}

// addComment joins a comment to the last ply's, or to the record's
// before the first move.
func (rec *Record) addComment(text string) {
	if len(rec.Plies) == 0 {
		rec.Comment = joinComment(rec.Comment, text)
		return
	}
	p := &rec.Plies[len(rec.Plies)-1]
	p.Comment = joinComment(p.Comment, text)
}

func joinComment(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}

type tokKind uint8

const (
	tokMove tokKind = iota
	tokComment
	tokResult
)

type recTok struct {
	kind tokKind
	text string
}

// scanRecord splits a record into headers (stored in rec) and tokens.
func scanRecord(text string, rec *Record) ([]recTok, error) {
	sc := recScanner{text: text, line: 1}
	for sc.i < len(text) {
		c, w := utf8.DecodeRuneInString(text[sc.i:])
		var err error
		switch {
		case c == '\n':
			sc.line++
			sc.i += w
		case unicode.IsSpace(c):
			sc.i += w
		case c == '[':
			err = sc.header(rec)
		case c == '{':
			err = sc.braceComment()
		case c == ';':
			sc.lineComment()
		default:
			sc.word()
		}
		if err != nil {
			return nil, err
		}
	}
	return sc.toks, nil
}

// recScanner is scanRecord's place in the text: the byte index i, the
// line it is on, and the tokens read so far.
type recScanner struct {
	text    string
	i, line int
	toks    []recTok
}

// header reads the header at i into rec.
func (sc *recScanner) header(rec *Record) error {
	tag, n, err := scanHeader(sc.text[sc.i:])
	if err != nil {
		return fmt.Errorf("line %d: %w", sc.line, err)
	}
	rec.Tags = append(rec.Tags, tag)
	sc.line += strings.Count(sc.text[sc.i:sc.i+n], "\n")
	sc.i += n
	return nil
}

// braceComment reads the {comment} at i, which may span lines.
func (sc *recScanner) braceComment() error {
	text, i := sc.text, sc.i
	end := strings.IndexByte(text[i:], '}')
	if end < 0 {
		return fmt.Errorf("line %d: unclosed comment {", sc.line)
	}
	sc.toks = append(sc.toks, recTok{tokComment, strings.Join(strings.Fields(text[i+1:i+end]), " ")})
	sc.line += strings.Count(text[i:i+end], "\n")
	sc.i += end + 1
	return nil
}

// lineComment reads the ;comment at i, up to the end of its line.
func (sc *recScanner) lineComment() {
	text, i := sc.text, sc.i
	end := strings.IndexByte(text[i:], '\n')
	if end < 0 {
		end = len(text) - i
	}
	sc.toks = append(sc.toks, recTok{tokComment, strings.Join(strings.Fields(text[i+1:i+end]), " ")})
	sc.i += end
}

// word reads the word at i, up to a space, a comment or a header, and
// appends what it holds.
func (sc *recScanner) word() {
	text, i := sc.text, sc.i
	j := i
	for j < len(text) {
		r, w := utf8.DecodeRuneInString(text[j:])
		if unicode.IsSpace(r) || r == '{' || r == ';' || (r == '[' && j > i) {
			break
		}
		j += w
	}
	word := text[i:j]
	sc.i = j
	// "+ +" is a mate mark split by a space.
	if n := len(sc.toks); word == "+" && n > 0 && sc.toks[n-1].kind == tokMove {
		sc.toks[n-1].text += " +"
		return
	}
	sc.toks = append(sc.toks, splitWord(word)...)
}

// scanHeader reads one [Name "value"] header at the start of s and returns
// it with its length. The value may hold brackets (a TFEN) and \" escapes.
func scanHeader(s string) (Tag, int, error) {
	j := 1
	for j < len(s) && s[j] == ' ' {
		j++
	}
	i := j
	for j < len(s) && s[j] != ' ' && s[j] != '"' && s[j] != ']' && s[j] != '\n' {
		j++
	}
	name := s[i:j]
	j = skipSpaces(s, j)
	if name == "" || j >= len(s) || s[j] != '"' {
		return Tag{}, 0, fmt.Errorf("header %q: want [Name \"value\"]", firstLine(s))
	}
	val, k, err := headerValue(s, j+1)
	if err != nil {
		return Tag{}, 0, err
	}
	k = skipSpaces(s, k+1)
	if k >= len(s) || s[k] != ']' {
		return Tag{}, 0, fmt.Errorf("header %q: want [Name \"value\"]", firstLine(s))
	}
	return Tag{Name: name, Value: val}, k + 1, nil
}

// skipSpaces returns the index of the first byte from i on that is not a
// space.
func skipSpaces(s string, i int) int {
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i
}

// headerValue reads a header value from s[k:] up to its closing quote,
// unescaping \" and \\, and returns it with the index of that quote (len(s)
// when there is none).
func headerValue(s string, k int) (string, int, error) {
	var val strings.Builder
	for ; k < len(s) && s[k] != '"'; k++ {
		if s[k] == '\\' && k+1 < len(s) {
			k++
		}
		if s[k] == '\n' {
			return "", 0, fmt.Errorf("header %q: unterminated value", firstLine(s))
		}
		val.WriteByte(s[k])
	}
	return val.String(), k, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// splitWord removes move numbers ("12.", "12...") and glyphs ("$3") from a
// word and classifies what is left.
func splitWord(w string) []recTok {
	if resultTokens[w] {
		return []recTok{{tokResult, w}}
	}
	if strings.HasPrefix(w, "$") {
		return nil
	}
	// A move number, possibly glued to the move: "1.e2-e4", "3...e7-e5".
	j := 0
	for j < len(w) && w[j] >= '0' && w[j] <= '9' {
		j++
	}
	if j > 0 && j < len(w) && w[j] == '.' {
		k := j
		for k < len(w) && w[k] == '.' {
			k++
		}
		w = w[k:]
	} else if j > 0 && j == len(w) {
		return nil // a bare number
	}
	if w == "" || strings.Trim(w, "!?") == "" {
		return nil
	}
	return []recTok{{tokMove, w}}
}

// detectRecordAlphabet applies spec 4.4 to every file letter of the
// record's moves.
func detectRecordAlphabet(toks []recTok) (Alphabet, error) {
	var set letterSet
	for _, t := range toks {
		if t.kind != tokMove {
			continue
		}
		rs := []rune(t.text)
		for i, c := range rs {
			// File letters are those followed by a rank digit; this skips
			// promotion letters and the tower mark.
			if i+1 < len(rs) && rs[i+1] >= '1' && rs[i+1] <= '8' {
				set.add(c)
			}
		}
	}
	a, err := set.decide(true)
	if err != nil {
		return a, fmt.Errorf("record: %w", err)
	}
	return a, nil
}

// Format writes the record in canonical notation in the given alphabet
// (Latin when AutoAlphabet), with an Alphabet header, a TFEN header when
// the game did not start from the initial position of arr, numbered moves
// and the result token.
func (r *Record) Format(alpha Alphabet, arr Array) string {
	if alpha == AutoAlphabet {
		alpha = Latin
	}
	if arr == (Array{}) {
		arr = DefaultArray
	}
	var sb strings.Builder
	for _, t := range r.formatTags(alpha, arr) {
		fmt.Fprintf(&sb, "[%s \"%s\"]\n", t.Name, headerEscaper.Replace(oneline.Clean(t.Value)))
	}
	sb.WriteByte('\n')
	w := movetextWriter{sb: &sb}
	if r.Comment != "" {
		w.comment(r.Comment)
	}
	b := r.Start
	for i, p := range r.Plies {
		white := b.side == 0
		text := FormatMove(&b, p.Move, alpha)
		if white || i == 0 || r.Plies[i-1].Comment != "" {
			num := strconv.Itoa(int(b.full)) + "."
			if !white {
				num += ".."
			}
			text = num + " " + text
		}
		w.word(text)
		if p.Comment != "" {
			w.comment(p.Comment)
		}
		b.Make(p.Move)
	}
	w.word(r.Result)
	sb.WriteByte('\n')
	return sb.String()
}

// formatTags returns the headers Format writes: the record's, with the
// Alphabet, the TFEN (only when the game did not start from the initial
// position of arr) and the Result set.
func (r *Record) formatTags(alpha Alphabet, arr Array) []Tag {
	out := &Record{Tags: append([]Tag(nil), r.Tags...)}
	out.SetTag("Alphabet", alpha.String())
	start := arr.Start()
	if r.Start.TFEN() != start.TFEN() {
		out.SetTag("TFEN", r.Start.TFEN())
	} else {
		out.Tags = removeTag(out.Tags, "TFEN")
	}
	out.SetTag("Result", r.Result)
	return out.Tags
}

// movetextWriter writes the words of a movetext separated by spaces, in
// lines of at most 79 characters.
type movetextWriter struct {
	sb      *strings.Builder
	lineLen int // in runes
}

// word writes s, starting a new line when it would not fit on this one.
func (w *movetextWriter) word(s string) {
	n := utf8.RuneCountInString(s)
	if w.lineLen > 0 && w.lineLen+1+n > 79 {
		w.sb.WriteByte('\n')
		w.lineLen = 0
	} else if w.lineLen > 0 {
		w.sb.WriteByte(' ')
		w.lineLen++
	}
	w.sb.WriteString(s)
	w.lineLen += n
}

// comment writes a comment on one line. A comment holding a brace is
// written as a semicolon comment, which runs to the end of the line.
func (w *movetextWriter) comment(c string) {
	c = oneline.Clean(strings.Join(strings.Fields(c), " "))
	if !strings.Contains(c, "}") {
		w.word("{" + c + "}")
		return
	}
	w.word(";" + c)
	w.sb.WriteByte('\n')
	w.lineLen = 0
}

var headerEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

func removeTag(tags []Tag, name string) []Tag {
	out := tags[:0]
	for _, t := range tags {
		if !strings.EqualFold(t.Name, name) {
			out = append(out, t)
		}
	}
	return out
}
