package sim

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"arbiter/board"
	"arbiter/rules"
)

// Op is a physical action of a player.
type Op uint8

// Physical actions.
const (
	OpLift  Op = iota + 1 // lift the top N pieces of Square
	OpPlace               // put Pieces (bottom first) on Square
	OpTurn                // turn the top piece of Square to Face
	OpTake                // take Piece out of Zone
	OpPut                 // put Piece into Zone
	OpPress               // press Button of Side (answer Value)
)

// Step is one timed physical action.
type Step struct {
	At     time.Duration // from the start of the turn
	Op     Op
	Square rules.Square
	N      int
	Pieces []rules.Piece
	Face   rules.Face
	Zone   int
	Piece  rules.Piece
	Button board.ButtonKind
	Side   board.Side
	Value  uint8
}

// String writes the step for logs and test failures.
func (s Step) String() string {
	switch s.Op {
	case OpLift:
		return fmt.Sprintf("%v lift %d x%d", s.At, s.Square, s.N)
	case OpPlace:
		return fmt.Sprintf("%v place %d %v", s.At, s.Square, s.Pieces)
	case OpTurn:
		return fmt.Sprintf("%v turn %d face=%d", s.At, s.Square, s.Face)
	case OpTake:
		return fmt.Sprintf("%v take zone%d %s", s.At, s.Zone, s.Piece)
	case OpPut:
		return fmt.Sprintf("%v put zone%d %s", s.At, s.Zone, s.Piece)
	case OpPress:
		return fmt.Sprintf("%v press %s side=%d", s.At, s.Button, s.Side)
	}
	return fmt.Sprintf("%v op(%d)", s.At, s.Op)
}

// Human sets how a simulated person handles pieces: delays as
// [min, max) ranges and habits as probabilities per move.
type Human struct {
	Think [2]time.Duration // before the first touch
	Hand  [2]time.Duration // between two hand actions
	Glide [2]time.Duration // per square crossed in a slide
	Press [2]time.Duration // from the last placement to the clock press

	TouchBack float64 // lift the moving piece, put it back, then move it
	Adjust    float64 // press adjust, straighten another piece, press again
	Slide     float64 // slide a single piece across empty squares
	OneByOne  float64 // lift a group piece by piece instead of in one pinch
	TurnAfter float64 // turn a promoted piece over after placing it

	// How a captured piece reaches its captor's hand stand (shogi): after
	// the clock press (LateStand), before the capturing piece is set down
	// (EarlyStand), or on the opponent's stand first, moved to the right
	// one after the press (WrongStand). Zero in DefaultHuman.
	LateStand, EarlyStand, WrongStand float64
	// Retouch lifts the moved piece after the clock press and puts it
	// back (shogi.md 3.4.4: evidence of 待った). Zero in DefaultHuman.
	Retouch float64
	// Ordered makes a move of several pieces in its rules' order
	// (rules.Legged): a Kvaa placement that comes before the step is
	// made first, as kvaa.md 7.2 writes it; otherwise the moving piece
	// goes first.
	Ordered float64
}

// Scaled returns the person sped up by factor f: every delay divided by
// f, the habits kept.
func (h Human) Scaled(f float64) Human {
	s := func(r [2]time.Duration) [2]time.Duration {
		return [2]time.Duration{time.Duration(float64(r[0]) / f), time.Duration(float64(r[1]) / f)}
	}
	h.Think, h.Hand, h.Glide, h.Press = s(h.Think), s(h.Hand), s(h.Glide), s(h.Press)
	return h
}

// DefaultHuman is a calm player with every habit.
var DefaultHuman = Human{
	Think: [2]time.Duration{800 * time.Millisecond, 4 * time.Second},
	Hand:  [2]time.Duration{150 * time.Millisecond, 600 * time.Millisecond},
	Glide: [2]time.Duration{30 * time.Millisecond, 90 * time.Millisecond},
	Press: [2]time.Duration{200 * time.Millisecond, 900 * time.Millisecond},

	TouchBack: 0.1, Adjust: 0.05, Slide: 0.2, OneByOne: 0.3, TurnAfter: 0.5, Ordered: 0.5,
}

