// Package board is the neutral boundary between the board drivers and the
// rest of the daemon: what every driver delivers, what it accepts, how its
// raw log is replayed, and the registry of board protocols. The move
// reader (arbiter), the tables (director), the offline replay (replay),
// the configuration and serve speak only this package; each protocol's
// package (hardware/sensorboard/plug for our own boards,
// hardware/dgt/driver for DGT e-boards, singly and in bus mode) translates
// its wire into it and registers itself.
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
//   - [Replayer]: each protocol's deterministic reading of its raw log,
//     chosen by the protocol name the raw log stores with every record
//     ([NewReplayer]).
//   - [Protocol], [Register] and [Lookup]: the registry of board
//     protocols, below; [Drivers] routes the daemon's messages to the
//     driver that met each board.
//
// # Adding a board protocol
//
// A protocol is one package under hardware/ that calls [Register] in its
// init, and one blank import in cmd/arbiter. Nothing else names it: the
// configuration takes its keys, serve starts its driver on the ports that
// name it, the demo and rehearsals make its simulated boards, and replays
// read its raw logs, all through its [Protocol]:
//
//   - Name, the value of boards.ports[].protocol and of every raw-log
//     record the driver writes; Title, what one port of it holds.
//   - Settings (optional), its keys under boards, a struct with
//     `mapstructure` tags and defaults, in the section Section
//     (boards.dgt; empty for keys of boards itself, as our boards'
//     baud), checked by its Check with the rest of the configuration and
//     refused with the nearest known key when misspelt.
//   - PortKeys (optional), its own keys of a boards.ports[] entry (a DGT
//     bus line's addresses), and CheckPort, what else it requires of an
//     entry (a DGT board is not found by USB identity).
//   - Start, which makes its [Driver] from a [Setup]: the ports that name
//     the protocol, its settings, the scan interval, the host's clock, the
//     handler of its [Event]s and the raw log. The driver is a [Display]
//     (and a [Recaller] if its boards keep a log), says which boards it
//     [Driver.Owns], and serialises how it reads them
//     ([Driver.ReplaySetting]), which the daemon keeps with the event.
//   - Replayer, its [Replayer], which reads that raw log again offline
//     with that setting ([ReplayConfig.Setting]).
//   - Probe (optional), the handshake on one port, for preflight checks:
//     who answered ([Info]: id, firmware, capabilities) or why none did.
//   - Simulate (optional), a simulated board of the protocol on a
//     pseudo-terminal set up for a game, with the hands of the people who
//     play on it ([Simulated]), for the demo and rehearsals.
//
// The numeric values of the enumerations are those of our own protocol
// (hardware/sensorboard/PROTOCOL.md), which was written protocol-neutral;
// other drivers map their wire onto them.
package board
