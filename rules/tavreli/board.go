package tavreli

import (
	"fmt"

	"arbiter/rules"
)

// MaxPieces is the most pieces a board can hold: the 32 of a real game.
// Composed positions (analysis mode) may have fewer, never more.
const MaxPieces = 32

// MaxHeight is the highest possible stack: every piece but the other
// Volkhv (spec 4.3).
const MaxHeight = MaxPieces - 1

// Castling rights, as in the TFEN castling field.
const (
	CastleWhiteShort uint8 = 1 << iota // K: e1-g1 with h1
	CastleWhiteLong                    // Q: e1-c1 with a1
	CastleBlackShort                   // k: e8-g8 with h8
	CastleBlackLong                    // q: e8-c8 with a8
)

// Board is the fast, mutable state of a Tavreli position.
//
// Stacks are linked through the pieces: top[sq] is the index of the top
// piece of sq (0 for an empty square) and below[p] the piece under p (0 at
// the bottom), so that moving or taking back a group of k pieces costs O(k).
// Pieces are numbered from 1; index 0 is "none". code[p] is the piece's
// colour and current role, mark[p] the mark of a Ratnik-derived piece.
//
// The zero Board is not a valid position; make one with [StartBoard] or
// [ParseTFEN]. Boards are values: copying one copies the position.
type Board struct {
	top    [numSquares]uint8
	height [numSquares]uint8
	below  [MaxPieces + 1]uint8
	code   [MaxPieces + 1]pieceCode
	mark   [MaxPieces + 1]Role
	own    [2]uint64 // squares owned by each colour (colour of the top piece)
	king   [2]int8   // square of each colour's Volkhv
	side   rules.Color
	castle uint8
	ep     int8   // en passant square (the square crossed), or noSquare
	dstep  uint16 // double-step rights: bit f for White's file f, bit 8+f for Black's
	half   int32  // the 50-move counter in half-moves (D26)
	full   int32
	n      uint8 // number of pieces
	hash   uint64
}

// Side returns the side to move.
func (b *Board) Side() rules.Color { return b.side }

// Castling returns the castling rights held (CastleWhiteShort, ...).
func (b *Board) Castling() uint8 { return b.castle }

// EnPassant returns the en passant square: the square crossed by a double
// step made on the previous move, or rules.NoSquare.
func (b *Board) EnPassant() rules.Square { return rules.Square(b.ep) }

// DoubleStep reports whether the Ratnik of colour c that started on file f
// (0 = a) still holds its double-step right (D10).
func (b *Board) DoubleStep(c rules.Color, file int) bool {
	return b.dstep&(1<<(uint(c)*8+uint(file))) != 0
}

// Halfmove returns the 50-move counter (D26): half-moves since the last
// Ratnik move or tower formation.
func (b *Board) Halfmove() int { return int(b.half) }

// Fullmove returns the move number, starting at 1 and increased after each
// Black move.
func (b *Board) Fullmove() int { return int(b.full) }

// Hash returns the Zobrist hash of the position: the full contents of every
// stack, side to move, castling and double-step rights and the en passant
// square. Clocks are not part of it.
func (b *Board) Hash() uint64 { return b.hash }

// Height returns the number of pieces on sq.
func (b *Board) Height(sq rules.Square) int { return int(b.height[sq]) }

// VolkhvSquare returns the square of c's Volkhv.
func (b *Board) VolkhvSquare(c rules.Color) rules.Square { return rules.Square(b.king[c]) }

// Stack appends the pieces on sq, bottom to top, to dst and returns it.
func (b *Board) Stack(sq rules.Square, dst []Piece) []Piece {
	h := int(b.height[sq])
	start := len(dst)
	for range h {
		dst = append(dst, Piece{})
	}
	i := start + h - 1
	for p := b.top[sq]; p != 0; p = b.below[p] {
		dst[i] = b.piece(p)
		i--
	}
	return dst
}

// Top returns the top piece of sq, and false when sq is empty.
func (b *Board) Top(sq rules.Square) (Piece, bool) {
	p := b.top[sq]
	if p == 0 {
		return Piece{}, false
	}
	return b.piece(p), true
}

func (b *Board) piece(p uint8) Piece {
	c := b.code[p]
	return Piece{Color: rules.Color(c >> colorShift), Role: Role(c & 7), Mark: b.mark[p]}
}

func (b *Board) role(p uint8) Role           { return Role(b.code[p] & 7) }
func (b *Board) color(p uint8) rules.Color   { return rules.Color(b.code[p] >> colorShift) }
func (b *Board) topCode(sq int8) pieceCode   { return b.code[b.top[sq]] }
func (b *Board) ownerOf(sq int8) rules.Color { return rules.Color(b.code[b.top[sq]] >> colorShift) }

