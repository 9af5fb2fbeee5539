package arbiter

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"arbiter/clock"
	"arbiter/rules"
)

// A retraction is the last mover changing a move that was already
// complete: the board settles on the position before it (the move taken
// back), or on another legal move from that position (the move changed),
// and no move of the side to move explains what it shows. It is the
// mover's illegal action, charged to the mover when it happens, not to
// the opponent whose turn it is (issue 18): the game's illegal-move rule
// applies to the mover and the board must be put back to the move. While
// it is put back, the clock is held, so that no time runs against the
// innocent side.
//
// A move completed on release whose press has not yet come (Tavreli: a
// split continued after it was committed, a slow slide going on after its
// first stop) is not yet final for the clock: a change to another legal
// move then replaces the committed one ([MoveAmended]), reported as a
// touch-move matter where touches bind (FIDE 4.7: a released piece may not
// be moved on), never enforced.

// clockMark is the clock just before a move's press, kept so that the
// press can be undone (a take-back) or made again (an amended move).
type clockMark struct {
	snap clock.Snapshot
	at   time.Duration
}

// retractState is what the session keeps for retractions.
type retractState struct {
	marks map[int]clockMark // by ply: the clock before the move's press
	move  rules.Move        // the last committed move, at ply ply
	ply   int
	prev  *turn // the turn of the position before the last move
	// open: a retraction is being put right. It qualifies the recovery
	// (modeRecovering) rather than being a mode of its own: its end
	// resumes the clock held for it, and no press ends it. It is set
	// before the penalty, which may end the game first.
	open bool
	held bool // the session holds the clock for it
}

// errHeld says that a press was taken while the clock is held (paused by
// the arbiter, held after a restart): the mover's turn ended at the hold
// (clock.PressHeld), and the move stands.
var errHeld = errors.New("the clocks are held")

// pressClock presses side's clock at instant at for ply, keeping the
// clock's state before the press. A press while the clock is held ends
// the mover's turn at the hold and returns errHeld with the move.
func (s *Session) pressClock(side rules.Color, at time.Duration, ply int) (clock.Move, error) {
	snap := s.clk.Snapshot()
	cm, err := s.clk.Press(clock.Side(side), at)
	if errors.Is(err, clock.ErrPaused) {
		if cm, err = s.clk.PressHeld(clock.Side(side)); err == nil {
			err = errHeld
		}
	}
	if err == nil || err == errHeld {
		if s.rs.marks == nil {
			s.rs.marks = map[int]clockMark{}
		}
		s.rs.marks[ply] = clockMark{snap: snap, at: at}
	}
	return cm, err
}

// committed records m as the last committed move.
func (s *Session) committed(m rules.Move) { s.rs.move, s.rs.ply = m, len(s.history) }

// lastMoveText is the last move in the game's notation. After a take-back
// or a restart it is found again among the previous position's moves.
func (s *Session) lastMoveText() string {
	prev := s.prevTurn()
	if s.rs.move != nil && s.rs.ply == len(s.history) {
		return prev.pos.FormatMove(s.rs.move)
	}
	want := s.pos.String()
	for i := range prev.legal() {
		if c, err := prev.candidate(i); err == nil && c.next.String() == want {
			s.committed(c.move)
			return prev.pos.FormatMove(c.move)
		}
	}
	return "?"
}

// prevTurn is the turn of the position before the last move, or nil.
func (s *Session) prevTurn() *turn {
	if len(s.history) == 0 {
		return nil
	}
	p := s.history[len(s.history)-1]
	if s.rs.prev == nil || s.rs.prev.pos != p {
		s.rs.prev = newTurn(p, s.cfg.Caps, s.hand)
	}
	return s.rs.prev
}

// explained says how the board, which shows no move of the side to move,
// is explained by the last mover changing their move: undone (every
// square the move changed is as it was before it) or changed to the
// candidate idx of the previous turn (-1: none).
func (s *Session) explained() (undone bool, idx int) {
	idx = -1
	prev := s.prevTurn()
	if prev == nil || s.over.Over() || s.stale {
		return false, idx
	}
	changed := prev.base.Changed(s.pos.View(), nil)
	if len(changed) == 0 {
		return false, idx
	}
	// Changed: match works out only moves whose origin and destination
	// were lifted or changed since the commit, so the opponent's hand in
	// the air holding a victim of the piece just moved is not taken for a
	// capture of the mover's elsewhere. Lifts lost with frames cannot say
	// so: then only a move undone counts.
	if !s.lossy {
		i, err := prev.match(s.obs, s.lifted, false)
		if err == nil && len(i) == 1 && prev.cands[i[0]].next.String() != s.pos.String() {
			return false, i[0]
		}
	}
	if s.lossy && prev.sig(s.obs) != "" {
		// Frames were lost (a gap, a board back after its link was lost):
		// nobody saw the pieces move, so only a board showing exactly the
		// position before the move tells the move undone. A board showing
		// still other differences is to be put right, charged to nobody.
		return false, idx
	}
	// Undone: every square the move changed is as before it, and a square
	// it emptied is filled again. (A drop undone looks like the opponent
	// lifting the dropped piece to capture it: only a piece put back
	// tells the mover's hand.)
	cur := s.turn.baseCells
	refilled := false
	for _, sq := range changed {
		if s.obs[sq] != prev.baseCells[sq] {
			return false, idx
		}
		refilled = refilled || s.obs[sq].height > cur[sq].height
	}
	return refilled, idx
}

