package replay_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/board"
	sb "arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
	_ "arbiter/rules/chess"
	_ "arbiter/rules/kvaa"
	_ "arbiter/rules/shogi"
	_ "arbiter/rules/tavreli"
	_ "arbiter/rules/tensor"
)

// table is one kind of simulated table: a game on a class of board.
type table struct {
	name string
	game string
	caps board.Caps
}

const (
	heightOnly = board.CapHeight
	identity   = board.CapHeight | board.CapIdentity | board.CapColor | board.CapFace | board.CapZoneCount
	// Shogi pieces show their owner only by their facing.
	shogiIdentity = board.CapHeight | board.CapIdentity | board.CapFace | board.CapZoneCount
)

// tables lists every registered game on both classes of board.
func tables(t testing.TB) []table {
	var out []table
	for _, g := range rules.Games() {
		id := identity
		if g == "shogi" {
			id = shogiIdentity
		}
		out = append(out, table{g + "/height", g, heightOnly}, table{g + "/identity", g, id})
	}
	require.NotEmpty(t, out)
	return out
}

// tally counts what the games of a test did, for the report.
type tally struct {
	mu         sync.Mutex
	games      int
	plies      int // moves played and read exactly
	frames     int
	faults     map[string]int // injected faults by kind
	alerts     map[string]int
	prompts    int // capability questions answered by the player
	held       int // moves not read at the press, made again after a restore
	abandoned  int // games given up after a move was not read twice
	wrong      int // moves committed that were not played
	violations map[string]int
	caught     map[string]int
	// cannotTell counts the alerts about moves the board's capabilities
	// cannot tell apart (see cannotTell), which the player answers.
	cannotTell int
}

func newTally() *tally {
	return &tally{faults: map[string]int{}, alerts: map[string]int{}, violations: map[string]int{}, caught: map[string]int{}}
}

func (tl *tally) String() string {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	return fmt.Sprintf("games %d, plies read %d, frames %d, faults %v, alerts %v, cannot tell %d, prompts %d, held %d, abandoned %d, wrong %d, violations %v caught %v",
		tl.games, tl.plies, tl.frames, tl.faults, tl.alerts, tl.cannotTell, tl.prompts, tl.held, tl.abandoned, tl.wrong, tl.violations, tl.caught)
}

// add merges the counts of one game.
func (tl *tally) add(g *tally) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	tl.games += g.games
	tl.plies += g.plies
	tl.frames += g.frames
	tl.prompts += g.prompts
	tl.held += g.held
	tl.abandoned += g.abandoned
	tl.wrong += g.wrong
	tl.cannotTell += g.cannotTell
	for _, m := range []struct{ dst, src map[string]int }{{tl.faults, g.faults}, {tl.alerts, g.alerts}, {tl.violations, g.violations}, {tl.caught, g.caught}} {
		for k, v := range m.src {
			m.dst[k] += v
		}
	}
}

// fastHuman is a brisk player with every habit, to keep virtual games
// short without changing what the board shows.
var fastHuman = func() sim.Human {
	h := sim.DefaultHuman
	h.Think = [2]time.Duration{500 * time.Millisecond, 1500 * time.Millisecond}
	return h
}()

// playGame plays turns on r with the physical faults of f and checks every
// committed move against the one played. A move that is not read (held
// after a fault) is put back and made again, at most twice.
func playGame(t testing.TB, r *rig, turns []sim.Turn, f sim.Faults, label string) *tally {
	tl := newTally()
	tl.games = 1
	checked := 0
	check := func() bool {
		for ; checked < len(r.moves); checked++ {
			m := r.moves[checked]
			if checked >= len(turns) || m.Move.String() != turns[checked].Move.String() {
				want := "nothing"
				if checked < len(turns) {
					want = turns[checked].Move.String()
				}
				tl.wrong++
				t.Errorf("%s: ply %d: committed %s, played %s", label, checked+1, m.Move, want)
				return false
			}
			tl.plies++
		}
		return true
	}
	for i, turn := range turns {
		if r.over != nil {
			break
		}
		if f.KnockOver > 0 && r.rng.Float64() < f.KnockOver {
			tl.faults["knock-over"]++
			require.NoError(t, r.knock(turn.Before, turn.Mover), label)
		}
		firstAlert := len(r.alerts)
		ok, tries := false, 0
		for ; tries < 3 && !ok && r.over == nil; tries++ {
			if tries > 0 {
				require.NoError(t, r.restore(turn.Before, turn.Move, turn.Mover), label)
				r.wait(2 * time.Second)
			}
			steps, err := sim.PlanMove(r.geo, turn.Before, turn.After, turn.Move, turn.Mover, r.human, r.rng)
			require.NoError(t, err, label)
			require.NoError(t, r.run(steps), label)
			ok = r.awaitMove(i+1, turn.Move, turn.Mover, 10*time.Second)
			if !check() {
				return finish(r, tl, turns)
			}
		}
		if !ok || tries > 1 {
			tl.held++
		}
		if !ok {
			if r.over != nil {
				break
			}
			tl.abandoned++
			t.Logf("%s: ply %d %s not read after two restores; alerts %v", label, i+1, turn.Move, alertTexts(r.alerts[firstAlert:]))
			break
		}
		if f.Disconnect > 0 && r.rng.Float64() < f.Disconnect {
			tl.faults["disconnect"]++
			r.unplug(time.Second)
		}
	}
	r.wait(3 * time.Second)
	check()
	return finish(r, tl, turns)
}

