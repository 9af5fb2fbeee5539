package shogi

import (
	"fmt"

	"arbiter/rules"
)

// Position is an immutable shogi position under a [Game]'s rules. It
// implements [rules.Position] and [rules.Perfter]. Positions may be shared
// between goroutines: methods that generate moves work on a copy of the
// board, since generation changes it in place and restores it.
type Position struct {
	b    Board
	game *Game
	last Move // the move that led here, for 同 in records; 0 at the start
}

var (
	_ rules.Winnable = (*Position)(nil)
	_ rules.Position = (*Position)(nil)
	_ rules.Perfter  = (*Position)(nil)
	_ rules.Game     = (*Game)(nil)
)

// Board returns a mutable copy of the position's board.
func (p *Position) Board() *Board { return p.b.Clone() }

// Game returns the rules the position is played under.
func (p *Position) Game() *Game { return p.game }

// LastMove returns the move that led to p, or 0 at the start of a game.
func (p *Position) LastMove() Move { return p.last }

// Turn returns the side to move.
func (p *Position) Turn() rules.Color { return p.b.turn }

// Moves returns the legal moves as concrete values.
func (p *Position) Moves() []Move {
	b := p.b
	return b.GenerateLegal(make([]Move, 0, 64))
}

// Legal returns the legal moves, all of type [Move].
func (p *Position) Legal() []rules.Move {
	return rules.MoveList(p.Moves())
}

// Play returns the position after m, which must be a legal move of p.
func (p *Position) Play(m rules.Move) (rules.Position, error) {
	return rules.Played(p.PlayMove(m))
}

// PlayMove is Play with concrete types.
func (p *Position) PlayMove(m rules.Move) (*Position, error) {
	sm, ok := m.(Move)
	if !ok {
		return nil, fmt.Errorf("play %v: not a shogi move (%T)", m, m)
	}
	for _, l := range p.Moves() {
		if l == sm {
			return p.play(sm), nil
		}
	}
	return nil, fmt.Errorf("play %s: not a legal move of %s", sm, p.b.SFEN())
}

// PlayUSI plays a move given in USI.
func (p *Position) PlayUSI(s string) (*Position, error) {
	b := p.b // move generation works in place; p is shared
	m, err := b.ParseUSI(s)
	if err != nil {
		return nil, err
	}
	return p.play(m), nil
}

func (p *Position) play(m Move) *Position {
	q := &Position{b: p.b, game: p.game, last: m}
	q.b.Make(m)
	return q
}

// CanEverWin reports that either side can always still win: shogi has no
// dead positions, and a flag fall loses whatever the material (spec 4.4).
func (p *Position) CanEverWin(c rules.Color) (can, known bool) { return true, true }

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool { return p.b.InCheck() }

// Perft counts the leaves of the legal move tree of the given depth.
func (p *Position) Perft(depth int) uint64 {
	b := p.b
	return b.Perft(depth)
}

// String returns the position in SFEN.
func (p *Position) String() string { return p.b.SFEN() }

// Key returns the repetition identity of spec 2.9: board, hands and side
// to move, without the move number.
func (p *Position) Key() rules.Key {
	var k [numSq + 14 + 1]byte
	for i, s := range padOf {
		k[i] = byte(p.b.sq[s])
	}
	n := numSq
	for c := range 2 {
		for t := Pawn; t <= Gold; t++ {
			k[n] = p.b.hand[c][t]
			n++
		}
	}
	k[n] = byte(p.b.turn)
	return rules.Key(k[:])
}

// Outcome judges the game (spec 2.6, 2.9): mate, or no legal move at all,
// loses for the side to move; the fourth occurrence of a position is
// sennichite, a draw, unless one player gave check with every move since
// the first occurrence, who then loses; and, when the game has a move
// limit, reaching it draws. history holds the positions before p, oldest
// first, from the start of the game.
func (p *Position) Outcome(history []rules.Position) rules.Outcome {
	b := p.b
	if !b.HasLegalMove() {
		if b.InCheck() {
			return rules.Loss(b.turn, rules.Checkmate)
		}
		return rules.Loss(b.turn, rules.Stalemate)
	}
	if o := Repetition(history, p); o.Over() {
		return o
	}
	if p.game != nil && p.game.maxMoves > 0 && len(history) >= p.game.maxMoves {
		return rules.Draw(rules.MoveCountRule)
	}
	return rules.Outcome{}
}

// Repetition applies sennichite and the perpetual-check rule (spec 2.9)
// to the game history followed by pos: on the fourth occurrence of pos's
// position the game is a draw, unless every move one player made since
// the first occurrence gave check; that player loses.
func Repetition(history []rules.Position, pos rules.Position) rules.Outcome {
	key := pos.Key()
	first, count := -1, 1
	for i, h := range history {
		if h.Key() == key {
			if first < 0 {
				first = i
			}
			count++
		}
	}
	if count < 4 {
		return rules.Outcome{}
	}
	at := func(i int) rules.Position {
		if i == len(history) {
			return pos
		}
		return history[i]
	}
	allCheck := [2]bool{true, true}
	for j := first + 1; j <= len(history); j++ {
		mover := at(j - 1).Turn()
		if !at(j).InCheck() {
			allCheck[mover] = false
		}
	}
	switch {
	case allCheck[rules.First] && !allCheck[rules.Second]:
		return rules.Loss(rules.First, rules.PerpetualCheck)
	case allCheck[rules.Second] && !allCheck[rules.First]:
		return rules.Loss(rules.Second, rules.PerpetualCheck)
	}
	return rules.Draw(rules.Repetition)
}

// View returns the physical picture: one piece per occupied square with
// its logical owner and the Back face up when promoted, and each hand as
// the zone of its owner, unpromoted side up.
func (p *Position) View() rules.View {
	v := rules.View{Stacks: make([][]rules.Piece, numSq), Zones: make([][]rules.Piece, 2)}
	pieces := make([]rules.Piece, 0, 40)
	for i, s := range padOf {
		pc := p.b.sq[s]
		if pc == NoPiece {
			continue
		}
		pieces = append(pieces, pc.Physical())
		n := len(pieces)
		v.Stacks[i] = pieces[n-1 : n : n]
	}
	for c := rules.First; c <= rules.Second; c++ {
		zi := geometry.Zone(rules.Hand, c)
		start := len(pieces)
		// handTypes order is not the canonical one; SortZones fixes it.
		for _, t := range handTypes {
			for range p.b.hand[c][t] {
				pieces = append(pieces, MakePiece(c, t).Physical())
			}
		}
		if len(pieces) > start {
			v.Zones[zi] = pieces[start:len(pieces):len(pieces)]
		}
	}
	v.SortZones()
	return v
}
