package tensor

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A deliberately simple second implementation of the Tensor rules of
// section 3, written straight from the specification's text: positions
// are letter grids, moves are the positions they produce (3.9), and
// "attacked" is decided by generating the attacker's captures onto a
// square rather than by walking back from it as the engine does.

type ref struct {
	g      [8][10]byte // [rank][file], FEN letters, '.' empty
	white  bool
	rights [4]bool // K Q k q
	epF    int     // en-passant file, -1 for none
	epR    int
}

func refParse(t testing.TB, fen string) ref {
	f := strings.Fields(fen)
	var p ref
	p.epF = -1
	rows := strings.Split(f[0], "/")
	require.Len(t, rows, 8)
	for i, row := range rows {
		r := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			ch := row[j]
			if ch >= '0' && ch <= '9' {
				n := int(ch - '0')
				if j+1 < len(row) && row[j+1] >= '0' && row[j+1] <= '9' {
					n = n*10 + int(row[j+1]-'0')
					j++
				}
				for range n {
					p.g[r][file] = '.'
					file++
				}
				continue
			}
			p.g[r][file] = ch
			file++
		}
	}
	p.white = f[1] == "w"
	for i, ch := range "KQkq" {
		p.rights[i] = strings.ContainsRune(f[2], ch)
	}
	if f[3] != "-" {
		p.epF, p.epR = int(f[3][0]-'a'), int(f[3][1]-'1')
	}
	return p
}

func (p ref) placement() string {
	var sb strings.Builder
	for r := 7; r >= 0; r-- {
		sb.Write(p.g[r][:])
		sb.WriteByte('/')
	}
	return sb.String()
}

func on(f, r int) bool { return f >= 0 && f < 10 && r >= 0 && r < 8 }

func isWhite(c byte) bool { return c >= 'A' && c <= 'Z' }

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 32
	}
	return c
}

// own reports whether c belongs to the side white (true) or black.
func own(c byte, white bool) bool { return c != '.' && isWhite(c) == white }

func (p ref) at(f, r int) byte { return p.g[r][f] }

