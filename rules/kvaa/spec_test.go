package kvaa

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// The worked positions of the spec's section 9, with the counts and lists
// given there, run through the engine and through the reference
// implementation.

var allPlacements = []string{"4.5.1.1", "4.5.1.2", "4.5.1.3", "4.5.1.4"}

type specCount struct {
	name  string
	kps   string
	opts  []string // each option set the figure holds for
	count int
	turns []string // the exhaustive list, when the spec gives it
}

// each returns opts with every placement variant added.
func each(opts ...string) []string {
	var out []string
	for _, o := range opts {
		for _, p := range allPlacements {
			if o == "" {
				out = append(out, "placement="+p)
			} else {
				out = append(out, o+",placement="+p)
			}
		}
	}
	return out
}

const (
	kpsT1  = "NN./NN/.../SS/.SS S 6 6 - - 0 1"
	kpsT2  = "N../.N/.S./S./... S 0 0 - - 0 20"
	kpsT8  = "N../S./.S./SS/N.N N 3 2 - - 0 25"
	kpsT9  = "NN./N./.../NS/.SS S 6 6 - - 0 2"
	kpsT14 = "NNN/.N/.../SS/..S S 3 2 - - 0 15"
)

var specCounts = []specCount{
	{"T1 R2", kpsT1, each("scheme=R2,capture=optional", "scheme=R2,capture=compulsory"), 5,
		[]string{"b2-a1", "b2-a3", "b2-c3", "d2-c3", "d2-e3"}},
	{"T1 R3", kpsT1, []string{"scheme=R3"}, 5, []string{"b2-a1", "b2-a3", "b2-c3", "d2-c3", "d2-e3"}},
	{"T1 R7", kpsT1, []string{"scheme=R7"}, 7, []string{"b2-a1", "b2-a3", "b2-c3", "d2-c3", "d2-e3", "c1-a1", "e1-e3"}},
	{"T1 R4 R5", kpsT1, []string{"scheme=R4", "scheme=R5"}, 8,
		[]string{"b2-a1", "b2-a3", "b2-c3", "d2-c3", "d2-e3", "c1-a1", "c1-c3", "e1-e3"}},
	{"T1 North R2", "NN./NN/.../SS/.SS N 6 6 - - 0 1", []string{"scheme=R2"}, 5,
		[]string{"b4-a3", "b4-c3", "d4-c3", "d4-e3", "d4-e5"}},
	{"T1 North R5", "NN./NN/.../SS/.SS N 6 6 - - 0 1", []string{"scheme=R5"}, 8,
		[]string{"b4-a3", "b4-c3", "d4-c3", "d4-e3", "d4-e5", "a5-a3", "c5-c3", "c5-e5"}},

	{"T2 R2 optional", kpsT2, []string{"scheme=R2"}, 6,
		[]string{"b2-a1", "b2-c1", "b2-a3", "c3-d2", "c3-b4", "c3xe5"}},
	{"T2 compulsory", kpsT2, []string{"scheme=R2,capture=compulsory", "scheme=R5,capture=compulsory"}, 1, []string{"c3xe5"}},
	{"T2 R5 optional", kpsT2, []string{"scheme=R5"}, 12, []string{
		"b2-a1", "b2-c1", "b2-d2", "b2-a3", "b2-b4",
		"c3-c1", "c3-d2", "c3-a3", "c3-e3", "c3-b4", "c3-c5", "c3xe5"}},
	{"T2 R3", kpsT2, []string{"scheme=R3"}, 8, nil},
	{"T2 R4", kpsT2, []string{"scheme=R4"}, 10, nil},
	{"T2 R7", kpsT2, []string{"scheme=R7"}, 6, nil},

	{"T3 mirror", "N.N/../.S./../... S 0 0 c3-b2 - 4 30", []string{"scheme=R2"}, 3,
		[]string{"c3-d2", "c3-b4", "c3-d4"}},
	{"T4 optional", "N../../.S./N./... S 0 0 c3-b2 - 1 31", []string{"scheme=R2"}, 4,
		[]string{"c3-d2", "c3-b4", "c3-d4", "c3xa1"}},
	{"T4 compulsory", "N../../.S./N./... S 0 0 c3-b2 - 1 31", []string{"capture=compulsory"}, 1, []string{"c3xa1"}},

	{"T5 R2", ".../.N/.N./../S.. S 0 0 a1-b2 - 2 30", []string{"scheme=R2"}, 0, nil},
	{"T5 North", ".../.N/.N./../S.. N 0 0 a1-b2 - 2 30", []string{"scheme=R2"}, 6,
		[]string{"c3-b2", "c3-d2", "c3-b4", "d4-e3", "d4-c5", "d4-e5"}},
	{"T5 R7", ".../.N/.N./../S.. S 0 0 a1-b2 - 2 30", []string{"scheme=R7"}, 2, []string{"a1-c1", "a1-a3"}},
	{"T6 R2", ".../../.N./N./S.. S 0 0 - - 0 30", []string{"scheme=R2"}, 0, nil},
	{"T6 R5", ".../../.N./N./S.. S 0 0 - - 0 30", []string{"scheme=R5"}, 2, []string{"a1-c1", "a1-a3"}},

	{"T7 optional", ".../.N/.S./../... S 0 0 - - 0 30", []string{"scheme=R2"}, 4,
		[]string{"c3-b2", "c3-d2", "c3-b4", "c3xe5"}},
	{"T7 compulsory", ".../.N/.S./../... S 0 0 - - 0 30", []string{"capture=compulsory"}, 1, []string{"c3xe5"}},
	{"T7 reserve", "..S/../.../../... N 0 1 - - 0 30", []string{"placement=4.5.1.4"}, 12, nil},

	{"T8 R2", kpsT8, each("scheme=R2"), 6, []string{"@c1", "@a3", "@e3", "@d4", "@c5", "@e5"}},
	{"T8 no reserve", "N../S./.S./SS/N.N N 3 0 - - 0 25", each("scheme=R2"), 0, nil},
	{"T8 RING 4.5.1.1", kpsT8, []string{"scheme=R4,placement=4.5.1.1", "scheme=R5,placement=4.5.1.1", "scheme=R7,placement=4.5.1.1"}, 36, nil},
	{"T8 RING 4.5.1.2", kpsT8, []string{"scheme=R4,placement=4.5.1.2", "scheme=R5,placement=4.5.1.2", "scheme=R7,placement=4.5.1.2"}, 30, nil},
	{"T8 RING 4.5.1.3", kpsT8, []string{"scheme=R4,placement=4.5.1.3", "scheme=R5,placement=4.5.1.3", "scheme=R7,placement=4.5.1.3"}, 6, nil},
	{"T8 RING 4.5.1.4", kpsT8, []string{"scheme=R4,placement=4.5.1.4", "scheme=R5,placement=4.5.1.4", "scheme=R7,placement=4.5.1.4"}, 12, nil},

	{"T9 moves", "NN./N./.../NS/.SS S 0 6 - - 0 2", []string{"scheme=R2"}, 3, []string{"d2-c3", "d2-e3", "c1xa3"}},
	{"T9 P1", kpsT9, []string{"placement=4.5.1.1"}, 19, nil},
	{"T9 P2", kpsT9, []string{"placement=4.5.1.2"}, 15, nil},
	{"T9 P3", kpsT9, []string{"placement=4.5.1.3"}, 6, []string{"@a1", "@a3", "@c3", "@e3", "@d4", "@e5"}},
	{"T9 P4", kpsT9, []string{"placement=4.5.1.4"}, 9, []string{
		"d2-c3", "d2-e3", "c1xa3", "@a1", "@a3", "@c3", "@e3", "@d4", "@e5"}},
	{"T9 P1 compulsory", kpsT9, []string{"placement=4.5.1.1,capture=compulsory"}, 7, []string{
		"c1xa3,@a1", "c1xa3,@c1", "c1xa3,@b2", "c1xa3,@c3", "c1xa3,@e3", "c1xa3,@d4", "c1xa3,@e5"}},
	{"T9 P2 compulsory", kpsT9, []string{"placement=4.5.1.2,capture=compulsory"}, 7, []string{
		"@a1,c1xa3", "@c3,c1xa3", "@e3,c1xa3", "@d4,c1xa3", "@e5,c1xa3", "@a3,d2-c3", "@a3,d2-e3"}},
	{"T9 P3 compulsory", kpsT9, []string{"placement=4.5.1.3,capture=compulsory"}, 6, nil},
	{"T9 P4 compulsory", kpsT9, []string{"placement=4.5.1.4,capture=compulsory"}, 1, []string{"c1xa3"}},
	{"T9 R7 P2", kpsT9, []string{"scheme=R7,placement=4.5.1.2"}, 25, nil},
	{"T9 R7 P2 compulsory", kpsT9, []string{"scheme=R7,placement=4.5.1.2,capture=compulsory"}, 9, nil},

	{"T10 R2", ".../../.../../SN. S 0 0 - - 0 30", []string{"scheme=R2"}, 1, []string{"a1-b2"}},
	{"T10 RING", ".../../.../../SN. S 0 0 - - 0 30", []string{"scheme=R7", "scheme=R4", "scheme=R5"}, 3,
		[]string{"a1-b2", "a1-a3", "a1xe1"}},
	{"T10 compulsory", ".../../.../../SN. S 0 0 - - 0 30", []string{"scheme=R7,capture=compulsory"}, 1, []string{"a1xe1"}},
	{"T11 R2 R3", ".../../.N./../.S. S 0 0 - - 0 30", []string{"scheme=R2", "scheme=R3"}, 2, []string{"c1-b2", "c1-d2"}},
	{"T11 R7", ".../../.N./../.S. S 0 0 - - 0 30", []string{"scheme=R7"}, 4, []string{"c1-b2", "c1-d2", "c1-a1", "c1-e1"}},
	{"T11 R4 R5", ".../../.N./../.S. S 0 0 - - 0 30", []string{"scheme=R4", "scheme=R5"}, 5,
		[]string{"c1-b2", "c1-d2", "c1-a1", "c1-e1", "c1xc5"}},
	{"T11 compulsory", ".../../.N./../.S. S 0 0 - - 0 30", []string{"scheme=R4,capture=compulsory", "scheme=R5,capture=compulsory"}, 1, []string{"c1xc5"}},

	{"T12 R2", ".../../.../../S.N S 0 0 a1-b2 e1-d2 2 40", []string{"scheme=R2"}, 0, nil},
	{"T12 North", ".../../.../../S.N N 0 0 a1-b2 e1-d2 2 40", []string{"scheme=R2"}, 0, nil},
	{"T12 R7", ".../../.../../S.N S 0 0 a1-b2 e1-d2 2 40", []string{"scheme=R7"}, 2, []string{"a1-c1", "a1-a3"}},

	{"T13", "N.N/../.../../SSS S 0 0 - - 39 60", []string{"scheme=R2"}, 4, []string{"a1-b2", "c1-b2", "c1-d2", "e1-d2"}},
	{"T13 three", "NNN/../.../../SSS S 0 0 - - 39 60", []string{"scheme=R2"}, 4, []string{"a1-b2", "c1-b2", "c1-d2", "e1-d2"}},

	{"T14 P1", kpsT14, []string{"placement=4.5.1.1"}, 42, nil},
	{"T14 P2", kpsT14, []string{"placement=4.5.1.2"}, 35, nil},
	{"T14 P3", kpsT14, []string{"placement=4.5.1.3"}, 6, nil},
	{"T14 P4", kpsT14, []string{"placement=4.5.1.4"}, 13, nil},
}