// cannotTell reports whether alert i is an ambiguity the board's
// capabilities cannot resolve: the prompt offered the move played, and the
// player answers it. A clean stream raises no other alert.
func cannotTell(r *rig, i int, turns []sim.Turn) bool {
	a, n := r.alerts[i], r.alertPly[i]
	if a.Kind != arbiter.AmbiguityAlert {
		return false
	}
	for j, p := range r.prompts {
		if p.At == a.At && r.promptPly[j] == n && n < len(turns) && slices.Contains(p.Moves, turns[n].Move.String()) {
			return true
		}
	}
	return false
}

func finish(r *rig, tl *tally, turns []sim.Turn) *tally {
	for i, a := range r.alerts {
		if cannotTell(r, i, turns) {
			tl.cannotTell++
			continue
		}
		tl.alerts[a.Kind.String()]++
		if testing.Verbose() || os.Getenv("REPLAY_ALERTS") != "" {
			fmt.Printf("ALERT %s\n  %s\n", a, strings.Join(a.Evidence, "\n  "))
		}
	}
	// Recovery demands are counted as alerts of their own kind; none
	// leaves the map without the key.
	if len(r.recov) > 0 {
		tl.alerts["recovery-demand"] += len(r.recov)
	}
	tl.prompts = len(r.prompts)
	tl.frames = r.rd.Stats.Frames
	return tl
}

func alertTexts(as []arbiter.Alert) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.String()
	}
	return out
}

// biasedGame plays up to n moves from start, choosing with probability p a
// move that prefer likes when there is one, else a random legal move.
func biasedGame(start rules.Position, n int, rng *rand.Rand, p float64, prefer func(pos rules.Position, m rules.Move) bool) ([]sim.Turn, error) {
	return sim.PlayGame(start, n, func(pos rules.Position, legal []rules.Move) rules.Move {
		m := legal[rng.IntN(len(legal))]
		if prefer != nil && rng.Float64() < p {
			var liked []rules.Move
			for _, c := range legal {
				if prefer(pos, c) {
					liked = append(liked, c)
				}
			}
			if len(liked) > 0 {
				m = liked[rng.IntN(len(liked))]
			}
		}
		return m
	})
}

// towers prefers moves that build a stack of three or more.
func towers(pos rules.Position, m rules.Move) bool {
	if m.To() == rules.NoSquare {
		return false
	}
	next, err := pos.Play(m)
	return err == nil && next.View().Height(m.To()) >= 3
}

// dropsAndPromotions prefers shogi drops and promotions.
func dropsAndPromotions(_ rules.Position, m rules.Move) bool {
	return m.From() == rules.NoSquare || strings.HasSuffix(m.String(), "+")
}

func newGame(t testing.TB, name string) rules.Game {
	g, err := rules.New(name, nil)
	require.NoError(t, err)
	return g
}

// runGames plays games of a table, in parallel subtests, and returns the
// total counts.
func runGames(t *testing.T, tb table, faults sim.Faults, games, plies int, seed uint64, gen func(start rules.Position, rng *rand.Rand) ([]sim.Turn, error)) *tally {
	total := newTally()
	g := newGame(t, tb.game)
	for i := range games {
		s := seed*1000 + uint64(i)
		label := fmt.Sprintf("%s seed %d", tb.name, s)
		rng := rand.New(rand.NewPCG(s, 17))
		var turns []sim.Turn
		var err error
		if gen != nil {
			turns, err = gen(g.Start(), rng)
		} else {
			turns, err = sim.RandomGame(g.Start(), plies, rng)
		}
		require.NoError(t, err, label)
		r, err := newRig(rigConfig{game: g, caps: tb.caps, faults: faults, seed: s, human: fastHuman})
		require.NoError(t, err, label)
		tl := playGame(t, r, turns, faults, label)
		countFaults(r, tl)
		total.add(tl)
	}
	return total
}

