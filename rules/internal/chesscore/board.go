package chesscore

import (
	"fmt"
	"strconv"
	"strings"

	"arbiter/rules"
)

// Castling right bits: White short, White long, Black short, Black long
// (FEN letters K, Q, k, q).
const (
	WhiteShort uint8 = 1 << iota
	WhiteLong
	BlackShort
	BlackLong
)

// castleBit returns the right bit of colour col on wing w.
func castleBit(col rules.Color, w Wing) uint8 { return 1 << (uint(col)*2 + uint(w)) }

// Board is a mutable position with make/unmake: the fast representation
// used by move generation and perft. The zero Board is not usable; get one
// from [Config.ParseFEN] or [Config.StartBoard]. Boards are plain values:
// assigning one copies it.
type Board struct {
	cfg      *Config
	cell     [maxCells]Piece
	turn     rules.Color
	castle   uint8 // right bits
	ep       uint8 // en-passant target cell, 0 for none
	halfmove int   // plies since the last capture or pawn move
	fullmove int
	king     [2]uint8 // king cells
	monsters [2]uint8 // monsters per colour
}

// Config returns the board's game configuration.
func (b *Board) Config() *Config { return b.cfg }

// Turn returns the side to move.
func (b *Board) Turn() rules.Color { return b.turn }

// At returns the content of a mailbox cell.
func (b *Board) At(cell int) Piece { return b.cell[cell] }

// Castling returns the castling right bits.
func (b *Board) Castling() uint8 { return b.castle }

// EP returns the en-passant target cell, 0 for none.
func (b *Board) EP() int { return int(b.ep) }

// Halfmove returns the number of plies since the last capture or pawn move.
func (b *Board) Halfmove() int { return b.halfmove }

// Fullmove returns the FEN full-move number.
func (b *Board) Fullmove() int { return b.fullmove }

// KingCell returns the cell of col's king.
func (b *Board) KingCell(col rules.Color) int { return int(b.king[col]) }

// MonsterCount returns how many monsters col has.
func (b *Board) MonsterCount(col rules.Color) int { return int(b.monsters[col]) }

// StartBoard returns the initial position.
func (c *Config) StartBoard() Board {
	b, err := c.ParseFEN(c.start)
	if err != nil {
		panic("chesscore: bad start FEN " + c.start + ": " + err.Error())
	}
	return b
}

// ParseFEN reads a position in FEN (Tensor FEN on 10-file boards: runs of
// empty squares may have two digits). The half-move clock and move number
// may be left out. Errors name the field and what is wrong with it.
func (c *Config) ParseFEN(s string) (Board, error) {
	b := Board{cfg: c, fullmove: 1}
	for i := range b.cell {
		b.cell[i] = Wall
	}
	for _, cell := range c.cells {
		b.cell[cell] = Empty
	}
	fields := strings.Fields(s)
	if len(fields) != 4 && len(fields) != 6 {
		return Board{}, fmt.Errorf("FEN %q: want 4 or 6 fields, have %d", s, len(fields))
	}
	if err := b.parsePlacement(fields[0]); err != nil {
		return Board{}, fmt.Errorf("FEN field 1 (placement): %w", err)
	}
	if err := b.parseTurn(fields[1]); err != nil {
		return Board{}, fmt.Errorf("FEN field 2 (side to move) %q: %w", fields[1], err)
	}
	if err := b.parseCastling(fields[2]); err != nil {
		return Board{}, fmt.Errorf("FEN field 3 (castling) %q: %w", fields[2], err)
	}
	if err := b.parseEP(fields[3]); err != nil {
		return Board{}, fmt.Errorf("FEN field 4 (en passant) %q: %w", fields[3], err)
	}
	if len(fields) == 6 {
		if err := b.parseCounters(fields[4], fields[5]); err != nil {
			return Board{}, err
		}
	}
	if b.Attacked(int(b.king[b.turn.Other()]), b.turn) {
		return Board{}, fmt.Errorf("FEN %q: the side not to move is in check", s)
	}
	return b, nil
}