// noMove reports whether the board differs from the position and no move
// of the side to move explains it.
func (s *Session) noMove(t *turn) bool {
	if t.sig(s.obs) == "" {
		return false
	}
	idx, err := t.match(s.obs, s.lifted, s.lossy)
	return err == nil && len(idx) == 0
}

// judgeRetraction judges a board that shows no move, settled or at a
// press while no recovery is open: the last mover's change of a completed
// move is amended (its press not yet due) or charged to the mover. ok is
// false when the board is no retraction.
func (s *Session) judgeRetraction(out []Output, t *turn, at time.Duration) ([]Output, bool) {
	if !s.noMove(t) {
		return out, false
	}
	undone, idx := s.explained()
	switch {
	case idx >= 0 && s.pressDue:
		return s.amend(out, idx, s.lastChange, s.lastBoard, false), true
	case (idx >= 0 || undone) && s.lastUnstored():
		return s.putBack(out, at), true
	case idx >= 0 || undone:
		return s.retract(out, idx, at), true
	}
	return out, false
}

// amendAtPress is the mover's press confirming a move completed on
// release: if the board now shows another legal move from the position
// before it, that move replaces the committed one, completed by the press.
func (s *Session) amendAtPress(out []Output, e Event) []Output {
	if !s.noMove(s.currentTurn()) {
		return out
	}
	if _, idx := s.explained(); idx >= 0 {
		return s.amend(out, idx, e.At, e.BoardMs, true)
	}
	return out
}

// amend replaces the last committed move, whose press was not due, by the
// previous turn's candidate idx, completed at instant at.
func (s *Session) amend(out []Output, idx int, at time.Duration, boardMs int64, pressed bool) []Output {
	prev := s.prevTurn()
	c := prev.cands[idx]
	side := prev.pos.Turn()
	ply := len(s.history)
	old := s.lastMoveText()
	mm := MoveMade{Ply: ply, Side: side, Move: c.move, Notation: prev.pos.FormatMove(c.move),
		Position: c.next, At: at, BoardMs: boardMs, RawSeq: s.lastRaw}
	if s.cfg.TouchMove != Off {
		a := s.alert(TouchMoveAlert, side, at, fmt.Sprintf("touch-move: %s released the move %s and changed it to %s (recorded for a claim)",
			s.game.SideName(side), old, mm.Notation), false).shown(
			fmt.Sprintf("%s changed the released move %s to %s (noted)", s.game.SideName(side), old, mm.Notation),
			s.game.SideName(side)+" changed a released move (noted)")
		a.Squares = slices.Clone(c.changed)
		out = append(out, a)
	}
	if m, ok := s.rs.marks[ply]; ok && s.clk != nil {
		// The move is completed again, now: the opponent's time since the
		// first completion is given back.
		var err error
		if err = s.clk.Restore(m.snap); err == nil {
			var cm clock.Move
			cm, err = s.pressClock(side, at, ply)
			mm.Used = cm.Used
		}
		if err != nil && !errors.Is(err, errHeld) {
			out = append(out, s.alert(IrregularityAlert, side, at, "clock: "+err.Error(), false).shown("clock fault: call the arbiter"))
		}
		mm.Clock = [2]time.Duration{s.clk.Remaining(clock.First, at), s.clk.Remaining(clock.Second, at)}
	}
	s.note(at, "move %s changed to %s", old, mm.Notation)
	s.pos = c.next
	s.committed(c.move)
	s.pressDue = s.cfg.Completion == OnRelease && !pressed
	s.resetWindow()
	out = append(out, MoveAmended{Ply: ply, Old: old, New: mm})
	if o := s.pos.Outcome(s.history); o.Over() {
		out = s.end(out, o, at, "")
	}
	return out
}

