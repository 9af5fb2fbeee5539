package arbiter

import (
	"fmt"
	"time"
)

// A move the daemon could not store (its disk full, its database
// refusing writes) was not acknowledged to the board: its mover, who saw
// nothing happen, may make it again. Such a move is not final for the
// players until it is stored. A mover who lifts it and puts it down again,
// or takes it back and makes it again, makes the same move, never an
// illegal one (nor a foul to report, nor a press out of turn); a board
// that settles on anything else is to be put back to it, charged to
// nobody. The storage fault is never a player's penalty.

// SetUnstored tells the session at instant at which of its moves are not
// stored yet: those from ply from on (0: every move is stored). The
// daemon sets it when a move's write fails and clears it once the moves
// are stored. A board that shows the last move taken back or changed when
// it is cleared (the change not judged yet: a board whose time stood
// still, a DGT board whose clock was stopped for the fault) is to be put
// back, charged to nobody, as during the fault.
func (s *Session) SetUnstored(from int, at time.Duration) []Output {
	var out []Output
	if from == 0 && s.lastUnstored() {
		out = s.step(out, input{Event: Event{Kind: movesStored, At: at}})
	}
	s.unstored = from
	return out
}

// storedChange judges, when the moves have been stored, a board that
// shows the last move taken back or changed: as during the fault, it is
// put back, charged to nobody (judgeRetraction, putBack).
func (s *Session) storedChange(out []Output, at time.Duration) []Output {
	out, _ = s.judgeRetraction(out, s.currentTurn(), at)
	return out
}

// lastUnstored reports whether the last move is one not stored yet.
func (s *Session) lastUnstored() bool {
	return s.unstored > 0 && len(s.history) >= s.unstored
}

// putBack asks for the last move, not stored yet, to be put back on the
// board (it was taken back or changed), charged to nobody: the session
// goes into recovery as for a retraction, without the penalty. The clock
// is the daemon's to hold while its storage fails.
func (s *Session) putBack(out []Output, at time.Duration) []Output {
	prev := s.prevTurn()
	mover := prev.pos.Turn()
	move := s.lastMoveText()
	s.last = nil
	s.rs.open = true
	s.note(at, "move %s changed before it was stored", move)
	out = s.enterRecovery(out, at, fmt.Sprintf("put back %s's move %s: it stands (not stored yet, no one's fault)", s.game.SideName(mover), move))
	r := out[len(out)-1].(Recovery)
	r.Board = fit(r.Reason, fmt.Sprintf("put back %s's move %s: no one's fault", s.game.SideName(mover), move), "put back the move: no one's fault")
	out[len(out)-1] = r
	return out
}
