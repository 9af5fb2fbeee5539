package chess

import (
	"fmt"
	"regexp"
	"strings"

	"arbiter/rules"
	"arbiter/rules/internal/chesscore"
)

// dialect gives the chess engine its notations: UCI as the canonical
// form, SAN as the record form, and on input SAN, long algebraic and UCI.
type dialect struct{}

// MoveText returns m in UCI: from, to, promotion letter in lower case.
func (dialect) MoveText(b *chesscore.Board, m chesscore.Move) string {
	c := b.Config()
	s := c.CellName(int(m.From)) + c.CellName(int(m.To))
	if m.Promo != chesscore.NoKind {
		s += strings.ToLower(string(m.Promo.Letter()))
	}
	return s
}

// FormatMove returns m in SAN, with check or mate mark.
func (dialect) FormatMove(b *chesscore.Board, m chesscore.Move) string {
	return san(b, m) + b.CheckSuffix(m)
}

// san returns m in SAN without the check mark.
func san(b *chesscore.Board, m chesscore.Move) string {
	c := b.Config()
	from, to := int(m.From), int(m.To)
	if m.Kind == chesscore.Castle {
		if to > from {
			return "O-O"
		}
		return "O-O-O"
	}
	p := b.At(from)
	capture := b.At(to) != chesscore.Empty || m.Kind == chesscore.EnPassant
	var sb strings.Builder
	if p.Kind() == chesscore.Pawn {
		if capture {
			sb.WriteByte(c.CellName(from)[0])
			sb.WriteByte('x')
		}
		sb.WriteString(c.CellName(to))
		if m.Promo != chesscore.NoKind {
			sb.WriteByte('=')
			sb.WriteByte(m.Promo.Letter())
		}
		return sb.String()
	}
	sb.WriteByte(p.Kind().Letter())
	// Disambiguate among other pieces of the same kind reaching to.
	var buf [256]chesscore.Move
	sameFile, sameRank, others := false, false, false
	ff, fr := c.FileRank(from)
	for _, o := range b.Legal(buf[:0]) {
		if int(o.To) != to || int(o.From) == from || b.At(int(o.From)) != p || o.Kind == chesscore.Castle {
			continue
		}
		others = true
		of, or := c.FileRank(int(o.From))
		sameFile = sameFile || of == ff
		sameRank = sameRank || or == fr
	}
	name := c.CellName(from)
	switch {
	case !others:
	case !sameFile:
		sb.WriteByte(name[0])
	case !sameRank:
		sb.WriteString(name[1:])
	default:
		sb.WriteString(name)
	}
	if capture {
		sb.WriteByte('x')
	}
	sb.WriteString(c.CellName(to))
	return sb.String()
}

// moveRE matches SAN ("Nbd7", "exd5", "e8=Q"), long algebraic ("Ng1-f3",
// "e7xe8=Q") and UCI ("e2e4", "e7e8q"), after check marks and
// annotations are stripped.
var moveRE = regexp.MustCompile(`^([KQRBN])?([a-h])?([1-8])?([-x:])?([a-h][1-8])(?:=?([QRBNqrbn]))?$`)

// ParseMove reads SAN, long algebraic, UCI or castling ("O-O", "0-0-0").
func (dialect) ParseMove(b *chesscore.Board, s string) (chesscore.Move, error) {
	text := strings.TrimRight(strings.TrimSpace(s), "+#!?")
	if text == "" {
		return chesscore.Move{}, fmt.Errorf("empty move")
	}
	var buf [256]chesscore.Move
	legal := b.Legal(buf[:0])
	c := b.Config()
	switch strings.ReplaceAll(text, "0", "O") {
	case "O-O", "O-O-O":
		long := len(text) == 5
		for _, m := range legal {
			if m.Kind == chesscore.Castle && (m.To < m.From) == long {
				return m, nil
			}
		}
		return chesscore.Move{}, fmt.Errorf("move %q: castling is not legal here", s)
	}
	g := moveRE.FindStringSubmatch(text)
	if g == nil {
		return chesscore.Move{}, fmt.Errorf("move %q: not SAN, long algebraic or UCI", s)
	}
	kind := chesscore.NoKind
	if g[1] != "" {
		kind, _ = chesscore.KindOf(g[1][0])
	} else if g[2] == "" || g[3] == "" {
		kind = chesscore.Pawn
	}
	to, _ := c.LookupCell(g[5])
	promo := chesscore.NoKind
	if g[6] != "" {
		promo, _ = chesscore.KindOf(strings.ToUpper(g[6])[0])
	}
	var found []chesscore.Move
	for _, m := range legal {
		if int(m.To) != to || m.Promo != promo {
			continue
		}
		p := b.At(int(m.From))
		if kind != chesscore.NoKind && p.Kind() != kind {
			continue
		}
		name := c.CellName(int(m.From))
		if (g[2] != "" && name[0] != g[2][0]) || (g[3] != "" && name[1] != g[3][0]) {
			continue
		}
		found = append(found, m)
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		if promo == chesscore.NoKind {
			for _, m := range legal {
				if int(m.To) == to && m.Promo != chesscore.NoKind && b.At(int(m.From)).Kind() == chesscore.Pawn {
					return chesscore.Move{}, fmt.Errorf("move %q: a pawn reaching the last rank must promote (=Q, =R, =B or =N)", s)
				}
			}
		}
		return chesscore.Move{}, fmt.Errorf("move %q: no legal move matches", s)
	}
	return chesscore.Move{}, fmt.Errorf("move %q: ambiguous, %d legal moves match", s, len(found))
}

// LongAlgebraic writes m, a legal move of p, in long algebraic notation
// with check mark: "Ng1-f3", "e7xd8=Q+", castling as "O-O" or "O-O-O".
func LongAlgebraic(p *Position, m rules.Move) string {
	lm, ok := m.(chesscore.LegalMove)
	if !ok {
		return m.String()
	}
	b := p.Board()
	mv := lm.Move
	c := b.Config()
	var sb strings.Builder
	if mv.Kind == chesscore.Castle {
		sb.WriteString(san(&b, mv))
	} else {
		if k := b.At(int(mv.From)).Kind(); k != chesscore.Pawn {
			sb.WriteByte(k.Letter())
		}
		sb.WriteString(c.CellName(int(mv.From)))
		if b.At(int(mv.To)) != chesscore.Empty || mv.Kind == chesscore.EnPassant {
			sb.WriteByte('x')
		} else {
			sb.WriteByte('-')
		}
		sb.WriteString(c.CellName(int(mv.To)))
		if mv.Promo != chesscore.NoKind {
			sb.WriteByte('=')
			sb.WriteByte(mv.Promo.Letter())
		}
	}
	sb.WriteString(b.CheckSuffix(mv))
	return sb.String()
}
