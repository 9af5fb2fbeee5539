package tiebreak

import (
	"fmt"
	"io"
	"slices"
	"strconv"
)

// Crosstable is the round-by-round grid of a tournament in standings order,
// the data behind a web crosstable.
type Crosstable struct {
	Rounds int        `json:"rounds"`
	Rows   []CrossRow `json:"rows"`
}

// CrossRow is one player's line: standing and one cell per round.
type CrossRow struct {
	Rank   int     `json:"rank"`
	Shared bool    `json:"shared,omitempty"`
	ID     int     `json:"id"`
	Name   string  `json:"name"`
	Rating int     `json:"rating,omitempty"`
	Points float64 `json:"points"`
	Cells  []Cell  `json:"cells"`
}

// Cell is one round of one player.
type Cell struct {
	Opponent     int     `json:"opponent,omitempty"`     // opponent's ID, 0 when none
	OpponentRank int     `json:"opponentRank,omitempty"` // opponent's rank in the standings, 0 when none
	Colour       Colour  `json:"colour"`
	Result       Result  `json:"result"`
	Points       float64 `json:"points"`
}

// NewCrosstable arranges t's rounds in the order of s, which must have been
// computed from t.
func NewCrosstable(t *Tournament, s *Standings) (*Crosstable, error) {
	byID := make(map[int]*Player, len(t.Players))
	for i := range t.Players {
		byID[t.Players[i].ID] = &t.Players[i]
	}
	rankOf := make(map[int]int, len(s.Rows))
	for _, r := range s.Rows {
		rankOf[r.ID] = r.Rank
	}
	if len(s.Rows) != len(t.Players) {
		return nil, fmt.Errorf("tiebreak: crosstable: standings have %d players, the tournament %d", len(s.Rows), len(t.Players))
	}
	ct := &Crosstable{Rounds: s.Rounds, Rows: make([]CrossRow, len(s.Rows))}
	for i, r := range s.Rows {
		p, ok := byID[r.ID]
		if !ok {
			return nil, fmt.Errorf("tiebreak: crosstable: player %d is not in the tournament", r.ID)
		}
		row := CrossRow{Rank: r.Rank, Shared: r.Shared, ID: r.ID, Name: r.Name, Rating: r.Rating, Points: r.Points(), Cells: make([]Cell, s.Rounds)}
		for k := range row.Cells {
			g := Game{}
			if k < len(p.Games) {
				g = p.Games[k]
			}
			row.Cells[k] = Cell{Opponent: g.Opponent, OpponentRank: rankOf[g.Opponent], Colour: g.Colour, Result: g.Result, Points: t.Scoring.Points(g.Result)}
		}
		ct.Rows[i] = row
	}
	return ct, nil
}

// resultCodes are the one-letter result symbols of crosstables (TRF codes).
var resultCodes = [...]string{Absent: "Z", Win: "1", Draw: "=", Loss: "0", ForfeitWin: "+", ForfeitLoss: "-", PairingBye: "U", FullBye: "F", HalfBye: "H"}

// Code renders the cell the way printed crosstables do: the opponent's rank,
// the colour letter and the result ("12w1", "3b="), or the bye letter alone
// ("U", "H", "Z"). first and second are the colour letters, e.g. 'w' and
// 'b' for chess or 's' and 'g' for shogi.
func (c Cell) Code(first, second byte) string {
	res := "?"
	if int(c.Result) < len(resultCodes) {
		res = resultCodes[c.Result]
	}
	if c.Opponent == 0 {
		return res
	}
	col := "-"
	switch c.Colour {
	case First:
		col = string(first)
	case Second:
		col = string(second)
	}
	return strconv.Itoa(c.OpponentRank) + col + res
}

// WriteText writes the crosstable with chess colour letters.
func (ct *Crosstable) WriteText(w io.Writer) error {
	head := slices.Clone(playerHead)
	for r := 1; r <= ct.Rounds; r++ {
		head = append(head, strconv.Itoa(r))
	}
	head = append(head, "Pts")
	cells := [][]string{head}
	for _, row := range ct.Rows {
		line := playerCells(row.Rank, row.Shared, row.ID, row.Name, row.Rating)
		for _, c := range row.Cells {
			line = append(line, c.Code('w', 'b'))
		}
		line = append(line, strconv.FormatFloat(row.Points, 'f', 1, 64))
		cells = append(cells, line)
	}
	return writeTable(w, cells, map[int]bool{2: true})
}
