package web

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"

	"arbiter/director"
	"arbiter/rules"
)

// boardModel is a board diagram ready for the template: every cell placed
// on a CSS grid with its stack, grouped in rows for the ARIA grid, and the
// off-board zones.
type boardModel struct {
	Game          string
	Width, Height int
	// Label names the board for assistive technology.
	Label string
	Rows  [][]cellModel
	Zones []zoneModel
}

// cellModel is one square. Stack runs bottom to top; Top is the piece a
// player sees, and a tower also lists its contents.
type cellModel struct {
	Name     string
	Col, Row int // 1-based grid lines
	Dark     bool
	Stack    []pieceModel
	Top      *pieceModel
	Tower    bool
	Height   int
	// Under is a tower's pieces below the top, bottom to top: the caption
	// under the top piece drawn large.
	Under []pieceModel
	// Label says what stands on the square in words: "e4, white pawn".
	Label string
	// Last marks the squares of the last move shown.
	Last bool
}

// pieceModel is one physical piece.
type pieceModel struct {
	Text string // as rules.Piece.String writes it: "P(H)", "s+"
	// Kind is the piece's letter, upper case ("P"); the drawing is chosen
	// by the game and Kind.
	Kind  string
	Glyph string // the text drawn on a shogi piece; the letter elsewhere
	// Letter is a shogi piece in Latin letters ("S+"), shown where the
	// device has no font for its kanji.
	Letter string
	Second bool
	Back   bool // promoted / turned over
	Mark   string
	// Name is the piece in words without its side: "pawn marked Helgi".
	Name string
}

// zoneModel is an off-board zone (a shogi hand, a Kvaa reserve): pieces
// grouped with their counts.
type zoneModel struct {
	// Caption names the zone with the game's side name: "Sente's hand".
	Caption string
	Owner   string
	Groups  []zoneGroup
	Total   int
	// Label lists the zone's contents in words.
	Label string
}

type zoneGroup struct {
	Piece pieceModel
	Count int
}

// parsePiece reads a piece as rules.Piece.String writes it, named and
// drawn with the game's facts (rules.FactsOf).
func parsePiece(game, s string) pieceModel {
	p := pieceModel{Text: s}
	rest := s
	if strings.HasSuffix(rest, "+") {
		p.Back = true
		rest = strings.TrimSuffix(rest, "+")
	}
	if i := strings.IndexByte(rest, '('); i > 0 && strings.HasSuffix(rest, ")") {
		p.Mark = rest[i+1 : len(rest)-1]
		rest = rest[:i]
	}
	kind := rest
	if kind != "" && kind[0] >= 'a' && kind[0] <= 'z' {
		p.Second = true
		kind = strings.ToUpper(kind)
	}
	p.Kind = kind
	letter := kind
	if p.Back {
		letter += "+"
	}
	p.Glyph = letter
	facts := rules.FactsOf(game)
	if facts.Glyphed() {
		if g := facts.Pieces[letter].Glyph; g != "" {
			p.Glyph = g
		}
		p.Letter = letter
	}
	names := facts.Pieces
	p.Name = names[letter].Name
	switch {
	case p.Name != "":
	case names[kind].Name != "":
		p.Name = names[kind].Name + ", turned over"
	default:
		p.Name = "piece " + letter
	}
	if p.Mark != "" {
		mark := names[p.Mark].Name
		if mark == "" {
			mark = p.Mark
		}
		p.Name += " marked " + mark
	}
	return p
}

// sideNames are each game's side names, in lower case as a label writes
// them ("white", "sente").
var sideNames sync.Map // game -> [2]string

func sidesOf(game string) [2]string {
	if v, ok := sideNames.Load(game); ok {
		return v.([2]string)
	}
	s := [2]string{"first", "second"}
	if g, err := rules.New(game, nil); err == nil {
		s = [2]string{strings.ToLower(g.SideName(rules.First)), strings.ToLower(g.SideName(rules.Second))}
	}
	sideNames.Store(game, s)
	return s
}

