// Package sim is a DGT e-board emulator, written from the protocol
// document (../shared/dgt-protocol.md): the firmware of a board with a DGT
// XL / DGT 3000 clock plugged in, on a pseudo-terminal, so a host opens it
// with the same serial code as a real board.
//
// The parts:
//
//   - [Board]: the firmware. It holds the physical pieces in DGT field
//     numbering, answers single-board and bus-mode commands, writes the
//     EEPROM log, runs the clock, and injects the faults a host must
//     survive ([Faults]): dropped and duplicated field updates, a lift
//     reported after the placement that followed it, a clock whose
//     readings lag a second, unacknowledged clock commands, and on the
//     bus corrupted checksums and silent boards.
//   - [Line]: the cable: one board, or many on a bus, behind a
//     pseudo-terminal and a stable symbolic link; it can be unplugged and
//     plugged in again.
//   - [Player]: a person at the board. It turns a chess move, given as the
//     rules.View before and after it, into timed lifts and placements:
//     castling with either piece first, en passant and captures in either
//     order or by pushing the captured piece off, promotion (the board
//     sees the new piece), slides through the squares between, and
//     take-backs.
//
// Everything random is drawn from generators seeded by the caller, so a
// run is reproducible.
package sim
