package kifu

import (
	"fmt"
	"strings"

	"arbiter/rules/shogi"
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
	lines, err := decodeText(data)
	if err != nil {
		return nil, &LineError{"ki2", 1, err}
	}
	r := &Record{}
	hp := headerParser{r: r}
	var pos *shogi.Position
	fail := func(i int, err error) (*Record, error) { return nil, &LineError{"ki2", i + 1, err} }
	for i, raw := range lines {
		l := strings.TrimSpace(raw)
		isMove := strings.HasPrefix(l, "▲") || strings.HasPrefix(l, "△") || strings.HasPrefix(l, "☗") || strings.HasPrefix(l, "☖") || strings.HasPrefix(l, "▽")
		switch {
		case l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "&"):
			continue
		case strings.HasPrefix(l, "変化：") || strings.HasPrefix(l, "変化:"):
			return r, nil
		case strings.HasPrefix(l, "*"):
			if r.End.Kind != NoTerminal {
				// After the summary line: the terminal event's comment.
				r.End.Comment = joinComment(r.End.Comment, strings.TrimPrefix(l, "*"))
				continue
			}
			if n := len(r.Moves); n > 0 {
				r.Moves[n-1].Comment = joinComment(r.Moves[n-1].Comment, strings.TrimPrefix(l, "*"))
			}
			continue
		}
		if pos == nil {
			if !isMove && !strings.HasPrefix(l, "まで") {
				ok, err := hp.line(strings.TrimRight(raw, " \t"))
				if err != nil {
					return fail(i, err)
				}
				if !ok {
					return fail(i, fmt.Errorf("unexpected line %q", l))
				}
				continue
			}
			if err := hp.start(); err != nil {
				return fail(i, err)
			}
			if pos, err = r.startPosition(); err != nil {
				return fail(i, err)
			}
		}
		if strings.HasPrefix(l, "まで") {
			t, ok := parseSummary(l, pos.Turn())
			if !ok {
				return fail(i, fmt.Errorf("bad summary line %q", l))
			}
			r.End = t
			continue
		}
		if !isMove {
			return fail(i, fmt.Errorf("want moves starting with ▲ or △, got %q", l))
		}
		for _, tok := range splitKI2(l) {
			var m shogi.Move
			if pos, m, err = playText(pos, tok); err != nil {
				return fail(i, fmt.Errorf("move %d: %w", len(r.Moves)+1, err))
			}
			r.Moves = append(r.Moves, RecordMove{USI: m.String()})
		}
	}
	if pos == nil {
		if err := hp.start(); err != nil {
			return nil, &LineError{"ki2", len(lines), err}
		}
	}
	return r, nil
}

// splitKI2 cuts a KI2 line into moves at the side marks.
func splitKI2(l string) []string {
	var out []string
	start := -1
	for i, r := range l {
		if r == '▲' || r == '△' || r == '☗' || r == '☖' || r == '▽' {
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
