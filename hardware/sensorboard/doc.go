// Package sensorboard speaks to physical sensor boards: it holds the wire
// protocol (frames, messages, integrity and sequencing, see PROTOCOL.md in
// this directory), the mapping of board clocks onto the host's monotonic
// time, and the serial driver that finds boards, keeps them healthy across
// unplugs and delivers their events as typed values.
//
// The layers, bottom up:
//
//   - [AppendFrame], [Encoder] and [Decoder]: the byte-level framing
//     (COBS, CRC-32, sequence numbers, board timestamps). The decoder never
//     allocates.
//   - Message types ([Hello], [SquareMsg], [ButtonMsg], [ClockMsg], ...):
//     each one's payload layout, with Append/Unmarshal methods.
//   - [Sensor]: what a board can see of a rules.View (height only, or the
//     top piece's identity, colour and face), for comparing positions with
//     readings; [Hello.Fits] checks a board against a game's geometry.
//   - [TimeMap]: a pure estimator that maps board milliseconds onto host
//     time from (board ms, host instant) pairs, with drift correction.
//   - [Link]: the pure per-board state machine that turns frames into
//     [Event] values, detects lost, duplicated and reordered frames, asks
//     for a full-state dump to heal them, recovers lost button presses and
//     tracks health.
//   - [Driver]: serial ports (go.bug.st/serial), discovery by path, glob or
//     USB identity, handshake, health, hot-plug, host-to-board messages and
//     the raw frame log; [Replay] turns that log back into events.
//     [ListPorts] and [Probe] find which ports hold boards; [Fanout] hands
//     each board's events to its own channel.
//
// Time is an input everywhere: the driver stamps each read with
// [Config.Now], and [Link] and [TimeMap] take instants as arguments.
//
// The simulator in the sim subpackage speaks the same protocol over a
// pseudo-terminal, so tests and demos use the driver's real code path.
package sensorboard