var (
	rOrth   = [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	rDiag   = [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	rKnight = [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
)

// side generates the moves of the pieces of colour white in p (whatever
// p's side to move). captureOnly limits it to capture-capable patterns and
// reports, for attack tests, whether (tf,tr) is captured.
type side struct {
	p     ref
	white bool
	out   []ref
}

func (s *side) emit(q ref) { s.out = append(s.out, q) }

func (s *side) mon(c byte) bool { return c == s.monster() }
func (s *side) monster() byte {
	if s.white {
		return 'T'
	}
	return 't'
}
func (s *side) enemyOrd(c byte) bool {
	return c != '.' && isWhite(c) != s.white && upper(c) != 'T'
}

// moved returns p with the piece on (f,r) moved to (tf,tr).
func moved(p ref, f, r, tf, tr int) ref {
	q := p
	if f == tf && r == tr {
		return q
	}
	q.g[tr][tf] = q.g[r][f]
	q.g[r][f] = '.'
	return q
}

func (s *side) gen(withCastling bool) {
	p := s.p
	for r := range 8 {
		for f := range 10 {
			c := p.at(f, r)
			if !own(c, s.white) {
				continue
			}
			switch upper(c) {
			case 'P':
				s.pawn(f, r)
			case 'N':
				s.knight(f, r)
			case 'B':
				s.slider(f, r, rDiag)
			case 'R':
				s.slider(f, r, rOrth)
			case 'Q':
				s.slider(f, r, append(slices.Clone(rOrth), rDiag...))
			case 'K':
				for _, d := range append(slices.Clone(rOrth), rDiag...) {
					tf, tr := f+d[0], r+d[1]
					if on(tf, tr) && (p.at(tf, tr) == '.' || s.enemyOrd(p.at(tf, tr))) {
						s.emit(moved(p, f, r, tf, tr))
					}
				}
				if withCastling {
					s.castle(f, r)
				}
			case 'T':
				s.monsterMoves(f, r)
			}
		}
	}
}

func (s *side) pawn(f, r int) {
	p := s.p
	dir, start, last := 1, 1, 7
	if !s.white {
		dir, start, last = -1, 6, 0
	}
	promote := func(q ref, tf, tr int) {
		if tr != last {
			s.emit(q)
			return
		}
		for _, k := range "QRBNT" {
			x := q
			ch := byte(k)
			if !s.white {
				ch += 32
			}
			x.g[tr][tf] = ch
			s.emit(x)
		}
	}
	r1 := r + dir
	if p.at(f, r1) == '.' {
		promote(moved(p, f, r, f, r1), f, r1)
		if r == start && p.at(f, r1+dir) == '.' {
			q := moved(p, f, r, f, r1+dir)
			q.epF, q.epR = f, r1
			s.emit(q)
		}
	}
	if r == start && s.mon(p.at(f, r1)) && p.at(f, r1+dir) == '.' {
		s.emit(moved(p, f, r, f, r1+dir)) // jump
		q := moved(p, f, r1, f, r1+dir)   // push: monster first
		q = moved(q, f, r, f, r1)
		s.emit(q)
	}
	for _, df := range []int{-1, 1} {
		tf := f + df
		if !on(tf, r1) {
			continue
		}
		if s.enemyOrd(p.at(tf, r1)) {
			promote(moved(p, f, r, tf, r1), tf, r1)
		} else if p.epF == tf && p.epR == r1 && p.at(tf, r1) == '.' {
			q := moved(p, f, r, tf, r1)
			q.g[r][tf] = '.'
			s.emit(q)
		}
	}
}

func (s *side) knight(f, r int) {
	p := s.p
	base := p
	base.g[r][f] = '.' // the start counts as empty during the move
	for _, v := range rKnight {
		mf, mr := f+v[0], r+v[1]
		if !on(mf, mr) {
			continue
		}
		x := p.at(mf, mr)
		if x == '.' || s.enemyOrd(x) {
			s.emit(moved(p, f, r, mf, mr))
		}
		if !s.mon(x) {
			continue
		}
		for _, w := range rKnight {
			tf, tr := mf+w[0], mr+w[1]
			if !on(tf, tr) {
				continue
			}
			y := base.at(tf, tr)
			if (tf != f || tr != r) && (y == '.' || s.enemyOrd(y)) {
				q := moved(p, f, r, tf, tr) // bounce
				s.emit(q)
			}
			if y == '.' {
				q := base
				q.g[tr][tf] = x
				q.g[mr][mf] = p.at(f, r)
				s.emit(q)
			}
		}
	}
}

func (s *side) slider(f, r int, dirs [][2]int) {
	p := s.p
	base := p
	base.g[r][f] = '.'
	piece := p.at(f, r)
	walk := func(sf, sr int, d [2]int, visit func(tf, tr int) bool) {
		for tf, tr := sf+d[0], sr+d[1]; on(tf, tr); tf, tr = tf+d[0], tr+d[1] {
			if !visit(tf, tr) {
				return
			}
		}
	}
	for _, d := range dirs {
		walk(f, r, d, func(tf, tr int) bool {
			x := base.at(tf, tr)
			switch {
			case x == '.':
				s.emit(moved(p, f, r, tf, tr))
				return true
			case s.mon(x):
				// push
				for _, e := range dirs {
					walk(tf, tr, e, func(zf, zr int) bool {
						if base.at(zf, zr) != '.' {
							return false
						}
						q := base
						q.g[zr][zf] = x
						q.g[tr][tf] = piece
						s.emit(q)
						return true
					})
				}
				// bounce
				for _, e := range dirs {
					if e[0]*d[0]+e[1]*d[1] != 0 {
						continue
					}
					walk(tf, tr, e, func(zf, zr int) bool {
						y := base.at(zf, zr)
						switch {
						case y == '.':
							s.emit(moved(p, f, r, zf, zr))
							return true
						case s.mon(y):
							return true
						case s.enemyOrd(y):
							s.emit(moved(p, f, r, zf, zr))
						}
						return false
					})
				}
				return true
			case s.enemyOrd(x):
				s.emit(moved(p, f, r, tf, tr))
			}
			return false
		})
	}
}

func (s *side) monsterMoves(f, r int) {
	p := s.p
	for _, d := range append(slices.Clone(rOrth), rDiag...) {
		tf, tr := f+d[0], r+d[1]
		if on(tf, tr) && p.at(tf, tr) == '.' {
			s.emit(moved(p, f, r, tf, tr))
		}
	}
	base := p
	base.g[r][f] = '.'
	enemy := byte('t')
	if !s.white {
		enemy = 'T'
	}
	for _, kind := range [][][2]int{rOrth, rDiag} {
		seen := map[[2]int]bool{{f, r}: true}
		queue := [][2]int{{f, r}}
		for i := 0; i < len(queue); i++ {
			a := queue[i]
			for _, d := range kind {
				of, or := a[0]+d[0], a[1]+d[1]
				lf, lr := a[0]+2*d[0], a[1]+2*d[1]
				if !on(lf, lr) || base.at(of, or) == '.' || base.at(lf, lr) != '.' {
					continue
				}
				if base.at(of, or) == enemy {
					q := moved(p, f, r, lf, lr)
					q.g[or][of] = '.'
					s.emit(q)
				}
				if !seen[[2]int{lf, lr}] {
					seen[[2]int{lf, lr}] = true
					queue = append(queue, [2]int{lf, lr})
					s.emit(moved(p, f, r, lf, lr))
				}
			}
		}
	}
}

// attacked reports whether the side white attacks (f,r) in p: whether any
// of its moves captures a stand-in enemy piece put there.
func attacked(p ref, f, r int, white bool) bool {
	q := p
	stand := byte('k')
	if !white {
		stand = 'K'
	}
	if upper(q.g[r][f]) != 'K' {
		q.g[r][f] = stand
	}
	target := q.g[r][f]
	s := side{p: q, white: white}
	s.gen(false)
	for _, x := range s.out {
		if x.g[r][f] != target {
			return true
		}
	}
	return false
}

func (s *side) castle(f, r int) {
	p := s.p
	home := 0
	rights := []int{0, 1}
	rook := byte('R')
	if !s.white {
		home, rights, rook = 7, []int{2, 3}, 'r'
	}
	if r != home || f != 5 || attacked(p, f, r, !s.white) {
		return
	}
	for wi, ri := range rights {
		if !p.rights[ri] {
			continue
		}
		rf := 9
		dests := [][2]int{{7, 6}, {8, 7}} // king file, rook file
		if wi == 1 {
			rf = 0
			dests = [][2]int{{2, 3}, {1, 2}}
		}
		if p.at(rf, r) != rook {
			continue
		}
		ok := true
		for x := min(f, rf) + 1; x < max(f, rf); x++ {
			if c := p.at(x, r); c != '.' && !s.mon(c) {
				ok = false
			}
		}
		if !ok {
			continue
		}
		for _, d := range dests {
			kf, rfd := d[0], d[1]
			if p.at(kf, r) != '.' || p.at(rfd, r) != '.' {
				continue
			}
			good := true
			step := 1
			if kf < f {
				step = -1
			}
			for x := f + step; x != kf; x += step {
				if !s.mon(p.at(x, r)) && attacked(p, x, r, !s.white) {
					good = false
				}
			}
			if !good {
				continue
			}
			q := p
			k := q.g[r][f]
			q.g[r][f], q.g[r][rf] = '.', '.'
			q.g[r][kf], q.g[r][rfd] = k, rook
			s.emit(q)
		}
	}
}

// successors returns the legal successors of p, one per distinct effect.
func (p ref) successors() []ref {
	s := side{p: p, white: p.white}
	s.gen(true)
	seen := map[string]bool{}
	var out []ref
	for _, q := range s.out {
		key := q.placement()
		if seen[key] {
			continue
		}
		seen[key] = true
		king := byte('K')
		if !p.white {
			king = 'k'
		}
		kf, kr := -1, -1
		for r := range 8 {
			for f := range 10 {
				if q.g[r][f] == king {
					kf, kr = f, r
				}
			}
		}
		if attacked(q, kf, kr, !p.white) {
			continue
		}
		// Rights are lost when a king or rook start square changes.
		for i, sq := range [][3]int{{5, 0, 9}, {5, 0, 0}, {5, 7, 9}, {5, 7, 0}} {
			if q.g[sq[1]][sq[0]] != p.g[sq[1]][sq[0]] || q.g[sq[1]][sq[2]] != p.g[sq[1]][sq[2]] {
				q.rights[i] = false
			}
		}
		if q.epF >= 0 && q.epF == p.epF && q.epR == p.epR {
			q.epF = -1 // the en-passant right lasts one move
		}
		q.white = !p.white
		out = append(out, q)
	}
	return out
}

func (p ref) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	succ := p.successors()
	if depth == 1 {
		return uint64(len(succ))
	}
	var n uint64
	for _, q := range succ {
		n += q.perft(depth - 1)
	}
	return n
}

// engineSuccessors returns the placements after each legal engine move.
func engineSuccessors(t testing.TB, p *Position) []string {
	var out []string
	for _, m := range p.Legal() {
		next, err := p.Play(m)
		require.NoError(t, err)
		out = append(out, refParse(t, next.String()).placement())
	}
	slices.Sort(out)
	return out
}

func refSuccessors(p ref) []string {
	var out []string
	for _, q := range p.successors() {
		out = append(out, q.placement())
	}
	slices.Sort(out)
	return out
}

func TestReferenceAgreesOnSpecPositions(t *testing.T) {
	for _, fen := range []string{
		"rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1",
		"k4r4/4b5/5t4/10/10/1T8/1P8/5Q3K w - - 0 1",
		"k4r4/4b5/5t4/10/10/1T8/1P8/5Q3K b - - 0 1",
		"k9/2b7/7Q2/10/4Tt4/10/3K6/10 w - - 0 1",
		"k9/10/5R2T1/10/10/1T8/10/1R7K w - - 0 1",
		"k9/4p5/6T3/10/5N4/10/10/K9 w - - 0 1",
		"10/2B7/10/9k/5T4/10/10/K9 w - - 0 1",
		"k9/10/10/3t1p4/3TP5/10/10/K9 w - - 0 1",
		"9k/10/10/10/p2p2T3/1T2t5/1PP1P1P3/9K w - - 0 1",
		"7k2/5t4/6T3/10/5N4/10/10/K9 b - - 0 1",
		"k9/10/10/6b3/10/4t5/10/5KT2R w K - 0 1",
		"k9/10/10/10/3Tt5/4T5/10/K9 w - - 0 1",
		"r4k3r/pT3p1p1p/4t5/1PpP6/5T4/10/2p6P/R4K3R w KQkq c6 0 1",
		"r4k3r/pT3p1p1p/4t5/1PpP6/5T4/10/2p6P/R4K3R b KQkq - 0 1",
	} {
		t.Run(fen, func(t *testing.T) {
			g := mustGame(t)
			p, err := g.ParseFEN(fen)
			require.NoError(t, err)
			r := refParse(t, fen)
			require.Equal(t, refSuccessors(r), engineSuccessors(t, p))
			require.Equal(t, r.perft(2), p.Perft(2))
		})
	}
}

// Random positions from random games, with promotions steered toward
// monsters now and then, compared at depth 2 (depth 3 without -short).
func TestReferenceAgreesOnRandomPositions(t *testing.T) {
	g := mustGame(t)
	rng := rand.New(rand.NewPCG(1, 2))
	games, depth := 12, 2
	if testing.Short() || raceEnabled {
		games = 4
	}
	for i := range games {
		p := g.StartPosition()
		plies := 10 + rng.IntN(70)
		for ply := 0; ply < plies; ply++ {
			moves := p.Legal()
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			next, err := p.Play(m)
			require.NoError(t, err)
			p = next.(*Position)
			if ply%7 == 0 {
				r := refParse(t, p.String())
				require.Equal(t, refSuccessors(r), engineSuccessors(t, p), "game %d ply %d: %s", i, ply, p)
				require.Equal(t, r.perft(depth), p.Perft(depth), "game %d ply %d: %s", i, ply, p)
			}
		}
	}
}
