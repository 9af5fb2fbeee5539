package arbiter

import "slices"

// recall reads the moves a board logged itself while the host did not
// watch it (a Recalled event: a host crash, a link down). From the press
// at which the board showed the game's position, each later press is
// taken as it would have been live: the board shown whole, then the
// clock pressed, judged as any press. Reading stops at the first press
// that commits no move (no legal move shown, a question, a stray press): the
// board's present state, which the driver sends after its log, decides
// from there, as for any board that comes back.
//
// A log that does not show the game's position is not used: its moves
// cannot be placed in the game. A game waiting for its set-up (a game
// resumed after a restart waits for the board to show its position) is
// set up at the press that showed the position, then read on.
func (s *Session) recall(out []Output, e Event) []Output {
	from, ok := s.recallStart(e)
	if !ok {
		return out
	}
	return s.recallMoves(out, e, from)
}

// recallSetUp reads the board's log while the game waits for its set-up
// (a resumed game waits for the board to show its position): the set-up
// is done at the press that showed the position, and the log read on from
// there.
func (s *Session) recallSetUp(out []Output, e Event) []Output {
	from, ok := s.recallStart(e)
	if !ok || from < 0 {
		return out // no press shows the set-up
	}
	out = append(out, s.Handle(e.Presses[from].dump(e))...)
	if s.SettingUp() {
		return out
	}
	return s.recallMoves(out, e, from)
}

// recallStart returns the press of the Recalled event e from which the
// board's log is read (recallFrom); ok is false when it is not read.
func (s *Session) recallStart(e Event) (from int, ok bool) {
	if s.over.Over() || len(e.Presses) == 0 {
		return 0, false
	}
	from, ok = s.recallFrom(e.Presses)
	if !ok {
		s.note(e.At, "the board's log (%d presses) does not show the game's position", len(e.Presses))
	}
	return from, ok
}

// recallMoves reads the presses of e's log after press from, each as the
// board shown whole and then the press, until one commits no move.
func (s *Session) recallMoves(out []Output, e Event, from int) []Output {
	n := len(e.Presses) - from - 1
	if n == 0 {
		return out
	}
	s.note(e.At, "reading %d presses from the board's log", n)
	s.recalling = true
	defer func() { s.recalling = false }()
	for _, p := range e.Presses[from+1:] {
		ply := len(s.history)
		out = append(out, s.Handle(p.dump(e))...)
		side := s.pos.Turn()
		if p.SideKnown {
			side = p.Side
		}
		if len(s.history) == ply {
			if !s.showsMove() {
				// Not a move of this game: no press is judged on it, so
				// nobody is penalised for what the log holds.
				s.note(e.At, "the board's log shows no legal move after ply %d", ply)
				break
			}
			out = append(out, s.Handle(Event{Kind: ClockPressed, At: e.At, RawSeq: e.RawSeq, Side: side})...)
		}
		if len(s.history) == ply || s.over.Over() {
			break
		}
	}
	return out
}

// dump is the board at the logged press, as a state dump at the instant
// of the Recalled event e.
func (p LoggedPress) dump(e Event) Event {
	return Event{Kind: StateDump, At: e.At, RawSeq: e.RawSeq, Heights: p.Heights, Tops: p.Tops}
}

// recallFrom returns the index of the logged press at which the board
// showed the game's position, -1 for the game's start, and false when
// none did. Each move of a game begun from the log's start makes one
// press, so the press of the game's last move is taken when it shows the
// position; otherwise the last press that does (a stray press shifted
// the count).
func (s *Session) recallFrom(ps []LoggedPress) (int, bool) {
	t := s.currentTurn()
	shows := func(p LoggedPress) bool {
		if len(p.Heights) != s.geo.Len() {
			return false
		}
		obs := slices.Clone(s.obs)
		s.observe(obs, p.Heights, p.Tops)
		return t.sig(obs) == ""
	}
	plies := len(s.history)
	if plies > 0 && plies <= len(ps) && shows(ps[plies-1]) {
		return plies - 1, true
	}
	for i, p := range slices.Backward(ps) {
		if shows(p) {
			return i, true
		}
	}
	if plies == 0 {
		return -1, true // no move stored: every press is new
	}
	return 0, false
}

// showsMove reports whether the board as observed shows a legal move
// from the position.
func (s *Session) showsMove() bool {
	idx, err := s.currentTurn().match(s.obs, s.lifted, s.lossy)
	return err == nil && len(idx) > 0
}
