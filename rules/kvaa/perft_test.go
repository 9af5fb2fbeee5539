package kvaa

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/scenariotest"
	"arbiter/rules"
)

// perftSets are the option sets of testdata/perft.txt.
var perftSets = []string{
	"",
	"placement=4.5.1.1",
	"placement=4.5.1.3,capture=compulsory",
	"placement=4.5.1.4,scheme=R7",
	"scheme=R5,capture=compulsory",
	"scheme=R3+R7,placement=4.5.1.4,capture=compulsory,p4_capture_blocks_placement=false",
	"scheme=R4,mirror_rule=off,p2_fallback=per_placement",
	"scheme=D+SPOKE,placement=4.5.1.1,first_player=N",
}

// perftDepth is the depth of the table, which the reference implementation
// computed (-rewrite computes it again).
const perftDepth = 6

// TestPerftTable checks the engine's perft from the start position against
// the table the reference implementation wrote, and, to a smaller depth,
// against the reference itself.
func TestPerftTable(t *testing.T) {
	path := filepath.Join("testdata", "perft.txt")
	if scenariotest.Rewriting() {
		var b strings.Builder
		b.WriteString("# perft from the start position, computed by the reference implementation\n")
		b.WriteString("# options<TAB>depth 1 ... depth 6\n")
		for _, opts := range perftSets {
			g := newGame(t, opts)
			rr := refRulesOf(g.cfg)
			start := refParse(g.StartState().String())
			var counts []string
			for d := 1; d <= perftDepth; d++ {
				counts = append(counts, strconv.FormatUint(rr.perft(start, d), 10))
			}
			fmt.Fprintf(&b, "%s\t%s\n", opts, strings.Join(counts, " "))
		}
		scenariotest.Golden(t, path, []byte(b.String()))
	}
	refDepth := 4
	if !testing.Short() {
		refDepth = 5
	}
	n := 0
	for _, c := range scenariotest.Read(t, path, scenariotest.Syntax{}).Commands {
		// "options<TAB>counts"; the default options are none, and the
		// tab before the counts is trimmed with the line's space.
		opts, counts, ok := strings.Cut(c.Text, "\t")
		if !ok {
			opts, counts = "", c.Text
		}
		n++
		t.Run(opts, func(t *testing.T) {
			g := newGame(t, opts)
			s := g.StartState()
			rr := refRulesOf(g.cfg)
			pos, err := rules.New("kvaa", g.Options())
			require.NoError(t, err)
			for i, c := range strings.Fields(counts) {
				want, err := strconv.ParseUint(c, 10, 64)
				require.NoError(t, err)
				d := i + 1
				assert.Equal(t, want, g.Perft(&s, d), "depth %d", d)
				assert.Equal(t, want, rules.Perft(pos.Start(), d), "rules.Perft depth %d", d)
				if d <= refDepth {
					assert.Equal(t, want, rr.perft(refParse(s.String()), d), "reference depth %d", d)
				}
			}
		})
	}
	assert.Equal(t, len(perftSets), n)
}

func TestDivide(t *testing.T) {
	g, err := rules.New("kvaa", rules.Options{"placement": "4.5.1.1"})
	require.NoError(t, err)
	p, err := g.ParsePosition(kpsT9)
	require.NoError(t, err)
	div, err := rules.Divide(p, 2)
	require.NoError(t, err)
	require.Len(t, div, 19)
	var total uint64
	kg := g.(*Game)
	rr := refRulesOf(kg.cfg)
	ref := refParse(kpsT9)
	for _, e := range div {
		total += e.Nodes
		assert.Equal(t, rr.perft(rr.play(ref, e.Move), 1), e.Nodes, e.Move)
	}
	assert.Equal(t, rules.Perft(p, 2), total)
}

// TestPerftPositions checks perft from the spec's worked positions against
// the reference, under several option sets.
func TestPerftPositions(t *testing.T) {
	depth := 3
	if testing.Short() {
		depth = 2
	}
	for _, kps := range []string{kpsT2, kpsT8, kpsT9, kpsT14, "N.N/../.S./../... S 0 0 c3-b2 - 4 30"} {
		for _, opts := range []string{"", "placement=4.5.1.1,scheme=R7", "placement=4.5.1.4,capture=compulsory,scheme=R5", "placement=4.5.1.3,scheme=R3"} {
			g := newGame(t, opts)
			s := mustState(t, g, kps)
			rr := refRulesOf(g.cfg)
			assert.Equal(t, rr.perft(refParse(kps), depth), g.Perft(&s, depth), "%s under %q", kps, opts)
		}
	}
}
