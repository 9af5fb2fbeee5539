package chesscore

import (
	"fmt"

	"arbiter/rules"
)

// Dialect is what a game adds to the engine: its move notations.
type Dialect interface {
	// MoveText returns m, a legal move of b, in the game's canonical
	// machine form (UCI for chess, TLAN for Tensor), without check marks.
	MoveText(b *Board, m Move) string
	// FormatMove returns m in the game's record notation (SAN for chess,
	// TLAN with check marks for Tensor).
	FormatMove(b *Board, m Move) string
	// ParseMove reads a move in any notation the game accepts and returns
	// the legal move of b it names.
	ParseMove(b *Board, s string) (Move, error)
}

// Position is an immutable position implementing [rules.Position],
// [rules.Claimer] and [rules.Perfter] over a [Board].
type Position struct {
	b Board
	d Dialect
}

// NewPosition returns the position of board b, spoken in dialect d. The
// board is copied.
func NewPosition(b Board, d Dialect) *Position { return &Position{b: b, d: d} }

// Board returns a copy of the position's board.
func (p *Position) Board() Board { return p.b }

// LegalMove is a legal move of a [Position] as a [rules.Move]: the engine
// move with its squares and canonical text.
type LegalMove struct {
	Move     Move
	from, to rules.Square
	text     string
}

// From returns the square the moving piece leaves (the king's for
// castling, the pusher's for a push).
func (m LegalMove) From() rules.Square { return m.from }

// To returns the square where the moving piece ends.
func (m LegalMove) To() rules.Square { return m.to }

// String returns the move's canonical machine form.
func (m LegalMove) String() string { return m.text }

// Tools returns the square of the own monster a push moves on: touching
// it first is no obligation (Tensor D34). Other moves have none.
func (m LegalMove) Tools() []rules.Square {
	if m.Move.Kind == Push {
		return []rules.Square{m.to}
	}
	return nil
}

// Turn returns the side to move.
func (p *Position) Turn() rules.Color { return p.b.turn }

// legalMoves returns the engine's legal moves.
func (p *Position) legalMoves() []Move {
	b := p.b
	return b.Legal(make([]Move, 0, 64))
}

// Wrap returns the rules.Move of m, a legal move of the position.
func (p *Position) Wrap(m Move) LegalMove {
	b := p.b
	c := b.cfg
	return LegalMove{Move: m, from: c.Square(int(m.From)), to: c.Square(int(m.To)), text: p.d.MoveText(&b, m)}
}

// Legal returns the legal moves in generation order.
func (p *Position) Legal() []rules.Move {
	moves := p.legalMoves()
	out := make([]rules.Move, len(moves))
	for i, m := range moves {
		out[i] = p.Wrap(m)
	}
	return out
}

// PlayMove returns the position after the engine move m, which must be
// legal.
func (p *Position) PlayMove(m Move) (*Position, error) {
	for _, l := range p.legalMoves() {
		if l == m {
			q := &Position{b: p.b, d: p.d}
			q.b.Make(m)
			return q, nil
		}
	}
	b := p.b
	return nil, fmt.Errorf("move %s is not legal in %s", p.d.MoveText(&b, m), b.FEN())
}

// Play returns the position after m.
func (p *Position) Play(m rules.Move) (rules.Position, error) {
	lm, ok := m.(LegalMove)
	if !ok {
		return nil, fmt.Errorf("move %v (%T) was not made by this game", m, m)
	}
	q, err := p.PlayMove(lm.Move)
	if err != nil {
		return nil, err
	}
	return q, nil
}

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool { return p.b.InCheck() }

// Outcome judges mate, stalemate, dead positions, fivefold repetition and
// the 75-move rule.
func (p *Position) Outcome(history []rules.Position) rules.Outcome {
	if len(p.legalMoves()) == 0 {
		if p.b.InCheck() {
			return rules.Loss(p.b.turn, rules.Checkmate)
		}
		return rules.Draw(rules.Stalemate)
	}
	if p.b.Dead() {
		return rules.Draw(rules.DeadPosition)
	}
	if rules.CountKey(history, p) >= 5 {
		return rules.Draw(rules.Repetition)
	}
	if p.b.halfmove >= 150 {
		return rules.Draw(rules.MoveCountRule)
	}
	return rules.Outcome{}
}

// Claims returns the draws the side to move may claim now: threefold
// repetition of the current position, and the 50-move rule.
func (p *Position) Claims(history []rules.Position) []rules.Outcome {
	var out []rules.Outcome
	if rules.CountKey(history, p) >= 3 {
		out = append(out, rules.Draw(rules.Repetition))
	}
	if p.b.halfmove >= 100 {
		out = append(out, rules.Draw(rules.MoveCountRule))
	}
	return out
}

// View returns the physical picture: one piece per occupied square. A
// promoted pawn shows as the piece it became.
func (p *Position) View() rules.View {
	c := p.b.cfg
	v := rules.NewView(c.geo)
	for sq, cell := range c.cells {
		x := p.b.cell[cell]
		if x == Empty {
			continue
		}
		v.Stacks[sq] = []rules.Piece{{Color: x.Color(), Kind: rules.Kind(x.Kind().Letter())}}
	}
	return v
}

// Key returns the position's identity for repetition.
func (p *Position) Key() rules.Key { return p.b.Key() }

// ParseMove reads a move in any notation the game accepts.
func (p *Position) ParseMove(s string) (rules.Move, error) {
	b := p.b
	m, err := p.d.ParseMove(&b, s)
	if err != nil {
		return nil, err
	}
	return p.Wrap(m), nil
}

// FormatMove writes m in the game's record notation.
func (p *Position) FormatMove(m rules.Move) string {
	lm, ok := m.(LegalMove)
	if !ok {
		return m.String()
	}
	b := p.b
	return p.d.FormatMove(&b, lm.Move)
}

// String returns the position as FEN.
func (p *Position) String() string { return p.b.FEN() }

// Perft counts the leaves of the legal move tree with the fast engine.
func (p *Position) Perft(depth int) uint64 {
	b := p.b
	return b.Perft(depth)
}

// CanEverWin implements [rules.Winnable]: FIDE 6.9 at a flag fall, could
// side ever checkmate by some series of legal moves? known is false when
// the engine cannot tell (see [Board.CanEverWin] for the cases decided).
func (p *Position) CanEverWin(side rules.Color) (can, known bool) {
	v := p.b.CanEverWin(side)
	return v == Yes, v != Unknown
}

// WinVerdict is [Position.CanEverWin] as one three-valued result.
func (p *Position) WinVerdict(side rules.Color) Verdict { return p.b.CanEverWin(side) }
