package replay_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
)

// setupAfter plays k random moves cleanly on a new rig and returns it with
// the position reached, or nil when the game ended first.
func setupAfter(t *testing.T, tb table, seed uint64, k int) (*rig, rules.Position, *rand.Rand) {
	g := newGame(t, tb.game)
	rng := rand.New(rand.NewPCG(seed, 23))
	turns, err := sim.RandomGame(g.Start(), k, rng)
	require.NoError(t, err)
	r, err := newRig(rigConfig{game: g, caps: tb.caps, seed: seed, human: calm(fastHuman)})
	require.NoError(t, err)
	for i, turn := range turns {
		if r.invisible(turn) {
			return nil, nil, nil
		}
		steps, err := sim.PlanMove(r.geo, turn.Before, turn.After, turn.Move, turn.Mover, r.human, r.rng)
		require.NoError(t, err)
		require.NoError(t, r.run(steps))
		if !r.awaitMove(i+1, turn.Move, turn.Mover, 10*time.Second) || r.moves[i].Move.String() != turn.Move.String() {
			return nil, nil, nil
		}
	}
	r.wait(2 * time.Second)
	pos := g.Start()
	if len(r.moves) > 0 {
		pos = r.moves[len(r.moves)-1].Position
	}
	if pos.Outcome(nil).Over() || len(pos.Legal()) < 2 {
		return nil, nil, nil
	}
	return r, pos, rng
}

// mustMove makes move m of pos calmly and requires the session to read it
// as ply plies+1.
func (r *rig) mustMove(t *testing.T, pos rules.Position, m rules.Move, plies int, what string) {
	t.Helper()
	next, err := pos.Play(m)
	require.NoError(t, err)
	steps, err := sim.PlanMove(r.geo, pos.View(), next.View(), m, pos.Turn(), calm(r.human), r.rng)
	require.NoError(t, err, what)
	require.NoError(t, r.run(steps), what)
	require.True(t, r.awaitMove(plies+1, m, pos.Turn(), 10*time.Second), "%s %s was not read", what, m)
	require.Equal(t, m.String(), r.moves[plies].Move.String(), what)
}

// alertsSince returns the kinds of the alerts after the first n.
func alertsSince(r *rig, n int) []arbiter.AlertKind {
	var out []arbiter.AlertKind
	for _, a := range r.alerts[n:] {
		out = append(out, a.Kind)
	}
	return out
}

// The player touches one own piece that has a legal move, puts it back and
// moves another: the session refuses the move with a touch-move alert, and
// once the position is restored the touched piece's move is read.
func TestTouchMoveViolations(t *testing.T) {
	n := 6
	if testing.Short() || raceEnabled {
		n = 3
	}
	tl := newTally()
	for _, tb := range tables(t) {
		if !newGame(t, tb.game).Traits().TouchMove {
			continue
		}
		t.Run(tb.name, func(t *testing.T) {
			made := 0
			for i := range n {
				seed := uint64(100 + i)
				r, pos, rng := setupAfter(t, tb, seed, 4+2*i)
				if r == nil {
					continue
				}
				label := fmt.Sprintf("%s seed %d", tb.name, seed)
				mover := pos.Turn()
				view := pos.View()
				// The move played, and the other piece touched first.
				var played rules.Move
				touched := rules.NoSquare
				for _, m := range shuffled(pos.Legal(), rng) {
					if m.From() == rules.NoSquare || strings.Contains(m.String(), "T") {
						continue // a drop, or a Tensor push (either piece may be touched)
					}
					next, err := pos.Play(m)
					require.NoError(t, err)
					for _, sq := range shuffledSquares(origins(pos), rng) {
						if sq != m.From() && sq != m.To() && slices.Equal(view.Stacks[sq], next.View().Stacks[sq]) {
							played, touched = m, sq
							break
						}
					}
					if played != nil {
						break
					}
				}
				if played == nil {
					continue
				}
				next, err := pos.Play(played)
				require.NoError(t, err)
				tl.violations["touch-move"]++
				made++
				before := len(r.alerts)
				plies := len(r.moves)
				top := view.Stacks[touched][len(view.Stacks[touched])-1]
				touch := []sim.Step{
					{At: 300 * time.Millisecond, Op: sim.OpLift, Square: touched, N: 1},
					{At: 800 * time.Millisecond, Op: sim.OpPlace, Square: touched, Pieces: []rules.Piece{top}},
				}
				require.NoError(t, r.run(touch), label)
				steps, err := sim.PlanMove(r.geo, view, next.View(), played, mover, calm(r.human), r.rng)
				require.NoError(t, err, label)
				require.NoError(t, r.run(steps), label)
				r.wait(3 * time.Second)
				require.Equal(t, plies, len(r.moves), "%s: %s was committed although %s was touched first", label, played, r.geo.Name(touched))
				require.Contains(t, alertsSince(r, before), arbiter.TouchMoveAlert, "%s: no touch-move alert for %s after touching %s", label, played, r.geo.Name(touched))
				// Put it right: the position back, then the touched piece moves.
				require.NoError(t, r.restore(view, played, mover), label)
				r.wait(2 * time.Second)
				var forced rules.Move
				for _, m := range shuffled(pos.Legal(), rng) {
					if m.From() == touched {
						forced = m
						break
					}
				}
				require.NotNil(t, forced)
				r.mustMove(t, pos, forced, plies, label+": the touched piece's move")
				tl.caught["touch-move"]++
			}
			require.Positive(t, made, "no seed made a touch-move violation")
		})
	}
	t.Logf("touch-move: %s", tl)
	require.Positive(t, tl.violations["touch-move"])
	require.Equal(t, tl.violations, tl.caught)
}

