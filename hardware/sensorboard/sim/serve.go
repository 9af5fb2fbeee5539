package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"arbiter/rules"
)

// Spec describes a simulated board that plays games in real time, for
// demonstrations (`arbiter simulate`) and for trying the daemon by hand.
type Spec struct {
	// Config is the board; its Geometry is taken from Game when nil.
	Config Config
	// Link is the stable path the host opens (a symbolic link to the
	// current pseudo-terminal); empty to use the device name.
	Link string
	Game rules.Game
	// Moves is a game to play, in any notation the game reads; empty for
	// random legal moves.
	Moves []string
	// MaxMoves bounds a random game (default 120).
	MaxMoves int
	// Loop starts a new game when one ends.
	Loop bool
	// Human sets the player's timings; zero for DefaultHuman.
	Human Human
	// Pause is the rest after a game (default 5 s).
	Pause time.Duration
	// Ready, if set, is called with the path to open once the board is
	// plugged in.
	Ready func(path string)
}

// GraphName is the graph name a simulated board of game g announces in its
// handshake: the game's name for a board that is not rectangular (Kvaa),
// empty for a rectangular one.
func GraphName(g rules.Game) string {
	if g.Geometry().Rectangular() {
		return ""
	}
	return g.Name()
}

// Serve runs one simulated board until ctx ends or, without Loop, its game
// is over. The board sets itself up with the game's start position before
// it is plugged in, as a real board is set up before the round.
func Serve(ctx context.Context, s Spec) error {
	if s.Game == nil {
		return fmt.Errorf("sim: board %q: no game", s.Config.ID)
	}
	if s.Config.Geometry == nil {
		s.Config.Geometry = s.Game.Geometry()
	}
	if s.Config.Graph == "" {
		s.Config.Graph = GraphName(s.Game)
	}
	if s.MaxMoves <= 0 {
		s.MaxMoves = 120
	}
	if s.Pause <= 0 {
		s.Pause = 5 * time.Second
	}
	if s.Human == (Human{}) {
		s.Human = DefaultHuman
	}
	clock := NewReal()
	b, err := NewBoard(s.Config, clock)
	if err != nil {
		return err
	}
	start := s.Game.Start()
	b.Load(start.View())
	p, err := Attach(b, s.Link)
	if err != nil {
		return err
	}
	defer p.Close()
	if s.Ready != nil {
		s.Ready(p.Path())
	}
	run := NewRunner(b, clock)
	run.Human = s.Human
	run.Plug = p
	rng := rand.New(rand.NewPCG(s.Config.Seed, 0xD3A0))
	for game := 1; ; game++ {
		var turns []Turn
		if len(s.Moves) > 0 {
			turns, err = ReplayText(start, s.Moves)
		} else {
			turns, err = RandomGame(start, s.MaxMoves, rng)
		}
		if err != nil {
			return fmt.Errorf("sim: board %s game %d: %w", s.Config.ID, game, err)
		}
		if err := run.Play(ctx, turns); err != nil {
			return fmt.Errorf("sim: board %s game %d: %w", s.Config.ID, game, err)
		}
		// The players sit a moment, then set the pieces up again.
		if err := run.sleep(ctx, clock.Now()+s.Pause); err != nil {
			return nil
		}
		if !s.Loop {
			return nil
		}
		b.Arrange(start.View())
	}
}

// Arrange moves the pieces into the position v square by square, as
// players set up a board, reporting each square that changes.
func (b *Board) Arrange(v rules.View) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for sq := range b.stacks {
		want := append([]rules.Piece(nil), v.Stacks[sq]...)
		b.change(rules.Square(sq), func([]rules.Piece) []rules.Piece { return want })
	}
	for z := range b.zones {
		b.zones[z] = append([]rules.Piece(nil), v.Zones[z]...)
	}
}
