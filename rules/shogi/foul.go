package shogi

import (
	"strconv"

	"arbiter/rules"
)

// Foul is a kind of illegal action (spec 2.8, F1 to F10).
type Foul uint8

// The fouls of spec 2.8.
const (
	NoFoul             Foul = iota
	FoulMovement            // F1: a piece moved contrary to its movement
	FoulNifu                // F2: a second unpromoted pawn dropped on a file
	FoulUchifuzume          // F3: a pawn drop that mates
	FoulDeadPiece           // F4: a piece left where it can never move
	FoulSelfCheck           // F5: the mover's own king left in check
	FoulPromotion           // F6: a promotion the rules do not allow
	FoulMovedTwice          // F7: moving twice or out of turn
	FoulMatta               // F8: changing a move after releasing the piece
	FoulPerpetualCheck      // F9: the fourth repetition by continuous check
	FoulNotInHand           // F10: dropping a piece one does not hold
)

var foulNames = [...]string{
	NoFoul: "none", FoulMovement: "movement", FoulNifu: "nifu", FoulUchifuzume: "uchifuzume",
	FoulDeadPiece: "dead-piece", FoulSelfCheck: "self-check", FoulPromotion: "promotion",
	FoulMovedTwice: "moved-twice", FoulMatta: "matta", FoulPerpetualCheck: "perpetual-check",
	FoulNotInHand: "not-in-hand",
}

// String returns "F2 nifu" and the like.
func (f Foul) String() string {
	if f == NoFoul || int(f) >= len(foulNames) {
		return foulNames[0]
	}
	return "F" + strconv.Itoa(int(f)) + " " + foulNames[f]
}

// FoulMove is an illegal move with the foul it commits. Its Move is for
// [Position.FoulView] and for display (String); it is not a move to make
// on a [Board].
type FoulMove struct {
	Move Move
	Foul Foul
}

// Fouls appends the moves of the side to move that follow the pieces'
// movement but break another rule, each with its foul: promotion outside
// the zone (F6), a piece left dead (F4), nifu (F2), the own king left in
// check (F5) and uchifuzume (F3), and drops of a type the player does not
// hold but the opponent does, taken from the opponent's stand (F10). The
// move reconstructor matches them against the sensed board when no legal
// move matches (spec 6.4). Moves against the movement rules (F1) are any
// other change of one own piece and are not listed.
func (b *Board) Fouls(dst []FoulMove) []FoulMove {
	c := b.turn
	var buf [64]Move
	for _, s8 := range padOf {
		s := int(s8)
		p := b.sq[s]
		if p == NoPiece || p.Color() != c {
			continue
		}
		for _, m := range b.pseudoMovesFrom(s, buf[:0]) {
			dst = b.appendBoardFoul(dst, m, s, p.Type())
			if p.Type().Promotable() {
				dst = b.appendBoardFoul(dst, m|mvPromote, s, p.Type())
			}
		}
	}
	for _, t := range handTypes {
		if b.hand[c][t] > 0 {
			dst = b.appendDropFouls(dst, t)
		}
	}
	for _, t := range handTypes {
		if b.hand[c][t] == 0 && b.hand[c.Other()][t] > 0 {
			dst = b.appendNotInHand(dst, t)
		}
	}
	return dst
}

// appendBoardFoul appends the move m of a piece of type t from s with
// the first foul it commits, if any: a promotion outside the zone, an
// unpromoted piece left dead, the own king left in check.
func (b *Board) appendBoardFoul(dst []FoulMove, m Move, s int, t PieceType) []FoulMove {
	c := b.turn
	switch {
	case m.Promotes() && !inZone[c][s] && !inZone[c][m.to()]:
		return append(dst, FoulMove{m, FoulPromotion})
	case !m.Promotes() && dead(c, t, m.to()):
		return append(dst, FoulMove{m, FoulDeadPiece})
	case b.leavesCheck(m):
		return append(dst, FoulMove{m, FoulSelfCheck})
	}
	return dst
}

// appendDropFouls appends the drops of a piece of type t, which the side
// to move holds, that commit a foul, each with the first it commits: a
// piece left dead, nifu, the own king left in check, uchifuzume.
func (b *Board) appendDropFouls(dst []FoulMove, t PieceType) []FoulMove {
	c := b.turn
	pawn := MakePiece(c, Pawn)
	for i, s8 := range padOf {
		s := int(s8)
		if b.sq[s] != NoPiece {
			continue
		}
		m := dropMove(s, MakePiece(c, t))
		switch {
		case dead(c, t, s):
			dst = append(dst, FoulMove{m, FoulDeadPiece})
		case t == Pawn && b.pawnOnFile(pawn, i%9):
			dst = append(dst, FoulMove{m, FoulNifu})
		case b.leavesCheck(m):
			dst = append(dst, FoulMove{m, FoulSelfCheck})
		case t == Pawn && s+forward[c] == int(b.king[c.Other()]) && b.dropMates(m):
			dst = append(dst, FoulMove{m, FoulUchifuzume})
		}
	}
	return dst
}

// appendNotInHand appends a drop of type t, which only the opponent
// holds, on every empty square.
func (b *Board) appendNotInHand(dst []FoulMove, t PieceType) []FoulMove {
	p := MakePiece(b.turn, t)
	for _, s8 := range padOf {
		if s := int(s8); b.sq[s] == NoPiece {
			dst = append(dst, FoulMove{dropMove(s, p), FoulNotInHand})
		}
	}
	return dst
}

// pawnOnFile reports whether pawn stands on the file of column col.
func (b *Board) pawnOnFile(pawn Piece, col int) bool {
	for r := range 9 {
		if b.sq[padOf[r*9+col]] == pawn {
			return true
		}
	}
	return false
}

// Fouls lists the position's foul moves (see [Board.Fouls]).
func (p *Position) Fouls() []FoulMove {
	b := p.b
	return b.Fouls(nil)
}

// FoulView returns the physical picture after the foul move f was played,
// for matching against the sensed board.
func (p *Position) FoulView(f FoulMove) rules.View {
	q := &Position{b: p.b, game: p.game, last: f.Move}
	if f.Foul == FoulNotInHand {
		// The piece comes from the opponent's stand.
		c := q.b.turn
		t := f.Move.piece().Type()
		q.b.hand[c][t]++
		q.b.hand[c.Other()][t]--
	}
	q.b.Make(f.Move)
	return q.View()
}
