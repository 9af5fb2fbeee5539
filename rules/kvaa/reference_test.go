package kvaa

// A deliberately simple second implementation of the rules, written from
// the spec's pseudo-code (4.3, 4.7, 4.8, 5.1) on a different
// representation: a byte per cell, turns as strings, links derived from the
// coordinates of the checkerboard view (2.2, 2.6) rather than from the
// engine's tables. Tests compare the engine with it.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

type refCell struct {
	name string
	f, r int
}

// refCells are the dark squares of the 5x5 board, rank by rank.
var refCells = func() []refCell {
	var cs []refCell
	for r := range 5 {
		for f := range 5 {
			if (f+r)%2 == 0 {
				cs = append(cs, refCell{string(rune('a'+f)) + strconv.Itoa(r+1), f, r})
			}
		}
	}
	return cs
}()

func refIndex(f, r int) int {
	for i, c := range refCells {
		if c.f == f && c.r == r {
			return i
		}
	}
	return -1
}

func refByName(n string) int {
	for i, c := range refCells {
		if c.name == n {
			return i
		}
	}
	panic("ref: no cell " + n)
}

func refBorder(i int) bool {
	c := refCells[i]
	return c.f == 0 || c.f == 4 || c.r == 0 || c.r == 4
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// refClass returns "D", "RING", "SPOKE", "INNER", or "" if a and b are not
// neighbours.
func refClass(a, b int) string {
	df, dr := refCells[b].f-refCells[a].f, refCells[b].r-refCells[a].r
	switch {
	case abs(df) == 1 && abs(dr) == 1:
		return "D"
	case !(abs(df) == 2 && dr == 0) && !(df == 0 && abs(dr) == 2):
		return ""
	case refBorder(a) && refBorder(b):
		return "RING"
	case refCells[a].name == "c3" || refCells[b].name == "c3":
		return "SPOKE"
	case !refBorder(a) && !refBorder(b):
		return "INNER"
	}
	panic("ref: unclassified link " + refCells[a].name + refCells[b].name)
}

type refRules struct {
	classes      map[string]bool // allowed classes, "D" always
	compulsory   bool
	placement    int // 1..4
	mirror       bool
	perPlacement bool
	p4block      bool
	first        int
}

func refRulesOf(c Config) refRules {
	r := refRules{
		classes:      map[string]bool{"D": true},
		compulsory:   c.Capture == Compulsory,
		placement:    int(c.Placement),
		mirror:       c.MirrorRule,
		perPlacement: c.P2Fallback == PerPlacement,
		p4block:      c.P4CaptureBlocksPlacement,
		first:        int(c.First),
	}
	for _, p := range strings.Split(c.Scheme.String(), "+") {
		switch p {
		case "R2":
		case "R3":
			r.classes["INNER"] = true
		case "R4":
			r.classes["RING"], r.classes["SPOKE"] = true, true
		case "R5":
			r.classes["RING"], r.classes["SPOKE"], r.classes["INNER"] = true, true, true
		case "R7":
			r.classes["RING"] = true
		default:
			r.classes[p] = true
		}
	}
	return r
}

func (rr *refRules) allowed(a, b int) bool {
	c := refClass(a, b)
	return c != "" && rr.classes[c]
}

type refPos struct {
	board  [13]byte
	res    [2]int
	turn   int
	forb   [2]string
	quiet  int
	number int
}

var sideByte = [2]byte{'S', 'N'}

func refParse(kps string) refPos {
	var p refPos
	f := strings.Fields(kps)
	rows := strings.Split(f[0], "/")
	for i, row := range rows {
		r := 4 - i
		n := 0
		for fl := range 5 {
			if (fl+r)%2 == 0 {
				p.board[refIndex(fl, r)] = row[n]
				n++
			}
		}
	}
	p.turn = strings.Index("SN", f[1])
	p.res[0], _ = strconv.Atoi(f[2])
	p.res[1], _ = strconv.Atoi(f[3])
	for s := range 2 {
		if f[4+s] != "-" {
			p.forb[s] = f[4+s]
		}
	}
	p.quiet, _ = strconv.Atoi(f[6])
	p.number, _ = strconv.Atoi(f[7])
	return p
}

func (p refPos) key() string {
	var b strings.Builder
	for r := 4; r >= 0; r-- {
		for fl := range 5 {
			if (fl+r)%2 == 0 {
				b.WriteByte(p.board[refIndex(fl, r)])
			}
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	fmt.Fprintf(&b, " %c %d %d", sideByte[p.turn], p.res[0], p.res[1])
	for s := range 2 {
		if p.forb[s] == "" {
			b.WriteString(" -")
		} else {
			b.WriteString(" " + p.forb[s])
		}
	}
	return b.String()
}

func (p refPos) kps() string { return fmt.Sprintf("%s %d %d", p.key(), p.quiet, p.number) }

func (p refPos) count(x int) int {
	n := 0
	for _, c := range p.board {
		if c == sideByte[x] {
			n++
		}
	}
	return n
}

func (p refPos) mayPlace(x int) bool { return p.count(x) < 4 && p.res[x] > 0 }

func (p refPos) empties() []int {
	var e []int
	for i, c := range p.board {
		if c == '.' {
			e = append(e, i)
		}
	}
	return e
}

// moves is 4.3's moves(state, X, excluded).
func (rr *refRules) moves(p refPos, x, excluded int) []string {
	var caps, steps []string
	for s := range 13 {
		if p.board[s] != sideByte[x] || s == excluded {
			continue
		}
		for m := range 13 {
			if !rr.allowed(s, m) || p.board[m] != sideByte[1-x] {
				continue
			}
			t := refIndex(2*refCells[m].f-refCells[s].f, 2*refCells[m].r-refCells[s].r)
			if t >= 0 && rr.allowed(m, t) && p.board[t] == '.' {
				caps = append(caps, refCells[s].name+"x"+refCells[t].name)
			}
		}
	}
	if rr.compulsory && len(caps) > 0 {
		return caps
	}
	for s := range 13 {
		if p.board[s] != sideByte[x] || s == excluded {
			continue
		}
		for t := range 13 {
			st := refCells[s].name + "-" + refCells[t].name
			if rr.allowed(s, t) && p.board[t] == '.' && st != p.forb[x] {
				steps = append(steps, st)
			}
		}
	}
	return append(steps, caps...)
}

// legal is 4.7's legal_turns.
func (rr *refRules) legal(p refPos) []string {
	x := p.turn
	if !p.mayPlace(x) {
		return rr.moves(p, x, -1)
	}
	var out []string
	switch rr.placement {
	case 1:
		ms := rr.moves(p, x, -1)
		if len(ms) == 0 {
			for _, e := range p.empties() {
				out = append(out, "@"+refCells[e].name)
			}
			return out
		}
		for _, m := range ms {
			after := rr.apply(p, m, false)
			for _, e := range after.empties() {
				out = append(out, m+",@"+refCells[e].name)
			}
		}
	case 2:
		var alone []string
		for _, e := range p.empties() {
			q := p
			q.board[e] = sideByte[x]
			ms := rr.moves(q, x, e)
			for _, m := range ms {
				out = append(out, "@"+refCells[e].name+","+m)
			}
			if len(ms) == 0 {
				alone = append(alone, "@"+refCells[e].name)
			}
		}
		if rr.perPlacement || len(out) == 0 {
			out = append(out, alone...)
		}
	case 3:
		for _, e := range p.empties() {
			out = append(out, "@"+refCells[e].name)
		}
	case 4:
		ms := rr.moves(p, x, -1)
		hasCap := slices.ContainsFunc(ms, func(m string) bool { return strings.Contains(m, "x") })
		if rr.compulsory && rr.p4block && hasCap {
			return ms
		}
		out = ms
		for _, e := range p.empties() {
			out = append(out, "@"+refCells[e].name)
		}
	}
	return out
}

// apply is 4.8; with finish false it only executes the actions.
func (rr *refRules) apply(p refPos, turn string, finish bool) refPos {
	x := p.turn
	step, eventful := "", false
	for _, a := range strings.Split(turn, ",") {
		switch {
		case strings.HasPrefix(a, "@"):
			p.board[refByName(a[1:])] = sideByte[x]
			p.res[x]--
			eventful = true
		case strings.Contains(a, "x"):
			s, t := refByName(a[:2]), refByName(a[3:])
			m := refIndex((refCells[s].f+refCells[t].f)/2, (refCells[s].r+refCells[t].r)/2)
			p.board[s], p.board[m], p.board[t] = '.', '.', sideByte[x]
			eventful = true
		default:
			s, t := refByName(a[:2]), refByName(a[3:])
			p.board[s], p.board[t] = '.', sideByte[x]
			step = a[3:] + "-" + a[:2]
		}
	}
	if !finish {
		return p
	}
	p.forb[x] = ""
	if rr.mirror {
		p.forb[x] = step
	}
	if f := p.forb[1-x]; f != "" && p.board[refByName(f[:2])] != sideByte[1-x] {
		p.forb[1-x] = ""
	}
	if eventful {
		p.quiet = 0
	} else {
		p.quiet++
	}
	if x != rr.first {
		p.number++
	}
	p.turn = 1 - x
	return p
}

func (rr *refRules) play(p refPos, turn string) refPos { return rr.apply(p, turn, true) }

// judge is checks 1 and 2 of 5.1, with the default adjudication.
func (rr *refRules) judge(p refPos) (result string, term Termination) {
	y := p.turn
	x := 1 - y
	win := [2]string{"1-0", "0-1"}
	if p.count(y) == 0 && p.res[y] == 0 {
		return win[x], CapturedAll
	}
	if len(rr.legal(p)) > 0 {
		return "*", Unterminated
	}
	q := p
	q.turn = x
	if len(rr.legal(q)) > 0 {
		q = p
		q.forb[y] = ""
		if len(rr.legal(q)) > 0 {
			return win[x], MirrorBlocked
		}
		return win[x], Blocked
	}
	switch a, b := p.count(0), p.count(1); {
	case a > b:
		return "1-0", MutualBlock
	case b > a:
		return "0-1", MutualBlock
	}
	return "1/2-1/2", MutualBlock
}

func (rr *refRules) perft(p refPos, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	ts := rr.legal(p)
	if depth == 1 {
		return uint64(len(ts))
	}
	var n uint64
	for _, t := range ts {
		n += rr.perft(rr.play(p, t), depth-1)
	}
	return n
}

// reachable enumerates the positions reachable from start, by key, and
// counts the terminal ones. Keys are packed by the reference's own code;
// only the set that holds them is the engine's.
func (rr *refRules) reachable(start refPos) (positions, terminal int) {
	seen := newKeySet(1 << 10)
	seen.add(start.pack())
	for i := 0; i < len(seen.order); i++ {
		p := refUnpack(seen.order[i])
		if res, _ := rr.judge(p); res != "*" {
			terminal++
			continue
		}
		for _, t := range rr.legal(p) {
			seen.add(rr.play(p, t).pack())
		}
	}
	return len(seen.order), terminal
}

// pack encodes the position's key: the board in base 3, reserves, side to
// move, and each forbidden step as 1+from*13+to (0 for none).
func (p refPos) pack() uint64 {
	var k uint64
	for i := 12; i >= 0; i-- {
		k = k*3 + uint64(strings.IndexByte(".SN", p.board[i]))
	}
	k = k<<3 | uint64(p.res[0])
	k = k<<3 | uint64(p.res[1])
	k = k<<1 | uint64(p.turn)
	for s := range 2 {
		f := 0
		if p.forb[s] != "" {
			f = 1 + refByName(p.forb[s][:2])*13 + refByName(p.forb[s][3:])
		}
		k = k<<8 | uint64(f)
	}
	return k
}

func refUnpack(k uint64) refPos {
	var p refPos
	for s := 1; s >= 0; s-- {
		if f := int(k & 255); f != 0 {
			p.forb[s] = refCells[(f-1)/13].name + "-" + refCells[(f-1)%13].name
		}
		k >>= 8
	}
	p.turn = int(k & 1)
	k >>= 1
	p.res[1] = int(k & 7)
	k >>= 3
	p.res[0] = int(k & 7)
	k >>= 3
	for i := range 13 {
		p.board[i] = ".SN"[k%3]
		k /= 3
	}
	p.number = 1
	return p
}
