// Package board is the neutral boundary between the board drivers and the
// rest of the daemon: what every driver delivers, what it accepts, and how
// its raw log is replayed. The move reader (arbiter), the tables (director)
// and the offline replay (replay) speak only this package; each driver
// (hardware/sensorboard for our own protocol, hardware/dgt/driver for DGT
// e-boards) translates its wire into it.
//
// One file a concept:
//
//   - [Event] and [EventKind]: what a board reports (square changes with
//     height and, where sensed, the top piece's [Ident]; zone counts;
//     buttons; clock readings as heartbeats; full [Snapshot]s; link
//     [Health]; gaps), with both the board's and the host's instants.
//   - [Info] and [Caps]: who a board is and what it senses and shows
//     (geometry, height or identity sensing, zones, display, lights,
//     clock); [Info.Fits] checks a board against a game's geometry.
//   - [Sensor]: what a board with given capabilities can see of a
//     rules.View, to compare positions with readings.
//   - [Side] and [ButtonKind]: players and buttons as boards name them.
//   - [Message] and [Display]: what the director shows on a board (clock
//     times, text, lights, a move's acknowledgement, a question) and how it
//     asks for the whole state again.
//   - [LoggedPress] and [Recaller]: the board's own log of the game
//     ([EventHistory], [CapLog]), read after the host lost the board.
//   - [Replayer] and [RegisterReplayer]: each protocol's deterministic
//     reading of its raw log, chosen by the protocol name the raw log
//     stores with every record.
//
// The numeric values of the enumerations are those of our own protocol
// (hardware/sensorboard/PROTOCOL.md), which was written protocol-neutral;
// other drivers map their wire onto them.
package board