func span(rng *rand.Rand, r [2]time.Duration) time.Duration {
	if r[1] <= r[0] {
		return r[0]
	}
	return r[0] + time.Duration(rng.Int64N(int64(r[1]-r[0])))
}

// loc is a place pieces come from or go to: a square, or a zone.
type loc struct {
	zone bool
	i    int
}

type removal struct {
	at    loc
	p     rules.Piece
	taken bool // matched to an addition
}

type addition struct {
	at  loc
	p   rules.Piece
	src int // index into removals, -1 from outside the board
}

// planner turns the difference of two views into a person's actions.
type planner struct {
	g     *rules.Geometry
	rng   *rand.Rand
	h     Human
	t     time.Duration
	steps []Step
	cur   rules.View // the physical state as the steps leave it

	rem    []removal
	add    []addition
	lifted map[rules.Square]bool
	pinch  map[rules.Square]bool // lifted in one movement
	// misplace sends the pieces bound for a hand stand to another zone
	// (WrongStand); misplaced lists them, to be moved after the press.
	misplace  map[int]int
	misplaced []Step
}

// PlanMove returns the actions of the player of side mover who makes move
// m, turning the board from before into after. The views must be of
// geometry g. Every piece that leaves a square is lifted from the top of
// its stack; pieces that disappear go off the board; pieces that appear
// from nowhere (a chess promotion's queen) come from the box.
func PlanMove(g *rules.Geometry, before, after rules.View, m rules.Move, mover rules.Color, h Human, rng *rand.Rand) ([]Step, error) {
	p := &planner{g: g, rng: rng, h: h, cur: before.Clone(), lifted: map[rules.Square]bool{}, pinch: map[rules.Square]bool{}}
	if err := p.diff(before, after); err != nil {
		return nil, err
	}
	p.match(m)
	from, to := m.From(), m.To()

	p.t = span(rng, h.Think)
	if p.chance(h.Adjust) {
		p.adjust(from, to, mover)
	}
	p.touchBack(from)
	first := p.placeFirst(m, from)
	p.liftMove(from, to)
	dests, late := p.stands(p.destinations(to))
	for _, d := range dests {
		if first == nil || d != *first {
			p.fill(d, from)
		}
	}
	p.liftAll()
	p.press(mover, late, from)
	p.retouch(to)

	if !p.cur.Equal(after) {
		return nil, fmt.Errorf("plan of %s leaves\n%s\nwant\n%s", m, p.cur.Format(g), after.Format(g))
	}
	return p.steps, nil
}

// touchBack, by the habit TouchBack, lifts what leaves from and puts it
// back before the move.
func (p *planner) touchBack(from rules.Square) {
	if !p.g.Valid(from) || !p.chance(p.h.TouchBack) || len(p.cur.Stacks[from]) == 0 {
		return
	}
	if k := p.removedAt(from); k > 0 {
		st := p.cur.Stacks[from]
		group := slices.Clone(st[len(st)-k:])
		p.emit(Step{Op: OpLift, Square: from, N: k})
		p.emit(Step{Op: OpPlace, Square: from, Pieces: group})
	}
}

// placeFirst makes, by the habit Ordered, a placement that the rules put
// before move m first, and returns where it was made (nil if not).
func (p *planner) placeFirst(m rules.Move, from rules.Square) *loc {
	lm, ok := m.(rules.Legged)
	if !ok || !p.chance(p.h.Ordered) {
		return nil
	}
	legs := lm.Legs()
	if len(legs) <= 1 || legs[0].From != rules.NoSquare || !p.g.Valid(legs[0].To) {
		return nil
	}
	first := &loc{i: int(legs[0].To)}
	p.fill(*first, from)
	return first
}

// liftMove lifts the move's pieces from from and a capture's from to, in
// either order: the victim first, or the mover first; and the pieces that
// go nowhere, first or last.
func (p *planner) liftMove(from, to rules.Square) {
	orphansFirst := p.chance(0.5)
	if p.g.Valid(to) && p.chance(0.5) {
		p.liftSquare(to)
	}
	if p.g.Valid(from) {
		p.liftSquare(from)
	}
	if orphansFirst {
		p.liftOrphans()
	}
}