func TestSpecCounts(t *testing.T) {
	for _, c := range specCounts {
		for _, opts := range c.opts {
			t.Run(c.name+"/"+opts, func(t *testing.T) {
				g := newGame(t, opts)
				s := mustState(t, g, c.kps)
				got := turnStrings(g, &s)
				assert.Len(t, got, c.count, "turns %v", got)
				if c.turns != nil {
					assert.Equal(t, sorted(c.turns), got)
				}
				assert.Equal(t, uint64(c.count), g.Perft(&s, 1))
				rr := refRulesOf(g.cfg)
				assert.Equal(t, got, sorted(rr.legal(refParse(c.kps))), "reference")
			})
		}
	}
}

// placementsOf counts, per placement cell, the 4.5.1.2 turns that start
// with it.
func placementsOf(ts []string) map[string]int {
	m := map[string]int{}
	for _, t := range ts {
		if p, _, ok := strings.Cut(t, ","); ok && strings.HasPrefix(p, "@") {
			m[p]++
		}
	}
	return m
}

// movesBefore counts, per move, the 4.5.1.1 turns that start with it.
func movesBefore(ts []string) map[string]int {
	m := map[string]int{}
	for _, t := range ts {
		if mv, _, ok := strings.Cut(t, ","); ok {
			m[mv]++
		}
	}
	return m
}

