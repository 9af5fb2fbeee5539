package kvaa

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// ruleCombos returns every combination of the options that change the
// rules of play: all 8 schemes (every subset of the orthogonal classes), both
// capture modes, the four placement variants, rule 4.6 on and off, and the
// two settings of p2_fallback (under 4.5.1.2) and of
// p4_capture_blocks_placement (under 4.5.1.4).
func ruleCombos() []string {
	var out []string
	for s := range Scheme(allSchemes) {
		for _, capture := range []string{"optional", "compulsory"} {
			for _, pl := range allPlacements {
				for _, mirror := range []string{"on", "off"} {
					base := fmt.Sprintf("scheme=%s,capture=%s,placement=%s,mirror_rule=%s", s, capture, pl, mirror)
					switch pl {
					case "4.5.1.2":
						out = append(out, base+",p2_fallback=global", base+",p2_fallback=per_placement")
					case "4.5.1.4":
						out = append(out, base+",p4_capture_blocks_placement=true", base+",p4_capture_blocks_placement=false")
					default:
						out = append(out, base)
					}
				}
			}
		}
	}
	return out
}

// TestRandomGames plays random games under every rule combination and
// checks, at every position, the engine against the reference
// implementation and the spec's invariants.
func TestRandomGames(t *testing.T) {
	games, plies := 3, 80
	if testing.Short() {
		games, plies = 1, 40
	}
	combos := ruleCombos()
	require.Len(t, combos, 8*2*(2+2*2+2+2*2))
	var total randomStats
	for ci, opts := range combos {
		t.Run(opts, func(t *testing.T) {
			g := newGame(t, opts)
			rr := refRulesOf(g.cfg)
			rng := rand.New(rand.NewPCG(uint64(ci), 7))
			for game := range games {
				st := playRandom(t, g, &rr, rng, plies, fmt.Sprintf("game %d", game))
				total.captures += st.captures
				total.placements += st.placements
				total.compound += st.compound
				total.ended += st.ended
			}
		})
	}
	// The games must reach the rules under test.
	t.Logf("%+v", total)
	assert.Greater(t, total.captures, len(combos)*games)
	assert.Greater(t, total.placements, len(combos)*games/2)
	assert.Greater(t, total.compound, len(combos)*games/4)
	assert.Positive(t, total.ended)
}

// randomStats counts what random games did.
type randomStats struct {
	captures, placements, compound, ended int
}

func playRandom(t *testing.T, g *Game, rr *refRules, rng *rand.Rand, plies int, name string) (st randomStats) {
	s := g.StartState()
	ref := refParse(s.String())
	var captured [2]int // counters each side lost, counted from the turns
	var lastStep [2]Step
	var buf [MaxTurns]Turn
	for ply := range plies {
		at := fmt.Sprintf("%s ply %d %s", name, ply, s)
		x := s.Turn
		checkInvariants(t, g, &s, captured, at)

		// The reference agrees on the position and the legal turns.
		require.Equal(t, ref.kps(), s.String(), at)
		ts := g.Turns(&s, buf[:0])
		var got []string
		for _, tr := range ts {
			got = append(got, tr.String())
		}
		want := rr.legal(ref)
		require.Equal(t, sorted(want), sorted(got), at)
		require.Len(t, slices.Compact(sorted(got)), len(got), "%s: duplicate turn strings", at)

		// Rule 4.6, from the turns played rather than the state's field.
		for _, tr := range ts {
			if g.cfg.MirrorRule && !lastStep[x].None() {
				require.NotEqual(t, Step{lastStep[x].To, lastStep[x].From}, tr.step(), "%s: mirror step %s", at, tr)
			}
		}

		// 7.3: two turns with the same occupancy make the same position.
		byOcc := map[uint16]State{}
		for _, tr := range ts {
			n := s
			g.Apply(&n, tr)
			occ := n.Occ[0] | n.Occ[1]
			if o, ok := byOcc[occ]; ok {
				require.Equal(t, o.Occ, n.Occ, "%s: turn %s", at, tr)
			}
			byOcc[occ] = n
		}

		o, term := g.Judge(&s)
		res, rterm := rr.judge(ref)
		if g.cfg.Adjudication == MaterialOnBoard {
			require.Equal(t, rterm, term, at)
			require.Equal(t, res, o.Result.String(), at)
		}
		if o.Over() {
			require.Empty(t, ts, at)
			st.ended++
			return st
		}
		require.NotEmpty(t, ts, at)

		tr := ts[rng.IntN(len(ts))]
		// The immutable adapter plays the same turn to the same state.
		pos := g.Position(s)
		m, err := pos.ParseMove(tr.String())
		require.NoError(t, err, at)
		next, err := pos.Play(m)
		require.NoError(t, err, at)

		_, placed := tr.Placement()
		_, _, moved := tr.Move()
		if placed {
			st.placements++
			if moved {
				st.compound++
			}
		}
		if over, ok := tr.Captures(); ok {
			st.captures++
			captured[x.Other()]++
			if lastStep[x.Other()].To == over {
				lastStep[x.Other()] = noStep
			}
		}
		lastStep[x] = tr.step()
		g.Apply(&s, tr)
		ref = rr.play(ref, tr.String())
		require.Equal(t, s, next.(*Position).State(), at)
	}
	return st
}

