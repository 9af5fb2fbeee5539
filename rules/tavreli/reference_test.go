package tavreli

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// This file is a second, deliberately simple move generator written
// straight from the pseudo-code of spec 2.8 on a naive representation:
// every square is a slice of pieces, moves are applied to copies, and
// attacks are found by asking every top piece whether its pattern reaches
// the square. It shares no code with the fast generator.

type refPiece struct {
	c    rules.Color
	role Role
	mark Role
}

type refPos struct {
	sq     [64][]refPiece
	side   rules.Color
	castle uint8
	ep     int
	dstep  uint16
}

type refMove struct {
	o, d, k int
	ep      bool
	castle  int // 0, 1 short, 2 long
}

func (m refMove) String() string {
	s := ""
	if m.k > 1 {
		s = "(" + strconv.Itoa(m.k) + ")"
	}
	return s + squareName(int8(m.o)) + squareName(int8(m.d))
}

func refFromBoard(b *Board) *refPos {
	p := &refPos{side: b.Side(), castle: b.Castling(), ep: int(b.EnPassant()), dstep: b.dstep}
	for s := range 64 {
		for _, pc := range b.Stack(rules.Square(s), nil) {
			p.sq[s] = append(p.sq[s], refPiece{pc.Color, pc.Role, pc.Mark})
		}
	}
	return p
}

func (p *refPos) clone() *refPos {
	q := *p
	for s := range 64 {
		q.sq[s] = slices.Clone(p.sq[s])
	}
	return &q
}

func (p *refPos) top(s int) (refPiece, bool) {
	if len(p.sq[s]) == 0 {
		return refPiece{}, false
	}
	return p.sq[s][len(p.sq[s])-1], true
}

func fr(s int) (int, int) { return s % 8, s / 8 }

