package board

import (
	"context"
	"math/rand/v2"
	"time"

	"arbiter/rules"
)

// SimConfig says which simulated board [Protocol.Simulate] makes.
type SimConfig struct {
	// Dir is the folder where the board's pseudo-terminal link is made.
	Dir string
	// ID is the board's identity, for a protocol whose boards name
	// themselves (ours); a protocol whose ids are serial numbers makes one
	// from Index.
	ID string
	// Index numbers the simulated boards of the protocol in one run, from
	// 1: each gets an identity of its own.
	Index int
	// Game is what the board is set up for.
	Game rules.Game
	// Seed and Number make the board's faults and its people's handling
	// repeatable: each board of a run has its own Number.
	Seed, Number uint64
	// Speed is how much faster than people the simulated people play (1:
	// as fast as people).
	Speed float64
	// Faults is the rate (0 to 1) of the board's link and sensor faults,
	// where the protocol simulates them.
	Faults float64
	// Settings are the protocol's settings as the daemon reads the board
	// with them (where White sits at a DGT clock), nil for the defaults.
	Settings Settings
}

// Simulated is a simulated board on a pseudo-terminal and the hands of
// the two people who play on it: the daemon reads it through [Port] as
// it reads a real board of the protocol.
type Simulated interface {
	// ID is the board id the board's handshake gives.
	ID() string
	// Port is the boards.ports[] entry that finds the board.
	Port() Port
	// WaitHost waits until the daemon has opened the board's port.
	WaitHost(ctx context.Context) error
	// Restore puts the pieces as want shows them, by hand, as people do
	// between games or when the arbiter asks for the position back.
	Restore(ctx context.Context, want rules.View) error
	// Move makes move m from pos, giving next, with a person's handling
	// (rng decides its details), and presses the clock.
	Move(ctx context.Context, pos, next rules.Position, m rules.Move, rng *rand.Rand) error
	// Idle tells the daemon, on a board that says so, that the idle board
	// is alive; Heartbeat is how often it wants to.
	Idle()
	Heartbeat() time.Duration
	// Answer answers the question on the board's display for side with
	// choice (a promotion), where the board has one.
	Answer(side rules.Color, choice int)
	// Close unplugs the board and removes its pseudo-terminal.
	Close() error
}