func checkInvariants(t *testing.T, g *Game, s *State, captured [2]int, at string) {
	for c := range rules.Color(2) {
		require.LessOrEqual(t, s.OnBoard(c), MaxOnBoard, at)
		require.GreaterOrEqual(t, s.Reserve[c], int8(0), at)
		require.Equal(t, captured[c], s.Captured(c), "%s: counters of %s not conserved", at, g.SideName(c))
	}
	require.Zero(t, s.Occ[0]&s.Occ[1], at)
	if g.cfg.Placement != Deferred {
		// 3: consistency invariants of 4.5.1.1 to 4.5.1.3.
		x, y := s.Turn, s.Turn.Other()
		if s.Reserve[y] > 0 {
			require.Equal(t, MaxOnBoard, s.OnBoard(y), at)
		}
		if s.Reserve[x] > 0 {
			require.True(t, s.OnBoard(x) == 4 || (s.OnBoard(x) == 3 && s.MayPlace(x)), at)
		}
		for c := range rules.Color(2) {
			if s.OnBoard(c) == 0 {
				require.Zero(t, s.Reserve[c], at)
			}
		}
	}
	if !g.cfg.MirrorRule {
		require.True(t, s.Forbidden[0].None() && s.Forbidden[1].None(), at)
	}

	// KPS and key round trips.
	back, err := g.ParseState(s.String())
	require.NoError(t, err, at)
	require.Equal(t, *s, back, at)
	require.Equal(t, s.withCounters(0, 0), stateFromKey(s.key()), at)

	// The view shows every counter once: on the board, in a reserve tray or
	// among the captured.
	v := g.Position(*s).View()
	require.Equal(t, s.OnBoard(South)+s.OnBoard(North), v.Total(), at)
	var perSide [2]int
	for c, st := range v.Stacks {
		if side, ok := s.At(Cell(c)); ok {
			require.Equal(t, []rules.Piece{{Color: side, Kind: CounterKind}}, st, at)
		} else {
			require.Empty(t, st, at)
		}
		for _, p := range st {
			perSide[p.Color]++
		}
	}
	require.Len(t, v.Zones[ZoneReserveSouth], int(s.Reserve[South]), at)
	require.Len(t, v.Zones[ZoneReserveNorth], int(s.Reserve[North]), at)
	require.Len(t, v.Zones[ZoneCapturedSouth], s.Captured(South), at)
	require.Len(t, v.Zones[ZoneCapturedNorth], s.Captured(North), at)
	for i, z := range v.Zones {
		require.True(t, slices.IsSortedFunc(z, func(a, b rules.Piece) int {
			if a.Less(b) {
				return -1
			}
			if b.Less(a) {
				return 1
			}
			return 0
		}), at)
		for _, p := range z {
			require.Equal(t, Geometry().Zones()[i].Owner, p.Color, at)
			perSide[p.Color]++
		}
	}
	require.Equal(t, [2]int{Counters, Counters}, perSide, at)
}
