package arbiter_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"arbiter/arbiter"
	"arbiter/rules"
)

// TestWalksKeepModesConsistent runs random walks of a game on a board
// (legal moves made piece by piece in any order, pieces lifted and put
// back, presses by either side, adjustments, answers, lost frames, dumps,
// the board's log, the arbiter's take-backs and answers, moves the daemon
// could not store) through the
// scenario runner, and checks after every line that the session's mode
// and the facts kept beside it are consistent (arbiter.Consistent). A
// failing walk is printed as the scenario file that replays it.
func TestWalksKeepModesConsistent(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 30
	}
	for seed := range uint64(n) {
		walk(t, seed, 120)
	}
}

// FuzzWalks runs longer random walks from any seed.
func FuzzWalks(f *testing.F) {
	for seed := range uint64(5) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { walk(t, seed, 400) })
}

// walker writes a random walk's scenario lines and runs them.
type walker struct {
	sc    *scenario
	r     *rand.Rand
	at    float64 // the instant, in seconds
	lines []string
	moves []string // the candidates of the last question asked
	stale bool     // frames were lost: some changes go unseen until a dump
}

var walkGames = []string{"chess", "shogi", "tavreli", "kvaa", "tensor"}

func walk(t *testing.T, seed uint64, steps int) {
	t.Helper()
	w := &walker{sc: &scenario{t: t, file: fmt.Sprintf("walk %d", seed)}, r: rand.New(rand.NewPCG(seed, 36))}
	defer func() {
		if t.Failed() {
			t.Logf("walk %d as a scenario file:\n%s", seed, strings.Join(w.lines, "\n"))
		}
	}()
	w.run("game " + walkGames[w.r.IntN(len(walkGames))])
	w.run("caps " + pick(w.r, "heights", "heights+kind+color", "heights+kind+face+color", "heights+zones", "kind+face+zones"))
	w.run(fmt.Sprintf("config completion=%s touch=%s penalty=%s setup=%s boardtime=%s",
		pick(w.r, "press", "release"), pick(w.r, "strict", "report", "off"), pick(w.r, "report", "chess", "loss"),
		pick(w.r, "await", "now", "now"), pick(w.r, "on", "off")))
	if w.r.IntN(2) == 0 {
		w.run("clock " + pick(w.r, "5m", "1m", "10m"))
	}
	for range steps {
		w.step()
		if t.Failed() || w.sc.s != nil && w.sc.s.Outcome().Over() && w.r.IntN(8) == 0 {
			return
		}
	}
}

func pick(r *rand.Rand, words ...string) string { return words[r.IntN(len(words))] }

// run runs one line, then checks the session.
func (w *walker) run(line string) {
	w.sc.t.Helper()
	w.lines = append(w.lines, line)
	w.sc.line = len(w.lines)
	w.sc.step(line)
	for _, p := range w.sc.pending {
		if m, ok := strings.CutPrefix(p, "prompt "); ok {
			w.moves = strings.Fields(m)
		}
	}
	w.sc.pending, w.sc.full = nil, nil
	if w.sc.s == nil {
		return // a setting: no session yet
	}
	if err := arbiter.Consistent(w.sc.s); err != nil {
		w.sc.fail("after %q: the session is inconsistent: %v", line, err)
	}
}

// event runs an event line at an instant up to most seconds later.
func (w *walker) event(most float64, format string, args ...any) {
	w.at += w.r.Float64() * most
	w.run(fmt.Sprintf("%.3f ", w.at) + fmt.Sprintf(format, args...))
}

func (w *walker) side() string {
	turn := rules.First
	if w.sc.s != nil {
		turn = w.sc.s.Position().Turn()
	}
	if w.r.IntN(5) == 0 {
		turn = turn.Other()
	}
	return map[rules.Color]string{rules.First: "first", rules.Second: "second"}[turn]
}

