package arbiter

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter/board"
	"arbiter/clock"
	"arbiter/rules"
)

// Output is something a session decided: a move, an alert, a question, a
// result. The daemon stores it (moves, results and alerts are acknowledged
// only after they are stored) and publishes it.
type Output interface{ output() }

// MoveMade is a committed move.
type MoveMade struct {
	Ply      int
	Side     rules.Color
	Move     rules.Move
	Notation string // the game's record notation
	Position rules.Position
	// At is the instant the move was completed (the clock press, or the
	// last placement for games completed on release); BoardMs its board
	// timestamp.
	At      time.Duration
	BoardMs int64
	// Used is the time the move took on the clock; Clock the remaining
	// time of each side after it (zero without a clock).
	Used  time.Duration
	Clock [2]time.Duration
	// RawSeq is the raw frame that completed the move.
	RawSeq uint64
}

// AlertKind classifies alerts for the arbiter's queue.
type AlertKind uint8

// The alert kinds.
const (
	IllegalMoveAlert AlertKind = iota + 1
	TouchMoveAlert
	AmbiguityAlert
	RecoveryAlert
	IrregularityAlert // a press without a move, an enemy piece lifted, ...
	AdjustAlert       // position altered during adjusting
	FlagAlert
	LinkAlert
	ArbiterCallAlert
	// EtiquetteAlert: the hand stands disagree with the hands (a captured
	// piece on the wrong stand, or long in the player's hand): to be put
	// right, never a foul (shogi.md 6.6).
	EtiquetteAlert
	// FoulSuspectedAlert: evidence of a foul the board cannot prove, for
	// the arbiter to decide (a move changed after the press, shogi.md
	// 3.4.4).
	FoulSuspectedAlert
	// SetupAlert: the board has settled on something other than the
	// start position while the game waits for it (Config.AwaitSetup);
	// the message lists the differences (Session.SetupDiff).
	SetupAlert
	// RetractionAlert: the player who just moved took the completed move
	// back or changed it; charged to that player (retract.go).
	RetractionAlert
	// ClocksHeldAlert: the game's clocks are held until the arbiter
	// resumes them (a game resumed after a restart of the daemon); the
	// message gives what the board's own clock showed, where it has one.
	ClocksHeldAlert
)

var alertNames = [...]string{
	IllegalMoveAlert: "illegal-move", TouchMoveAlert: "touch-move", AmbiguityAlert: "ambiguity",
	RecoveryAlert: "recovery", IrregularityAlert: "irregularity", AdjustAlert: "adjust",
	FlagAlert: "flag", LinkAlert: "link", ArbiterCallAlert: "arbiter-call",
	EtiquetteAlert: "etiquette", FoulSuspectedAlert: "foul-suspected", SetupAlert: "setup",
	RetractionAlert: "retraction", ClocksHeldAlert: "clocks-held",
}

// String returns the stable name of the kind.
func (k AlertKind) String() string {
	if int(k) < len(alertNames) && alertNames[k] != "" {
		return alertNames[k]
	}
	return fmt.Sprintf("AlertKind(%d)", uint8(k))
}

// MoveAmended replaces the last move, of ply Ply, by New: its mover
// changed it before the clock press that would have made it final (a
// split or a slide continued after it was committed on release). Old is
// the replaced move in record notation.
type MoveAmended struct {
	Ply int
	Old string
	New MoveMade
}

// Alert asks for the human arbiter's attention.
type Alert struct {
	Kind AlertKind
	Side rules.Color // the side concerned
	At   time.Duration
	// Message says what happened and what to do, for people.
	Message string
	// Board says it on a board's display: at most board.MaxText bytes,
	// written short rather than cut (Alert.shown); empty for alerts no
	// board shows (about the link itself).
	Board string
	// Squares to light on the board.
	Squares []rules.Square
	// Evidence is the turn's event log that led to the alert.
	Evidence []string
	// Enforced: the session refuses to go on until the matter is put right
	// (strict touch-move, recovery); otherwise the alert is a report.
	Enforced bool
}

// Prompt asks the player to move (or the arbiter) to choose among legal
// moves that the board cannot tell apart, such as promoting or not on a
// board that cannot see the face of a piece.
type Prompt struct {
	Side     rules.Color   `json:"side"`
	At       time.Duration `json:"atNs"`
	Question string        `json:"question"`
	// Choices are the candidate moves in record notation; Moves the same
	// in canonical form, for [Session.Resolve]. The player's answer n
	// picks Moves[n].
	Choices []string `json:"choices"`
	Moves   []string `json:"moves"`
	// Promotion: the question is whether a piece promoted. Moves[0] is
	// the promotion and Moves[1] the same move without it, so that a
	// board's yes and no answer it.
	Promotion bool `json:"promotion,omitempty"`
	// From and To are the squares of each choice (NoSquare for none, as
	// the origin of a drop), for a board to light.
	From []rules.Square `json:"from,omitempty"`
	To   []rules.Square `json:"to,omitempty"`
}

