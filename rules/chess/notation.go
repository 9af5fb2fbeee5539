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
	sb.WriteString(disambiguation(b, m))
	if capture {
		sb.WriteByte('x')
	}
	sb.WriteString(c.CellName(to))
	return sb.String()
}

// disambiguation returns what SAN writes of the origin of m, a piece
// move, to tell it from the other pieces of the same kind that reach its
// destination: nothing, the file, the rank, or the whole square.
func disambiguation(b *chesscore.Board, m chesscore.Move) string {
	c := b.Config()
	from, to := int(m.From), int(m.To)
	p := b.At(from)
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
		return ""
	case !sameFile:
		return name[:1]
	case !sameRank:
		return name[1:]
	}
	return name
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
	switch strings.ReplaceAll(text, "0", "O") {
	case "O-O", "O-O-O":
		return findCastling(legal, len(text) == 5, s)
	}
	g := moveRE.FindStringSubmatch(text)
	if g == nil {
		return chesscore.Move{}, fmt.Errorf("move %q: not SAN, long algebraic or UCI", s)
	}
	pat := newMovePattern(b.Config(), g)
	var found []chesscore.Move
	for _, m := range legal {
		if int(m.To) == pat.to && m.Promo == pat.promo && pat.fromFits(b, int(m.From)) {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return chesscore.Move{}, pat.noMatch(b, legal, s)
	}
	return chesscore.Move{}, fmt.Errorf("move %q: ambiguous, %d legal moves match", s, len(found))
}

// findCastling returns the legal castling, long or short.
func findCastling(legal []chesscore.Move, long bool, s string) (chesscore.Move, error) {
	for _, m := range legal {
		if m.Kind == chesscore.Castle && (m.To < m.From) == long {
			return m, nil
		}
	}
	return chesscore.Move{}, fmt.Errorf("move %q: castling is not legal here", s)
}

// movePattern is what a SAN, long algebraic or UCI text says of a move.
type movePattern struct {
	c          *chesscore.Config
	kind       chesscore.Kind // the mover's kind; NoKind when the text leaves it open
	file, rank string         // the origin's file letter and rank digit, "" when not written
	to         int
	promo      chesscore.Kind
}

// newMovePattern reads the submatches g of moveRE. A text without a piece
// letter is a pawn move unless it names the whole origin (UCI, long
// algebraic), which any piece may stand on.
func newMovePattern(c *chesscore.Config, g []string) movePattern {
	pat := movePattern{c: c, kind: chesscore.NoKind, file: g[2], rank: g[3], promo: chesscore.NoKind}
	if g[1] != "" {
		pat.kind, _ = chesscore.KindOf(g[1][0])
	} else if g[2] == "" || g[3] == "" {
		pat.kind = chesscore.Pawn
	}
	pat.to, _ = c.LookupCell(g[5])
	if g[6] != "" {
		pat.promo, _ = chesscore.KindOf(strings.ToUpper(g[6])[0])
	}
	return pat
}

// fromFits reports whether a move of b from cell from fits the pattern's
// mover and origin.
func (pat *movePattern) fromFits(b *chesscore.Board, from int) bool {
	if pat.kind != chesscore.NoKind && b.At(from).Kind() != pat.kind {
		return false
	}
	name := pat.c.CellName(from)
	return (pat.file == "" || name[0] == pat.file[0]) && (pat.rank == "" || name[1] == pat.rank[0])
}

// noMatch explains why no legal move fits the pattern: a pawn move to
// the last rank written without its promotion, or no such move at all.
func (pat *movePattern) noMatch(b *chesscore.Board, legal []chesscore.Move, s string) error {
	if pat.promo == chesscore.NoKind {
		for _, m := range legal {
			if int(m.To) == pat.to && m.Promo != chesscore.NoKind && b.At(int(m.From)).Kind() == chesscore.Pawn {
				return fmt.Errorf("move %q: a pawn reaching the last rank must promote (=Q, =R, =B or =N)", s)
			}
		}
	}
	return fmt.Errorf("move %q: no legal move matches", s)
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
