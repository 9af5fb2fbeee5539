package driver

import "fmt"

// Recall implements [board.Recaller] for the boards on the bus lines,
// which need no asking: DGT's tournament loop reads a board's log by
// itself whenever it meets the board again in mid-game (from its start
// tag, DGT_BUS_SEND_FROM_START) and delivers the moves made meanwhile
// move by move, each with its lever press. So no [board.EventHistory]
// follows.
func (b *Bus) Recall(id string) error {
	if !b.d.Owns(id) {
		return fmt.Errorf("dgt bus board %s: not connected", id)
	}
	return nil
}
