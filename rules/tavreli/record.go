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
	rec.Start = arr.Start()
	if fen, ok := rec.Tag("TFEN"); ok {
		b, err := arr.ParseTFEN(fen, GameMode)
		if err != nil {
			b2, err2 := arr.ParseTFEN(fen, AnalysisMode)
			if err2 != nil {
				return nil, fmt.Errorf("TFEN header: %w", err)
			}
			rec.Warnings = append(rec.Warnings, fmt.Sprintf("TFEN header is a composed position (%v)", err))
			b = b2
		}
		rec.Start = *b
	}
	alpha := AutoAlphabet
	if a, ok := rec.Tag("Alphabet"); ok {
		if alpha, err = ParseAlphabet(a); err != nil {
			return nil, fmt.Errorf("Alphabet header: %w", err)
		}
	}
	if alpha == AutoAlphabet {
		if alpha, err = detectRecordAlphabet(toks); err != nil {
			return nil, err
		}
	}
	reader := Reader{Alphabet: alpha, Strict: opt.Strict}
	b := rec.Start
	for _, t := range toks {
		switch t.kind {
		case tokComment:
			if len(rec.Plies) == 0 {
				rec.Comment = joinComment(rec.Comment, t.text)
			} else {
				p := &rec.Plies[len(rec.Plies)-1]
				p.Comment = joinComment(p.Comment, t.text)
			}
		case tokResult:
			rec.Result = t.text
			if t.text == "½-½" {
				rec.Result = "1/2-1/2"
			}
		case tokMove:
			n := len(rec.Plies) + 1
			mt, err := reader.ParseMove(&b, t.text)
			if err != nil {
				return nil, &PlyError{Ply: n, Token: t.text, Err: err}
			}
			b.Make(mt.Move)
			rec.Plies = append(rec.Plies, Ply{Move: mt.Move, Text: t.text, Warnings: mt.Warnings})
		}
	}
	if res, ok := rec.Tag("Result"); ok && rec.Result == "*" && resultTokens[res] {
		rec.Result = res
	}
	return rec, nil
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
	var toks []recTok
	line := 1
	for i := 0; i < len(text); {
		c, w := utf8.DecodeRuneInString(text[i:])
		switch {
		case c == '\n':
			line++
			i += w
		case unicode.IsSpace(c):
			i += w
		case c == '[':
			tag, n, err := scanHeader(text[i:])
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			rec.Tags = append(rec.Tags, tag)
			line += strings.Count(text[i:i+n], "\n")
			i += n
		case c == '{':
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("line %d: unclosed comment {", line)
			}
			toks = append(toks, recTok{tokComment, strings.Join(strings.Fields(text[i+1:i+end]), " ")})
			line += strings.Count(text[i:i+end], "\n")
			i += end + 1
		case c == ';':
			end := strings.IndexByte(text[i:], '\n')
			if end < 0 {
				end = len(text) - i
			}
			toks = append(toks, recTok{tokComment, strings.Join(strings.Fields(text[i+1:i+end]), " ")})
			i += end
		default:
			j := i
			for j < len(text) {
				r, w := utf8.DecodeRuneInString(text[j:])
				if unicode.IsSpace(r) || r == '{' || r == ';' || (r == '[' && j > i) {
					break
				}
				j += w
			}
			word := text[i:j]
			i = j
			// "+ +" is a mate mark split by a space.
			if word == "+" && len(toks) > 0 && toks[len(toks)-1].kind == tokMove {
				toks[len(toks)-1].text += " +"
				continue
			}
			toks = append(toks, splitWord(word)...)
		}
	}
	return toks, nil
}

// scanHeader reads one [Name "value"] header at the start of s and returns
// it with its length. The value may hold brackets (a TFEN) and \" escapes.
func scanHeader(s string) (Tag, int, error) {
	i := 1
	for i < len(s) && s[i] == ' ' {
		i++
	}
	j := i
	for j < len(s) && s[j] != ' ' && s[j] != '"' && s[j] != ']' && s[j] != '\n' {
		j++
	}
	name := s[i:j]
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if name == "" || j >= len(s) || s[j] != '"' {
		return Tag{}, 0, fmt.Errorf("header %q: want [Name \"value\"]", firstLine(s))
	}
	var val strings.Builder
	k := j + 1
	for ; k < len(s) && s[k] != '"'; k++ {
		if s[k] == '\\' && k+1 < len(s) {
			k++
		}
		if s[k] == '\n' {
			return Tag{}, 0, fmt.Errorf("header %q: unterminated value", firstLine(s))
		}
		val.WriteByte(s[k])
	}
	k++
	for k < len(s) && s[k] == ' ' {
		k++
	}
	if k >= len(s) || s[k] != ']' {
		return Tag{}, 0, fmt.Errorf("header %q: want [Name \"value\"]", firstLine(s))
	}
	return Tag{Name: name, Value: val.String()}, k + 1, nil
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
	tags := append([]Tag(nil), r.Tags...)
	out := &Record{Tags: tags}
	out.SetTag("Alphabet", alpha.String())
	start := arr.Start()
	if r.Start.TFEN() != start.TFEN() {
		out.SetTag("TFEN", r.Start.TFEN())
	} else {
		out.Tags = removeTag(out.Tags, "TFEN")
	}
	out.SetTag("Result", r.Result)
	for _, t := range out.Tags {
		fmt.Fprintf(&sb, "[%s \"%s\"]\n", t.Name, headerEscaper.Replace(oneline.Clean(t.Value)))
	}
	sb.WriteByte('\n')
	b := r.Start
	lineLen := 0
	emit := func(s string) {
		n := utf8.RuneCountInString(s)
		if lineLen > 0 && lineLen+1+n > 79 {
			sb.WriteByte('\n')
			lineLen = 0
		} else if lineLen > 0 {
			sb.WriteByte(' ')
			lineLen++
		}
		sb.WriteString(s)
		lineLen += n
	}
	// A comment holding a brace is written as a semicolon comment, which
	// runs to the end of the line.
	comment := func(c string) {
		c = oneline.Clean(strings.Join(strings.Fields(c), " "))
		if !strings.Contains(c, "}") {
			emit("{" + c + "}")
			return
		}
		emit(";" + c)
		sb.WriteByte('\n')
		lineLen = 0
	}
	if r.Comment != "" {
		comment(r.Comment)
	}
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
		emit(text)
		if p.Comment != "" {
			comment(p.Comment)
		}
		b.Make(p.Move)
	}
	emit(r.Result)
	sb.WriteByte('\n')
	return sb.String()
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
