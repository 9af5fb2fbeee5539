package tensor

import (
	"arbiter/rules"
	"arbiter/rules/internal/chesscore"
	"cmp"
)

// The routes of this file answer notation questions (which route does the
// record write, is a written route valid); the engine's generator decides
// legality. They work on file/rank coordinates and treat the mover's
// start cell as empty, as the rules do during a move.

var (
	orth = [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}}
	diag = [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

// view is a board seen during a move: the start cell counts as empty.
type view struct {
	b     *chesscore.Board
	c     *chesscore.Config
	start int
	us    rules.Color
}

func newView(b *chesscore.Board, start int) view {
	return view{b: b, c: b.Config(), start: start, us: b.Turn()}
}

// at returns the piece on file f, rank r; chesscore.Wall off the board.
func (v view) at(f, r int) chesscore.Piece {
	if f < 0 || r < 0 || f >= v.c.Width() || r >= v.c.Height() {
		return chesscore.Wall
	}
	cell := v.c.CellAt(f, r)
	if cell == v.start {
		return chesscore.Empty
	}
	return v.b.At(cell)
}

func (v view) ownMonster(p chesscore.Piece) bool {
	return p == chesscore.MakePiece(v.us, chesscore.Monster)
}

func (v view) enemyOrdinary(p chesscore.Piece) bool {
	return p.IsPiece() && p.Color() != v.us && p.Kind() != chesscore.Monster
}

// transparent reports whether a slider of the mover passes the piece p.
func (v view) transparent(p chesscore.Piece) bool { return p == chesscore.Empty || v.ownMonster(p) }

// slideDirs returns the directions of a slider kind.
func slideDirs(k chesscore.Kind) [][2]int {
	switch k {
	case chesscore.Bishop:
		return diag
	case chesscore.Rook:
		return orth
	}
	return append(append([][2]int(nil), orth...), diag...)
}

// unit returns the direction from (f0,r0) to (f1,r1) if they are on one
// line, with the distance.
func unit(f0, r0, f1, r1 int) (d [2]int, n int, ok bool) {
	df, dr := f1-f0, r1-r0
	ad, ar := abs(df), abs(dr)
	if (df == 0) == (dr == 0) && ad != ar || (df == 0 && dr == 0) {
		return d, 0, false
	}
	n = max(ad, ar)
	return [2]int{cmp.Compare(df, 0), cmp.Compare(dr, 0)}, n, true
}

// line reports whether a slider moving along d from (f0,r0) reaches
// (f1,r1), n steps away, over transparent cells only.
func (v view) line(f0, r0 int, d [2]int, n int) bool {
	for i := 1; i < n; i++ {
		if !v.transparent(v.at(f0+i*d[0], r0+i*d[1])) {
			return false
		}
	}
	return true
}

func hasDir(dirs [][2]int, d [2]int) bool {
	for _, e := range dirs {
		if e == d {
			return true
		}
	}
	return false
}

// straight reports whether the piece of kind k on from reaches to by a
// straight move (S1 for sliders, N1 for knights, a step for the king).
func (v view) straight(k chesscore.Kind, from, to int) bool {
	f0, r0 := v.c.FileRank(from)
	f1, r1 := v.c.FileRank(to)
	switch k {
	case chesscore.Knight:
		return isLeap(f1-f0, r1-r0)
	case chesscore.King:
		return abs(f1-f0) <= 1 && abs(r1-r0) <= 1
	}
	d, n, ok := unit(f0, r0, f1, r1)
	return ok && hasDir(slideDirs(k), d) && v.line(f0, r0, d, n)
}

// bounce reports whether the piece of kind k on from reaches to by
// bouncing off the own monster on m (S2, N2).
func (v view) bounce(k chesscore.Kind, from, m, to int) bool {
	if to == from || m == from || m == to {
		return false
	}
	f0, r0 := v.c.FileRank(from)
	fm, rm := v.c.FileRank(m)
	f1, r1 := v.c.FileRank(to)
	if !v.ownMonster(v.at(fm, rm)) {
		return false
	}
	switch k {
	case chesscore.Knight:
		return isLeap(fm-f0, rm-r0) && isLeap(f1-fm, r1-rm)
	case chesscore.Bishop, chesscore.Rook, chesscore.Queen:
		return v.slideBounce(k, f0, r0, fm, rm, f1, r1)
	}
	return false
}

// slideBounce reports whether a slider of kind k goes along one of its
// lines from (f0,r0) to the monster on (fm,rm), over transparent cells,
// and perpendicularly on from there to (f1,r1) (S2).
func (v view) slideBounce(k chesscore.Kind, f0, r0, fm, rm, f1, r1 int) bool {
	d, n, ok := unit(f0, r0, fm, rm)
	if !ok || !hasDir(slideDirs(k), d) || !v.line(f0, r0, d, n) {
		return false
	}
	e, n2, ok := unit(fm, rm, f1, r1)
	perpendicular := d[0]*e[0]+d[1]*e[1] == 0
	return ok && perpendicular && hasDir(slideDirs(k), e) && v.line(fm, rm, e, n2)
}

func isLeap(df, dr int) bool {
	return (abs(df) == 1 && abs(dr) == 2) || (abs(df) == 2 && abs(dr) == 1)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// hop reports whether a monster may hop from a to l (both cells) in
// chain kind dirs: l two squares away on a line of dirs, the cell between
// occupied, l empty. It returns the jumped cell.
func (v view) hop(dirs [][2]int, a, l int) (over int, ok bool) {
	fa, ra := v.c.FileRank(a)
	fl, rl := v.c.FileRank(l)
	d, n, ok := unit(fa, ra, fl, rl)
	if !ok || n != 2 || !hasDir(dirs, d) {
		return 0, false
	}
	mid := v.at(fa+d[0], ra+d[1])
	if !mid.IsPiece() || v.at(fl, rl) != chesscore.Empty {
		return 0, false
	}
	return v.c.CellAt(fa+d[0], ra+d[1]), true
}

// hopsFrom returns the landing cells of single hops from a in kind dirs.
func (v view) hopsFrom(dirs [][2]int, a int) []int {
	fa, ra := v.c.FileRank(a)
	var out []int
	for _, d := range dirs {
		f, r := fa+2*d[0], ra+2*d[1]
		if v.at(f, r) == chesscore.Wall {
			continue
		}
		l := v.c.CellAt(f, r)
		if _, ok := v.hop(dirs, a, l); ok {
			out = append(out, l)
		}
	}
	return out
}

// chain returns the canonical hop route (landing cells, start excluded)
// from the start cell to target in kind dirs: fewest hops, then the
// lexicographically smallest sequence of square indices. ok is false when
// target is unreachable. A target equal to the start gives an empty route.
func (v view) chain(dirs [][2]int, target int) (route []int, ok bool) {
	// Hops are symmetric (both ends empty, the middle occupied), so the
	// distance to target is a breadth-first search from target.
	dist := map[int]int{target: 0}
	queue := []int{target}
	for i := 0; i < len(queue); i++ {
		a := queue[i]
		for _, l := range v.hopsFrom(dirs, a) {
			if _, seen := dist[l]; !seen {
				dist[l] = dist[a] + 1
				queue = append(queue, l)
			}
		}
	}
	cur := v.start
	n, ok := dist[cur]
	if !ok {
		return nil, false
	}
	for ; n > 0; n-- {
		best := -1
		for _, l := range v.hopsFrom(dirs, cur) {
			if d, seen := dist[l]; seen && d == n-1 && (best < 0 || v.c.Index(l) < v.c.Index(best)) {
				best = l
			}
		}
		route = append(route, best)
		cur = best
	}
	return route, true
}

// lessRoute orders routes by length, then lexicographically by index.
func (v view) lessRoute(a, b []int) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	for i := range a {
		if a[i] != b[i] {
			return v.c.Index(a[i]) < v.c.Index(b[i])
		}
	}
	return false
}