// push puts a new piece on top of sq. It is for building positions.
func (b *Board) push(sq int8, pc Piece) error {
	if int(b.n) >= MaxPieces {
		return fmt.Errorf("more than %d pieces", MaxPieces)
	}
	b.n++
	p := b.n
	b.code[p] = codeOf(pc.Color, pc.Role)
	b.mark[p] = pc.Mark
	b.below[p] = b.top[sq]
	b.top[sq] = p
	b.height[sq]++
	return nil
}

// finish computes the derived state (owners, Volkhv squares, hash) of a
// board built with push. It does not validate.
func (b *Board) finish() {
	b.own = [2]uint64{}
	b.king = [2]int8{noSquare, noSquare}
	for sq := int8(0); sq < numSquares; sq++ {
		if b.top[sq] == 0 {
			continue
		}
		b.own[b.ownerOf(sq)] |= 1 << uint(sq)
		for p := b.top[sq]; p != 0; p = b.below[p] {
			if b.role(p) == Volkhv {
				b.king[b.color(p)] = sq
			}
		}
	}
	b.hash = b.computeHash()
}

// computeHash computes the Zobrist hash from scratch.
func (b *Board) computeHash() uint64 {
	var h uint64
	for sq := int8(0); sq < numSquares; sq++ {
		lvl := int(b.height[sq]) - 1
		for p := b.top[sq]; p != 0; p = b.below[p] {
			h ^= b.pieceKey(p, sq, lvl)
			lvl--
		}
	}
	return h ^ b.stateKey()
}

// pieceKey is the Zobrist key of piece p standing at level lvl (0 =
// bottom) of sq. Keys are computed by a mixing function rather than looked
// up: a table for 64 squares x 32 levels x every piece state would not fit
// in the first-level cache.
func (b *Board) pieceKey(p uint8, sq int8, lvl int) uint64 {
	return mix64(uint64(b.code[p]) | uint64(b.mark[p])<<8 | uint64(uint8(sq))<<16 | uint64(lvl)<<24)
}

func (b *Board) stateKey() uint64 {
	k := castleKeys[b.castle] ^ dstepKeys[0][b.dstep&0xff] ^ dstepKeys[1][b.dstep>>8]
	if b.ep >= 0 {
		k ^= epKeys[b.ep]
	}
	if b.side == rules.Second {
		k ^= sideKey
	}
	return k
}

var (
	castleKeys [16]uint64
	dstepKeys  [2][256]uint64
	epKeys     [numSquares]uint64
	sideKey    uint64
)

func init() {
	for i := range castleKeys {
		castleKeys[i] = mix64(1<<40 | uint64(i))
	}
	for c := range dstepKeys {
		for i := range dstepKeys[c] {
			dstepKeys[c][i] = mix64(2<<40 | uint64(c)<<8 | uint64(i))
		}
	}
	for i := range epKeys {
		epKeys[i] = mix64(3<<40 | uint64(i))
	}
	sideKey = mix64(4 << 40)
}

// mix64 is the splitmix64 finaliser.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// forward is the square offset of one step forward for c.
func forward(c rules.Color) int8 {
	if c == rules.First {
		return 8
	}
	return -8
}

// lastRank is c's promotion rank (0-based).
func lastRank(c rules.Color) int {
	if c == rules.First {
		return 7
	}
	return 0
}

// startRank is the rank of c's Ratniki in the initial position (0-based).
func startRank(c rules.Color) int {
	if c == rules.First {
		return 1
	}
	return 6
}

// rightsLostBySquare says which castling and double-step rights are lost
// when a square is emptied: the right-holder is always the bottom piece of
// its square, so it leaves exactly when the square empties (D10, D15).
var (
	castleLost [numSquares]uint8
	dstepLost  [numSquares]uint16
)

func init() {
	castleLost[sqOf(0, 0)] = CastleWhiteLong
	castleLost[sqOf(7, 0)] = CastleWhiteShort
	castleLost[sqOf(4, 0)] = CastleWhiteLong | CastleWhiteShort
	castleLost[sqOf(0, 7)] = CastleBlackLong
	castleLost[sqOf(7, 7)] = CastleBlackShort
	castleLost[sqOf(4, 7)] = CastleBlackLong | CastleBlackShort
	for f := range 8 {
		dstepLost[sqOf(f, 1)] = 1 << uint(f)
		dstepLost[sqOf(f, 6)] = 1 << uint(8+f)
	}
}

// Pieces returns the number of pieces on the board.
func (b *Board) Pieces() int { return int(b.n) }