func TestSpecBreakdowns(t *testing.T) {
	tests := []struct {
		name, opts, kps string
		split           func([]string) map[string]int
		want            map[string]int
	}{
		{"T9 P1", "placement=4.5.1.1", kpsT9, movesBefore, map[string]int{"d2-c3": 6, "d2-e3": 6, "c1xa3": 7}},
		{"T9 P2", "placement=4.5.1.2", kpsT9, placementsOf,
			map[string]int{"@a1": 3, "@a3": 2, "@c3": 2, "@e3": 2, "@d4": 3, "@e5": 3}},
		{"T9 R7 P2", "scheme=R7,placement=4.5.1.2", kpsT9, placementsOf,
			map[string]int{"@a1": 4, "@a3": 4, "@c3": 4, "@e3": 3, "@d4": 5, "@e5": 5}},
		{"T9 R7 P2 compulsory", "scheme=R7,placement=4.5.1.2,capture=compulsory", kpsT9, placementsOf,
			map[string]int{"@a1": 1, "@a3": 4, "@c3": 1, "@e3": 1, "@d4": 1, "@e5": 1}},
		{"T14 P1", "placement=4.5.1.1", kpsT14, movesBefore, map[string]int{
			"b2-a1": 6, "b2-c1": 6, "b2-a3": 6, "b2-c3": 6, "d2-c1": 6, "d2-c3": 6, "d2-e3": 6}},
		{"T14 P2", "placement=4.5.1.2", kpsT14, placementsOf,
			map[string]int{"@a1": 6, "@c1": 5, "@a3": 6, "@c3": 5, "@e3": 6, "@b4": 7}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, tc.opts)
			s := mustState(t, g, tc.kps)
			assert.Equal(t, tc.want, tc.split(turnStrings(g, &s)))
		})
	}
}