// The player completes an illegal move and presses the clock: an
// illegal-move alert, then a recovery demand (or, in shogi, the loss of
// the game); once the position is restored a legal move is read.
func TestIllegalMoves(t *testing.T) {
	n := 6
	if testing.Short() || raceEnabled {
		n = 3
	}
	tl := newTally()
	for _, tb := range tables(t) {
		t.Run(tb.name, func(t *testing.T) {
			made := 0
			for i := range n {
				seed := uint64(200 + i)
				r, pos, rng := setupAfter(t, tb, seed, 3+3*i)
				if r == nil {
					continue
				}
				label := fmt.Sprintf("%s seed %d", tb.name, seed)
				src, dst, ok := illegalPlacement(r, pos, rng)
				if !ok {
					continue
				}
				mover := pos.Turn()
				view := pos.View()
				tl.violations["illegal-move"]++
				made++
				before, plies := len(r.alerts), len(r.moves)
				top := view.Stacks[src][len(view.Stacks[src])-1]
				steps := []sim.Step{
					{At: 500 * time.Millisecond, Op: sim.OpLift, Square: src, N: 1},
					{At: 1100 * time.Millisecond, Op: sim.OpPlace, Square: dst, Pieces: []rules.Piece{top}},
					{At: 1700 * time.Millisecond, Op: sim.OpPress, Button: board.ButtonClock, Side: board.SideOf(mover)},
				}
				require.NoError(t, r.run(steps), label)
				r.wait(2 * time.Second)
				require.Equal(t, plies, len(r.moves), "%s: a move was committed for the illegal %s-%s", label, r.geo.Name(src), r.geo.Name(dst))
				require.Contains(t, alertsSince(r, before), arbiter.IllegalMoveAlert, "%s: no illegal-move alert for %s-%s", label, r.geo.Name(src), r.geo.Name(dst))
				if newGame(t, tb.game).Traits().IllegalMoveLoses {
					require.NotNil(t, r.over, label)
					require.Equal(t, rules.Loss(mover, rules.IllegalMove), r.over.Outcome, label)
					tl.caught["illegal-move"]++
					continue
				}
				require.NotEmpty(t, r.recov, "%s: no recovery demand", label)
				require.NoError(t, r.restore(view, pos.Legal()[0], mover), label)
				r.wait(2 * time.Second)
				// The rules bind the piece touched for the illegal move
				// (FIDE 7.5.1 and 4.3): move it if it can move.
				legal := shuffled(pos.Legal(), rng)
				slices.SortStableFunc(legal, func(a, b rules.Move) int {
					switch {
					case a.From() == src && b.From() != src:
						return -1
					case b.From() == src && a.From() != src:
						return 1
					}
					return 0
				})
				var m rules.Move
				for _, c := range legal {
					next, err := pos.Play(c)
					require.NoError(t, err)
					if !r.invisible(sim.Turn{Before: view, After: next.View()}) {
						m = c
						break
					}
				}
				require.NotNil(t, m)
				r.mustMove(t, pos, m, plies, label+": the move after the recovery")
				tl.caught["illegal-move"]++
			}
			require.Positive(t, made, "no seed made an illegal move")
		})
	}
	t.Logf("illegal moves: %s", tl)
	require.Positive(t, tl.violations["illegal-move"])
	require.Equal(t, tl.violations, tl.caught)
}

// illegalPlacement finds a piece of the side to move and an empty square
// such that carrying the piece there shows the board something no legal
// move explains.
func illegalPlacement(r *rig, pos rules.Position, rng *rand.Rand) (src, dst rules.Square, ok bool) {
	view := pos.View()
	var wants [][]board.SquareState
	var zones [][]int
	for _, m := range pos.Legal() {
		next, err := pos.Play(m)
		if err != nil {
			return 0, 0, false
		}
		s, z := r.sense(next.View())
		wants, zones = append(wants, s), append(zones, z)
	}
	var own, empty []rules.Square
	for sq, st := range view.Stacks {
		switch {
		case len(st) == 0:
			empty = append(empty, rules.Square(sq))
		case st[len(st)-1].Color == pos.Turn():
			own = append(own, rules.Square(sq))
		}
	}
	for _, s := range shuffledSquares(own, rng) {
		for _, d := range shuffledSquares(empty, rng) {
			v := view.Clone()
			st := v.Stacks[s]
			v.Stacks[d] = []rules.Piece{st[len(st)-1]}
			v.Stacks[s] = st[:len(st)-1]
			got, gz := r.sense(v)
			legal := false
			for i := range wants {
				if slices.Equal(got, wants[i]) && slices.Equal(gz, zones[i]) {
					legal = true
					break
				}
			}
			if !legal {
				return s, d, true
			}
		}
	}
	return 0, 0, false
}

func origins(pos rules.Position) []rules.Square {
	var out []rules.Square
	for _, m := range pos.Legal() {
		if f := m.From(); f != rules.NoSquare && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

func shuffled(ms []rules.Move, rng *rand.Rand) []rules.Move {
	out := slices.Clone(ms)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func shuffledSquares(sqs []rules.Square, rng *rand.Rand) []rules.Square {
	out := slices.Clone(sqs)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
