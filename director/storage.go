package director

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/clock"
)

// A storage fault is never a player's penalty. When a move cannot be
// stored (the disk is full, the database refuses writes), it is not
// acknowledged, so the board was told nothing of it: the game is held
// instead, its clocks paused as at an arbiter's pause, and the board
// says so. Moves made meanwhile are read and wait in order; the mover
// who makes the unacknowledged move again makes the same move, never an
// illegal one (arbiter.Session.SetUnstored). The moves are stored, in
// order, as soon as the database takes writes again (the table retries
// every second): then they are acknowledged, and the clocks run again.

// holdText is what a board with a display shows while its game is held
// (board.Fit: the first that fits); a DGT 3000 shows the words of a
// clocks-held alert, "paused" and "arbiter".
var holdText = board.Fit("PAUSED: the moves cannot be stored now; leave the board as it is",
	"PAUSED: moves not stored; leave the board as it is")

// storageHold is a table's game held for a storage fault.
type storageHold struct {
	on bool
	// paused: the hold paused the clock, which runs again when the moves
	// are stored, or once the board is put back if it is being put back
	// then (resumeAfter).
	paused, resumeAfter bool
	at                  time.Duration // when the hold paused the clock
}

// holdForStorage holds the table's game while its moves cannot be stored:
// the clock paused (unless already), the session told which moves wait,
// the board shown why, its clock stopped.
func (t *Table) holdForStorage() {
	if t.session == nil || len(t.unsaved) == 0 {
		return
	}
	t.session.SetUnstored(t.unsaved[0].rec.Ply, t.now())
	if t.hold.on {
		return
	}
	t.hold.on = true
	// At the last move's instant if it is later than the host's now (a
	// board's own time may run ahead): its press began the running turn.
	now := max(t.now(), t.unsaved[len(t.unsaved)-1].out.At)
	c := t.session.Clock()
	if c != nil {
		err := c.Pause(now)
		t.hold.paused, t.hold.at = err == nil, now
		if err != nil && !errors.Is(err, clock.ErrPaused) {
			t.log.Warn("pause the clock for the storage fault", "err", err)
		}
	}
	t.log.Warn("game held: its moves cannot be stored", "game", t.gameID(), "from ply", t.unsaved[0].rec.Ply)
	hold := &board.Alert{Level: board.AlertError, Beep: true, Text: holdText, Kind: arbiter.ClocksHeldAlert.String()}
	if err := t.display(t.notify.sender, hold, nil); err != nil {
		t.log.Warn("tell the board", "err", err)
	}
	if err := displayClock(t.notify.sender, t.ID, c, now); err != nil {
		t.log.Warn("send clock to board", "err", err)
	}
}

// releaseStorageHold lets the game go on once its moves are stored: the
// clock paused for the hold runs again (once the board is put back, if it
// is being put back).
func (t *Table) releaseStorageHold() {
	if !t.hold.on {
		return
	}
	if t.session != nil {
		// A board left taken back is to be put back, charged to nobody.
		t.apply(t.session.SetUnstored(0, max(t.now(), t.hold.at)))
	}
	resume, at := t.hold.paused, t.hold.at
	t.hold = storageHold{at: at}
	t.log.Info("game goes on: its moves are stored", "game", t.gameID())
	if !resume || t.session == nil {
		return
	}
	if t.session.InRecovery() {
		t.hold.resumeAfter = true
		return
	}
	t.resumeAfterHold()
}

// resumeAfterHold runs the clock the storage hold paused, and shows it.
func (t *Table) resumeAfterHold() {
	t.hold.resumeAfter = false
	c := t.session.Clock()
	if c == nil || t.session.Outcome().Over() {
		return
	}
	now := max(t.now(), t.hold.at)
	if err := c.Resume(now); err != nil && !errors.Is(err, clock.ErrNotPaused) {
		t.log.Warn("resume the clock after the storage fault", "err", err)
	}
	if err := displayClock(t.notify.sender, t.ID, c, now); err != nil {
		t.log.Warn("send clock to board", "err", err)
	}
}

// recovered is told that the board was put right: a clock the storage
// hold left paused for it runs again.
func (t *Table) recovered(o arbiter.Recovery) {
	if o.Done && t.hold.resumeAfter && !t.hold.on {
		t.resumeAfterHold()
	}
}

// unstored says what the table could not store, for people: its waiting
// moves, and the result waiting behind them.
func (t *Table) unstored() []string {
	var out []string
	for _, u := range t.unsaved {
		out = append(out, fmt.Sprintf("game %d move %d %s (table %d, board %s)", u.rec.GameID, u.rec.Ply, u.rec.Notation, t.Number, t.ID))
	}
	if o := t.pendingOver; o != nil && t.game != nil {
		out = append(out, fmt.Sprintf("game %d result %s (table %d, board %s)", t.game.ID, o.Outcome, t.Number, t.ID))
	}
	return out
}

// lostAtStop keeps what a table could not store when the event stopped.
func (d *Director) lostAtStop(what ...string) {
	d.lostMu.Lock()
	d.lost = append(d.lost, what...)
	d.lostMu.Unlock()
}

// Unstored says what the event could not store when it stopped, during a
// storage fault: moves that waited, results, the state of the clocks.
// Empty when everything was stored.
func (d *Director) Unstored() []string {
	d.lostMu.Lock()
	defer d.lostMu.Unlock()
	return slices.Clone(d.lost)
}
