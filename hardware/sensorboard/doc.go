// Package sensorboard speaks to our own physical sensor boards: it holds
// the wire protocol (frames, messages, integrity and sequencing, see
// PROTOCOL.md in this directory), the mapping of board clocks onto the
// host's monotonic time, and the serial driver that finds boards, keeps
// them healthy across unplugs and delivers their events. It implements
// the neutral boundary of package board: the driver delivers board.Event
// values and is a board.Display, and the [Replayer] replays its raw log;
// the plug subpackage registers them with board as protocol [Protocol].
// The protocol-neutral types (events, capabilities, sides, buttons,
// snapshots, what a board senses) are board's, named as board names them.
//
// The layers, bottom up:
//
//   - [AppendFrame], [Encoder] and [Decoder]: the byte-level framing
//     (COBS, CRC-32, sequence numbers, board timestamps). The decoder never
//     allocates.
//   - Message types ([Hello], [SquareMsg], [ButtonMsg], [ClockMsg], ...):
//     each one's payload layout, with Append/Unmarshal methods. The
//     display messages share their fields with board's ([ClockMsg] is a
//     board.Clock on the wire; [WireMessage] converts), and [Hello.Info]
//     is what the handshake says in board's terms.
//   - [TimeMap]: a pure estimator that maps board milliseconds onto host
//     time from (board ms, host instant) pairs, with drift correction.
//   - [Link]: the pure per-board state machine that turns frames into
//     board events, detects lost, duplicated and reordered frames, asks
//     for a full-state dump to heal them, recovers lost button presses and
//     tracks health.
//   - [Driver]: serial ports (go.bug.st/serial), discovery by path, glob or
//     USB identity, handshake, health, hot-plug, host-to-board messages and
//     the raw frame log. [ListPorts] and [Probe] find which ports hold
//     boards.
//   - [Replayer]: the raw frame log back into events offline, through the
//     same [Decoder] and [Link] (board.Replayer, used by package replay).
//
// Time is an input everywhere: the driver stamps each read with
// [Config.Now], and [Link] and [TimeMap] take instants as arguments.
//
// The simulator in the sim subpackage speaks the same protocol over a
// pseudo-terminal, so tests and demos use the driver's real code path.
// The plug subpackage puts the protocol on the daemon: it registers the
// driver, the replayer, the probe and the simulator with board.Register.
package sensorboard
