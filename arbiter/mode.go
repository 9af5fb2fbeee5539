package arbiter

import (
	"fmt"
	"time"
)

// mode is what a session does with what the board shows: one at a time,
// each with its own step function (step.go), which decides what every
// input means in that mode. The package doc draws the modes and the
// transitions between them; this file holds the transitions and the
// invariants of the mode and the facts kept beside it (check).
type mode uint8

const (
	// modeReading: a move is awaited or in progress. A settled board is
	// judged (a move completed on release, a retraction, a board that has
	// matched nothing for Config.RecoveryAfter), and so is a clock press.
	modeReading mode = iota
	// modeSettingUp: the game waits for the board to show its position
	// (Config.AwaitSetup). Changes are recorded, presses and adjustments
	// ignored; the set-up is judged once the board has settled.
	modeSettingUp
	// modeAdjusting: the side to move announced an adjustment. Its lifts
	// bind no one and nothing is judged at a settle until the adjustment
	// ends: by the player's press, by the board back at its baseline, or
	// by a move committed.
	modeAdjusting
	// modePrompting: a clock press waits for the answer to which of
	// several moves was made; nothing is judged at a settle meanwhile.
	modePrompting
	// modeRecovering: the board must be put back to the position (an
	// illegal move, a retraction, an altered adjustment, a take-back);
	// the board showing it ends the mode.
	modeRecovering
	// modeUnmatched: the board has matched no legal move for
	// Config.RecoveryAfter (a piece held while its player thinks). It is
	// a recovery that a legal move shown also ends.
	modeUnmatched
)

// String names the mode for logs and tests.
func (m mode) String() string {
	switch m {
	case modeReading:
		return "reading"
	case modeSettingUp:
		return "setting up"
	case modeAdjusting:
		return "adjusting"
	case modePrompting:
		return "prompting"
	case modeRecovering:
		return "recovering"
	case modeUnmatched:
		return "unmatched"
	}
	return "mode(?)"
}

// recovery reports whether m asks for the board to be put right.
func (m mode) recovery() bool { return m == modeRecovering || m == modeUnmatched }

// overlays reports whether m interrupts another mode, kept in
// Session.under and resumed when m ends: the set-up, an adjustment.
func (m mode) overlays() bool { return m == modeSettingUp || m == modeAdjusting }

// base is the mode beneath an adjustment or the set-up, which resumes
// when they end; otherwise the mode itself.
func (s *Session) base() mode {
	if s.mode.overlays() {
		return s.under
	}
	return s.mode
}

// recovering reports whether the board must be put right, beneath an
// adjustment or the set-up too.
func (s *Session) recovering() bool { return s.base().recovery() }

// setBase enters m beneath an adjustment or the set-up, which go on, and
// otherwise at once: a recovery entered during an adjustment is asked for
// when it ends.
func (s *Session) setBase(m mode) {
	if s.mode.overlays() {
		s.under = m
		return
	}
	s.mode = m
}

// idle is the mode when nothing is to be put right: prompting while a
// press's question is open, reading otherwise.
func (s *Session) idle() mode {
	if s.prompt.press {
		return modePrompting
	}
	return modeReading
}

// endOverlay ends the set-up or an adjustment: the recovery beneath it
// goes on, or else the session is idle.
func (s *Session) endOverlay() {
	if s.under.recovery() {
		s.mode = s.under
	} else {
		s.mode = s.idle()
	}
	s.under = modeReading
	s.adjusted = false
}

// endRecovery ends a recovery (beneath an adjustment or the set-up too).
func (s *Session) endRecovery() { s.setBase(s.idle()) }

// enterSettingUp makes the session wait for the board to show the
// position, beneath which the mode it was in resumes.
func (s *Session) enterSettingUp() {
	if s.mode != modeSettingUp {
		s.under, s.mode = s.base(), modeSettingUp
	}
}

// endQuestion ends prompting, beneath an adjustment or the set-up too,
// once a press's question no longer waits for its answer (a strict
// touch-move refusal, the window's end).
func (s *Session) endQuestion() {
	if s.base() == modePrompting {
		s.setBase(modeReading)
	}
}

// endWindow ends the modes of the window, which end with it (a move
// committed, a take-back): an adjustment, a press's question.
func (s *Session) endWindow() {
	if s.mode == modeAdjusting {
		s.endOverlay()
	}
	s.endQuestion()
}

// startAdjusting enters modeAdjusting at the press in. It may interrupt
// any mode but the set-up: a recovery goes on beneath it, a press's
// question stays open.
func (s *Session) startAdjusting(out []Output, in input) []Output {
	s.under, s.mode = s.mode, modeAdjusting
	s.adjusted = false
	s.lastChange = in.At // adjust mode ends after the board has settled from now
	s.note(in.At, "adjust mode")
	return out
}

// endAdjusting ends an adjustment at the player's press in: the
// interrupted mode resumes, or a recovery starts if the position was
// altered.
func (s *Session) endAdjusting(out []Output, in input) []Output {
	s.endOverlay()
	s.note(in.At, "adjust mode ended")
	// A press held for a state dump is judged after the board has moved
	// on; the altered position can no longer be told from a move made
	// after the adjustment, so only a timely press checks.
	if t := s.currentTurn(); !in.held && t.sig(s.obs) != "" {
		out = append(out, s.alert(AdjustAlert, in.Side, in.At, "position altered during adjusting: restore it", true).shown("position altered while adjusting: restore it"))
		return s.enterRecovery(out, in.At, "position altered during adjusting")
	}
	return out
}

