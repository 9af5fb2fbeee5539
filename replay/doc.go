// Package replay runs a board's raw sensor log again through the move
// reader, offline, and says whether it gives the moves that were stored.
//
// The daemon reads a board through its driver (for our boards, the frame
// decoder and the protocol link of hardware/sensorboard) and the game's
// [arbiter.Session], driven by the driver's reads and the table's timer. A
// [Reader] is that read path without the serial port and without
// goroutines: raw-log records and instants go in, the session's outputs
// come out, and the driver's and the table's ticks are interleaved at the
// instants they would have fired. The driver's part is the
// [board.Replayer] registered for the protocol that the raw log names with
// every record ([board.RegisterReplayer]); this package imports no driver.
//
// [Game] replays one stored game from the database (the frames its board
// sent from the game's start until the next game on that board began,
// with the arbiter's stored actions applied at their times) and compares
// the result, ply by ply, with the stored moves in a [Report].
//
// The simulator tests of this package drive the same Reader from a
// simulated board: many complete games of every registered game, with
// human timing and with every fault the simulator can inject.
package replay
