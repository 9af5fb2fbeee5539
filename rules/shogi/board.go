package shogi

import (
	"fmt"

	"arbiter/rules"
)

// The mailbox: 9 files by 9 ranks inside a border of walls, one wall column
// on each side and two wall rows above and below, so that every step,
// slide and knight jump from a board square lands on the board or on a wall.
const (
	padW      = 11
	padH      = 13
	boardSize = padW * padH
	numSq     = 81
)

// Direction offsets in the mailbox, in Black's frame (forward is toward
// rank a, i.e. up). Direction i+4 (mod 8) is the opposite of direction i.
const (
	dirN = iota
	dirNE
	dirE
	dirSE
	dirS
	dirSW
	dirW
	dirNW
)

var dirOffset = [8]int{-padW, -padW + 1, 1, padW + 1, padW, padW - 1, -1, -padW - 1}

var (
	padOf   [numSq]uint8        // square index to mailbox index
	idxOf   [boardSize]int8     // mailbox index to square index, -1 on walls
	relRank [2][boardSize]uint8 // 0 for the mover's far rank (rank a for Black)
	inZone  [2][boardSize]bool

	// Per piece code: directions it steps in and slides along (bit i for
	// direction i, absolute in the mailbox), and the knight's jumps.
	stepMask  [128]uint8
	slideMask [128]uint8
	stepDirs  [128][]int8
	slideDirs [128][]int8
	// side[p]: 0 empty, 1 Black, 2 White, 3 wall.
	side [128]uint8
	// canLand[c][p]: a piece of c may move to a square holding p.
	canLand    [2][128]bool
	knightJump = [2][2]int{{-2*padW - 1, -2*padW + 1}, {2*padW - 1, 2*padW + 1}}
	// forward[c] is the offset of one step forward for c.
	forward = [2]int{-padW, padW}
	// deadRanks[t]: how many far ranks a piece of type t may not stay on unpromoted.
	deadRanks = [16]uint8{Pawn: 1, Lance: 1, Knight: 2}
)

func init() {
	for i := range idxOf {
		idxOf[i] = -1
	}
	for i := range numSq {
		r, f := i/9, i%9
		p := uint8((r+2)*padW + f + 1)
		padOf[i] = p
		idxOf[p] = int8(i)
		relRank[rules.First][p] = uint8(r)
		relRank[rules.Second][p] = uint8(8 - r)
		inZone[rules.First][p] = r <= 2
		inZone[rules.Second][p] = r >= 6
	}
	const (
		orth = 1<<dirN | 1<<dirE | 1<<dirS | 1<<dirW
		diag = 1<<dirNE | 1<<dirSE | 1<<dirSW | 1<<dirNW
		gold = 1<<dirN | 1<<dirNE | 1<<dirNW | 1<<dirE | 1<<dirW | 1<<dirS
	)
	blackSteps := [16]uint8{
		Pawn:           1 << dirN,
		Silver:         1<<dirN | diag,
		Gold:           gold,
		King:           orth | diag,
		Tokin:          gold,
		PromotedLance:  gold,
		PromotedKnight: gold,
		PromotedSilver: gold,
		Horse:          orth,
		Dragon:         diag,
	}
	blackSlides := [16]uint8{Lance: 1 << dirN, Bishop: diag, Rook: orth, Horse: diag, Dragon: orth}
	rot := func(m uint8) uint8 { return m<<4 | m>>4 }
	for t := Pawn; t <= Dragon; t++ {
		for c := rules.First; c <= rules.Second; c++ {
			p := MakePiece(c, t)
			s, l := blackSteps[t], blackSlides[t]
			if c == rules.Second {
				s, l = rot(s), rot(l)
			}
			stepMask[p], slideMask[p] = s, l
			for d := range 8 {
				if s&(1<<d) != 0 {
					stepDirs[p] = append(stepDirs[p], int8(d))
				}
				if l&(1<<d) != 0 {
					slideDirs[p] = append(slideDirs[p], int8(d))
				}
			}
			side[p] = uint8(c) + 1
		}
	}
	side[wall] = 3
	for p := range 128 {
		canLand[rules.First][p] = side[p] == 0 || side[p] == 2
		canLand[rules.Second][p] = side[p] == 0 || side[p] == 1
	}
}

// dead reports whether a piece of type t owned by c could never move again
// from mailbox square s.
func dead(c rules.Color, t PieceType, s int) bool {
	return relRank[c][s] < deadRanks[t]
}

// Board is a mutable shogi position for search and perft: a mailbox
// board, both hands, the side to move and the move number. Make and Unmake
// change it in place. The zero Board is not usable; get one from
// [ParseSFEN] or [NewBoard].
type Board struct {
	sq   [boardSize]Piece
	hand [2][8]uint8 // indexed by base type Pawn..Gold
	king [2]uint8    // mailbox square of each king, 0 when absent
	turn rules.Color
	ply  int // SFEN move number of the next move
}

// NewBoard returns an empty board with Black to move at move 1.
func NewBoard() *Board {
	b := &Board{ply: 1}
	b.clear()
	return b
}

