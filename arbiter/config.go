package arbiter

import (
	"errors"
	"fmt"
	"math"
	"time"

	"arbiter/rules"
)

// Completion says when a session commits a move.
type Completion uint8

const (
	// OnPress commits the move the board shows when the player presses the
	// clock.
	OnPress Completion = iota
	// OnRelease also commits a move once the board has settled on it
	// (Tavreli: a move is made when the pieces are set down); a press then
	// confirms.
	OnRelease
)

// Enforcement says what happens to a touch-move violation.
type Enforcement uint8

const (
	// Strict refuses the move until the obligation is met.
	Strict Enforcement = iota
	// Report accepts the move and records the violation for a claim.
	Report
	// Off ignores touches.
	Off
)

// Penalty is the event's policy for a completed illegal move.
type Penalty uint8

const (
	// ReportOnly records it and asks for the position to be restored.
	ReportOnly Penalty = iota
	// ChessPenalty adds time to the opponent for the first illegal move
	// and loses the game at the IllegalLossAt-th.
	ChessPenalty
	// LossPenalty loses the game at once (shogi).
	LossPenalty
)

// Config is the event's arbitration policy for one board.
type Config struct {
	Caps       Caps
	Completion Completion
	TouchMove  Enforcement
	Penalty    Penalty
	// IllegalAddTime is the time added to the opponent under ChessPenalty;
	// IllegalLossAt the illegal move that loses (2: the second).
	IllegalAddTime time.Duration
	IllegalLossAt  int
	// Settle is how long the board must stay unchanged before a settled
	// state is judged (OnRelease) or a recovery is declared.
	Settle time.Duration
	// Release is how long a state must have lasted to count as a completed
	// move when the opponent's first lift follows it at once (two quick
	// moves in a row, OnRelease only).
	Release time.Duration
	// Simultaneous is the window within which two lifts count as one touch
	// (a Volkhv and a Ratoborets lifted together for castling).
	Simultaneous time.Duration
	// RecoveryAfter is how long a settled board may match no legal move
	// before the session enters recovery mode.
	RecoveryAfter time.Duration
	// AwaitSetup makes a new game wait until the board shows its start
	// position (settled), then start the clock: the pieces being set up are
	// not touches, and the clock does not run while the players set up.
	AwaitSetup bool
	// SetupAlertAfter is how long a board being set up may stay settled on
	// something other than the start position before a SetupAlert lists
	// the differences (AwaitSetup only).
	SetupAlertAfter time.Duration
	// HandGrace is how long a captured piece may stay out of its captor's
	// hand stand (held in the player's hand) before an etiquette alert,
	// on boards that count the stands. It is never a foul (shogi.md 6.6).
	HandGrace time.Duration
	// JudgeAtPress judges a move only at the clock press (shogi: a foul is
	// complete at commit, shogi.md 2.8): a board that matches no legal
	// move gets no recovery prompt before the press, and a press of an
	// illegal position is the illegal move even while a recovery is open.
	JudgeAtPress bool
	// BoardTime judges settling by what the board has reported (its events
	// and heartbeats, mapped to host time) rather than by the host's clock,
	// so that frames delivered late are never judged early.
	BoardTime bool
}

// The chess penalty for an illegal move (FIDE 7.5.5): two minutes to the
// opponent, and the second one loses.
const (
	fideAddTime = 2 * time.Minute
	fideLossAt  = 2
)

// DefaultConfig returns the default policy for a game, from its traits:
// moves complete on release where the rules say so, touch-move is strict
// where the game has it, and an illegal move loses where the rules say so,
// is penalised as the game's own rules say (rules.Traits.IllegalMoves), and
// is otherwise penalised chess-style.
func DefaultConfig(g rules.Game) Config {
	t := g.Traits()
	c := Config{
		Completion:      OnPress,
		TouchMove:       Off,
		Penalty:         ChessPenalty,
		IllegalAddTime:  fideAddTime,
		IllegalLossAt:   fideLossAt,
		Settle:          300 * time.Millisecond,
		Release:         150 * time.Millisecond,
		Simultaneous:    500 * time.Millisecond,
		RecoveryAfter:   10 * time.Second,
		SetupAlertAfter: 5 * time.Second,
		HandGrace:       30 * time.Second,
	}
	if t.CompleteOnRelease {
		c.Completion = OnRelease
	}
	c.JudgeAtPress = t.JudgeAtPress
	if t.TouchMove {
		c.TouchMove = Strict
	}
	switch d := t.IllegalMoves; {
	case t.IllegalMoveLoses:
		c.Penalty = LossPenalty
	case d.CorrectOnly:
		c.Penalty = ReportOnly
	case d.AddTime > 0 || d.LossAt > 0:
		c.IllegalAddTime, c.IllegalLossAt = d.AddTime, d.LossAt
		if d.LossAt == 0 {
			c.IllegalLossAt = math.MaxInt // time only: no illegal move loses
		}
	}
	return c
}

