package tiebreak

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"arbiter/internal/oneline"
)

// WriteText writes the standings as a fixed-width table: rank (with "="
// marking a shared rank), ID, name, rating and one column per tie-break.
func (s *Standings) WriteText(w io.Writer) error {
	head := slices.Clone(playerHead)
	for _, tb := range s.Tiebreaks {
		head = append(head, tb.String())
	}
	cells := [][]string{head}
	for _, r := range s.Rows {
		line := playerCells(r.Rank, r.Shared, r.ID, r.Name, r.Rating)
		for c, v := range r.Values {
			line = append(line, v.Format(s.Tiebreaks[c].Kind))
		}
		cells = append(cells, line)
	}
	return writeTable(w, cells, map[int]bool{2: true})
}

// playerHead heads the columns playerCells fills; the name (column 2) is
// left-aligned.
var playerHead = []string{"Rank", "ID", "Name", "Rtg"}

// playerCells renders the leading columns of a table row. A shared rank is
// marked with "=", other ranks get a blank in its place so digits align.
func playerCells(rank int, shared bool, id int, name string, rating int) []string {
	r := strconv.Itoa(rank) + " "
	if shared {
		r = strconv.Itoa(rank) + "="
	}
	rt := ""
	if rating > 0 {
		rt = strconv.Itoa(rating)
	}
	// The name is one line whatever it holds (a newline, a NUL), so every
	// row of a table stays one line.
	return []string{r, strconv.Itoa(id), oneline.Clean(name), rt}
}

// writeTable writes rows of cells in columns separated by two blanks; the
// columns in left are left-aligned, the others right-aligned.
func writeTable(w io.Writer, cells [][]string, left map[int]bool) error {
	var width []int
	for _, row := range cells {
		for i, c := range row {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	bw := bufio.NewWriter(w)
	for _, row := range cells {
		var b strings.Builder
		for i, c := range row {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[i]-len([]rune(c)))
			if left[i] {
				b.WriteString(c)
				if i < len(row)-1 {
					b.WriteString(pad)
				}
			} else {
				b.WriteString(pad)
				b.WriteString(c)
			}
		}
		fmt.Fprintln(bw, strings.TrimRight(b.String(), " "))
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("tiebreak: write table: %w", err)
	}
	return nil
}
