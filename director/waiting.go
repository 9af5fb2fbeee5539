package director

import (
	"context"
	"fmt"

	"arbiter/store"
)

// Alert kinds the director raises itself, besides the table's.
const (
	AlertBoardGone = "board-gone" // a round's game waits for its board
	// AlertBoard: a board's driver cannot settle something about the
	// game by itself (board.ErrAttention); its message says what.
	AlertBoard = "board"
)

// raise stores an alert the director raises itself and shows it on the
// live pages; a store that refuses it is logged.
func (d *Director) raise(a store.Alert) {
	if err := d.db.AddAlert(&a); err != nil {
		d.log.Error("store alert", "err", err)
	}
	d.hub.Publish(Update{Kind: "alert", Table: a.BoardID, Game: a.GameID, At: d.wall(), Data: a})
}

// boardPresent reports whether the table's board is connected, or has not
// been seen yet (a game may start and wait for its first handshake).
func (t *Table) boardPresent() bool {
	switch t.Live().Health {
	case "disconnected", "not-responding":
		return false
	}
	return true
}

// tableWaits tells the arbiter that a round's game waits for the board of
// its table, which is gone.
func (d *Director) tableWaits(t *Table, g *store.Game) {
	l := t.Live()
	since := ""
	if !l.HealthSince.IsZero() {
		since = " since " + l.HealthSince.Local().Format("15:04")
	}
	a := store.Alert{GameID: g.ID, BoardID: t.ID, Kind: AlertBoardGone, At: d.wall(),
		Where:   fmt.Sprintf("table %d (board %s): %s – %s", t.Number, t.ID, g.First, g.Second),
		Message: fmt.Sprintf("round %d's game did not start: the board is %s%s", g.Round, l.Health, since),
		Advice:  "Reconnect the board (the game starts when it answers), or start the game anyway, or enter its result by hand."}
	d.raise(a)
}

// boardTrouble tells the arbiter what the driver of the table's board
// cannot settle by itself (an error marked board.ErrAttention).
func (d *Director) boardTrouble(t *Table, err error) {
	l := t.Live()
	a := store.Alert{GameID: l.GameID, BoardID: t.ID, Kind: AlertBoard, At: d.wall(),
		Where:   fmt.Sprintf("table %d (board %s)", t.Number, t.ID),
		Message: err.Error(),
		Advice:  "Go to the table: compare the board with the table's card, have the moves it misses entered from the scoresheet or the position set up as the card shows, and resolve the alert."}
	d.raise(a)
}

// StartWaiting starts on its table, on the arbiter's word, the game of the
// current round that waits for the table's board: the game's start and
// the arbiter's action are stored in one transaction.
func (d *Director) StartWaiting(ctx context.Context, board, who, why string) error {
	t, ok := d.Table(board)
	if !ok {
		return fmt.Errorf("board %s: %w", board, store.ErrNotFound)
	}
	if l := t.Live(); l.GameID != 0 && l.Result == "" {
		return fmt.Errorf("table %d already plays game %d", t.Number, l.GameID)
	}
	return d.startWaiting(ctx, t, &store.Action{Who: who, What: "start-game", Why: why, Data: "table " + board, At: d.wall()})
}
