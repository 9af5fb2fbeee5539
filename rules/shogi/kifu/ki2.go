package kifu

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ki2PerLine is how many moves a KI2 line holds.
const ki2PerLine = 6

// WriteKI2 writes r as KI2, the readable notation without origin squares
// or times (spec 5.5): headers, moves with side marks and the 右/左/直/上/
// 引/寄 modifiers where two pieces could reach the square, 打 only where a
// board piece could also go there, 不成 on declined promotions, and the
// summary line.
func WriteKI2(r *Record) (string, error) {
	pos, moves, err := r.Replay(nil)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	writeJapaneseHeaders(&sb, r, pos[0])
	var line []string
	flush := func() {
		if len(line) > 0 {
			sb.WriteString(strings.TrimRight(strings.Join(line, ""), " "))
			sb.WriteByte('\n')
			line = line[:0]
		}
	}
	for i, rm := range r.Moves {
		tok := pos[i].KI2Move(moves[i])
		line = append(line, tok+strings.Repeat(" ", max(1, 14-displayWidth(tok))))
		if rm.Comment != "" || len(line) == ki2PerLine {
			flush()
			writeComment(&sb, "*", rm.Comment)
		}
	}
	flush()
	if r.End.Kind != NoTerminal {
		sb.WriteString(summaryLine(r.End, len(r.Moves), pos[len(pos)-1].Turn()))
		sb.WriteByte('\n')
		writeComment(&sb, "*", r.End.Comment)
	}
	return sb.String(), nil
}

// ReadKI2 reads a KI2 record (UTF-8 or Shift_JIS). Moves have no origin
// squares; each is resolved against the position, using the modifiers
// where several pieces could reach the square. The terminal event comes
// from the summary line.
func ReadKI2(data []byte) (*Record, error) {
	kr := &ki2Reader{newJapaneseReader()}
	return kr.read("ki2", data, kr.line)
}

// ki2Reader is the KI2 reader's progress through a file: the headers
// until the moves begin (pos set), then lines of moves and the summary.
type ki2Reader struct{ japaneseReader }

// line takes the line raw and reports whether the record stops there (at
// a variation).
func (kr *ki2Reader) line(raw string) (stop bool, err error) {
	l := strings.TrimSpace(raw)
	switch {
	case ignoredLine(l):
		return false, nil
	case isVariation(l):
		return true, nil
	case strings.HasPrefix(l, "*"):
		// A comment after the summary line is the terminal event's.
		kr.r.addComment(kr.r.End.Kind != NoTerminal, strings.TrimPrefix(l, "*"))
		return false, nil
	}
	isMove := startsWithSideMark(l)
	if kr.pos == nil {
		if !isMove && !strings.HasPrefix(l, "まで") {
			return false, kr.header(raw, l)
		}
		if err := kr.begin(); err != nil {
			return false, err
		}
	}
	switch {
	case strings.HasPrefix(l, "まで"):
		t, ok := parseSummary(l, kr.pos.Turn())
		if !ok {
			return false, fmt.Errorf("bad summary line %q", l)
		}
		kr.r.End = t
		return false, nil
	case !isMove:
		return false, fmt.Errorf("want moves starting with ▲ or △, got %q", l)
	}
	return false, kr.moves(l)
}

// header takes a header-area line, raw as read and l trimmed.
func (kr *ki2Reader) header(raw, l string) error {
	ok, err := kr.hp.line(strings.TrimRight(raw, " \t"))
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("unexpected line %q", l)
	}
	return nil
}

// moves plays the moves of a line of moves.
func (kr *ki2Reader) moves(l string) error {
	for _, tok := range splitKI2(l) {
		pos, m, err := playText(kr.pos, tok)
		if err != nil {
			return fmt.Errorf("move %d: %w", len(kr.r.Moves)+1, err)
		}
		kr.pos = pos
		kr.r.Moves = append(kr.r.Moves, RecordMove{USI: m.String()})
	}
	return nil
}

// isSideMark reports whether r is a side mark that starts a KI2 move.
func isSideMark(r rune) bool {
	return r == '▲' || r == '△' || r == '☗' || r == '☖' || r == '▽'
}

// startsWithSideMark reports whether a KI2 line starts with a move.
func startsWithSideMark(l string) bool {
	r, _ := utf8.DecodeRuneInString(l)
	return isSideMark(r)
}

// splitKI2 cuts a KI2 line into moves at the side marks.
func splitKI2(l string) []string {
	var out []string
	start := -1
	for i, r := range l {
		if isSideMark(r) {
			if start >= 0 {
				out = append(out, strings.Trim(l[start:i], " \t"+ideoSpace))
			}
			start = i
		}
	}
	if start >= 0 {
		out = append(out, strings.Trim(l[start:], " \t"+ideoSpace))
	}
	return out
}