func (b *Board) parsePlacement(s string) error {
	c := b.cfg
	ranks := strings.Split(s, "/")
	if len(ranks) != c.height {
		return fmt.Errorf("%d ranks, want %d", len(ranks), c.height)
	}
	var n pieceCounts
	for i, row := range ranks {
		if err := b.parseRank(row, c.height-1-i, &n); err != nil {
			return err
		}
	}
	return b.checkPieceCounts(&n)
}

// pieceCounts counts the kings and pawns of each colour in a placement.
type pieceCounts struct{ kings, pawns [2]int }

// parseRank reads the placement of rank r (from 0): pieces and runs of
// empty squares.
func (b *Board) parseRank(row string, r int, n *pieceCounts) error {
	c := b.cfg
	f := 0
	for j := 0; j < len(row); j++ {
		ch := row[j]
		if isDigit(ch) {
			run, digits := emptyRun(row[j:])
			if run == 0 {
				return fmt.Errorf("rank %d: a run of empty squares starts with 0", r+1)
			}
			j += digits - 1
			f += run
			if f > c.width {
				return fmt.Errorf("rank %d: more than %d squares", r+1, c.width)
			}
			continue
		}
		pc := c.letters[ch]
		if pc == Empty {
			return fmt.Errorf("rank %d: unknown piece letter %q", r+1, ch)
		}
		if f >= c.width {
			return fmt.Errorf("rank %d: more than %d squares", r+1, c.width)
		}
		if pc.Kind() == Pawn && (r == 0 || r == c.height-1) {
			return fmt.Errorf("rank %d: pawn on the first or last rank (file %c)", r+1, 'a'+f)
		}
		cell := c.cellAt(f, r)
		b.cell[cell] = pc
		switch col := pc.Color(); pc.Kind() {
		case Pawn:
			n.pawns[col]++
		case King:
			n.kings[col]++
			b.king[col] = uint8(cell)
		case Monster:
			b.monsters[col]++
		}
		f++
	}
	if f != c.width {
		return fmt.Errorf("rank %d: %d squares, want %d", r+1, f, c.width)
	}
	return nil
}

// emptyRun reads the run of empty squares that starts s, of one or two
// digits (Tensor FEN), and returns its length and its number of digits;
// the length is 0 for a run that starts with 0.
func emptyRun(s string) (n, digits int) {
	if s[0] == '0' {
		return 0, 1
	}
	n = int(s[0] - '0')
	if len(s) > 1 && isDigit(s[1]) {
		return n*10 + int(s[1]-'0'), 2
	}
	return n, 1
}

// checkPieceCounts checks that each side has one king, and no more
// monsters and pawns together than the setup's monsters and pawns.
func (b *Board) checkPieceCounts(n *pieceCounts) error {
	for col, kings := range n.kings {
		if kings != 1 {
			return fmt.Errorf("%d %s kings, want exactly 1", kings, sideName(rules.Color(col)))
		}
		// Each monster beyond the two of the setup is a promoted pawn.
		if m := int(b.monsters[col]) + n.pawns[col]; m > maxMonsters {
			return fmt.Errorf("%d %s monsters and %d pawns: at most %d together",
				b.monsters[col], sideName(rules.Color(col)), n.pawns[col], maxMonsters)
		}
	}
	return nil
}

func sideName(c rules.Color) string {
	if c == rules.White {
		return "white"
	}
	return "black"
}

// parseTurn reads the side to move: w or b.
func (b *Board) parseTurn(s string) error {
	switch s {
	case "w":
		b.turn = rules.White
	case "b":
		b.turn = rules.Black
	default:
		return fmt.Errorf("want w or b")
	}
	return nil
}

// parseCounters reads the half-move clock and the move number.
func (b *Board) parseCounters(half, full string) error {
	n, err := strconv.Atoi(half)
	if err != nil || n < 0 || n > 10000 {
		return fmt.Errorf("FEN field 5 (half-move clock) %q: want a number 0..10000", half)
	}
	b.halfmove = n
	n, err = strconv.Atoi(full)
	if err != nil || n < 1 || n > 100000 {
		return fmt.Errorf("FEN field 6 (move number) %q: want a number 1..100000", full)
	}
	b.fullmove = n
	return nil
}

