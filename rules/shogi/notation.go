package shogi

import (
	"errors"
	"fmt"
	"strings"

	"arbiter/rules"
)

// csaCodes are the CSA piece codes of each type.
var csaCodes = [...]string{
	Pawn: "FU", Lance: "KY", Knight: "KE", Silver: "GI", Gold: "KI", Bishop: "KA", Rook: "HI", King: "OU",
	Tokin: "TO", PromotedLance: "NY", PromotedKnight: "NK", PromotedSilver: "NG", Horse: "UM", Dragon: "RY",
}

// CSACode returns the CSA code of t: FU, NG, RY.
func (t PieceType) CSACode() string {
	if !t.Valid() {
		return "??"
	}
	return csaCodes[t]
}

// ParseCSACode returns the type of a CSA piece code, or NoPieceType.
func ParseCSACode(code string) PieceType {
	for t := Pawn; t <= Dragon; t++ {
		if csaCodes[t] == code {
			return t
		}
	}
	return NoPieceType
}

// CSAMove writes m, a legal move of p, in CSA: +7776FU, +8822UM.
func (p *Position) CSAMove(m Move) string { return formatCSAMove(m, p.b.turn) }

// formatCSAMove writes m in CSA: +7776FU, -3122GI, +0045KA, +8822UM.
func formatCSAMove(m Move, c rules.Color) string {
	var sb strings.Builder
	sb.WriteString(csaSign(c))
	if m.IsDrop() {
		sb.WriteString("00")
	} else {
		f, r := fileRank(m.From())
		sb.WriteByte(byte('0' + f))
		sb.WriteByte(byte('0' + r))
	}
	f, r := fileRank(m.To())
	sb.WriteByte(byte('0' + f))
	sb.WriteByte(byte('0' + r))
	t := m.piece().Type()
	if m.Promotes() {
		t = t.Promote()
	}
	sb.WriteString(csaCodes[t])
	return sb.String()
}

func csaSign(c rules.Color) string {
	if c == rules.First {
		return "+"
	}
	return "-"
}

// parseCSAMove reads a CSA move (with or without its sign) and returns the
// legal move of b it names.
func (b *Board) parseCSAMove(s string) (Move, error) {
	s, err := b.cutCSASign(s)
	if err != nil {
		return 0, err
	}
	if len(s) != 6 {
		return 0, fmt.Errorf("csa move %q: want sign, origin, destination and piece, e.g. +7776FU", s)
	}
	for i := range 4 {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("csa move %q: bad square digit %q", s, s[i])
		}
	}
	t := ParseCSACode(s[4:])
	if t == NoPieceType {
		return 0, fmt.Errorf("csa move %q: unknown piece code %q", s, s[4:])
	}
	to := SquareAt(int(s[2]-'0'), int(s[3]-'0'))
	if to == rules.NoSquare {
		return 0, fmt.Errorf("csa move %q: bad destination %q", s, s[2:4])
	}
	if s[:2] == "00" {
		if t.IsPromoted() || t == King {
			return 0, fmt.Errorf("csa move %q: cannot drop %s", s, s[4:])
		}
		return b.Find(USIMove{Drop: t, From: rules.NoSquare, To: to})
	}
	return b.csaBoardMove(s, to, t)
}

// cutCSASign checks the sign of a CSA move of 7 bytes, which must name
// the side to move, and returns the move without it; a move of another
// length it returns as it is.
func (b *Board) cutCSASign(s string) (string, error) {
	if len(s) != 7 {
		return s, nil
	}
	if s[0] != '+' && s[0] != '-' {
		return s, fmt.Errorf("csa move %q: want + or - first", s)
	}
	if s[0] != csaSign(b.turn)[0] {
		return s, fmt.Errorf("csa move %q: %s is not to move", s, sideWord(b.turn.Other()))
	}
	return s[1:], nil
}

// csaBoardMove returns the legal move of b that the unsigned CSA board
// move s names, to to, its piece of type t after the move.
func (b *Board) csaBoardMove(s string, to rules.Square, t PieceType) (Move, error) {
	from := SquareAt(int(s[0]-'0'), int(s[1]-'0'))
	if from == rules.NoSquare {
		return 0, fmt.Errorf("csa move %q: bad origin %q", s, s[:2])
	}
	p := b.At(from)
	if p == NoPiece {
		return 0, fmt.Errorf("csa move %q: no piece on %s", s, SquareName(from))
	}
	u := USIMove{From: from, To: to}
	switch {
	case p.Type() == t:
	case p.Type().Promotable() && p.Type().Promote() == t:
		u.Promote = true
	default:
		return 0, fmt.Errorf("csa move %q: the piece on %s is %s, not %s", s, SquareName(from), csaCodes[p.Type()], s[4:])
	}
	return b.Find(u)
}

// ParseMove reads a move in USI (7g7f, P*5e), CSA (+7776FU) or Japanese
// KIF/KI2 notation (７六歩(77), ▲７六歩, 同　銀) and returns the legal
// move it names.
func (p *Position) ParseMove(s string) (rules.Move, error) {
	m, err := p.ParseMoveText(s)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// ParseMoveText is ParseMove with the concrete result type.
func (p *Position) ParseMoveText(s string) (Move, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, errors.New("empty move")
	}
	b := p.b
	switch {
	case s[0] >= '1' && s[0] <= '9' && len(s) <= 5 || len(s) == 4 && s[1] == '*':
		return b.ParseUSI(s)
	case s[0] == '+' || s[0] == '-' || len(s) == 6 && s[0] >= '0' && s[0] <= '9':
		return b.parseCSAMove(s)
	}
	j, err := parseJapanese(s)
	if err != nil {
		return 0, err
	}
	m, err := j.resolve(&b, p.prev())
	if err != nil {
		return 0, fmt.Errorf("move %q: %w", s, err)
	}
	return m, nil
}

// FormatMove writes m in KI2, the readable Japanese record notation, with
// its side mark: ▲７六歩, △同　銀, ▲５八金右, ▲４五角打.
func (p *Position) FormatMove(m rules.Move) string {
	sm, ok := m.(Move)
	if !ok {
		return fmt.Sprint(m)
	}
	return p.KI2Move(sm)
}