// countFaults counts the link faults the board injected, from its log of
// sent frames and the reader's counters.
func countFaults(r *rig, tl *tally) {
	log := r.board.Log()
	dropped := -r.unpluggedSent
	for i, s := range log {
		if s.Dropped {
			dropped++
		}
		// A chattering sensor sends the new reading, the old, the new.
		if i >= 2 && s.Header.Type == sb.TypeSquare && log[i-1].Header.Type == sb.TypeSquare && log[i-2].Header.Type == sb.TypeSquare {
			a, b, c := log[i-2].Msg.(*sb.SquareMsg), log[i-1].Msg.(*sb.SquareMsg), s.Msg.(*sb.SquareMsg)
			same := log[i-2].Header.Time == s.Header.Time && log[i-1].Header.Time == s.Header.Time
			if same && a.Square == b.Square && b.Square == c.Square && *a == *c && *a != *b {
				tl.faults["bounce"]++
			}
		}
	}
	if dropped > 0 {
		tl.faults["drop"] += dropped
	}
	if n := r.rd.Stats.Bad; n > 0 {
		tl.faults["corrupt"] += n
	}
	if n := r.rd.Stats.Duplicate; n > 0 {
		tl.faults["duplicate"] += n
	}
}

func gamesPerTable() (games, plies int) {
	if testing.Short() || raceEnabled {
		return 1, 40
	}
	return 3, 120
}

// Clean streams: every move is read exactly as played, and nothing is
// alerted.
func TestCleanGames(t *testing.T) {
	games, plies := gamesPerTable()
	all := newTally()
	for _, tb := range tables(t) {
		t.Run(tb.name, func(t *testing.T) {
			t.Parallel()
			tl := runGames(t, tb, sim.Faults{}, games, plies, 1, nil)
			t.Logf("%s: %s", tb.name, tl)
			require.Zero(t, tl.wrong, "wrong moves")
			require.Zero(t, tl.held, "moves not read")
			require.Zero(t, tl.abandoned)
			require.Empty(t, tl.alerts, "alerts on a clean stream")
			require.Positive(t, tl.plies)
			all.add(tl)
		})
	}
	t.Cleanup(func() { t.Logf("clean total: %s", all) })
}

// Long Tavreli games that build tall towers, and shogi games full of drops
// and promotions, on both classes of board.
func TestTowersDropsPromotions(t *testing.T) {
	plies := 150
	games := 1
	if !testing.Short() && !raceEnabled {
		plies, games = 250, 2
	}
	cases := []struct {
		tb  table
		gen func(rules.Position, *rand.Rand) ([]sim.Turn, error)
	}{
		{table{"tavreli-towers/height", "tavreli", heightOnly}, func(p rules.Position, rng *rand.Rand) ([]sim.Turn, error) {
			return biasedGame(p, plies, rng, 0.8, towers)
		}},
		{table{"tavreli-towers/identity", "tavreli", identity}, func(p rules.Position, rng *rand.Rand) ([]sim.Turn, error) {
			return biasedGame(p, plies, rng, 0.8, towers)
		}},
		{table{"shogi-drops/height", "shogi", heightOnly}, func(p rules.Position, rng *rand.Rand) ([]sim.Turn, error) {
			return biasedGame(p, plies, rng, 0.7, dropsAndPromotions)
		}},
		{table{"shogi-drops/identity", "shogi", shogiIdentity}, func(p rules.Position, rng *rand.Rand) ([]sim.Turn, error) {
			return biasedGame(p, plies, rng, 0.7, dropsAndPromotions)
		}},
	}
	for _, c := range cases {
		t.Run(c.tb.name, func(t *testing.T) {
			t.Parallel()
			tl := runGames(t, c.tb, sim.Faults{}, games, plies, 2, c.gen)
			t.Logf("%s: %s", c.tb.name, tl)
			require.Zero(t, tl.wrong)
			require.Zero(t, tl.held)
			require.Empty(t, tl.alerts)
		})
	}
}

// Faults, each alone and all together: no wrong move is ever committed.
func TestFaultGames(t *testing.T) {
	faults := []struct {
		name string
		f    sim.Faults
	}{
		{"drop", sim.Faults{Drop: 0.03}},
		{"corrupt", sim.Faults{Corrupt: 0.03}},
		{"duplicate", sim.Faults{Duplicate: 0.05}},
		{"bounce", sim.Faults{Bounce: 0.1}},
		{"knock-over", sim.Faults{KnockOver: 0.1}},
		{"disconnect", sim.Faults{Disconnect: 0.05}},
		{"all", sim.Faults{Drop: 0.02, Corrupt: 0.02, Duplicate: 0.02, Bounce: 0.05, KnockOver: 0.05, Disconnect: 0.03}},
	}
	games, plies := gamesPerTable()
	all := newTally()
	for _, fc := range faults {
		for _, tb := range tables(t) {
			t.Run(fc.name+"/"+tb.name, func(t *testing.T) {
				t.Parallel()
				tl := runGames(t, tb, fc.f, games, plies, 3, nil)
				t.Logf("%s %s: %s", fc.name, tb.name, tl)
				require.Zero(t, tl.wrong, "wrong moves committed")
				all.add(tl)
			})
		}
	}
	t.Cleanup(func() { t.Logf("faults total: %s", all) })
}