func (b *Board) clear() {
	for i := range b.sq {
		b.sq[i] = wall
	}
	for _, p := range padOf {
		b.sq[p] = NoPiece
	}
	b.hand = [2][8]uint8{}
	b.king = [2]uint8{}
}

// Turn returns the side to move.
func (b *Board) Turn() rules.Color { return b.turn }

// MoveNumber returns the SFEN move number of the next move.
func (b *Board) MoveNumber() int { return b.ply }

// At returns the piece on square sq (0..80).
func (b *Board) At(sq rules.Square) Piece { return b.sq[padOf[sq]] }

// Hand returns how many pieces of base type t side c holds.
func (b *Board) Hand(c rules.Color, t PieceType) int {
	if t < Pawn || t > Gold {
		return 0
	}
	return int(b.hand[c][t])
}

// KingSquare returns the square of c's king, and false if c has none.
func (b *Board) KingSquare(c rules.Color) (rules.Square, bool) {
	if b.king[c] == 0 {
		return rules.NoSquare, false
	}
	return rules.Square(idxOf[b.king[c]]), true
}

// Put places p on square sq (NoPiece empties it), for building positions
// square by square; [Board.Validate] checks the result. It fails on a
// second king of one side.
func (b *Board) Put(sq rules.Square, p Piece) error {
	if sq < 0 || sq >= numSq {
		return fmt.Errorf("put on square %d: not a square", sq)
	}
	if p != NoPiece && (!p.Type().Valid() || p&^(WhiteBit|15) != 0) {
		return fmt.Errorf("put %d on %s: not a piece", p, SquareName(sq))
	}
	s := int(padOf[sq])
	if old := b.sq[s]; old.Type() == King && old != NoPiece {
		b.king[old.Color()] = 0
	}
	if p.Type() == King && p != NoPiece && b.king[p.Color()] != 0 {
		return fmt.Errorf("put on %s: a second %s king", SquareName(sq), sideWord(p.Color()))
	}
	b.put(s, p)
	return nil
}

// SetHand sets how many pieces of base type t side c holds.
func (b *Board) SetHand(c rules.Color, t PieceType, n int) error {
	if t < Pawn || t > Gold || n < 0 || n > maxCount[t] {
		return fmt.Errorf("hand: %d of %s: bad type or count", n, t)
	}
	b.hand[c][t] = uint8(n)
	return nil
}

// SetTurn sets the side to move.
func (b *Board) SetTurn(c rules.Color) { b.turn = c & 1 }

// put places p on mailbox square s, keeping the king squares.
func (b *Board) put(s int, p Piece) {
	b.sq[s] = p
	if p.Type() == King {
		b.king[p.Color()] = uint8(s)
	}
}

// Make plays m, which must be legal (or at least pseudo-legal) here.
func (b *Board) Make(m Move) {
	c := b.turn
	to := m.to()
	if m.IsDrop() {
		p := m.piece()
		b.sq[to] = p
		b.hand[c][p.Type()]--
	} else {
		from := m.from()
		p := m.piece()
		if cap := m.captured(); cap != NoPiece {
			b.hand[c][cap.Type().Base()]++
		}
		if m.Promotes() {
			p += Piece(Promoted)
		}
		b.sq[from] = NoPiece
		b.sq[to] = p
		if p.Type() == King {
			b.king[c] = uint8(to)
		}
	}
	b.turn = c.Other()
	b.ply++
}

// Unmake takes back m, which must be the last move made.
func (b *Board) Unmake(m Move) {
	b.ply--
	c := b.turn.Other()
	b.turn = c
	to := m.to()
	if m.IsDrop() {
		p := m.piece()
		b.sq[to] = NoPiece
		b.hand[c][p.Type()]++
		return
	}
	from := m.from()
	p := m.piece()
	cap := m.captured()
	if cap != NoPiece {
		b.hand[c][cap.Type().Base()]--
	}
	b.sq[to] = cap
	b.sq[from] = p
	if p.Type() == King {
		b.king[c] = uint8(from)
	}
}

// attacked reports whether mailbox square s is attacked by side by, under
// the current occupancy (spec 2.6: pins and drop rules do not matter).
func (b *Board) attacked(s int, by rules.Color) bool {
	want := uint8(by) + 1
	for d := range 8 {
		off := dirOffset[d]
		bit := uint8(1) << ((d + 4) & 7)
		t := s + off
		p := b.sq[t]
		if p == NoPiece {
			for t += off; b.sq[t] == NoPiece; t += off {
			}
			p = b.sq[t]
			if side[p] == want && slideMask[p]&bit != 0 {
				return true
			}
			continue
		}
		if side[p] == want && (stepMask[p]|slideMask[p])&bit != 0 {
			return true
		}
	}
	kn := MakePiece(by, Knight)
	j := knightJump[by]
	return b.sq[s-j[0]] == kn || b.sq[s-j[1]] == kn
}

// InCheck reports whether the side to move is in check.
func (b *Board) InCheck() bool {
	k := b.king[b.turn]
	return k != 0 && b.attacked(int(k), b.turn.Other())
}

// Clone returns a copy of b.
func (b *Board) Clone() *Board {
	c := *b
	return &c
}
