package pairing

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"arbiter/pairing/trf"
	"github.com/stretchr/testify/require"

	"arbiter/pairing/internal/matching"
)

func weightToBig(w matching.Weight) *big.Int {
	z := new(big.Int)
	for i := len(w) - 1; i >= 0; i-- {
		z.Lsh(z, 64)
		z.Or(z, new(big.Int).SetUint64(w[i]))
	}
	return z
}

// TestFieldWriterMatchesShifts checks fieldWriter against math/big: the sum
// of each field's value shifted to its offset, modulo the width.
func TestFieldWriterMatchesShifts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for iter := 0; iter < 2000; iter++ {
		words := 1 + rng.IntN(5)
		total := rng.IntN(64*words + 8)
		f := fieldWriter{w: matching.NewWeight(words), pos: total}
		want := new(big.Int)
		for f.pos > 0 {
			n := min(f.pos, 1+rng.IntN(70))
			f.skip(n)
			x := rng.Uint64() >> uint(rng.IntN(64))
			if rng.IntN(3) == 0 {
				b := rng.IntN(n + 1)
				f.bit(b)
				want.Add(want, new(big.Int).Lsh(big.NewInt(1), uint(f.pos+b)))
			} else {
				f.add(x)
				want.Add(want, new(big.Int).Lsh(new(big.Int).SetUint64(x), uint(f.pos)))
			}
		}
		mod := new(big.Int).Lsh(big.NewInt(1), uint(64*words))
		want.Mod(want, mod)
		require.Zero(t, want.Cmp(weightToBig(f.w)), "iteration %d", iter)
	}
}

// TestSetFlat checks that the weights setFlat sets are those that
// edgeWeightInto gives every pair outside a bracket, with an even and an
// odd number of players, looked up by the cache's table and, with the
// table turned off, by its map.
func TestSetFlat(t *testing.T) {
	for _, c := range []struct {
		n     int
		table bool
	}{{40, true}, {41, true}, {40, false}, {41, false}} {
		n := c.n
		tour := syntheticHistory(n, 4, 5)
		s, err := newState(tour, 5, Options{Round: 5})
		require.NoError(t, err)
		d := &dutch{s: s}
		d.setup()
		d.byeScore = d.score(d.sorted[len(d.sorted)/2])
		mc := matching.New(len(d.sorted), d.words)
		w := matching.NewWeight(d.words)
		if c.table {
			d.setFlat(mc)
		} else {
			cache := newWeightCache(d, mc, d.sorted)
			require.NotNil(t, cache.table)
			cache.known, cache.table = 0, nil // by map, as with many kinds
			d.setFlatFrom(mc, cache)
			cache.release()
		}
		for i, p := range d.sorted {
			for j, o := range d.sorted[:i] {
				w.SetZero()
				d.edgeWeightInto(w, o, p, false, false)
				id := mc.Intern(w)
				require.Equal(t, id, mc.EdgeID(i, j), "players %d and %d", i, j)
				mc.Release(id)
			}
		}
	}
}

// TestWeightCache checks that the weights weightCache hands out by the
// players' kinds are those edgeWeightInto builds for every pair, with and
// without the single-bye rule (looked up by table, then by map), among
// players that include twins differing in one attribute each: leaving any
// one out of playerKind fails it.
func TestWeightCache(t *testing.T) {
	for _, n := range []int{60, 61} {
		tour := syntheticHistory(n, 5, 9)
		// Round 6 is the last: topscorers with clashing absolute colour
		// preferences may then meet, and the colour criteria weigh how.
		tour.Rounds = 6
		// Two players got the bye in round 1 instead of meeting: they may
		// not take it again and played a game less.
		a := &tour.Players[5]
		b := tour.PlayerByID(a.Games[0].Opponent)
		a.Games[0] = trf.Game{Colour: '-', Result: 'U'}
		b.Games[0] = trf.Game{Colour: '-', Result: 'U'}
		s, err := newState(tour, 6, Options{Round: 6})
		require.NoError(t, err)
		d := &dutch{s: s}
		d.setup()
		// Twins of a player who may take the bye, each different in one
		// thing that edgeWeightInto reads: a kind that left it out would
		// give a twin its original's weights.
		var base *player
		for _, p := range d.sorted {
			// Its preference mild, so that twins with an absolute one
			// differ in whom they may meet.
			if s.eligibleForBye(p) && p.pscore >= 30 && p.colourPref != NoColour && !p.absolutePref() {
				base = p
				break
			}
		}
		require.NotNil(t, base)
		d.byeScore = base.pscore
		twins := []func(q *player){
			func(q *player) { q.playedGames-- },
			func(q *player) {
				q.matches = append([]match(nil), q.matches...)
				q.matches[0].played, q.matches[0].score = false, s.win // a win without playing
			},
			func(q *player) { q.colourImbalance += 2 },
			func(q *player) { q.colourPref = q.colourPref.invert() },
			func(q *player) { q.repeatedColour = q.colourPref },
			func(q *player) { q.strongPref = !q.strongPref },
			func(q *player) { q.floats[0] = floatDown },
			func(q *player) { q.floats[1] = floatUp },
		}
		for _, change := range twins {
			q := *base
			q.index = len(s.players)
			change(&q)
			s.players = append(s.players, &q)
			d.sorted = append(d.sorted, &q)
			// A twin met whom its original met.
			q.forbidden = slices.Clone(base.forbidden)
			for _, o := range q.forbidden {
				s.players[o].forbid(q.index)
			}
		}
		d.setMeetings()
		d.playedRanks = map[int]int{}
		for _, p := range d.sorted {
			d.playedRanks[p.playedGames] = 1 + p.playedGames%3
		}
		// One bracket of everyone, twins included: fields twice as wide
		// as the round's hold its scores.
		d.setWidth(layout{2 * d.roundShift, 2 * d.roundShift})
		everyone := make([]int, len(d.sorted))
		for v := range everyone {
			everyone[v] = v
		}
		require.NoError(t, d.layOut(everyone, nil))
		mc := matching.New(len(d.sorted), d.words)
		w := matching.NewWeight(d.words)
		kinds := 0
		for _, single := range []bool{false, true} {
			d.singleBye = single
			c := newWeightCache(d, mc, d.sorted)
			require.NotNil(t, c.table)
			if single {
				c.known, c.table = 0, nil // by map, as with many kinds
			}
			for i, lo := range d.sorted {
				for _, hi := range d.sorted[:i] {
					for f := range 3 {
						inCur, inNext := f == 1, f == 2
						w.SetZero()
						d.edgeWeightInto(w, hi, lo, inCur, inNext)
						want := mc.Intern(w)
						got := c.id(hi, lo, inCur, inNext)
						require.Equal(t, want, got, "players %d and %d, flags %d, single bye %v", hi.id, lo.id, f, single)
						mc.Release(want)
						mc.Release(got)
					}
				}
			}
			kinds = max(kinds, len(c.kinds))
			c.release()
		}
		require.Less(t, kinds, n, "players of the same kind share weights")
	}
}