// press presses mover's clock, and then fills the stand left for after
// it (late) and moves the misplaced pieces to their captor's stand.
func (p *planner) press(mover rules.Color, late *loc, from rules.Square) {
	p.t += span(p.rng, p.h.Press) - span(p.rng, p.h.Hand)
	p.emit(Step{Op: OpPress, Button: board.ButtonClock, Side: board.SideOf(mover)})
	if late != nil || len(p.misplace) > 0 {
		p.t += span(p.rng, p.h.Press)
	}
	if late != nil {
		p.fill(*late, from)
	}
	for _, s := range p.misplaced {
		// The piece moves from the wrong stand to its captor's.
		p.emit(Step{Op: OpTake, Zone: s.Zone, Piece: s.Piece})
		p.emit(Step{Op: OpPut, Zone: s.N, Piece: s.Piece})
	}
}

// retouch, by the habit Retouch, lifts the piece on top of to and puts it
// back after the press.
func (p *planner) retouch(to rules.Square) {
	if !p.g.Valid(to) || !p.chance(p.h.Retouch) {
		return
	}
	if st := p.cur.Stacks[to]; len(st) > 0 {
		top := st[len(st)-1]
		p.emit(Step{Op: OpLift, Square: to, N: 1})
		p.emit(Step{Op: OpPlace, Square: to, Pieces: []rules.Piece{top}})
	}
}

func (p *planner) chance(r float64) bool { return r > 0 && p.rng.Float64() < r }

func (p *planner) emit(s Step) {
	p.t += span(p.rng, p.h.Hand)
	s.At = p.t
	p.apply(s)
	p.steps = append(p.steps, s)
}

// apply mirrors a step on the planner's picture of the board.
func (p *planner) apply(s Step) {
	switch s.Op {
	case OpLift:
		st := p.cur.Stacks[s.Square]
		p.cur.Stacks[s.Square] = st[:len(st)-s.N]
	case OpPlace:
		p.cur.Stacks[s.Square] = append(slices.Clip(p.cur.Stacks[s.Square]), s.Pieces...)
	case OpTurn:
		st := p.cur.Stacks[s.Square]
		st[len(st)-1].Face = s.Face
	case OpTake:
		z := p.cur.Zones[s.Zone]
		i := slices.Index(z, s.Piece)
		p.cur.Zones[s.Zone] = slices.Delete(slices.Clone(z), i, i+1)
	case OpPut:
		p.cur.Zones[s.Zone] = append(slices.Clone(p.cur.Zones[s.Zone]), s.Piece)
		rules.View{Zones: p.cur.Zones[s.Zone : s.Zone+1]}.SortZones()
	}
}

// diff lists what leaves and what arrives where.
func (p *planner) diff(before, after rules.View) error {
	if len(before.Stacks) != p.g.Len() || len(after.Stacks) != p.g.Len() {
		return fmt.Errorf("views of %d and %d squares on a board of %d", len(before.Stacks), len(after.Stacks), p.g.Len())
	}
	for sq := range before.Stacks {
		b, a := before.Stacks[sq], after.Stacks[sq]
		k := 0
		for k < len(b) && k < len(a) && b[k] == a[k] {
			k++
		}
		for _, pc := range b[k:] {
			p.rem = append(p.rem, removal{at: loc{i: sq}, p: pc})
		}
		for _, pc := range a[k:] {
			p.add = append(p.add, addition{at: loc{i: sq}, p: pc, src: -1})
		}
	}
	for z := range before.Zones {
		left := slices.Clone(after.Zones[z])
		for _, pc := range before.Zones[z] {
			if i := slices.Index(left, pc); i >= 0 {
				left = slices.Delete(left, i, i+1)
				continue
			}
			p.rem = append(p.rem, removal{at: loc{zone: true, i: z}, p: pc})
		}
		for _, pc := range left {
			p.add = append(p.add, addition{at: loc{zone: true, i: z}, p: pc, src: -1})
		}
	}
	return nil
}

