package arbiter

import "time"

// Each mode has its own step function, the way each role of an etcd raft
// node has its own: Handle and Tick do what every input needs whatever
// the mode (the instant, the clock), then give the input to the step of
// the session's mode (Session.step), which decides what it means. A step
// takes the inputs its mode treats its own way and passes the others to
// stepAny, what every mode does alike. The two modes that interrupt
// another (the set-up, an adjustment) pass the inputs they leave alone to
// the step of the mode beneath them.

// stepFunc is a mode's step: it takes one input and returns out with the
// outputs it decided appended.
type stepFunc func(s *Session, out []Output, in input) []Output

// input is what a step takes: a board's event, or one of the session's
// own (boardSettled, boardChanged).
type input struct {
	Event
	// held: a press held while frames were lost (Session.stale), judged
	// on the state dump that followed, after the board has moved on.
	held bool
}

// The session's own inputs, stepped as the board's events are (raft's
// local messages). They never come from outside: Handle ignores them.
const (
	// boardSettled: the board has shown the same since Session.lastChange
	// for Config.Settle, at instant At (Tick).
	boardSettled EventKind = iota + 128
	// boardChanged: what the board shows has changed, at instant At (a
	// square, a state dump).
	boardChanged
	// movesStored: the moves the daemon could not store are stored, at
	// instant At (Session.SetUnstored).
	movesStored
)

// step gives in to the step of the session's mode.
func (s *Session) step(out []Output, in input) []Output { return s.mode.step()(s, out, in) }

// step returns m's step function.
func (m mode) step() stepFunc {
	switch m {
	case modeSettingUp:
		return stepSettingUp
	case modeAdjusting:
		return stepAdjusting
	case modePrompting:
		return stepPrompting
	case modeRecovering:
		return stepRecovering
	case modeUnmatched:
		return stepUnmatched
	}
	return stepReading
}

// stepReading: a move is awaited or in progress. A settled board is
// judged (a move completed on release, a retraction, a board matching
// nothing for Config.RecoveryAfter), and so is the side to move's press;
// once the moves are stored, a change of the last move made meanwhile.
func stepReading(s *Session, out []Output, in input) []Output {
	switch in.Kind {
	case boardSettled:
		return s.settleReading(stepAny(s, out, in), in.At)
	case ClockPressed:
		return s.press(out, in.Event, (*Session).judgePress)
	case movesStored:
		return s.storedChange(out, in.At)
	}
	return stepAny(s, out, in)
}

// stepSettingUp: the game waits for the board to show its position
// (Config.AwaitSetup). The board's changes are recorded, not read as
// moves; presses and adjustments are ignored; a settled board, or a
// state dump showing the position, starts the game.
func stepSettingUp(s *Session, out []Output, in input) []Output {
	if changesBoard(in.Kind) && !in.held {
		// The board showed the same state until this event: judge the
		// set-up first, so that the game's first move is not taken for
		// setting up (issue 18 §4).
		out = append(out, s.Tick(in.At)...)
		if s.mode != modeSettingUp {
			return s.step(out, in) // the game has started: the event is its
		}
	}
	switch in.Kind {
	case boardSettled:
		return s.settleSetUp(out, in.At)
	case boardChanged:
		return s.under.step()(s, out, in)
	case SquareChanged:
		return s.squareSetUp(out, in.Event)
	case StateDump:
		return s.dumpSetUp(out, in.Event)
	case ClockPressed:
		s.note(in.At, "press %s", s.game.SideName(in.Side))
		return out
	case AdjustPressed:
		return out
	case Recalled:
		return s.recallSetUp(out, in.Event)
	}
	return stepAny(s, out, in)
}

// stepAdjusting: the side to move announced an adjustment. Its lifts bind
// no one and its changes are not recorded; at a settle it ends by itself
// once the board is back at its baseline, and its player's next adjust
// press ends it. A press and the board's changes are judged by the mode
// it interrupted.
func stepAdjusting(s *Session, out []Output, in input) []Output {
	switch in.Kind {
	case boardSettled:
		return s.settleAdjusting(stepAny(s, out, in), in.At)
	case SquareChanged:
		return s.squareChanged(out, in.Event, false)
	case ZoneChanged:
		s.zoneChanged(in.Event, false)
		return out
	case AdjustPressed:
		return s.adjustPress(out, in, (*Session).endAdjusting)
	case ClockPressed, boardChanged, movesStored:
		return s.under.step()(s, out, in)
	}
	return stepAny(s, out, in)
}