// Message is the QUESTION message that shows the prompt on a board of
// geometry geo: squares become the board's sensor numbers, each choice is
// its move in the game's canonical notation with its record notation for
// display (choiceText), and choices past board.MaxChoices are left to the
// arbiter's console.
func (p Prompt) Message(geo *rules.Geometry) *board.Question {
	q := &board.Question{Side: board.SideOf(p.Side), Kind: board.QuestionChoose, Text: "which move was made?"}
	switch {
	case p.Promotion:
		q.Kind, q.Text = board.QuestionPromote, "promote?"
	case len(p.From) > 0 && !slices.ContainsFunc(p.From, func(sq rules.Square) bool { return sq != rules.NoSquare }):
		q.Text = "which piece was dropped?"
	}
	sensor := func(sq rules.Square) rules.Square {
		if sq == rules.NoSquare {
			return sq
		}
		return rules.Square(geo.SensorIndex(sq))
	}
	for i, text := range p.Choices {
		if i == board.MaxChoices {
			break
		}
		move := text
		if i < len(p.Moves) {
			move = p.Moves[i]
		}
		c := board.Choice{From: rules.NoSquare, To: rules.NoSquare, Text: choiceText(move, text)}
		if i < len(p.From) {
			c.From, c.To = sensor(p.From[i]), sensor(p.To[i])
		}
		q.Choices = append(q.Choices, c)
	}
	return q
}

// choiceText is a choice as QUESTION carries it (PROTOCOL 6.1): the move
// in the game's canonical notation (USI in shogi, "8h2b+"), then, where
// it differs and the two fit in board.MaxChoiceText, a space and the move
// in the record notation for display ("8h2b+ ▲２二角成").
func choiceText(move, display string) string {
	if display == move || len(move)+1+len(display) > board.MaxChoiceText {
		return move
	}
	return move + " " + display
}

// Recovery reports that the board does not show the game's position and
// says exactly which squares to fix; Done reports that it matches again.
type Recovery struct {
	At     time.Duration
	Reason string
	// Board is the reason on a board's display, at most board.MaxText
	// bytes (fit).
	Board string
	Fixes []SquareFix
	Done  bool
}

// GameOver is the end of the game.
type GameOver struct {
	Outcome rules.Outcome
	At      time.Duration
	Detail  string
}

// Started reports that the game has begun: the board shows the start
// position and the first mover's clock runs.
type Started struct {
	At time.Duration
}

// ClockEvent passes on what the clock did by itself: a stage reached,
// byoyomi entered, a period lost, a flag pending.
type ClockEvent struct {
	Event clock.Event
}

func (MoveMade) output()    {}
func (Alert) output()       {}
func (Prompt) output()      {}
func (Recovery) output()    {}
func (GameOver) output()    {}
func (ClockEvent) output()  {}
func (Started) output()     {}
func (MoveAmended) output() {}

// String formats outputs for logs and scenario files.
func (m MoveMade) String() string {
	return fmt.Sprintf("move %d %s %s", m.Ply, m.Notation, m.Move)
}

func (m MoveAmended) String() string {
	return fmt.Sprintf("move %d amended: %s, was %s", m.Ply, m.New.Notation, m.Old)
}

func (a Alert) String() string {
	return fmt.Sprintf("alert %s %s: %s", a.Kind, a.Side, a.Message)
}

func (p Prompt) String() string {
	return fmt.Sprintf("prompt %s: %s [%s]", p.Side, p.Question, strings.Join(p.Choices, " | "))
}

func (r Recovery) String() string {
	if r.Done {
		return "recovered"
	}
	fixes := make([]string, len(r.Fixes))
	for i, f := range r.Fixes {
		fixes[i] = f.String()
	}
	return fmt.Sprintf("recovery %s: %s", r.Reason, strings.Join(fixes, "; "))
}

func (g GameOver) String() string {
	s := "over " + g.Outcome.String()
	if g.Detail != "" {
		s += ": " + g.Detail
	}
	return s
}

func (c ClockEvent) String() string { return "clock " + c.Event.String() }

func (s Started) String() string { return "started at " + s.At.String() }
