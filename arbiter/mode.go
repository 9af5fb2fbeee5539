package arbiter

import "time"

// mode is what a session does with what the board shows: one at a time,
// each with its own step at a settle (Session.Tick) and its own answer to
// a press. The package doc draws the modes and the transitions between
// them.
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
}

// endRecovery ends a recovery (beneath an adjustment or the set-up too).
func (s *Session) endRecovery() { s.setBase(s.idle()) }

// startAdjusting enters modeAdjusting at the press e. It may interrupt
// any mode but the set-up: a recovery goes on beneath it, a press's
// question stays open.
func (s *Session) startAdjusting(e Event) {
	s.under, s.mode = s.mode, modeAdjusting
	s.adjusted = false
	s.lastChange = e.At // adjust mode ends after the board has settled from now
	s.note(e.At, "adjust mode")
}

// endAdjusting ends an adjustment at the player's press e (late: a press
// held for a state dump): the interrupted mode resumes, or a recovery
// starts if the position was altered.
func (s *Session) endAdjusting(out []Output, e Event, late bool) []Output {
	s.endOverlay()
	s.note(e.At, "adjust mode ended")
	t, err := s.currentTurn()
	// A press recovered from a state dump is judged after the board
	// has moved on; the altered position can no longer be told from a
	// move made after the adjustment, so only a timely press checks.
	if err == nil && !late && t.sig(s.obs) != "" {
		out = append(out, s.alert(AdjustAlert, e.Side, e.At, "position altered during adjusting: restore it", true).shown("position altered while adjusting: restore it"))
		return s.enterRecovery(out, e.At, "position altered during adjusting")
	}
	return out
}

// stepAdjusting is a settled board while adjusting: the adjustment ends
// by itself once the board is back at its baseline after a lift (or has
// stayed there for Config.RecoveryAfter), and the player's closing press
// is then due. Nothing else is judged.
func (s *Session) stepAdjusting(out []Output, t *turn, now, horizon time.Duration) []Output {
	if t.sig(s.obs) == "" && (s.adjusted || horizon-s.lastChange >= s.cfg.RecoveryAfter) {
		s.endOverlay()
		s.autoEnd = true
		s.note(now, "adjust mode ended: board back at its baseline")
	}
	return out
}

// stepReading is a settled board while reading: a move completed on
// release is committed (or asked about), and so is one whose player has
// pressed already (pressedAlready); a change of the last move is judged
// as a retraction, and a board that has matched no legal move for
// Config.RecoveryAfter is to be put right.
func (s *Session) stepReading(out []Output, t *turn, now, horizon time.Duration) []Output {
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
	if idx, err := t.match(s.obs, s.lifted, s.lossy); err == nil && !s.cfg.JudgeAtPress && horizon-s.lastChange >= s.cfg.RecoveryAfter && len(idx) == 0 {
		out = s.enterRecovery(out, now, "")
		s.setBase(modeUnmatched)
	}
	return out
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