// BoardConfig is the policy for a game read from a sensor board at an
// event, as the daemon runs it and a replay must repeat it: the game's
// defaults, waiting for the set-up, settling judged on the board's time,
// and the event's touch-move and illegal-move policy (see Policy).
func BoardConfig(g rules.Game, touchMove, illegalMove string) (Config, error) {
	c := DefaultConfig(g)
	c.AwaitSetup, c.BoardTime = true, true
	return c, c.Policy(touchMove, illegalMove)
}

// Validate reports the first setting that makes no sense.
func (c Config) Validate() error {
	switch {
	case c.Settle <= 0:
		return fmt.Errorf("settle time %v: must be positive", c.Settle)
	case c.Release < 0 || c.Release > c.Settle:
		return fmt.Errorf("release time %v: must be between 0 and the settle time %v", c.Release, c.Settle)
	case c.Simultaneous < 0:
		return fmt.Errorf("simultaneous-touch window %v: must not be negative", c.Simultaneous)
	case c.RecoveryAfter < c.Settle:
		return fmt.Errorf("recovery delay %v: must be at least the settle time %v", c.RecoveryAfter, c.Settle)
	case c.AwaitSetup && c.SetupAlertAfter < c.Settle:
		return fmt.Errorf("set-up alert delay %v: must be at least the settle time %v", c.SetupAlertAfter, c.Settle)
	case c.HandGrace < 0:
		return fmt.Errorf("hand-stand grace %v: must not be negative", c.HandGrace)
	case c.Penalty == ChessPenalty && c.IllegalLossAt < 1:
		return fmt.Errorf("illegal-move loss count %d: must be at least 1", c.IllegalLossAt)
	case c.Completion > OnRelease || c.TouchMove > Off || c.Penalty > LossPenalty:
		return fmt.Errorf("unknown completion, enforcement or penalty value")
	}
	return nil
}

// Policy applies an event's written policy to c: touch-move "strict",
// "report" or "off", illegal moves "chess", "loss" or "report"; empty
// strings keep the game's defaults. The same words are used in the
// configuration file and stored with each tournament.
func (c *Config) Policy(touchMove, illegalMove string) error {
	if touchMove != "" {
		e, err := ParseTouchMove(touchMove)
		if err != nil {
			return fmt.Errorf("touch-move policy %q: %w", touchMove, err)
		}
		c.TouchMove = e
	}
	if illegalMove != "" {
		p, err := ParseIllegalMove(illegalMove)
		if err != nil {
			return fmt.Errorf("illegal-move policy %q: %w", illegalMove, err)
		}
		c.Penalty = p
		if p == ChessPenalty {
			// The event's "chess" is FIDE's, not a game's own numbers.
			c.IllegalAddTime, c.IllegalLossAt = fideAddTime, fideLossAt
		}
	}
	return nil
}

// ParseTouchMove reads a touch-move policy word: strict, report or off.
func ParseTouchMove(word string) (Enforcement, error) {
	switch word {
	case "strict":
		return Strict, nil
	case "report":
		return Report, nil
	case "off":
		return Off, nil
	}
	return 0, errors.New("want strict, report or off")
}

// ParseIllegalMove reads an illegal-move policy word: chess, loss or
// report.
func ParseIllegalMove(word string) (Penalty, error) {
	switch word {
	case "chess":
		return ChessPenalty, nil
	case "loss":
		return LossPenalty, nil
	case "report":
		return ReportOnly, nil
	}
	return 0, errors.New("want chess, loss or report")
}