// walkSteps are what a walk does, each with its weight.
var walkSteps = []struct {
	weight int
	do     func(w *walker)
}{
	{35, (*walker).move},
	{5, (*walker).liftAndPutBack},
	{15, func(w *walker) { w.event(0.5, "%spress %s", w.unseen(), w.side()) }},
	{13, func(w *walker) { w.event(pickSeconds(w.r), "tick") }},
	{4, func(w *walker) { w.event(0.3, "adjust %s", w.side()) }},
	{2, func(w *walker) { w.stale = true; w.event(0.1, "gap") }},
	{4, func(w *walker) { w.stale = false; w.event(0.3, "dump") }},
	{6, func(w *walker) {
		w.event(0.3, "%s", pick(w.r, "heartbeat", "link-lost", "link-restored", "call first"))
	}},
	{5, func(w *walker) { w.event(1, "answer %s %s", w.side(), pick(w.r, "0", "1", "2", "lost", "yes", "no")) }},
	{4, func(w *walker) {
		if len(w.moves) > 0 {
			w.event(1, "resolve %s", w.moves[w.r.IntN(len(w.moves))])
		}
	}},
	{2, func(w *walker) { w.event(1, "takeback") }},
	{3, func(w *walker) {
		// The daemon fails to store the moves from a ply on, or has
		// stored them all.
		plies := 0
		if w.sc.s != nil {
			plies = w.sc.s.Plies()
		}
		w.event(1, "unstored %d", []int{0, 0, plies, plies + 1}[w.r.IntN(4)])
	}},
	{1, func(w *walker) { w.event(1, "claim %s", w.side()) }},
	{2, func(w *walker) { w.event(1, "recall") }},
	{2, func(w *walker) {
		if zs := len(w.game().Geometry().Zones()); zs > 0 {
			w.event(0.3, "zone %d %d", w.r.IntN(zs), w.r.IntN(3))
		}
	}},
}

func (w *walker) step() {
	total := 0
	for _, s := range walkSteps {
		total += s.weight
	}
	n := w.r.IntN(total)
	for _, s := range walkSteps {
		if n < s.weight {
			s.do(w)
			return
		}
		n -= s.weight
	}
}

func pickSeconds(r *rand.Rand) float64 {
	return []float64{0.2, 1, 6, 12, 40}[r.IntN(5)]
}

func (w *walker) game() rules.Game { return w.sc.game }

// unseen makes a change go unseen now and then while frames are lost.
func (w *walker) unseen() string {
	if w.stale && w.r.IntN(2) == 0 {
		return "unseen "
	}
	return ""
}

// move makes a legal move of the session's position piece by piece:
// the lifts, then the pieces set down, each in any order (now and then
// all in any order).
func (w *walker) move() {
	if w.sc.s == nil {
		w.event(0.3, "tick")
		return
	}
	pos := w.sc.s.Position()
	legal := pos.Legal()
	if len(legal) == 0 {
		return
	}
	next, err := pos.Play(legal[w.r.IntN(len(legal))])
	if err != nil {
		w.sc.fail("play: %v", err)
	}
	geo := w.game().Geometry()
	var lifts, places []string
	for sq, st := range next.View().Stacks {
		name := geo.Name(rules.Square(sq))
		h := w.sc.heights[sq]
		top := topText(st)
		switch {
		case len(st) < h:
			lifts = append(lifts, fmt.Sprintf("set %s %d", name, len(st)))
		case len(st) > h:
			places = append(places, fmt.Sprintf("set %s %d %s", name, len(st), top))
		case len(st) > 0 && top != topText(pos.View().Stacks[sq]):
			lifts = append(lifts, fmt.Sprintf("set %s %d", name, h-1))
			places = append(places, fmt.Sprintf("set %s %d %s", name, h, top))
		}
	}
	w.r.Shuffle(len(lifts), func(i, j int) { lifts[i], lifts[j] = lifts[j], lifts[i] })
	w.r.Shuffle(len(places), func(i, j int) { places[i], places[j] = places[j], places[i] })
	all := slices.Concat(lifts, places)
	if w.r.IntN(5) == 0 {
		w.r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	}
	for _, c := range all {
		w.event(0.4, "%s%s", w.unseen(), c)
	}
}

// liftAndPutBack lifts a piece and puts it back.
func (w *walker) liftAndPutBack() {
	if w.sc.s == nil {
		return
	}
	sq := rules.Square(w.r.IntN(len(w.sc.heights)))
	if w.sc.heights[sq] == 0 {
		return
	}
	name := w.game().Geometry().Name(sq)
	top := topText(w.sc.s.Position().View().Stacks[sq])
	w.event(0.3, "lift %s", name)
	w.event(1.5, "place %s 1 %s", name, top)
}

// topText writes a stack's top piece as the scenario lines do ("Q",
// "p", "S+"), or "" when the letters cannot say it.
func topText(st []rules.Piece) string {
	if len(st) == 0 {
		return ""
	}
	p := st[len(st)-1]
	k := byte(p.Kind)
	if k < 'A' || k > 'Z' {
		return ""
	}
	if p.Color == rules.Second {
		k += 'a' - 'A'
	}
	if p.Face == rules.Back {
		return string(k) + "+"
	}
	return string(k)
}