func TestSpecEndings(t *testing.T) {
	tests := []struct {
		name, opts, kps string
		play            string // a turn to play first, if any
		want            rules.Outcome
		term            Termination
	}{
		{"T5 mirror-blocked", "scheme=R2", ".../.N/.N./../S.. S 0 0 a1-b2 - 2 30", "",
			rules.Win(North, rules.NoMoves), MirrorBlocked},
		{"T5 R7 goes on", "scheme=R7", ".../.N/.N./../S.. S 0 0 a1-b2 - 2 30", "", rules.Outcome{}, Unterminated},
		{"T6 blocked", "scheme=R2", ".../../.N./N./S.. S 0 0 - - 0 30", "", rules.Win(North, rules.NoMoves), Blocked},
		{"T7 captured-all", "scheme=R2", ".../.N/.S./../... S 0 0 - - 0 30", "c3xe5",
			rules.Win(South, rules.NoPieces), CapturedAll},
		{"T7 reserve left", "placement=4.5.1.4", ".../.N/.S./../... S 0 1 - - 0 30", "c3xe5", rules.Outcome{}, Unterminated},
		{"T8 blocked owing nothing", "scheme=R2", "N../S./.S./SS/N.N N 3 0 - - 0 25", "",
			rules.Win(South, rules.NoMoves), Blocked},
		{"T8 placement saves", "scheme=R2", kpsT8, "", rules.Outcome{}, Unterminated},
		{"T12 mutual block", "scheme=R2", ".../../.../../S.N S 0 0 a1-b2 e1-d2 2 40", "",
			rules.Draw(rules.NoMoves), MutualBlock},
		{"T12 R7", "scheme=R7", ".../../.../../S.N S 0 0 a1-b2 e1-d2 2 40", "", rules.Outcome{}, Unterminated},
		{"T13 no-progress", "scheme=R2", "N.N/../.../../SSS S 0 0 - - 39 60", "a1-b2",
			rules.Win(South, rules.MoveCountRule), NoProgress},
		{"T13 no-progress draw", "scheme=R2", "NNN/../.../../SSS S 0 0 - - 39 60", "c1-d2",
			rules.Draw(rules.MoveCountRule), NoProgress},
		{"T13 adjudicated draw", "adjudication=draw", "N.N/../.../../SSS S 0 0 - - 39 60", "e1-d2",
			rules.Draw(rules.MoveCountRule), NoProgress},
		{"T13 rule off", "no_progress_plies=0", "N.N/../.../../SSS S 0 0 - - 39 60", "e1-d2",
			rules.Outcome{}, Unterminated},
		{"material total", "adjudication=material_total", "NNN/../.../../SSS S 0 3 - - 39 60", "e1-d2",
			rules.Win(North, rules.MoveCountRule), NoProgress},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, tc.opts)
			p, err := g.ParsePosition(tc.kps)
			require.NoError(t, err)
			pos := p.(*Position)
			if tc.play != "" {
				m, err := pos.ParseMove(tc.play)
				require.NoError(t, err)
				next, err := pos.Play(m)
				require.NoError(t, err)
				pos = next.(*Position)
			}
			o, term := pos.End(nil)
			assert.Equal(t, tc.want, o)
			assert.Equal(t, tc.term, term)
			assert.Equal(t, tc.want, pos.Outcome(nil))
			if tc.opts == "scheme=R2" || tc.opts == "scheme=R7" {
				rr := refRulesOf(g.cfg)
				res, rterm := rr.judge(refParse(pos.String()))
				if term != NoProgress {
					assert.Equal(t, term, rterm, "reference")
					assert.Equal(t, tc.want.Result.String(), res, "reference")
				}
			}
		})
	}
}