// match pairs each arriving piece with a leaving one: the same piece
// first, then the same piece turned over, then the same kind of piece
// changing sides (a shogi capture). Ties prefer the move's own from/to.
func (p *planner) match(m rules.Move) {
	if lm, ok := m.(rules.Legged); ok {
		p.matchLegs(lm.Legs())
	}
	from, to := loc{i: int(m.From())}, loc{i: int(m.To())}
	for _, same := range matchLevels {
		for ai := range p.add {
			if a := &p.add[ai]; a.src < 0 {
				p.matchOne(a, same, from, to)
			}
		}
	}
}

// matchLevels are the likenesses match pairs pieces by, in turn: the
// same piece, the same piece turned over, the same kind changing sides.
var matchLevels = []func(a, b rules.Piece) bool{
	func(a, b rules.Piece) bool { return a == b },
	func(a, b rules.Piece) bool { return a.Color == b.Color && a.Kind == b.Kind && a.Mark == b.Mark },
	func(a, b rules.Piece) bool { return a.Kind == b.Kind && a.Mark == b.Mark },
}

// matchLegs pairs pieces alike (Kvaa counters) by the move's legs: each
// path's piece is the one that leaves its origin.
func (p *planner) matchLegs(legs []rules.Leg) {
	for _, l := range legs {
		if l.From == rules.NoSquare || l.To == rules.NoSquare {
			continue
		}
		ai := slices.IndexFunc(p.add, func(a addition) bool { return a.src < 0 && a.at == loc{i: int(l.To)} })
		ri := slices.IndexFunc(p.rem, func(r removal) bool { return !r.taken && r.at == loc{i: int(l.From)} })
		if ai >= 0 && ri >= 0 && p.add[ai].p == p.rem[ri].p {
			p.add[ai].src, p.rem[ri].taken = ri, true
		}
	}
}

// matchOne pairs the arriving piece a with a leaving piece that is the
// same as it, if there is one; ties prefer the move's own from and to.
func (p *planner) matchOne(a *addition, same func(a, b rules.Piece) bool, from, to loc) {
	best := -1
	for ri, r := range p.rem {
		if r.taken || !same(r.p, a.p) {
			continue
		}
		if best < 0 || (r.at == from && a.at == to && p.rem[best].at != from) {
			best = ri
		}
	}
	if best >= 0 {
		a.src = best
		p.rem[best].taken = true
	}
}

func (p *planner) removedAt(sq rules.Square) int {
	n := 0
	for _, r := range p.rem {
		if !r.at.zone && r.at.i == int(sq) {
			n++
		}
	}
	return n
}

// liftSquare lifts everything that leaves sq, once.
func (p *planner) liftSquare(sq rules.Square) {
	if p.lifted[sq] {
		return
	}
	k := p.removedAt(sq)
	if k == 0 {
		return
	}
	p.lifted[sq] = true
	if k > 1 && p.chance(p.h.OneByOne) {
		for range k {
			p.emit(Step{Op: OpLift, Square: sq, N: 1})
		}
		return
	}
	p.pinch[sq] = true
	p.emit(Step{Op: OpLift, Square: sq, N: k})
}

// liftOrphans lifts the squares whose leaving pieces go nowhere on the
// board or in a zone (an en passant victim, a jumped Kvaa counter).
func (p *planner) liftOrphans() {
	for _, r := range p.rem {
		if !r.at.zone && !r.taken {
			p.liftSquare(rules.Square(r.at.i))
		}
	}
}

// liftAll lifts whatever still has to leave the board's squares.
func (p *planner) liftAll() {
	for _, r := range p.rem {
		if !r.at.zone {
			p.liftSquare(rules.Square(r.at.i))
		}
	}
}

// destinations orders the places that receive pieces: the move's target
// first, then squares in order, then zones (captured pieces go to the
// stand last).
func (p *planner) destinations(to rules.Square) []loc {
	var sq, zn []loc
	seen := map[loc]bool{}
	for _, a := range p.add {
		if seen[a.at] {
			continue
		}
		seen[a.at] = true
		switch {
		case a.at.zone:
			zn = append(zn, a.at)
		case a.at.i == int(to):
			sq = append([]loc{a.at}, sq...)
		default:
			sq = append(sq, a.at)
		}
	}
	return append(sq, zn...)
}