func (b *Board) parseCastling(s string) error {
	if s == "-" {
		return nil
	}
	c := b.cfg
	for i := 0; i < len(s); i++ {
		var col rules.Color
		var w Wing
		switch s[i] {
		case 'K':
			col, w = rules.White, Short
		case 'Q':
			col, w = rules.White, Long
		case 'k':
			col, w = rules.Black, Short
		case 'q':
			col, w = rules.Black, Long
		default:
			return fmt.Errorf("unknown letter %q", s[i])
		}
		bit := castleBit(col, w)
		if b.castle&bit != 0 {
			return fmt.Errorf("letter %q given twice", s[i])
		}
		if int(b.king[col]) != c.kingStart(col) {
			return fmt.Errorf("right %q but the %s king is not on %s", s[i], sideName(col), c.CellName(c.kingStart(col)))
		}
		if b.cell[c.rookStart(col, w)] != MakePiece(col, Rook) {
			return fmt.Errorf("right %q but no %s rook on %s", s[i], sideName(col), c.CellName(c.rookStart(col, w)))
		}
		b.castle |= bit
	}
	return nil
}

func (b *Board) parseEP(s string) error {
	if s == "-" {
		return nil
	}
	c := b.cfg
	cell, ok := c.LookupCell(s)
	if !ok {
		return fmt.Errorf("not a square")
	}
	// The pawn that just moved belongs to the side not to move.
	mover := b.turn.Other()
	wantRank := 2
	if mover == rules.Black {
		wantRank = c.height - 3
	}
	if c.rankOf(cell) != wantRank {
		return fmt.Errorf("not on rank %d", wantRank+1)
	}
	fwd := c.forward(mover)
	if b.cell[cell] != Empty || b.cell[cell-fwd] != Empty || b.cell[cell+fwd] != MakePiece(mover, Pawn) {
		return fmt.Errorf("no %s pawn can have just passed %s", sideName(mover), s)
	}
	b.ep = uint8(cell)
	return nil
}

// FEN writes the position in FEN. The en-passant square is written only
// when an en-passant capture is legal (the X-FEN convention), so equal
// positions get equal FENs.
func (b *Board) FEN() string {
	var sb strings.Builder
	b.writePlacement(&sb)
	if b.turn == rules.White {
		sb.WriteString(" w ")
	} else {
		sb.WriteString(" b ")
	}
	sb.WriteString(b.castlingString())
	sb.WriteByte(' ')
	if ep := b.legalEP(); ep != 0 {
		sb.WriteString(b.cfg.CellName(ep))
	} else {
		sb.WriteByte('-')
	}
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(b.halfmove))
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(b.fullmove))
	return sb.String()
}

func (b *Board) writePlacement(sb *strings.Builder) {
	c := b.cfg
	for r := c.height - 1; r >= 0; r-- {
		run := 0
		for f := range c.width {
			p := b.cell[c.cellAt(f, r)]
			if p == Empty {
				run++
				continue
			}
			if run > 0 {
				sb.WriteString(strconv.Itoa(run))
				run = 0
			}
			sb.WriteByte(p.FENLetter())
		}
		if run > 0 {
			sb.WriteString(strconv.Itoa(run))
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
}

func (b *Board) castlingString() string {
	if b.castle == 0 {
		return "-"
	}
	var s []byte
	for i, ch := range []byte("KQkq") {
		if b.castle&(1<<i) != 0 {
			s = append(s, ch)
		}
	}
	return string(s)
}

// legalEP returns the en-passant target cell if an en-passant capture is
// legal now, else 0.
func (b *Board) legalEP() int {
	if b.ep == 0 {
		return 0
	}
	var buf [maxMovesGuess]Move
	for _, m := range b.Legal(buf[:0]) {
		if m.Kind == EnPassant {
			return int(b.ep)
		}
	}
	return 0
}

// Key returns the exact identity of the position for repetition: the
// placement, side to move, castling rights, and the en-passant target only
// when an en-passant capture is legal (FIDE 9.2.3).
func (b *Board) Key() rules.Key {
	c := b.cfg
	buf := make([]byte, 0, len(c.cells)+4)
	for _, cell := range c.cells {
		buf = append(buf, byte(b.cell[cell]))
	}
	buf = append(buf, byte(b.turn), b.castle, byte(b.legalEP()))
	return rules.Key(buf)
}
