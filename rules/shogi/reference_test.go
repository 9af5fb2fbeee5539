package shogi

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// A deliberately simple move generator written from spec 1.4 and 2.5-2.7
// with file/rank coordinates and brute-force attack tests, to cross-check
// the fast generator on random positions.

type refPiece struct {
	t PieceType
	c rules.Color
}

type refPos struct {
	cell [10][10]refPiece // [file][rank], 1..9
	hand [2][8]int
	turn rules.Color
}

type vec struct{ df, dr int } // Black's frame: forward is dr = -1

var (
	refGold  = []vec{{0, -1}, {-1, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}}
	refSteps = map[PieceType][]vec{
		Pawn: {{0, -1}}, Knight: {{-1, -2}, {1, -2}},
		Silver: {{0, -1}, {-1, -1}, {1, -1}, {-1, 1}, {1, 1}},
		Gold:   refGold, Tokin: refGold, PromotedLance: refGold, PromotedKnight: refGold, PromotedSilver: refGold,
		King:  {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}},
		Horse: {{0, -1}, {0, 1}, {-1, 0}, {1, 0}}, Dragon: {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}},
	}
	refSlides = map[PieceType][]vec{
		Lance: {{0, -1}}, Bishop: {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}}, Rook: {{0, -1}, {0, 1}, {-1, 0}, {1, 0}},
		Horse: {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}}, Dragon: {{0, -1}, {0, 1}, {-1, 0}, {1, 0}},
	}
)

func refFrom(b *Board) *refPos {
	p := &refPos{turn: b.Turn()}
	for f := 1; f <= 9; f++ {
		for r := 1; r <= 9; r++ {
			if pc := b.At(SquareAt(f, r)); pc != NoPiece {
				p.cell[f][r] = refPiece{pc.Type(), pc.Color()}
			}
		}
	}
	for c := rules.First; c <= rules.Second; c++ {
		for t := Pawn; t <= Gold; t++ {
			p.hand[c][t] = b.Hand(c, t)
		}
	}
	return p
}

func onBoard(f, r int) bool { return f >= 1 && f <= 9 && r >= 1 && r <= 9 }

// targets lists the squares the piece on (f, r) moves to, captures
// included, by spec 1.4.
func (p *refPos) targets(f, r int) [][2]int {
	pc := p.cell[f][r]
	sgn := 1
	if pc.c == rules.Second {
		sgn = -1
	}
	var out [][2]int
	for _, v := range refSteps[pc.t] {
		tf, tr := f+v.df*sgn, r+v.dr*sgn
		if onBoard(tf, tr) && (p.cell[tf][tr].t == 0 || p.cell[tf][tr].c != pc.c) {
			out = append(out, [2]int{tf, tr})
		}
	}
	for _, v := range refSlides[pc.t] {
		for tf, tr := f+v.df*sgn, r+v.dr*sgn; onBoard(tf, tr); tf, tr = tf+v.df*sgn, tr+v.dr*sgn {
			if p.cell[tf][tr].t != 0 {
				if p.cell[tf][tr].c != pc.c {
					out = append(out, [2]int{tf, tr})
				}
				break
			}
			out = append(out, [2]int{tf, tr})
		}
	}
	return out
}

func (p *refPos) kingAttacked(c rules.Color) bool {
	kf, kr := 0, 0
	for f := 1; f <= 9; f++ {
		for r := 1; r <= 9; r++ {
			if p.cell[f][r] == (refPiece{King, c}) {
				kf, kr = f, r
			}
		}
	}
	if kf == 0 {
		return false
	}
	for f := 1; f <= 9; f++ {
		for r := 1; r <= 9; r++ {
			if pc := p.cell[f][r]; pc.t != 0 && pc.c != c {
				for _, t := range p.targets(f, r) {
					if t == [2]int{kf, kr} {
						return true
					}
				}
			}
		}
	}
	return false
}

// farRank is how far (1 = last rank) square rank r is from c's far edge.
func farRank(c rules.Color, r int) int {
	if c == rules.First {
		return r
	}
	return 10 - r
}

