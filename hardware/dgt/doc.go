// Package dgt is the host side of DGT electronic chess boards (USB, serial
// and Bluetooth boards, and bus mode for tournaments) with the DGT XL and
// DGT 3000 clocks plugged into them. It stands alone: it speaks the DGT
// protocol (../shared/dgt-protocol.md, which condenses DGT's dgtbrd.h) on
// any io.ReadWriter and delivers a small stream of settled board events.
//
// The layers, bottom up:
//
//   - [Decoder] and the command builders ([Command], [ClockCommand],
//     [BusCommand]): the wire. The decoder resynchronises on every byte
//     with bit 7 set and names what is wrong and where in a [DecodeError].
//   - Messages: [BoardDump], [FieldUpdate], [SerialNr], [Version],
//     [BusAddress], [Trademark], [Battery], [ClockTimes] and [ClockAck]
//     (both ride on BWTIME), and the EEPROM log ([ParseLog], [LogTag]).
//   - [Orientation] and [Tracker]: the board as the host sees it. The
//     tracker detects a board set up with Black at the connector side from
//     the first full board, as every DGT host does, maps DGT field numbers
//     onto chess squares, and turns full-board reads into settled square
//     changes.
//   - [Session]: the pure per-board state machine of a single board:
//     start-up (serial number, version, full board, update mode),
//     debouncing (a full-board read after the field updates have been
//     quiet for [Config.Settle], and a watchdog read every [Config.Poll],
//     so lost, duplicated and reordered updates heal themselves), clock
//     readings and lever presses, and clock commands sent one at a time,
//     each waiting for its acknowledgement and retried.
//   - [Conn]: a session on a live line: reads, timers and writes, and
//     [Watch], which reopens an unplugged port. [OpenSerial] opens a real
//     port at 9600 8N1 for this process alone (hardware/serialport).
//   - [Bus]: many boards on one line by address, and [Tournament], the
//     header's recommended loop (start tag when every board shows the
//     start position, poll changes, repeat on checksum errors, replay from
//     the start tag when data are lost); a board found in mid-game after
//     a host restart is resumed from its start tag, and the moves made
//     while no host polled follow one by one, each with its lever press.
//     A failed line ends the loop with [ErrLineClosed]. The loop's
//     per-board logic is a pure state machine (set-up, resume, poll,
//     verify, clock, start tag, identification) that the live loop drives
//     with bus requests and feeds each outcome with its instant; the bus
//     logs its conversation by board address ([BusConfig.Raw]: every
//     command, every reply the host took, the answers to a general ping).
//   - [BusReplayer]: drives the same per-board machine from such a log,
//     without goroutines, into the very events the live loop emitted for
//     the board (a request with no good reply fails after
//     [BusConfig.Tries] sends, Timeout after the last one, live and
//     replayed alike); a log that leaves the loop's path is reported and
//     the board adopted from its next full read.
//   - [Recover]: replays the board's own EEPROM log after a host crash.
//   - [Replayer]: replays the host's raw log of a board ([Chunk]s: host
//     instant, direction, bytes, as [ConnConfig.Raw] writes them) into the
//     very events the live session emitted.
//
// # Events
//
// [Event] maps one to one onto the daemon's board events
// (arbiter.Event, hardware/sensorboard.Event), which this package does not
// import:
//
//	dgt.EventIdentified  -> sensorboard.EventHello (the serial number is the board id)
//	dgt.EventBoard       -> arbiter.StateDump (Tops from Pieces, Heights 0/1)
//	dgt.EventSquare      -> arbiter.SquareChanged (Height 0/1, Top = Piece)
//	dgt.EventClock       -> the clock reading beside the board's heartbeat (arbiter.Heartbeat)
//	dgt.EventLever       -> arbiter.ClockPressed
//	dgt.EventClockButton -> a clock key (arbiter.AdjustPressed etc., by the daemon's choice)
//	dgt.EventLinkLost    -> arbiter.LinkLost
//	dgt.EventLinkBack    -> arbiter.LinkRestored (an EventBoard follows)
//	dgt.EventError       -> sensorboard.EventError
//	dgt.EventLog         -> the daemon's restore after a crash ([Recover])
//
// Squares are rules.Square of the chess geometry (a1 = 0, h8 = 63) after
// orientation; pieces are rules.Piece values as rules/chess views them, so
// a DGT board reports identity where our own boards may report height only
// (Height is 1 where Occupied, else 0). Square events are settled: a
// session delivers a board only when a full read agrees with the field
// updates and the updates have been quiet for Config.Settle, so the
// intermediate squares of a slide, a lift reported after the placement
// that followed it, a duplicated update and a lost one never reach the
// reader. The events of one settled read share their At and come emptied
// squares first.
//
// Time is an input: [Session] takes instants as arguments; only [Conn]
// reads a clock, through [ConnConfig.Now]. A session's timers fall due at
// their own instants however late it is woken, and every input first
// lets time pass to its instant, so its events depend only on its inputs
// and their instants: what makes a raw log replayable.
//
// The emulator in the sim subpackage speaks the same protocol over a
// pseudo-terminal, with faults, so tests use the real code path. The
// driver subpackage runs boards on the configured ports for the daemon
// and makes this mapping (boards.ports[] with protocol dgt).
package dgt
