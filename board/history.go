package board

import "time"

// LoggedPress is a clock press a board logged itself ([EventHistory]),
// with the board as it stood at that moment: after a host crash, or a
// link lost for a while, the position after each move made meanwhile.
type LoggedPress struct {
	// Snapshot is the board at the press, in the board's sensor order.
	Snapshot *Snapshot
	// Side is the player who pressed (SideNone when the board cannot
	// tell).
	Side Side
	// Clock is the time the pressing side's display showed, where the
	// board logs it (0 otherwise).
	Clock time.Duration
}

// Recaller is implemented by drivers whose boards keep their own log of
// the game ([CapLog]). Recall asks the board for it: an [EventHistory]
// follows once the board has sent it (a DGT board takes seconds for a
// full log), so that a host that lost the board for a while can read the
// moves made meanwhile one by one. Recall does not wait for the log.
type Recaller interface {
	Recall(board string) error
}