func TestRepetition(t *testing.T) {
	// Two counters each shuffle between cells without repeating a step at
	// once (rule 4.6), so the cycle takes four turns per side. From the
	// second turn on, the keys of the first round recur (the forbidden steps
	// of the start are gone by then), so the third occurrence comes on the
	// second turn of the third round.
	g := newGame(t, "no_progress_plies=0")
	p, err := g.ParsePosition("N.N/../.../../S.S S 0 0 - - 0 1")
	require.NoError(t, err)
	cycle := []string{"a1-b2", "a5-b4", "e1-d2", "e5-d4", "b2-a1", "b4-a5", "d2-e1", "d4-e5"}
	var history []rules.Position
	for round := range 3 {
		for i, mv := range cycle {
			m, err := p.ParseMove(mv)
			require.NoError(t, err, "round %d turn %s", round, mv)
			next, err := p.Play(m)
			require.NoError(t, err)
			history = append(history, p)
			p = next
			o := p.Outcome(history)
			if round == 2 && i == 1 {
				assert.Equal(t, rules.Draw(rules.Repetition), o)
				_, term := p.(*Position).End(history)
				assert.Equal(t, RepetitionEnd, term)
				assert.Equal(t, 3, rules.CountKey(history, p))
				return
			}
			assert.False(t, o.Over(), "round %d turn %d: %v", round, i, o)
		}
	}
	t.Fatal("no repetition")
}

// The record examples of 6.5, all legal from the standard position.
func TestSpecRecordExamples(t *testing.T) {
	tests := []struct {
		placement, movetext, want string
	}{
		{"4.5.1.2", "1. b2-c3 d4xb2 2. @d4,c1xa3 @c3,c5xe3 3. @d4,a3xc5 *", "NS./.S/.NN/.S/..S N 4 5 - - 0 3"},
		{"4.5.1.1", "1. b2-c3 d4xb2 2. c1xa3,@b2 *", "NN./N./S../SS/..S N 5 6 - - 0 2"},
		{"4.5.1.3", "1. b2-c3 d4xb2 2. @c3 b2xd4 *", "NN./NN/.../.S/.SS S 5 6 - - 0 3"},
		{"4.5.1.4", "1. b2-c3 d4xb2 2. c1xa3 @c3 *", "NN./N./SN./.S/..S S 6 5 - - 0 3"},
	}
	for _, tc := range tests {
		t.Run(tc.placement, func(t *testing.T) {
			text := fmt.Sprintf("[Scheme \"R2\"]\n[Capture \"optional\"]\n[Placement %q]\n[First \"S\"]\n[Setup \"standard\"]\n[Result \"*\"]\n\n%s\n", tc.placement, tc.movetext)
			r, err := ParseRecord(text)
			require.NoError(t, err)
			_, ps, err := r.Replay()
			require.NoError(t, err)
			last := ps[len(ps)-1]
			assert.Equal(t, tc.want, last.String())
		})
	}
}
