package trf

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"arbiter/internal/oneline"
)

// Write writes t as TRF26 with LF line ends. Text fields are written as one
// line each: control characters and line breaks become spaces. Besides the TRF26 records 142
// and 152 it emits the engine extensions XXR and XXC so that JaVaFo and
// bbpPairings read the same tournament, BBW…BBU lines when the scoring is
// not the default, and XXA/XXP lines for accelerations and forbidden pairs.
func (t *Tournament) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	// Tournament-section records kept in Extra (062 players, 092 type,
	// 132 round dates, 202 tie-breaks...) stay in the header.
	header, after := splitExtra(t.Extra)
	t.writeHeader(bw, header)
	for _, pl := range t.Players {
		bw.WriteString(formatPlayer(&pl))
		bw.WriteByte('\n')
	}
	writeLines(bw, after)
	t.writeExtensions(bw)
	return bw.Flush()
}

// splitExtra cleans the Extra lines and splits them into the records of
// the tournament section and the others, dropping the lines left empty.
func splitExtra(extra []string) (header, after []string) {
	for _, e := range extra {
		if e = oneline.Clean(e); e == "" {
			continue
		}
		if headerRecord(e) {
			header = append(header, e)
		} else {
			after = append(after, e)
		}
	}
	return header, after
}

// writeLines writes each line with its LF.
func writeLines(bw *bufio.Writer, lines []string) {
	for _, l := range lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
}

// customScoring reports whether t's scoring needs writing: it is set and
// is not the default.
func (t *Tournament) customScoring() bool {
	return t.Scoring != DefaultScoring && t.Scoring != (Scoring{})
}

// writeHeader writes the tournament section: the text records, the
// header records of Extra, then rounds (142), initial colour (152),
// scoring (162) and system (192).
func (t *Tournament) writeHeader(bw *bufio.Writer, extra []string) {
	head := []struct {
		code, text string
	}{
		{"012", t.Name}, {"022", t.City}, {"032", t.Federation}, {"042", t.StartDate},
		{"052", t.EndDate}, {"102", t.Arbiter}, {"122", t.TimeControl},
	}
	for _, h := range head {
		if text := oneline.Clean(h.text); text != "" {
			fmt.Fprintf(bw, "%s %s\n", h.code, text)
		}
	}
	writeLines(bw, extra)
	if t.Rounds > 0 {
		fmt.Fprintf(bw, "142 %d\n", t.Rounds)
	}
	if t.InitialColour != 0 {
		fmt.Fprintf(bw, "152 %c\n", t.InitialColour-'a'+'A')
	}
	if s := t.Scoring; t.customScoring() && s.ZeroBye == s.ForfeitLoss {
		// Symbols at columns 6, 15, 24, … with the points after each.
		fmt.Fprintf(bw, "162  W%4.1f    D%4.1f    L%4.1f    A%4.1f    P%4.1f\n", s.Win, s.Draw, s.Loss, s.ZeroBye, s.PAB)
	}
	if system := oneline.Clean(t.System); system != "" {
		fmt.Fprintf(bw, "192 %s\n", system)
	}
}

// writeExtensions writes the engine extensions after the players: XXR,
// XXC, BBW…BBU for a custom scoring, XXA accelerations in player order
// and XXP forbidden pairs.
func (t *Tournament) writeExtensions(bw *bufio.Writer) {
	if t.Rounds > 0 {
		fmt.Fprintf(bw, "XXR %d\n", t.Rounds)
	}
	switch t.InitialColour {
	case 'w':
		bw.WriteString("XXC white1\n")
	case 'b':
		bw.WriteString("XXC black1\n")
	}
	if t.customScoring() {
		s := t.Scoring
		for _, l := range []struct {
			code string
			v    float64
		}{{"BBW", s.Win}, {"BBD", s.Draw}, {"BBL", s.Loss}, {"BBZ", s.ZeroBye}, {"BBF", s.ForfeitLoss}, {"BBU", s.PAB}} {
			fmt.Fprintf(bw, "%s %4.1f\n", l.code, l.v)
		}
	}
	ids := make([]int, 0, len(t.Accelerations))
	for id := range t.Accelerations {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		var sb strings.Builder
		fmt.Fprintf(&sb, "XXA %4d", id)
		for _, v := range t.Accelerations[id] {
			fmt.Fprintf(&sb, " %4.1f", v)
		}
		bw.WriteString(sb.String())
		bw.WriteByte('\n')
	}
	for _, f := range t.Forbidden {
		fmt.Fprintf(bw, "XXP %d %d\n", f[0], f[1])
	}
}

// formatPlayer lays out a 001 record at the TRF columns.
func formatPlayer(p *Player) string {
	line := []rune(strings.Repeat(" ", 91+10*len(p.Games)))
	// Every field is one line of valid UTF-8 cut to its columns, so any
	// stored name keeps the record on one line and the columns in place.
	put := func(col, width int, s string, right bool) {
		r := []rune(oneline.Clean(s))
		if len(r) > width {
			r = r[:width]
		}
		off := col - 1
		if right {
			off += width - len(r)
		}
		copy(line[off:], r)
	}
	put(1, 3, "001", false)
	put(5, 4, strconv.Itoa(p.ID), true)
	if p.Sex != 0 {
		put(10, 1, string(rune(p.Sex)), false)
	}
	put(11, 3, p.Title, true)
	put(15, 33, p.Name, false)
	if p.Rating > 0 {
		put(49, 4, strconv.Itoa(p.Rating), true)
	}
	put(54, 3, p.Federation, false)
	put(58, 11, p.FideID, true)
	put(70, 10, p.Birth, false)
	put(81, 4, strconv.FormatFloat(p.Points, 'f', 1, 64), true)
	if p.Rank > 0 {
		put(86, 4, strconv.Itoa(p.Rank), true)
	}
	for r, g := range p.Games {
		col := 92 + 10*r
		if g.Opponent == 0 && g.Result == ' ' {
			continue
		}
		if g.Opponent != 0 {
			put(col, 4, fmt.Sprintf("%4d", g.Opponent), true)
		} else {
			put(col, 4, "0000", true)
		}
		c := g.Colour
		if c == 0 {
			c = '-'
		}
		put(col+5, 1, string(rune(c)), false)
		res := g.Result
		if res == 0 {
			res = ' '
		}
		put(col+7, 1, string(rune(res)), false)
	}
	return strings.TrimRight(string(line), " ")
}

// headerRecord reports whether an Extra line is a record of the
// tournament section that Tournament has no field for, which the writer
// keeps in the header: 062, 072, 082, 092, 112, 132 (TRF16) and the TRF26
// records 172 to 299.
func headerRecord(line string) bool {
	if len(line) < 3 {
		return false
	}
	switch line[:3] {
	case "062", "072", "082", "092", "112", "132", "172", "182", "202", "212", "222", "240", "250", "260", "299":
		return true
	}
	return false
}
