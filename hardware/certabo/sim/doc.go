// Package sim is a Certabo e-board emulator, written from the protocol's
// public description (../shared/certabo-protocol.md): the firmware of an
// RFID board on a pseudo-terminal ([emu.Line]), so that a host opens it
// with the same serial code as a real board.
//
// [Board] holds a set of pieces, each with its RFID chip, and streams a
// frame of the whole board's ids every period without being asked; it
// takes the host's eight-byte LED commands. The chips a person's hands
// ([emu.Player]) move are the pieces themselves: a lifted piece is set
// down again with its own chip, a captured one leaves the board, and a
// promotion takes a captured piece of the kind, or a spare. It injects the
// faults a host must survive ([Faults]): junk read on empty squares, chips
// misread now and then, frames lost or cut short (the first one after
// power-up always is), and LED commands lost.
package sim
