package driver

import (
	"fmt"
	"time"

	"arbiter/board"
	"arbiter/hardware/dgt"
	"arbiter/rules"
)

// Recall asks a DGT board for its EEPROM log (DGT_SEND_EE_MOVES): an
// [board.EventHistory] follows once the board has sent it, with the
// board at every lever press since the game's start position, and then
// the board as it stands now, as a snapshot. A full log takes about 9 s
// at 9600 baud. It implements [board.Recaller].
func (d *Driver) Recall(id string) error {
	l, err := d.board(id)
	if err != nil {
		return err
	}
	l.conn.Do(func(s *dgt.Session, now time.Duration) { s.RequestLog(now) })
	return nil
}

// history translates the board's EEPROM log (called from take, with l.mu
// held): the presses [dgt.Recover] finds since the game's start, each
// with the board as it stood then, and the board as it stands now.
func (l *link) history(e dgt.Event) {
	ev := board.Event{Kind: board.EventHistory, Host: e.At}
	if e.Err != nil {
		ev.Err = fmt.Errorf("dgt board %s: %w", l.id, e.Err)
		l.emit(ev)
		return
	}
	rec, err := dgt.Recover(e.Log)
	if err != nil {
		ev.Err = fmt.Errorf("dgt board %s: its log: %w", l.id, err)
		l.emit(ev)
		return
	}
	o := rec.Orientation
	if o == dgt.Undecided {
		o = e.Orientation // the session's, decided by the boards it read
	}
	if o == dgt.Undecided {
		o = dgt.Normal
	}
	ev.History = make([]board.LoggedPress, len(rec.Presses))
	for i, p := range rec.Presses {
		pieces, _ := p.Position.Chess(o)
		// A press halts the presser's own display.
		side := rules.White
		if p.Left == l.d.cfg.Session.WhiteRight {
			side = rules.Black
		}
		ev.History[i] = board.LoggedPress{Snapshot: snapshotOf(pieces), Side: board.SideOf(side), Clock: p.Time}
	}
	l.emit(ev)
	if l.have {
		// The presses end where the board stood at the last one; the
		// board now may show more (a move not yet pressed).
		l.emit(l.snapshot(board.Event{Host: e.At}))
	}
}