// stands applies the habits of LateStand, EarlyStand and WrongStand to the
// hand stand among dests that receives a captured piece: it returns the
// destinations to fill before the press, and the stand to fill after it.
func (p *planner) stands(dests []loc) ([]loc, *loc) {
	zones := p.g.Zones()
	k := slices.IndexFunc(dests, func(d loc) bool {
		if !d.zone || zones[d.i].Kind != rules.Hand {
			return false
		}
		return slices.ContainsFunc(p.add, func(a addition) bool { return a.at == d && a.src >= 0 && !p.rem[a.src].at.zone })
	})
	if k < 0 {
		return dests, nil
	}
	d := dests[k]
	if p.chance(p.h.WrongStand) {
		for j, z := range zones {
			if z.Kind == rules.Hand && z.Owner != zones[d.i].Owner {
				p.misplace = map[int]int{d.i: j}
				break
			}
		}
	}
	switch {
	case p.chance(p.h.LateStand):
		return slices.Delete(slices.Clone(dests), k, k+1), &d
	case p.chance(p.h.EarlyStand):
		out := append([]loc{d}, dests[:k]...)
		return append(out, dests[k+1:]...), nil
	}
	return dests, nil
}

// fill brings every arriving piece of d.
func (p *planner) fill(d loc, from rules.Square) {
	var here []addition
	for _, a := range p.add {
		if a.at == d {
			here = append(here, a)
		}
	}
	p.liftSources(d, here)
	for i := 0; i < len(here); {
		a := here[i]
		var r *removal
		if a.src >= 0 {
			r = &p.rem[a.src]
		}
		if r != nil && r.at.zone {
			p.emit(Step{Op: OpTake, Zone: r.at.i, Piece: r.p})
		}
		if d.zone {
			p.putInZone(d, a.p)
			i++
			continue
		}
		j := p.pinched(here, i, r)
		p.placeOnSquare(rules.Square(d.i), here[i:j], r, from)
		i = j
	}
}

// liftSources lifts the sources of the pieces arriving at d (here) first;
// a capture on d is lifted before or after the mover's pieces.
func (p *planner) liftSources(d loc, here []addition) {
	if !d.zone && p.chance(0.5) {
		p.liftSquare(rules.Square(d.i))
	}
	for _, a := range here {
		if a.src >= 0 && !p.rem[a.src].at.zone {
			p.liftSquare(rules.Square(p.rem[a.src].at.i))
		}
	}
	if !d.zone {
		p.liftSquare(rules.Square(d.i))
	}
}

// putInZone puts pc in zone d, or in the zone it is misplaced to
// (WrongStand), noting it to move after the press.
func (p *planner) putInZone(d loc, pc rules.Piece) {
	z, wrong := p.misplace[d.i]
	if !wrong {
		z = d.i
	}
	p.emit(Step{Op: OpPut, Zone: z, Piece: pc})
	if wrong {
		p.misplaced = append(p.misplaced, Step{Zone: z, N: d.i, Piece: pc})
	}
}

// pinched returns the end of the group of arriving pieces here[i:] that
// land together: a pinch of several pieces from one square, which r, the
// source of here[i], is; else here[i] alone.
func (p *planner) pinched(here []addition, i int, r *removal) int {
	j := i + 1
	if r == nil || r.at.zone || !p.pinch[rules.Square(r.at.i)] {
		return j
	}
	for j < len(here) && here[j].src == here[j-1].src+1 && p.rem[here[j].src].at == r.at &&
		here[j].p == p.rem[here[j].src].p {
		j++
	}
	return j
}

// placeOnSquare places the group of arriving pieces on sq, whose first
// comes from r (nil: from the box): a single piece may slide there from
// the move's from square (Slide), or be placed on its old face and turned
// (TurnAfter).
func (p *planner) placeOnSquare(sq rules.Square, group []addition, r *removal, from rules.Square) {
	pieces := make([]rules.Piece, 0, len(group))
	for _, b := range group {
		pieces = append(pieces, b.p)
	}
	single := len(group) == 1
	if r != nil && !r.at.zone && single && rules.Square(r.at.i) == from && p.chance(p.h.Slide) {
		p.slide(from, sq, pieces[0])
	}
	a := group[0]
	if single && r != nil && r.p.Face != a.p.Face && p.chance(p.h.TurnAfter) {
		old := a.p
		old.Face = r.p.Face
		p.emit(Step{Op: OpPlace, Square: sq, Pieces: []rules.Piece{old}})
		p.emit(Step{Op: OpTurn, Square: sq, Face: a.p.Face})
		return
	}
	p.emit(Step{Op: OpPlace, Square: sq, Pieces: pieces})
}

