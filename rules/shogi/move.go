package shogi

import (
	"fmt"

	"arbiter/rules"
)

// Move is a move or drop of one position, packed in 32 bits: the
// destination and origin mailbox squares, the promotion flag, the moving
// (or dropped) piece and the captured piece, so that [Board.Unmake] needs
// nothing else. Moves are made by a position's move generator or by
// [Board.ParseUSI] and are meaningful only there. The zero Move is no move.
type Move uint32

const (
	mvPromote = 1 << 16
	mvDrop    = 1 << 27
)

func boardMove(from, to int, p, cap Piece, promote bool) Move {
	m := Move(to) | Move(from)<<8 | Move(p)<<17 | Move(cap)<<22
	if promote {
		m |= mvPromote
	}
	return m
}

func dropMove(to int, p Piece) Move {
	return Move(to) | Move(p)<<17 | mvDrop
}

func (m Move) to() int         { return int(m & 0xff) }
func (m Move) from() int       { return int(m >> 8 & 0xff) }
func (m Move) piece() Piece    { return Piece(m >> 17 & 31) }
func (m Move) captured() Piece { return Piece(m >> 22 & 31) }

// IsDrop reports whether m drops a piece from the hand.
func (m Move) IsDrop() bool { return m&mvDrop != 0 }

// Promotes reports whether the moving piece promotes at the end of m.
func (m Move) Promotes() bool { return m&mvPromote != 0 }

// Piece returns the moving piece as it stood before the move, or the
// dropped piece.
func (m Move) Piece() Piece { return m.piece() }

// Captured returns the piece m captures, or NoPiece.
func (m Move) Captured() Piece { return m.captured() }

// From returns the origin square, or rules.NoSquare for a drop.
func (m Move) From() rules.Square {
	if m.IsDrop() || m == 0 {
		return rules.NoSquare
	}
	return rules.Square(idxOf[m.from()])
}

// To returns the destination square.
func (m Move) To() rules.Square {
	if m == 0 {
		return rules.NoSquare
	}
	return rules.Square(idxOf[m.to()])
}

// String returns the move in USI: "7g7f", "8h2b+", "P*5e".
func (m Move) String() string {
	if m == 0 {
		return "none"
	}
	var buf [5]byte
	n := 0
	if m.IsDrop() {
		buf[0] = m.piece().Type().Letter()
		buf[1] = '*'
		n = 2
	} else {
		f, r := fileRank(m.From())
		buf[0], buf[1] = byte('0'+f), byte('a'+r-1)
		n = 2
	}
	f, r := fileRank(m.To())
	buf[n], buf[n+1] = byte('0'+f), byte('a'+r-1)
	n += 2
	if m.Promotes() {
		buf[n] = '+'
		n++
	}
	return string(buf[:n])
}

// fileRank returns the shogi file (1..9, right to left for Black) and rank
// (1..9, top to bottom) of sq.
func fileRank(sq rules.Square) (file, rank int) {
	return 9 - int(sq)%9, int(sq)/9 + 1
}

// SquareAt returns the square of the given shogi file and rank (1..9), or
// rules.NoSquare if they are out of range.
func SquareAt(file, rank int) rules.Square {
	if file < 1 || file > 9 || rank < 1 || rank > 9 {
		return rules.NoSquare
	}
	return rules.Square((rank-1)*9 + 9 - file)
}

// SquareName returns the USI name of sq ("7g"), or "-" if sq is not a
// square.
func SquareName(sq rules.Square) string {
	if sq < 0 || sq >= numSq {
		return "-"
	}
	f, r := fileRank(sq)
	return string([]byte{byte('0' + f), byte('a' + r - 1)})
}

// parseUSISquare reads "7g".
func parseUSISquare(s string) (rules.Square, error) {
	if len(s) != 2 || s[0] < '1' || s[0] > '9' || s[1] < 'a' || s[1] > 'i' {
		return rules.NoSquare, fmt.Errorf("bad square %q: want file 1-9 and rank a-i", s)
	}
	return SquareAt(int(s[0]-'0'), int(s[1]-'a')+1), nil
}

// USIMove is a move in USI form before it is matched against a position.
type USIMove struct {
	Drop     PieceType    // the dropped base type, or NoPieceType for a board move
	From, To rules.Square // From is rules.NoSquare for a drop
	Promote  bool
}

// ParseUSIMove reads a USI move ("7g7f", "8h2b+", "P*5e") without looking
// at a position.
func ParseUSIMove(s string) (USIMove, error) {
	if len(s) == 4 && s[1] == '*' {
		t := typeOfLetter(s[0])
		if t == NoPieceType || t == King {
			return USIMove{}, fmt.Errorf("usi move %q: bad drop piece %q", s, s[0])
		}
		to, err := parseUSISquare(s[2:])
		if err != nil {
			return USIMove{}, fmt.Errorf("usi move %q: %w", s, err)
		}
		return USIMove{Drop: t, From: rules.NoSquare, To: to}, nil
	}
	if len(s) != 4 && !(len(s) == 5 && s[4] == '+') {
		return USIMove{}, fmt.Errorf("usi move %q: want 7g7f, 8h2b+ or P*5e", s)
	}
	from, err := parseUSISquare(s[:2])
	if err != nil {
		return USIMove{}, fmt.Errorf("usi move %q: origin: %w", s, err)
	}
	to, err := parseUSISquare(s[2:4])
	if err != nil {
		return USIMove{}, fmt.Errorf("usi move %q: destination: %w", s, err)
	}
	if from == to {
		return USIMove{}, fmt.Errorf("usi move %q: origin equals destination", s)
	}
	return USIMove{From: from, To: to, Promote: len(s) == 5}, nil
}