// settleAdjusting is a settled board while adjusting: the adjustment ends
// by itself once the board is back at its baseline after a lift (or has
// stayed there for Config.RecoveryAfter), and the player's closing press
// is then due. Nothing else is judged.
func (s *Session) settleAdjusting(out []Output, now time.Duration) []Output {
	if s.currentTurn().sig(s.obs) == "" && (s.adjusted || s.horizon(now)-s.lastChange >= s.cfg.RecoveryAfter) {
		s.endOverlay()
		s.autoEnd = true
		s.note(now, "adjust mode ended: board back at its baseline")
	}
	return out
}

// settleReading is a settled board while reading: a move completed on
// release is committed (or asked about), and so is one whose player has
// pressed already (pressedAlready); a change of the last move is judged
// as a retraction, and a board that has matched no legal move for
// Config.RecoveryAfter is to be put right.
func (s *Session) settleReading(out []Output, now time.Duration) []Output {
	t := s.currentTurn()
	sig := t.sig(s.obs)
	if sig == "" {
		return out
	}
	if rocker := s.pressedAlready(); s.judged != sig && (s.cfg.Completion == OnRelease || rocker) {
		s.judged = sig
		idx, err := t.match(s.obs, s.lifted, s.lossy)
		if err != nil {
			return append(out, s.alert(IrregularityAlert, s.pos.Turn(), now, err.Error(), false).shown("fault: call the arbiter"))
		}
		idx = s.pair(t, idx)
		switch {
		case len(idx) == 1:
			return s.tryCommit(out, idx[0], s.lastChange, s.lastBoard, rocker)
		case len(idx) > 1:
			return s.ambiguous(out, idx, s.lastChange, false)
		}
	}
	if o, ok := s.judgeRetraction(out, t, now); ok {
		return o
	}
	if idx, err := t.match(s.obs, s.lifted, s.lossy); err == nil && !s.cfg.JudgeAtPress && s.horizon(now)-s.lastChange >= s.cfg.RecoveryAfter && len(idx) == 0 {
		out = s.enterRecovery(out, now, "")
		s.setBase(modeUnmatched)
	}
	return out
}

// putRight ends a recovery (beneath an adjustment or the set-up too) when
// the board shows the position again; done reports that it did.
func (s *Session) putRight(out []Output, at time.Duration) (_ []Output, done bool) {
	if s.currentTurn().sig(s.obs) != "" {
		return out, false
	}
	s.endRecovery()
	s.alerted = ""
	out = append(out, Recovery{At: at, Done: true})
	return s.retractionDone(out, at), true
}

// pressedAlready reports whether the board's own clock shows the side to
// move's opponent to move: on a clock whose lever is a rocker (DGT), the
// side to move's side of the lever is down, so it has pressed already
// (an illegal move's press, or a press without a move) and cannot press
// again. Its move is then complete when the board settles on it, as DGT's
// own software reads a rocker clock (issue 32 F2). Not where a move is
// judged only at its press.
func (s *Session) pressedAlready() bool {
	return s.clockTurnKnown && s.clockTurn == s.pos.Turn().Other() && !s.cfg.JudgeAtPress
}

// check reports how the session's mode and the facts kept beside it
// disagree, or nil: what every step must leave true (invariants). The
// tests check it after every step (export_test.go).
func (s *Session) check() error {
	if s.mode > modeUnmatched || s.under > modeUnmatched {
		return fmt.Errorf("mode %d beneath %d: no such mode", s.under, s.mode)
	}
	for _, inv := range invariants {
		if !inv.holds(s) {
			return fmt.Errorf("%s (%v beneath %v)", inv.broken, s.under, s.mode)
		}
	}
	return nil
}

// invariants are what every step leaves true of a session's mode and
// the facts kept beside it, each with what it is when broken.
var invariants = []struct {
	holds  func(s *Session) bool
	broken string
}{
	{func(s *Session) bool { return !s.under.overlays() }, "the set-up or an adjustment beneath another mode"},
	{func(s *Session) bool { return s.mode.overlays() || s.under == modeReading }, "a mode beneath one that interrupts nothing"},
	{func(s *Session) bool { return s.base() != modePrompting || s.prompt.press }, "prompting with no press's question open"},
	{func(s *Session) bool { return !s.prompt.press || s.base() != modeReading }, "a press's question open while reading"},
	{func(s *Session) bool { return !s.prompt.press || s.prompt.idx != nil }, "a press's question with no candidates"},
	{func(s *Session) bool { return s.prompt.idx == nil || s.turn != nil && s.turn.pos == s.pos }, "a question about another position's moves"},
	{func(s *Session) bool { return s.base() != modeUnmatched || !s.cfg.JudgeAtPress }, "unmatched where moves are judged at the press"},
	{func(s *Session) bool { return !s.adjusted || s.mode == modeAdjusting }, "an adjustment's lift noted outside an adjustment"},
	{func(s *Session) bool { return !s.autoEnd || s.mode != modeAdjusting }, "an adjustment ended by itself still under way"},
	{func(s *Session) bool { return s.setupTold == "" || s.mode == modeSettingUp }, "a set-up alert kept after the set-up"},
	{func(s *Session) bool { return !s.rs.open || s.recovering() || s.over.Over() }, "a retraction being put right outside a recovery"},
	{func(s *Session) bool { return !s.rs.held || s.rs.open }, "the clock held for a retraction that is not open"},
	{func(s *Session) bool { return len(s.held) == 0 || s.stale }, "presses held with no state dump awaited"},
	{func(s *Session) bool { return !s.recalling }, "the board's log still being read after its event"},
	{func(s *Session) bool { return !s.pressDue || len(s.history) > 0 && s.cfg.Completion == OnRelease }, "a press due for no move completed on release"},
	{func(s *Session) bool { return s.last == nil || len(s.history) > 0 && s.cfg.TouchMove == Off }, "the last move watched where touches bind, or none was made"},
}