// slide drags pc from a to b across the empty squares between them on a
// straight line, touching each one briefly.
func (p *planner) slide(a, b rules.Square, pc rules.Piece) {
	fa, ra := p.g.Coords(a)
	fb, rb := p.g.Coords(b)
	df, dr := cmp.Compare(fb, fa), cmp.Compare(rb, ra)
	straight := df == 0 || dr == 0 || abs(fb-fa) == abs(rb-ra)
	if !straight || (df == 0 && dr == 0) {
		return
	}
	var path []rules.Square
	for f, r := fa+df, ra+dr; f != fb || r != rb; f, r = f+df, r+dr {
		sq := p.g.Square(f, r)
		if sq == rules.NoSquare || len(p.cur.Stacks[sq]) != 0 {
			return
		}
		path = append(path, sq)
	}
	for _, sq := range path {
		p.t += span(p.rng, p.h.Glide) - span(p.rng, p.h.Hand)
		p.emit(Step{Op: OpPlace, Square: sq, Pieces: []rules.Piece{pc}})
		p.t += span(p.rng, p.h.Glide) - span(p.rng, p.h.Hand)
		p.emit(Step{Op: OpLift, Square: sq, N: 1})
	}
}

// adjust presses the adjust button, straightens a piece not involved in
// the move and presses again.
func (p *planner) adjust(from, to rules.Square, mover rules.Color) {
	var cands []rules.Square
	for sq, st := range p.cur.Stacks {
		s := rules.Square(sq)
		if len(st) > 0 && s != from && s != to && p.removedAt(s) == 0 && !p.arrives(s) {
			cands = append(cands, s)
		}
	}
	if len(cands) == 0 {
		return
	}
	sq := cands[p.rng.IntN(len(cands))]
	side := board.SideOf(mover)
	p.emit(Step{Op: OpPress, Button: board.ButtonAdjust, Side: side})
	top := p.cur.Stacks[sq][len(p.cur.Stacks[sq])-1]
	p.emit(Step{Op: OpLift, Square: sq, N: 1})
	p.emit(Step{Op: OpPlace, Square: sq, Pieces: []rules.Piece{top}})
	p.emit(Step{Op: OpPress, Button: board.ButtonAdjust, Side: side})
}

func (p *planner) arrives(sq rules.Square) bool {
	for _, a := range p.add {
		if !a.at.zone && a.at.i == int(sq) {
			return true
		}
	}
	return false
}

// PlanKnock returns the actions of a stack on sq knocked over onto its
// empty neighbours (or off the board) and set up again, bottom first.
func PlanKnock(g *rules.Geometry, v rules.View, sq rules.Square, h Human, rng *rand.Rand) []Step {
	p := &planner{g: g, rng: rng, h: h, cur: v.Clone()}
	st := slices.Clone(v.Stacks[sq])
	if len(st) == 0 {
		return nil
	}
	p.emit(Step{Op: OpLift, Square: sq, N: len(st)})
	// The pieces scatter onto empty neighbours, one each.
	f, r := g.Coords(sq)
	var spots []rules.Square
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}} {
		n := g.Square(f+d[0], r+d[1])
		if n != rules.NoSquare && len(v.Stacks[n]) == 0 && len(spots) < len(st) {
			spots = append(spots, n)
		}
	}
	p.t -= span(rng, h.Hand)
	for i, n := range spots {
		p.emit(Step{Op: OpPlace, Square: n, Pieces: []rules.Piece{st[len(st)-1-i]}})
	}
	p.t += time.Second
	for _, n := range spots {
		p.emit(Step{Op: OpLift, Square: n, N: 1})
	}
	for _, pc := range st {
		p.emit(Step{Op: OpPlace, Square: sq, Pieces: []rules.Piece{pc}})
	}
	return p.steps
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