func inside(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

var (
	refRook   = [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	refBishop = [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	refKnight = [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}}
	refKing   = append(append([][2]int{}, refRook...), refBishop...)
)

// pattern returns the squares the role's pattern reaches from s: lines up
// to and including the first occupied square, leaps and steps. No
// occupancy rule is applied beyond the blocking of lines.
func (p *refPos) pattern(s int, role Role) []int {
	f, r := fr(s)
	var out []int
	line := func(dirs [][2]int) {
		for _, d := range dirs {
			for i := 1; ; i++ {
				tf, tr := f+d[0]*i, r+d[1]*i
				if !inside(tf, tr) {
					break
				}
				out = append(out, tr*8+tf)
				if len(p.sq[tr*8+tf]) > 0 {
					break
				}
			}
		}
	}
	leap := func(ds [][2]int) {
		for _, d := range ds {
			if inside(f+d[0], r+d[1]) {
				out = append(out, (r+d[1])*8+f+d[0])
			}
		}
	}
	switch role {
	case Ratoborets:
		line(refRook)
	case Luchnik:
		line(refBishop)
	case Knyaz:
		line(refRook)
		line(refBishop)
	case Helgi:
		line(refRook)
		line(refBishop)
		leap(refKnight)
	case Vsadnik:
		leap(refKnight)
	case Volkhv:
		leap(refKing)
	}
	return out
}

func refFwd(c rules.Color) int {
	if c == rules.First {
		return 1
	}
	return -1
}

// attacked: some top piece of colour by reaches x (D6).
func (p *refPos) attacked(x int, by rules.Color) bool {
	for s := range 64 {
		t, ok := p.top(s)
		if !ok || t.c != by {
			continue
		}
		if t.role == Ratnik {
			f, r := fr(s)
			for _, df := range []int{-1, 1} {
				if inside(f+df, r+refFwd(by)) && (r+refFwd(by))*8+f+df == x {
					return true
				}
			}
			continue
		}
		if slices.Contains(p.pattern(s, t.role), x) {
			return true
		}
	}
	return false
}

func (p *refPos) volkhv(c rules.Color) int {
	for s := range 64 {
		for _, pc := range p.sq[s] {
			if pc.role == Volkhv && pc.c == c {
				return s
			}
		}
	}
	return -1
}

// reach is 2.3 and 2.5.1-2.5.3 with the path and destination rules.
func (p *refPos) reach(o int) []int {
	t, _ := p.top(o)
	notVolkhv := func(d int) bool {
		top, ok := p.top(d)
		return !ok || top.role != Volkhv
	}
	var out []int
	if t.role != Ratnik {
		for _, d := range p.pattern(o, t.role) {
			if notVolkhv(d) {
				out = append(out, d)
			}
		}
		return out
	}
	f, r := fr(o)
	fw := refFwd(t.c)
	ownOrEmpty := func(d int) bool {
		top, ok := p.top(d)
		return !ok || (top.c == t.c && top.role != Volkhv)
	}
	if inside(f, r+fw) && ownOrEmpty((r+fw)*8+f) {
		out = append(out, (r+fw)*8+f)
	}
	start := 1
	if t.c == rules.Second {
		start = 6
	}
	bit := uint16(1) << (uint(t.c)*8 + uint(f))
	if r == start && len(p.sq[o]) == 1 && p.dstep&bit != 0 && len(p.sq[(r+fw)*8+f]) == 0 && ownOrEmpty((r+2*fw)*8+f) {
		out = append(out, (r+2*fw)*8+f)
	}
	for _, df := range []int{-1, 1} {
		if !inside(f+df, r+fw) {
			continue
		}
		d := (r+fw)*8 + f + df
		if top, ok := p.top(d); ok && top.c != t.c && top.role != Volkhv {
			out = append(out, d)
		}
	}
	return out
}

func (p *refPos) legal() []refMove {
	s := p.side
	var cands []refMove
	for o := range 64 {
		t, ok := p.top(o)
		if !ok || t.c != s {
			continue
		}
		h := len(p.sq[o])
		for _, d := range p.reach(o) {
			for k := 1; k <= h; k++ {
				cands = append(cands, refMove{o: o, d: d, k: k})
			}
		}
		if t.role == Ratnik && p.ep >= 0 {
			of, or := fr(o)
			ef, er := fr(p.ep)
			if er == or+refFwd(s) && (ef == of-1 || ef == of+1) {
				for k := 1; k <= h; k++ {
					cands = append(cands, refMove{o: o, d: p.ep, k: k, ep: true})
				}
			}
		}
		if t.role == Volkhv {
			cands = append(cands, p.castlings(o)...)
		}
	}
	var out []refMove
	for _, c := range cands {
		after := p.apply(c)
		if !after.attacked(after.volkhv(s), s.Other()) {
			out = append(out, c)
		}
	}
	return out
}

func (p *refPos) castlings(o int) []refMove {
	s := p.side
	rank := 0
	rights := [2]uint8{CastleWhiteShort, CastleWhiteLong}
	if s == rules.Second {
		rank = 7
		rights = [2]uint8{CastleBlackShort, CastleBlackLong}
	}
	var out []refMove
	if o != rank*8+4 || len(p.sq[o]) != 1 || p.attacked(o, s.Other()) {
		return nil
	}
	for i, w := range []struct{ rook, cross, dest int }{{7, 5, 6}, {0, 3, 2}} {
		if p.castle&rights[i] == 0 {
			continue
		}
		rs := rank*8 + w.rook
		if len(p.sq[rs]) != 1 || p.sq[rs][0] != (refPiece{c: s, role: Ratoborets}) {
			continue
		}
		lo, hi := min(w.rook, 4), max(w.rook, 4)
		clear := true
		for f := lo + 1; f < hi; f++ {
			clear = clear && len(p.sq[rank*8+f]) == 0
		}
		if clear && !p.attacked(rank*8+w.cross, s.Other()) && !p.attacked(rank*8+w.dest, s.Other()) {
			out = append(out, refMove{o: o, d: rank*8 + w.dest, k: 1, castle: i + 1})
		}
	}
	return out
}

func (p *refPos) apply(m refMove) *refPos {
	q := p.clone()
	s := p.side
	if m.castle != 0 {
		rank := m.o / 8
		rook, rdest := rank*8+7, rank*8+5
		if m.castle == 2 {
			rook, rdest = rank*8, rank*8+3
		}
		q.sq[m.d], q.sq[m.o] = q.sq[m.o], nil
		q.sq[rdest], q.sq[rook] = q.sq[rook], nil
		if s == rules.First {
			q.castle &^= CastleWhiteShort | CastleWhiteLong
		} else {
			q.castle &^= CastleBlackShort | CastleBlackLong
		}
		q.ep = -1
		q.side = s.Other()
		return q
	}
	h := len(q.sq[m.o])
	group := slices.Clone(q.sq[m.o][h-m.k:])
	rem := slices.Clone(q.sq[m.o][:h-m.k])
	mover := group[len(group)-1]
	v := -1
	if m.ep {
		v = m.d - 8*refFwd(s)
		vs := q.sq[v]
		q.sq[m.d] = []refPiece{vs[len(vs)-1]}
		q.sq[v] = slices.Clone(vs[:len(vs)-1])
	}
	q.sq[m.o] = rem
	q.sq[m.d] = append(q.sq[m.d], group...)
	q.normalise(m.d)
	q.normalise(m.o)
	if v >= 0 {
		q.normalise(v)
	}
	if len(q.sq[m.o]) == 0 {
		switch m.o {
		case 0:
			q.castle &^= CastleWhiteLong
		case 7:
			q.castle &^= CastleWhiteShort
		case 4:
			q.castle &^= CastleWhiteShort | CastleWhiteLong
		case 56:
			q.castle &^= CastleBlackLong
		case 63:
			q.castle &^= CastleBlackShort
		case 60:
			q.castle &^= CastleBlackShort | CastleBlackLong
		}
		if m.o/8 == 1 {
			q.dstep &^= 1 << uint(m.o%8)
		}
		if m.o/8 == 6 {
			q.dstep &^= 1 << uint(8+m.o%8)
		}
	}
	q.ep = -1
	if mover.role == Ratnik && (m.d-m.o == 16 || m.o-m.d == 16) {
		q.ep = (m.o + m.d) / 2
	}
	q.side = s.Other()
	return q
}

func (p *refPos) normalise(s int) {
	st := p.sq[s]
	if len(st) == 0 {
		return
	}
	top := st[len(st)-1]
	for i := range st {
		pc := &st[i]
		if pc.mark != NoRole && pc.role != Ratnik && pc.c != top.c {
			pc.role = Ratnik
		}
	}
	last := 7
	if top.c == rules.Second {
		last = 0
	}
	if top.role == Ratnik && s/8 == last {
		st[len(st)-1].role = top.mark
	}
}

func (p *refPos) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range p.legal() {
		n += p.apply(m).perft(depth - 1)
	}
	return n
}

// randomPositions plays random games from the start positions and returns
// positions sampled along them.
func randomPositions(rng *rand.Rand, starts []*Board, games, maxPlies int) []Board {
	var out []Board
	for g := range games {
		b := *starts[g%len(starts)]
		plies := rng.IntN(maxPlies)
		for range plies {
			ms := b.GenerateLegal(nil)
			if len(ms) == 0 {
				break
			}
			b.Make(ms[rng.IntN(len(ms))])
		}
		out = append(out, b)
	}
	return out
}

func testStarts(t testing.TB) []*Board {
	starts := []*Board{ptr(StartBoard())}
	for _, tc := range specCounts {
		starts = append(starts, board(t, tc.tfen))
	}
	return starts
}

func TestReferenceMoveLists(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	games := 1000
	if testing.Short() || raceEnabled {
		games = 100
	}
	for _, b := range randomPositions(rng, testStarts(t), games, 120) {
		ref := refFromBoard(&b)
		var want []string
		for _, m := range ref.legal() {
			want = append(want, m.String())
		}
		var got []string
		for _, m := range b.GenerateLegal(nil) {
			got = append(got, m.String())
		}
		slices.Sort(want)
		slices.Sort(got)
		require.Equal(t, want, got, b.TFEN())
	}
}

func TestReferencePerft(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n, depth := 16, 3
	if testing.Short() || raceEnabled {
		n, depth = 6, 2
	}
	for _, b := range randomPositions(rng, testStarts(t), n, 80) {
		ref := refFromBoard(&b)
		require.Equal(t, ref.perft(depth), b.Perft(depth), b.TFEN())
	}
}

func TestReferenceSpecCounts(t *testing.T) {
	for _, tc := range specCounts {
		b := board(t, tc.tfen)
		require.Len(t, refFromBoard(b).legal(), tc.count, tc.name)
	}
}
