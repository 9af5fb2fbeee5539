package tavreli

import (
	"fmt"

	"arbiter/rules"
)

// MoveCountLimit is the 50-move rule of D26 in half-moves: 50 moves by
// each player without a Ratnik move or a tower formation.
const MoveCountLimit = 100

// RepetitionCount is how often a position must have occurred for a draw
// claim (D25).
const RepetitionCount = 3

// Automatic draws, when the game's autodraw option is on (D28; the source
// has none, these are the chess figures).
const (
	AutoRepetitionCount = 5
	AutoMoveCountLimit  = 150
)

// Position is an immutable Tavreli position. It implements
// [rules.Position], [rules.Claimer] and [rules.Perfter].
type Position struct {
	b Board
	g *Game
}

var (
	_ rules.Position = (*Position)(nil)
	_ rules.Claimer  = (*Position)(nil)
	_ rules.Perfter  = (*Position)(nil)
)

// Board returns a copy of the position's board.
func (p *Position) Board() Board { return p.b }

// Turn returns the side to move.
func (p *Position) Turn() rules.Color { return p.b.side }

// Moves returns the legal moves with their concrete type.
func (p *Position) Moves() []Move {
	b := p.b
	return b.GenerateLegal(nil)
}

// Legal returns the legal moves in the order of [Board.GenerateLegal].
func (p *Position) Legal() []rules.Move {
	return rules.MoveList(p.Moves())
}

// Play returns the position after m, which must be a legal move of p.
func (p *Position) Play(m rules.Move) (rules.Position, error) {
	return rules.Played(p.PlayMove(m))
}

// PlayMove is Play with the concrete result type.
func (p *Position) PlayMove(m rules.Move) (*Position, error) {
	mv, ok := moveFromRules(m)
	if !ok || !p.isLegal(mv) {
		return nil, fmt.Errorf("play %v: %w in %s", m, ErrIllegal, p.b.TFEN())
	}
	q := &Position{b: p.b, g: p.g}
	q.b.Make(mv)
	return q, nil
}

func (p *Position) isLegal(m Move) bool {
	b := p.b
	return b.IsLegal(m)
}

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool {
	b := p.b
	return b.InCheck()
}

// Outcome reports checkmate and stalemate. Repetition and the 50-move rule
// are draws on claim ([Position.Claims]); automatic draws are not part of
// the rules (D28) unless the game's autodraw option is on.
func (p *Position) Outcome(history []rules.Position) rules.Outcome {
	b := p.b
	var buf [256]Move
	if len(b.GenerateLegal(buf[:0])) == 0 {
		if b.InCheck() {
			return rules.Loss(b.side, rules.Checkmate)
		}
		return rules.Draw(rules.Stalemate)
	}
	if p.g.autoDraw {
		if rules.CountKey(history, p) >= AutoRepetitionCount {
			return rules.Draw(rules.Repetition)
		}
		if b.half >= AutoMoveCountLimit {
			return rules.Draw(rules.MoveCountRule)
		}
	}
	return rules.Outcome{}
}

// Claims returns the draws the side to move may claim now: threefold
// repetition (D25) and the 50-move rule (D26).
func (p *Position) Claims(history []rules.Position) []rules.Outcome {
	var out []rules.Outcome
	if rules.CountKey(history, p) >= RepetitionCount {
		out = append(out, rules.Draw(rules.Repetition))
	}
	if p.b.half >= MoveCountLimit {
		out = append(out, rules.Draw(rules.MoveCountRule))
	}
	return out
}

// ClaimsWithMove returns the draws the side to move may claim by declaring
// the legal move m: those that hold after it (src §5.4 "is about to occur",
// and a counter that reaches 100 with the declared move), plus those that
// hold now.
func (p *Position) ClaimsWithMove(history []rules.Position, m rules.Move) ([]rules.Outcome, error) {
	q, err := p.PlayMove(m)
	if err != nil {
		return nil, err
	}
	now := p.Claims(history)
	after := q.Claims(append(history[:len(history):len(history)], p))
	for _, o := range after {
		dup := false
		for _, n := range now {
			dup = dup || n == o
		}
		if !dup {
			now = append(now, o)
		}
	}
	return now, nil
}

// View returns the physical picture: each stack bottom to top, a Ratnik
// always as Kind 'P' with its mark, promoted or not.
func (p *Position) View() rules.View {
	v := rules.NewView(geometry)
	all := make([]rules.Piece, p.b.n)
	used := 0
	for sq := range numSquares {
		h := int(p.b.height[sq])
		if h == 0 {
			continue
		}
		s := all[used : used+h : used+h]
		used += h
		i := h - 1
		for q := p.b.top[sq]; q != 0; q = p.b.below[q] {
			s[i] = p.b.piece(q).Physical()
			i--
		}
		v.Stacks[sq] = s
	}
	return v
}

// Key returns the repetition key of spec 6.4.
func (p *Position) Key() rules.Key {
	b := p.b
	return rules.Key(b.RepetitionKey())
}

// ParseMove reads a move in record notation or in the canonical machine
// form of [Move.String], with the game's notation option.
func (p *Position) ParseMove(s string) (rules.Move, error) {
	m, err := p.ParseMoveText(s)
	if err != nil {
		return nil, err
	}
	return m.Move, nil
}

// ParseMoveText reads a move and reports the warnings of the reader.
func (p *Position) ParseMoveText(s string) (MoveText, error) {
	b := p.b
	if m, ok := p.parseMachine(s); ok {
		return MoveText{Move: m}, nil
	}
	return p.g.reader.ParseMove(&b, s)
}

// parseMachine reads the canonical machine form ("e2e4", "(2)d4d8").
func (p *Position) parseMachine(s string) (Move, bool) {
	b := p.b
	var buf [256]Move
	for _, m := range b.GenerateLegal(buf[:0]) {
		if m.String() == s {
			return m, true
		}
	}
	return Move{}, false
}

// FormatMove writes m in record notation, in the game's alphabet.
func (p *Position) FormatMove(m rules.Move) string {
	mv, ok := moveFromRules(m)
	if !ok {
		return fmt.Sprintf("?%v", m)
	}
	b := p.b
	return FormatMove(&b, mv, p.g.write)
}

// String returns the position in canonical TFEN.
func (p *Position) String() string { return p.b.TFEN() }

// Perft counts the leaves of the legal move tree with the fast board.
func (p *Position) Perft(depth int) uint64 {
	b := p.b
	return b.Perft(depth)
}

// Effects returns the invisible consequences of the legal move m
// (promotions, demotions, liberations) for the arbiter to announce.
func (p *Position) Effects(m rules.Move) ([]Effect, error) {
	mv, ok := moveFromRules(m)
	if !ok || !p.isLegal(mv) {
		return nil, fmt.Errorf("effects of %v: %w", m, ErrIllegal)
	}
	b := p.b
	return b.Effects(mv), nil
}

// FirstPartView returns the physical picture after the first part of a
// compound move (castling: the Volkhv moved; en passant: the victim moved
// back), and false for a move that has no parts.
func (p *Position) FirstPartView(m rules.Move) (rules.View, bool) {
	mv, ok := moveFromRules(m)
	if !ok || !p.isLegal(mv) {
		return rules.View{}, false
	}
	b := p.b
	fb, ok := b.FirstPart(mv)
	if !ok {
		return rules.View{}, false
	}
	return (&Position{b: fb, g: p.g}).View(), true
}