// stepPrompting: a clock press waits for the answer to which of several
// moves was made (Session.answered); nothing is judged at a settle
// meanwhile, a press is judged again, and, once the moves are stored, a
// change of the last move made meanwhile.
func stepPrompting(s *Session, out []Output, in input) []Output {
	switch in.Kind {
	case ClockPressed:
		return s.press(out, in.Event, (*Session).judgePress)
	case movesStored:
		return s.storedChange(out, in.At)
	}
	return stepAny(s, out, in)
}

// stepRecovering: the board must be put back to the position; the board
// showing it ends the mode, and the side to move's press is refused
// (Session.pressRecovering).
func stepRecovering(s *Session, out []Output, in input) []Output {
	switch in.Kind {
	case boardChanged:
		out, _ = s.putRight(out, in.At)
		return out
	case ClockPressed:
		return s.press(out, in.Event, (*Session).pressRecovering)
	}
	return stepAny(s, out, in)
}

// stepUnmatched: a recovery that the board showing a legal move also
// ends: the piece held while its player thought has come down on a move,
// judged then as any other (at the settle or the press).
func stepUnmatched(s *Session, out []Output, in input) []Output {
	switch in.Kind {
	case boardChanged:
		out, done := s.putRight(out, in.At)
		if !done && s.showsMove() {
			s.endRecovery()
			s.alerted = ""
			out = append(out, Recovery{At: in.At, Done: true})
		}
		return out
	case ClockPressed:
		return s.press(out, in.Event, (*Session).pressRecovering)
	}
	return stepAny(s, out, in)
}

// stepAny is what every mode does alike with an input, unless its own
// step takes it: a settled board's hand stands are checked, the board's
// changes read, an adjust press starts an adjustment, and the board's
// other events are taken as they come.
func stepAny(s *Session, out []Output, in input) []Output {
	e := in.Event
	switch e.Kind {
	case boardSettled:
		return s.checkHands(out, s.horizon(e.At), s.lastChange)
	case SquareChanged:
		return s.squareChanged(out, e, true)
	case ZoneChanged:
		s.zoneChanged(e, true)
	case StateDump:
		return s.dump(out, e)
	case AdjustPressed:
		return s.adjustPress(out, in, (*Session).startAdjusting)
	case ArbiterCalled:
		who := s.game.SideName(e.Side) + " calls the arbiter"
		return append(out, s.alert(ArbiterCallAlert, e.Side, e.At, who, false).shown(who))
	case Answered:
		return s.answered(out, e)
	case LinkLost, LinkRestored, Gap:
		return s.link(out, e)
	case Recalled:
		return s.recall(out, e)
	case Heartbeat:
		if e.Clock {
			s.clockTurn, s.clockTurnKnown = e.ClockTurn, e.ClockTurnKnown
		}
		// The board has now reported further: a settled board can be
		// judged without waiting for the host's timer.
		return append(out, s.Tick(s.now)...)
	}
	return out
}

// horizon is how far the board's reports reach at instant now: now, or,
// with Config.BoardTime, no further than the board has reported.
func (s *Session) horizon(now time.Duration) time.Duration {
	if s.cfg.BoardTime {
		return min(now, s.reported)
	}
	return now
}

// press takes a clock press in any mode but the set-up: ignored once the
// game is over, held while stale, and a press of the side that has just
// moved judged apart (pressOutOfTurn); the side to move's press is judged
// by judge, the mode's.
func (s *Session) press(out []Output, e Event, judge func(*Session, []Output, Event) []Output) []Output {
	s.note(e.At, "press %s", s.game.SideName(e.Side))
	if s.over.Over() {
		return out
	}
	if s.stale {
		s.held = append(s.held, e)
		return out
	}
	if e.Side != s.pos.Turn() {
		return s.pressOutOfTurn(out, e)
	}
	return judge(s, out, e)
}

// adjustPress takes an adjust press in any mode but the set-up: held
// while stale, ignored from the side not to move and as the closing
// press of an adjustment that has ended by itself; otherwise act, the
// mode's, starts or ends the adjustment.
func (s *Session) adjustPress(out []Output, in input, act func(*Session, []Output, input) []Output) []Output {
	if s.stale {
		s.held = append(s.held, in.Event)
		return out
	}
	if in.Side != s.pos.Turn() {
		s.note(in.At, "adjust by %s ignored: not their turn", s.game.SideName(in.Side))
		return out
	}
	if s.autoEnd {
		// The player closes an adjustment the session already saw end.
		s.autoEnd = false
		s.note(in.At, "adjust closed")
		return out
	}
	return act(s, out, in)
}
