package web

import (
	"fmt"
	"strings"

	"arbiter/director"
)

// boardModel is a board diagram ready for the template: every cell placed
// on a CSS grid with its stack, and the off-board zones.
type boardModel struct {
	Game          string
	Width, Height int
	Cells         []cellModel
	Zones         []zoneModel
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
	Title    string
}

// pieceModel is one physical piece.
type pieceModel struct {
	Text  string // as rules.Piece.String writes it: "P(H)", "s+"
	Glyph string // what the diagram shows
	// Letter is a shogi piece in Latin letters ("S+"), shown where the
	// device has no font for its kanji.
	Letter string
	Second bool
	Back   bool // promoted / turned over
	Mark   string
}

// zoneModel is an off-board zone (a shogi hand, a Kvaa reserve): pieces
// grouped with their counts.
type zoneModel struct {
	Name   string
	Owner  string
	Groups []zoneGroup
	Total  int
}

type zoneGroup struct {
	Piece pieceModel
	Count int
}

// shogiGlyphs and chessGlyphs draw the pieces of the games that have
// their own symbols; other kinds are drawn as their letter.
var (
	shogiGlyphs = map[string]string{"P": "歩", "L": "香", "N": "桂", "S": "銀", "G": "金", "B": "角", "R": "飛", "K": "玉",
		"P+": "と", "L+": "杏", "N+": "圭", "S+": "全", "B+": "馬", "R+": "龍"}
	chessGlyphs = map[string]string{"K": "♚", "Q": "♛", "R": "♜", "B": "♝", "N": "♞", "P": "♟"}
)

// parsePiece reads a piece as rules.Piece.String writes it.
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
	key := kind
	if p.Back {
		key += "+"
	}
	switch game {
	case "shogi":
		if g, ok := shogiGlyphs[key]; ok {
			p.Glyph = g
		}
	case "chess", "tensor":
		if g, ok := chessGlyphs[kind]; ok {
			p.Glyph = g
		}
	}
	letter := kind
	if p.Back {
		letter += "+"
	}
	if p.Glyph == "" {
		p.Glyph = letter
	}
	if game == "shogi" {
		p.Letter = letter
	}
	return p
}

// topDown reports whether a game's rank 0 is drawn at the top: shogi
// numbers its ranks from gote's side (rank "a" is square 0), so sente, the
// first player, sits at the bottom.
func topDown(game string) bool { return game == "shogi" }

// newBoardModel arranges a board view for the template.
func newBoardModel(game string, v *director.BoardView) *boardModel {
	if v == nil {
		return nil
	}
	b := &boardModel{Game: game, Width: v.Width, Height: v.Height}
	for _, sq := range v.Squares {
		c := cellModel{Name: sq.Name, Col: sq.File + 1, Row: v.Height - sq.Rank, Dark: (sq.File+sq.Rank)%2 == 0, Height: len(sq.Stack)}
		if topDown(game) {
			c.Row = sq.Rank + 1
			c.Dark = false
		}
		for _, t := range sq.Stack {
			c.Stack = append(c.Stack, parsePiece(game, t))
		}
		if n := len(c.Stack); n > 0 {
			c.Top = &c.Stack[n-1]
			c.Tower = n > 1
		}
		c.Title = sq.Name
		if len(sq.Stack) > 0 {
			c.Title += ": " + strings.Join(sq.Stack, " ")
			if c.Tower {
				c.Title += fmt.Sprintf(" (tower of %d, bottom to top)", len(sq.Stack))
			}
		}
		b.Cells = append(b.Cells, c)
	}
	for _, z := range v.Zones {
		zm := zoneModel{Name: z.Name, Owner: z.Owner, Total: len(z.Pieces)}
		for _, t := range z.Pieces {
			if n := len(zm.Groups); n > 0 && zm.Groups[n-1].Piece.Text == t {
				zm.Groups[n-1].Count++
				continue
			}
			zm.Groups = append(zm.Groups, zoneGroup{Piece: parsePiece(game, t), Count: 1})
		}
		b.Zones = append(b.Zones, zm)
	}
	return b
}