func (p *refPos) legal() []string {
	c := p.turn
	var out []string
	try := func(q *refPos, usi string) {
		if !q.kingAttacked(c) {
			out = append(out, usi)
		}
	}
	name := func(f, r int) string { return string([]byte{byte('0' + f), byte('a' + r - 1)}) }
	for f := 1; f <= 9; f++ {
		for r := 1; r <= 9; r++ {
			pc := p.cell[f][r]
			if pc.t == 0 || pc.c != c {
				continue
			}
			for _, t := range p.targets(f, r) {
				q := *p
				if cap := q.cell[t[0]][t[1]]; cap.t != 0 {
					q.hand[c][cap.t.Base()]++
				}
				q.cell[f][r] = refPiece{}
				q.turn = c.Other()
				usi := name(f, r) + name(t[0], t[1])
				zone := farRank(c, r) <= 3 || farRank(c, t[1]) <= 3
				deadly := (pc.t == Pawn || pc.t == Lance) && farRank(c, t[1]) == 1 || pc.t == Knight && farRank(c, t[1]) <= 2
				if pc.t.Promotable() && zone {
					q2 := q
					q2.cell[t[0]][t[1]] = refPiece{pc.t.Promote(), c}
					try(&q2, usi+"+")
				}
				if !deadly {
					q.cell[t[0]][t[1]] = pc
					try(&q, usi)
				}
			}
		}
	}
	for t := Pawn; t <= Gold; t++ {
		if p.hand[c][t] == 0 {
			continue
		}
		for f := 1; f <= 9; f++ {
			nifu := false
			for r := 1; r <= 9; r++ {
				if p.cell[f][r] == (refPiece{Pawn, c}) {
					nifu = true
				}
			}
			for r := 1; r <= 9; r++ {
				if p.cell[f][r].t != 0 {
					continue
				}
				if (t == Pawn || t == Lance) && farRank(c, r) == 1 || t == Knight && farRank(c, r) <= 2 || t == Pawn && nifu {
					continue
				}
				q := *p
				q.cell[f][r] = refPiece{t, c}
				q.hand[c][t]--
				q.turn = c.Other()
				if q.kingAttacked(c) {
					continue
				}
				if t == Pawn && q.kingAttacked(c.Other()) && len(q.legal()) == 0 {
					continue // uchifuzume
				}
				out = append(out, string(t.Letter())+"*"+name(f, r))
			}
		}
	}
	slices.Sort(out)
	return out
}

// randomPlay plays a random game of up to n plies from b, preferring
// captures, checks and promotions so that tactics come up, and calls
// visit before each move.
func randomPlay(rng *rand.Rand, b *Board, n int, visit func(b *Board, legal []Move)) []Move {
	var played []Move
	var buf [MaxMoves]Move
	for range n {
		legal := b.GenerateLegal(buf[:0])
		if visit != nil {
			visit(b, legal)
		}
		if len(legal) == 0 {
			break
		}
		m := legal[rng.IntN(len(legal))]
		for range 3 {
			if m.Captured() != NoPiece || m.Promotes() || m.IsDrop() {
				break
			}
			m = legal[rng.IntN(len(legal))]
		}
		b.Make(m)
		played = append(played, m)
	}
	return played
}

func TestReferenceGenerator(t *testing.T) {
	games, plies := 40, 160
	if testing.Short() || raceEnabled {
		games = 8
	}
	rng := rand.New(rand.NewPCG(1, 2))
	starts := []string{StartSFEN, matsuriSFEN, maxSFEN, "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1"}
	positions := 0
	for g := range games {
		b, err := ParseSFEN(starts[g%len(starts)])
		require.NoError(t, err)
		randomPlay(rng, b, plies, func(b *Board, legal []Move) {
			positions++
			var got []string
			for _, m := range legal {
				got = append(got, m.String())
			}
			slices.Sort(got)
			require.Equal(t, refFrom(b).legal(), got, "position %s", b.SFEN())
		})
	}
	t.Logf("%d positions agree", positions)
}

func TestReferencePerft(t *testing.T) {
	// Depth-2 perft of the reference on the spec positions' successors.
	var refPerft func(p *refPos, d int) int
	refPerft = func(p *refPos, d int) int {
		if d == 0 {
			return 1
		}
		n := 0
		for _, u := range p.legal() {
			q := p.play(u)
			n += refPerft(q, d-1)
		}
		return n
	}
	for _, s := range []string{"7nk/9/7G1/9/9/9/9/9/4K4 b P 1", "4k4/6P2/8L/2N6/9/9/9/9/4K4 b - 1", matsuriSFEN} {
		b, err := ParseSFEN(s)
		require.NoError(t, err)
		require.Equal(t, uint64(refPerft(refFrom(b), 2)), b.Perft(2), s)
	}
}

func (p *refPos) play(usi string) *refPos {
	q := *p
	u, err := ParseUSIMove(usi)
	if err != nil {
		panic(err)
	}
	tf, tr := fileRank(u.To)
	c := p.turn
	if u.Drop != NoPieceType {
		q.cell[tf][tr] = refPiece{u.Drop, c}
		q.hand[c][u.Drop]--
	} else {
		ff, fr := fileRank(u.From)
		pc := q.cell[ff][fr]
		if cap := q.cell[tf][tr]; cap.t != 0 {
			q.hand[c][cap.t.Base()]++
		}
		if u.Promote {
			pc.t = pc.t.Promote()
		}
		q.cell[ff][fr] = refPiece{}
		q.cell[tf][tr] = pc
	}
	q.turn = c.Other()
	return &q
}