// String returns the move in USI.
func (u USIMove) String() string {
	if u.Drop != NoPieceType {
		return string(u.Drop.Letter()) + "*" + SquareName(u.To)
	}
	s := SquareName(u.From) + SquareName(u.To)
	if u.Promote {
		s += "+"
	}
	return s
}

// Find returns the legal move of b that u names. The error says whether u
// is not a move of this position or breaks a rule.
func (b *Board) Find(u USIMove) (Move, error) {
	var buf [MaxMoves]Move
	for _, m := range b.GenerateLegal(buf[:0]) {
		if m.matches(u) {
			return m, nil
		}
	}
	return 0, b.whyIllegal(u)
}

func (m Move) matches(u USIMove) bool {
	if u.Drop != NoPieceType {
		return m.IsDrop() && m.piece().Type() == u.Drop && m.To() == u.To
	}
	return !m.IsDrop() && m.From() == u.From && m.To() == u.To && m.Promotes() == u.Promote
}

// ParseUSI reads a USI move and returns the legal move of b it names.
func (b *Board) ParseUSI(s string) (Move, error) {
	u, err := ParseUSIMove(s)
	if err != nil {
		return 0, err
	}
	return b.Find(u)
}

// whyIllegal explains why u is not a legal move of b.
func (b *Board) whyIllegal(u USIMove) error {
	if u.Drop != NoPieceType {
		return b.whyDropIllegal(u)
	}
	return b.whyBoardMoveIllegal(u)
}

// whyDropIllegal explains why the drop u is not legal.
func (b *Board) whyDropIllegal(u USIMove) error {
	c := b.turn
	switch {
	case !u.Drop.Valid() || u.Drop.IsPromoted() || u.Drop == King:
		return fmt.Errorf("illegal move: %s cannot be dropped", u.Drop)
	case b.hand[c][u.Drop] == 0:
		return fmt.Errorf("illegal move %s: %s has no %s in hand", u, sideWord(c), u.Drop)
	case b.At(u.To) != NoPiece:
		return fmt.Errorf("illegal move %s: %s is occupied", u, SquareName(u.To))
	case dead(c, u.Drop, int(padOf[u.To])):
		return fmt.Errorf("illegal move %s: the dropped piece could never move", u)
	}
	if u.Drop == Pawn {
		file, _ := fileRank(u.To)
		if b.pawnOnFile(MakePiece(c, Pawn), 9-file) {
			return fmt.Errorf("illegal move %s: two pawns on file %d (nifu)", u, file)
		}
		m := dropMove(int(padOf[u.To]), MakePiece(c, Pawn))
		if int(padOf[u.To])+forward[c] == int(b.king[c.Other()]) && !b.leavesCheck(m) && b.dropMates(m) {
			return fmt.Errorf("illegal move %s: pawn drop mate (uchifuzume)", u)
		}
	}
	return fmt.Errorf("illegal move %s: leaves the %s king in check", u, sideWord(c))
}

// whyBoardMoveIllegal explains why the board move u is not legal.
func (b *Board) whyBoardMoveIllegal(u USIMove) error {
	c := b.turn
	p := b.At(u.From)
	switch {
	case p == NoPiece:
		return fmt.Errorf("illegal move %s: no piece on %s", u, SquareName(u.From))
	case p.Color() != c:
		return fmt.Errorf("illegal move %s: the piece on %s is not %s's", u, SquareName(u.From), sideWord(c))
	}
	var buf [MaxMoves]Move
	for _, m := range b.pseudoMovesFrom(int(padOf[u.From]), buf[:0]) {
		if m.To() != u.To {
			continue
		}
		if u.Promote && !p.Type().Promotable() {
			return fmt.Errorf("illegal move %s: %s cannot promote", u, p.Type())
		}
		if u.Promote && !inZone[c][m.from()] && !inZone[c][m.to()] {
			return fmt.Errorf("illegal move %s: the move neither starts nor ends in the promotion zone", u)
		}
		if !u.Promote && p.Type().Promotable() && dead(c, p.Type(), m.to()) {
			return fmt.Errorf("illegal move %s: the piece must promote there", u)
		}
		return fmt.Errorf("illegal move %s: leaves the %s king in check", u, sideWord(c))
	}
	return fmt.Errorf("illegal move %s: a %s on %s cannot move to %s", u, p.Type(), SquareName(u.From), SquareName(u.To))
}

// leavesCheck reports whether m leaves the mover's king attacked.
func (b *Board) leavesCheck(m Move) bool {
	c := b.turn
	b.Make(m)
	k := b.king[c]
	in := k != 0 && b.attacked(int(k), c.Other())
	b.Unmake(m)
	return in
}

// pseudoMovesFrom appends the moves of the piece on s that follow its
// movement (spec 1.4), ignoring checks and promotion rules, without the
// promotion flag.
func (b *Board) pseudoMovesFrom(s int, dst []Move) []Move {
	p := b.sq[s]
	c := p.Color()
	for _, d := range stepDirs[p] {
		t := s + dirOffset[d]
		if q := b.sq[t]; canLand[c][q] {
			dst = append(dst, boardMove(s, t, p, q, false))
		}
	}
	for _, d := range slideDirs[p] {
		off := dirOffset[d]
		for t := s + off; ; t += off {
			q := b.sq[t]
			if canLand[c][q] {
				dst = append(dst, boardMove(s, t, p, q, false))
			}
			if q != NoPiece {
				break
			}
		}
	}
	if p.Type() == Knight {
		for _, j := range knightJump[c] {
			if q := b.sq[s+j]; canLand[c][q] {
				dst = append(dst, boardMove(s, s+j, p, q, false))
			}
		}
	}
	return dst
}