// retract charges the last mover with changing a completed move (taken
// back, or changed to candidate idx of the previous turn), applies the
// game's rule for illegal actions to the mover, holds the clock, and asks
// for the move to be put back.
func (s *Session) retract(out []Output, idx int, at time.Duration) []Output {
	prev := s.prevTurn()
	mover := prev.pos.Turn()
	move := s.lastMoveText()
	what := "took back"
	if idx >= 0 {
		what = "changed to " + prev.pos.FormatMove(prev.cands[idx].move)
	}
	s.last = nil // the watch of shogi.md 3.4.4 is answered here
	s.rs.open = true
	if s.clk != nil {
		from := s.lastChange
		if len(s.touches) > 0 {
			from = s.touches[0].at
		}
		switch err := s.clk.Pause(from); {
		case err == nil:
			s.rs.held = true
		case errors.Is(err, clock.ErrPaused):
		default:
			out = append(out, s.alert(IrregularityAlert, mover, at, "clock: "+err.Error(), false).shown("clock fault: call the arbiter"))
		}
	}
	t := s.turn
	squares := fixSquares(s.describe(t.base, t.baseCells, s.obs, false))
	if s.cfg.JudgeAtPress {
		// A foul seen only through the sensors is for the arbiter to
		// confirm (shogi.md 2.8: F8, 待った).
		a := s.alert(FoulSuspectedAlert, mover, at, fmt.Sprintf("foul suspected (待った): %s %s the move %s after the clock press; it stands and must be put back, the arbiter decides",
			s.game.SideName(mover), what, move), false).shown(
			fmt.Sprintf("%s %s %s after the press: put it back", s.game.SideName(mover), what, move),
			s.game.SideName(mover)+"'s move changed after the press: put it back")
		a.Squares = squares
		out = append(out, a)
	} else {
		s.illegal[mover]++
		n := s.illegal[mover]
		a := s.alert(RetractionAlert, mover, at, fmt.Sprintf("%s %s the move %s after completing it (illegal action number %d): put it back",
			s.game.SideName(mover), what, move, n), true).shown(
			fmt.Sprintf("%s %s %s (illegal %d): put it back", s.game.SideName(mover), what, move, n),
			fmt.Sprintf("%s changed a completed move (illegal %d): put it back", s.game.SideName(mover), n))
		a.Squares = squares
		out = append(out, a)
		var over bool
		if out, over = s.penalize(out, mover, n, at, "move "+move+" taken back or changed"); over {
			return out
		}
	}
	return s.enterRecovery(out, at, fmt.Sprintf("restore %s's move %s", s.game.SideName(mover), move))
}

// retractionDone ends a retraction once the board shows the move again:
// the clock held for it runs again, and the lifts of the putting back
// bind no one.
func (s *Session) retractionDone(out []Output, at time.Duration) []Output {
	if !s.rs.open {
		return out
	}
	s.rs.open = false
	// The putting back touched the mover's pieces and maybe the
	// opponent's: the opponent's turn starts afresh.
	s.resetWindow()
	if s.rs.held && s.clk != nil {
		s.rs.held = false
		if err := s.clk.Resume(at); err != nil && !errors.Is(err, clock.ErrNotPaused) {
			out = append(out, s.alert(IrregularityAlert, s.pos.Turn(), at, "clock: "+err.Error(), false).shown("clock fault: call the arbiter"))
		}
	}
	return out
}

// penalize applies the event's illegal-move rule to side's n-th illegal
// action at instant at; over reports that it ended the game. detail names
// the action in the result.
func (s *Session) penalize(out []Output, side rules.Color, n int, at time.Duration, detail string) ([]Output, bool) {
	switch s.cfg.Penalty {
	case LossPenalty:
		return s.end(out, s.illegalLoss(side), at, detail), true
	case ChessPenalty:
		if n >= s.cfg.IllegalLossAt {
			return s.end(out, s.illegalLoss(side), at, fmt.Sprintf("%s (number %d)", detail, n)), true
		}
		if s.clk != nil && s.cfg.IllegalAddTime > 0 {
			if err := s.clk.AddTime(clock.Side(side.Other()), s.cfg.IllegalAddTime); err != nil {
				out = append(out, s.alert(IrregularityAlert, side, at, "clock: "+err.Error(), false).shown("clock fault: call the arbiter"))
			}
		}
	}
	return out, false
}

// takeBackClock undoes the press of the move of ply taken back at instant
// at: the mover's clock runs again with the time it had at the press, and
// the opponent's time since is given back.
func (s *Session) takeBackClock(out []Output, ply int, at time.Duration) []Output {
	m, ok := s.rs.marks[ply]
	delete(s.rs.marks, ply)
	held := s.rs.held
	s.rs.open, s.rs.held = false, false
	if s.clk == nil {
		return out
	}
	if held {
		// The hold was the session's, for a retraction: the take-back
		// settles it.
		if err := s.clk.Resume(at); err != nil && !errors.Is(err, clock.ErrNotPaused) {
			out = append(out, s.alert(IrregularityAlert, s.pos.Turn(), at, "clock: "+err.Error(), false).shown("clock fault: call the arbiter"))
		}
	}
	side := s.pos.Turn()
	if !ok {
		return append(out, s.alert(IrregularityAlert, side, at, "clock: the times before the taken-back move are not known (it was made before a restart): set the clocks by hand", false).shown(
			"set the clocks by hand: call the arbiter"))
	}
	if err := s.clk.Reinstate(m.snap, m.at, at); err != nil {
		return append(out, s.alert(IrregularityAlert, side, at, "clock: "+err.Error(), false).shown("clock fault: call the arbiter"))
	}
	return out
}
