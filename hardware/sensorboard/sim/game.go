package sim

import (
	"fmt"
	"math/rand/v2"

	"arbiter/rules"
)

// Turn is one move of a game with the physical views around it: all the
// simulator needs to play it on a board.
type Turn struct {
	Move   rules.Move
	Mover  rules.Color
	Before rules.View
	After  rules.View
}

// turnOf is the turn in which m takes pos to next.
func turnOf(pos rules.Position, m rules.Move, next rules.Position) Turn {
	return Turn{Move: m, Mover: pos.Turn(), Before: pos.View(), After: next.View()}
}

// Replay plays moves from start and returns the turns, failing on the
// first move that is not legal.
func Replay(start rules.Position, moves []rules.Move) ([]Turn, error) {
	pos := start
	turns := make([]Turn, 0, len(moves))
	for i, m := range moves {
		next, err := pos.Play(m)
		if err != nil {
			return nil, fmt.Errorf("move %d %s: %w", i+1, m, err)
		}
		turns = append(turns, turnOf(pos, m, next))
		pos = next
	}
	return turns, nil
}

// ReplayText is [Replay] with moves in any notation the game reads.
func ReplayText(start rules.Position, moves []string) ([]Turn, error) {
	pos := start
	turns := make([]Turn, 0, len(moves))
	for i, s := range moves {
		m, next, err := rules.PlayText(pos, s)
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, s, err)
		}
		turns = append(turns, turnOf(pos, m, next))
		pos = next
	}
	return turns, nil
}

// RandomGame plays up to n random legal moves from start, stopping early
// when the game ends. It is deterministic for a given rng.
func RandomGame(start rules.Position, n int, rng *rand.Rand) ([]Turn, error) {
	return PlayGame(start, n, func(_ rules.Position, legal []rules.Move) rules.Move {
		return legal[rng.IntN(len(legal))]
	})
}

// PlayGame plays up to n moves from start, each the one pick chooses among
// the legal moves, stopping early when the game ends.
func PlayGame(start rules.Position, n int, pick func(pos rules.Position, legal []rules.Move) rules.Move) ([]Turn, error) {
	pos := start
	var history []rules.Position
	var turns []Turn
	for range n {
		if pos.Outcome(history).Over() {
			break
		}
		legal := pos.Legal()
		if len(legal) == 0 {
			break
		}
		m := pick(pos, legal)
		next, err := pos.Play(m)
		if err != nil {
			return nil, fmt.Errorf("legal move %s does not play: %w", m, err)
		}
		turns = append(turns, turnOf(pos, m, next))
		history = append(history, pos)
		pos = next
	}
	return turns, nil
}
