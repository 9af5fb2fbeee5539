package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"arbiter/board"
	"arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
)

func newSimulateCmd() *cobra.Command {
	var (
		game, options, id, link, capsText string
		games, plies                      int
		speed, faults                     float64
		seed                              uint64
		abandon                           bool
	)
	cmd := &cobra.Command{
		Use:   "simulate --game NAME [--link PATH]",
		Short: "Run a simulated sensor board on a pseudo-terminal, playing random games",
		Long: `simulate creates a pseudo-terminal that speaks the sensor-board protocol
exactly as hardware does, and plays random legal games on it with human
timing: lifts and places, slides, touches, towers split, captures in either
order, drops, clock presses, and the faults asked for. Point a daemon at the
printed path (boards.ports: [{path: ...}]) to test it without hardware.

The simulated players wait for the daemon to start each game, and end it
within --plies moves as people do: by the rules (checkmate, a position
with no move), or else by a resignation (the resign button pressed twice)
or a draw by agreement (an offer and its acceptance on the board's
buttons, where the game has draws by agreement); with --abandon they
leave the game unfinished after --plies moves instead, as when a board is
unplugged in the middle of a game. It stops on SIGINT and SIGTERM.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			g, err := gameFromFlags(game, options)
			if err != nil {
				return err
			}
			caps := board.CapHeight | board.CapClockDisplay | board.CapText
			for _, c := range strings.Split(capsText, "+") {
				switch c {
				case "heights", "":
				case "identity":
					caps |= board.CapIdentity | board.CapFace | board.CapColor
				case "zones":
					caps |= board.CapZoneCount
				default:
					return fmt.Errorf("%w: --caps %q: want heights, identity and/or zones joined by +", errUsage, c)
				}
			}
			if speed <= 0 {
				return fmt.Errorf("%w: --speed must be positive", errUsage)
			}
			if plies < 1 {
				return fmt.Errorf("%w: --plies must be at least 1", errUsage)
			}
			// Stopped by SIGINT and SIGTERM from before the board is
			// plugged in: its link is removed on the way out.
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			b, err := sim.NewBoard(sim.Config{ID: id, Geometry: g.Geometry(), Graph: sim.GraphName(g), Caps: caps, Seed: seed,
				Faults: sim.LinkFaults(faults)}, sim.NewReal())
			if err != nil {
				return err
			}
			p, err := sim.Attach(b, link)
			if err != nil {
				return err
			}
			defer p.Close()
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "board %s (%s) on %s\n", id, game, p.Path())
			clk := sim.NewReal()
			r := sim.NewRunner(b, clk)
			r.Plug = p
			r.Human = sim.DefaultHuman.Scaled(speed)
			s := &simPlayers{g: g, b: b, r: r, clk: clk, rng: rand.New(rand.NewPCG(seed, 1)), speed: speed, plies: plies, abandon: abandon, out: out}
			err = s.run(ctx, games)
			if ctx.Err() != nil {
				return nil // interrupted: the board is unplugged by the deferred Close
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&game, "game", "tavreli", "game: "+strings.Join(rules.Games(), ", "))
	f.StringVar(&options, "options", "", "rule options, key=value,...")
	f.StringVar(&id, "id", "SIM-1", "the board id its handshake gives")
	f.StringVar(&link, "link", "", "also make this symbolic link to the pseudo-terminal")
	f.StringVar(&capsText, "caps", "heights", "what the board senses: heights, identity, zones (joined by +)")
	f.IntVar(&games, "games", 0, "games to play (0: until interrupted)")
	f.IntVar(&plies, "plies", 80, "moves per game at most: a game the rules have not ended by then is resigned or agreed drawn")
	f.Float64Var(&speed, "speed", 1, "how much faster than a person to play")
	f.Float64Var(&faults, "faults", 0, "fault rate (0 to 1): dropped, corrupted and duplicated frames, bouncing sensors")
	f.Uint64Var(&seed, "seed", 1, "random seed")
	f.BoolVar(&abandon, "abandon", false, "leave each game unfinished after --plies moves (a board unplugged mid-game)")
	return cmd
}

// simPlayers are the two people at a simulated board of "arbiter
// simulate": they set the pieces up, wait for the daemon to start the
// game, play random legal moves and end the game.
type simPlayers struct {
	g     rules.Game
	b     *sim.Board
	r     *sim.Runner
	clk   sim.Clock
	rng   *rand.Rand
	speed float64
	plies int
	// abandon leaves a game unfinished after plies moves.
	abandon bool
	out     io.Writer
}

// run plays games games (0: until ctx ends).
func (s *simPlayers) run(ctx context.Context, games int) error {
	for n := 0; games == 0 || n < games; n++ {
		start := s.g.Start()
		if n == 0 {
			s.b.Load(start.View()) // set up before it is switched on
		} else {
			// The pieces are set up again square by square, as the board
			// reports: a board re-set without a word would show the host
			// the last game's end (issue 18 §4).
			s.b.Arrange(start.View())
		}
		if err := s.r.WaitHost(ctx); err != nil {
			return err
		}
		_, _, _, acks := s.b.HostState()
		if err := s.await(ctx, 0, func() bool { return s.started(len(acks)) }); err != nil {
			return err
		}
		moves, pos, over := randomGame(start, s.plies, s.rng)
		turns, err := sim.Replay(start, moves)
		if err != nil {
			return err
		}
		fmt.Fprintf(s.out, "game %d: %d moves\n", n+1, len(turns))
		if err := s.r.Play(ctx, turns); err != nil {
			return err
		}
		if s.abandon && !over {
			fmt.Fprintf(s.out, "game %d: left unfinished\n", n+1)
			if err := rest(ctx, s.b, s.clk, time.Duration(float64(5*time.Second)/s.speed)); err != nil {
				return err
			}
			continue
		}
		how := "by the rules"
		if !over {
			if how, err = s.end(ctx, pos); err != nil {
				return err
			}
		}
		// The daemon says the result on the board's display.
		if err := s.await(ctx, s.patience(), s.resulted); err != nil {
			if ctx.Err() != nil {
				return err
			}
			fmt.Fprintf(s.out, "game %d: no result shown after it ended %s; going on\n", n+1, how)
		} else {
			_, _, alert, _ := s.b.HostState()
			fmt.Fprintf(s.out, "game %d: %s (ended %s)\n", n+1, alert.Text, how)
		}
		// The players sit a moment after the game (and the host reads its
		// last frames before the board is set up again).
		if err := rest(ctx, s.b, s.clk, time.Duration(float64(5*time.Second)/s.speed)); err != nil {
			return err
		}
	}
	return nil
}

// randomGame plays up to plies random legal moves from start, stopping
// where the rules end the game; it returns the moves, the position after
// them and whether the rules ended the game.
func randomGame(start rules.Position, plies int, rng *rand.Rand) ([]rules.Move, rules.Position, bool) {
	pos := start
	var history []rules.Position
	var moves []rules.Move
	for len(moves) < plies {
		if pos.Outcome(history).Over() {
			return moves, pos, true
		}
		legal := pos.Legal()
		if len(legal) == 0 {
			return moves, pos, true
		}
		m := legal[rng.IntN(len(legal))]
		next, err := pos.Play(m)
		if err != nil {
			break // a legal move that does not play: stop here
		}
		moves = append(moves, m)
		history = append(history, pos)
		pos = next
	}
	return moves, pos, pos.Outcome(history).Over()
}

// end ends a game the rules have not ended, as the demo's players do: one
// time in three, where the game has draws by agreement, the side to move
// offers a draw and the other accepts; otherwise the side to move resigns
// (its resign button pressed twice). It says how.
func (s *simPlayers) end(ctx context.Context, pos rules.Position) (string, error) {
	side := board.SideOf(pos.Turn())
	other := board.SideOf(pos.Turn().Other())
	pause := time.Duration(float64(700*time.Millisecond) / s.speed)
	_, impasse := pos.(rules.Impasser)
	if !s.g.Traits().NoDrawByAgreement && !impasse && s.rng.IntN(3) == 0 {
		s.b.Press(board.ButtonOffer, side, 0)
		if err := rest(ctx, s.b, s.clk, pause); err != nil {
			return "", err
		}
		s.b.Press(board.ButtonOffer, other, 0)
		return "by a draw agreed on the board", nil
	}
	s.b.Press(board.ButtonResign, side, 0)
	if err := rest(ctx, s.b, s.clk, min(pause, board.ResignConfirm/2)); err != nil {
		return "", err
	}
	s.b.Press(board.ButtonResign, side, 0)
	return "by a resignation on the board", nil
}

// started reports whether the daemon has started a game on the board
// since it had given acks acknowledgements: its start is one.
func (s *simPlayers) started(acks int) bool {
	_, _, _, all := s.b.HostState()
	return len(all) > acks && slices.ContainsFunc(all[acks:], func(a sensorboard.AckMoveMsg) bool { return a.Text == "start" })
}

// resulted reports whether the board's display shows a result.
func (s *simPlayers) resulted() bool {
	_, _, alert, _ := s.b.HostState()
	if alert.Level != board.AlertInfo {
		return false
	}
	for _, r := range []string{"1-0 ", "0-1 ", "1/2-1/2 "} {
		if strings.HasPrefix(alert.Text, r) {
			return true
		}
	}
	return false
}

// patience is how long the players wait for the daemon to show the
// result of a game they ended: as long as people would, at their speed.
func (s *simPlayers) patience() time.Duration {
	return min(30*time.Second, max(3*time.Second, time.Duration(float64(time.Minute)/s.speed)))
}

// await waits until done says so, the board sending its heartbeats
// meanwhile; a limit above 0 bounds the wait (context.DeadlineExceeded).
func (s *simPlayers) await(ctx context.Context, limit time.Duration, done func() bool) error {
	var end time.Duration
	if limit > 0 {
		end = s.clk.Now() + limit
	}
	for !done() {
		if end > 0 && s.clk.Now() >= end {
			return context.DeadlineExceeded
		}
		if err := rest(ctx, s.b, s.clk, 50*time.Millisecond); err != nil {
			return err
		}
	}
	return nil
}

// rest lets the players of a simulated board sit for d, the board sending
// its heartbeats meanwhile.
func rest(ctx context.Context, b *sim.Board, clk sim.Clock, d time.Duration) error {
	end := clk.Now() + d
	for now := clk.Now(); now < end; now = clk.Now() {
		if err := clk.SleepUntil(ctx, min(end, now+100*time.Millisecond)); err != nil {
			return err
		}
		b.Idle()
	}
	return nil
}