// describe names a piece with its side: "white pawn".
func describe(sides [2]string, p pieceModel) string {
	side := sides[0]
	if p.Second {
		side = sides[1]
	}
	return side + " " + p.Name
}

// topDown reports whether a game's rank 0 is drawn at the top
// (rules.Facts.TopDown).
func topDown(game string) bool { return rules.FactsOf(game).TopDown }

// zoneCaption names an off-board zone with its owner's side name.
func zoneCaption(name, owner string) string {
	if owner != "" {
		owner = strings.ToUpper(owner[:1]) + owner[1:]
	}
	switch {
	case strings.HasPrefix(name, "hand-"):
		return owner + "'s hand"
	case strings.HasPrefix(name, "reserve-"):
		return owner + "'s reserve"
	case strings.HasPrefix(name, "captured-"):
		return owner + "'s pieces taken"
	}
	return owner
}

// newBoardModel arranges a board view for the template. last names the
// squares of the last move shown, to be highlighted.
func newBoardModel(game string, v *director.BoardView, last ...string) *boardModel {
	if v == nil {
		return nil
	}
	sides := sidesOf(game)
	b := &boardModel{Game: game, Width: v.Width, Height: v.Height}
	bottom := sides[0]
	b.Label = fmt.Sprintf("Board, %s at the bottom", bottom)
	cells := make([]cellModel, 0, len(v.Squares))
	for _, sq := range v.Squares {
		cells = append(cells, newCellModel(game, sides, v.Height, sq, last))
	}
	slices.SortStableFunc(cells, func(a, b cellModel) int { return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col)) })
	for start, i := 0, 1; i <= len(cells); i++ {
		if i == len(cells) || cells[i].Row != cells[start].Row {
			b.Rows = append(b.Rows, cells[start:i:i])
			start = i
		}
	}
	for _, z := range v.Zones {
		b.Zones = append(b.Zones, newZoneModel(game, sides, z))
	}
	return b
}

// newCellModel places a square on the grid of a board height ranks high,
// with its stack and its label; last names the squares of the last move.
func newCellModel(game string, sides [2]string, height int, sq director.SquareView, last []string) cellModel {
	c := cellModel{Name: sq.Name, Col: sq.File + 1, Row: height - sq.Rank, Dark: (sq.File+sq.Rank)%2 == 0, Height: len(sq.Stack),
		Last: slices.Contains(last, sq.Name)}
	if topDown(game) {
		c.Row = sq.Rank + 1
		c.Dark = false
	}
	for _, t := range sq.Stack {
		c.Stack = append(c.Stack, parsePiece(game, t))
	}
	switch n := len(c.Stack); n {
	case 0:
		c.Label = sq.Name + ", empty"
	case 1:
		c.Top = &c.Stack[0]
		c.Label = sq.Name + ", " + describe(sides, c.Stack[0])
	default:
		c.Top = &c.Stack[n-1]
		c.Tower = true
		c.Under = c.Stack[:n-1]
		names := make([]string, n)
		for i, p := range c.Stack {
			names[i] = describe(sides, p)
		}
		c.Label = fmt.Sprintf("%s, tower of %d, bottom to top: %s", sq.Name, n, strings.Join(names, ", "))
	}
	return c
}

// newZoneModel is an off-board zone with its pieces grouped, each run of
// the same piece as one group with its count.
func newZoneModel(game string, sides [2]string, z director.ZoneView) zoneModel {
	zm := zoneModel{Caption: zoneCaption(z.Name, z.Owner), Owner: z.Owner, Total: len(z.Pieces)}
	for _, t := range z.Pieces {
		if n := len(zm.Groups); n > 0 && zm.Groups[n-1].Piece.Text == t {
			zm.Groups[n-1].Count++
			continue
		}
		zm.Groups = append(zm.Groups, zoneGroup{Piece: parsePiece(game, t), Count: 1})
	}
	var parts []string
	for _, g := range zm.Groups {
		parts = append(parts, fmt.Sprintf("%d × %s", g.Count, describe(sides, g.Piece)))
	}
	zm.Label = zm.Caption + ": " + cmp.Or(strings.Join(parts, ", "), "empty")
	return zm
}
