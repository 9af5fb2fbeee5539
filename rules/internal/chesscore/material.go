package chesscore

import "arbiter/rules"

// material counts the pieces of one colour.
type material struct {
	count       [Monster + 1]int
	lightBishop int
	darkBishop  int
}

func (m *material) minorsAndMajors() int {
	return m.count[Pawn] + m.count[Knight] + m.count[Bishop] + m.count[Rook] + m.count[Queen]
}

func (b *Board) material() [2]material {
	var m [2]material
	for _, cell := range b.cfg.cells {
		p := b.cell[cell]
		if p == Empty {
			continue
		}
		mm := &m[p.Color()]
		mm.count[p.Kind()]++
		if p.Kind() == Bishop {
			if b.cfg.dark[cell] {
				mm.darkBishop++
			} else {
				mm.lightBishop++
			}
		}
	}
	return m
}

// Dead reports whether the position is dead by material: neither side can
// ever checkmate, whatever the moves.
//
// Decided cases: only kings and monsters on the board (monsters never give
// check); and, with no monster on the board, K v K, K+N v K, K+B v K, and
// kings with bishops all on squares of one colour. Every other position is
// treated as alive (with monsters on the board that is the Tensor rule,
// D33); blocked pawn chains and similar dead positions are left to the
// human arbiter.
func (b *Board) Dead() bool {
	m := b.material()
	if m[0].minorsAndMajors() == 0 && m[1].minorsAndMajors() == 0 {
		return true
	}
	if m[0].count[Monster]+m[1].count[Monster] > 0 {
		return false
	}
	return !canMateByMaterial(m[0], m[1]) && !canMateByMaterial(m[1], m[0])
}

// canMateByMaterial reports whether a side with material s could ever mate
// a side with material o, on a board without monsters, judging by material
// alone (helpmates count: the opponent may cooperate).
func canMateByMaterial(s, o material) bool {
	if s.count[Pawn]+s.count[Rook]+s.count[Queen] > 0 {
		return true
	}
	n, bishops := s.count[Knight], s.count[Bishop]
	switch {
	case n == 0 && bishops == 0:
		return false
	case n == 1 && bishops == 0:
		// A lone knight mates only if the opponent has something to block
		// its own king with.
		return o.minorsAndMajors() > 0
	case n == 0:
		// Bishops only: the mated king stands on their colour and some
		// neighbour of the other colour must be blocked by an enemy piece
		// that can stand there: a pawn, knight, rook, queen, or a bishop of
		// the other colour.
		if s.lightBishop > 0 && s.darkBishop > 0 {
			return true
		}
		return o.count[Pawn]+o.count[Knight]+o.count[Rook]+o.count[Queen] > 0 ||
			(s.lightBishop > 0 && o.darkBishop > 0) || (s.darkBishop > 0 && o.lightBishop > 0)
	}
	return true
}

// Verdict is a three-valued answer.
type Verdict uint8

// The verdicts.
const (
	Unknown Verdict = iota
	Yes
	No
)

// String returns "yes", "no" or "unknown".
func (v Verdict) String() string {
	switch v {
	case Yes:
		return "yes"
	case No:
		return "no"
	}
	return "unknown"
}

// CanEverWin answers FIDE 6.9 for a flag fall: could side checkmate its
// opponent by some series of legal moves (with the opponent's help)?
//
//   - No: side has only its king (and monsters, which never give check); or,
//     with no monster on the board, side has a lone knight against a bare
//     king, or only bishops of one square colour against a king with at most
//     bishops of that same colour.
//   - Yes: with monsters on the board, whenever side has a pawn or piece
//     (Tensor D33 treats every such position as alive); without monsters,
//     when side's material is not insufficient as above and either no pawn
//     is on the board (pieces can always be brought into a helpmate) or
//     some pawn can still step or capture (the structure is not frozen, and
//     every known dead position with pawns has a frozen structure).
//   - Unknown: sufficient material but every pawn on the board blocked:
//     such fortresses may be dead, which needs an analysis this function
//     does not do; the arbiter decides.
func (b *Board) CanEverWin(side rules.Color) Verdict {
	m := b.material()
	s, o := m[side], m[side.Other()]
	if s.minorsAndMajors() == 0 {
		return No
	}
	if s.count[Monster]+o.count[Monster] > 0 {
		return Yes
	}
	if !canMateByMaterial(s, o) {
		return No
	}
	if s.count[Pawn]+o.count[Pawn] == 0 || b.pawnCanMove() {
		return Yes
	}
	return Unknown
}

// pawnCanMove reports whether some pawn of either side can step forward or
// capture (pins ignored).
func (b *Board) pawnCanMove() bool {
	c := b.cfg
	for _, cell8 := range c.cells {
		s := int(cell8)
		p := b.cell[s]
		if p.Kind() != Pawn || p == Empty || p == Wall {
			continue
		}
		col := p.Color()
		one := s + c.forward(col)
		if b.cell[one] == Empty || enemyOrdinary[col][b.cell[one-1]] || enemyOrdinary[col][b.cell[one+1]] {
			return true
		}
	}
	return false
}
