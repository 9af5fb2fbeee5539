// Package sim is a Millennium ChessLink emulator, written from the
// protocol's public description (../shared/millennium-protocol.md): the
// firmware of an Exclusive or Performance with its ChessLink module, or an
// eONE, on a pseudo-terminal ([emu.Line]), so that a host opens it with
// the same serial code as a real board.
//
// [Board] holds the pieces as they stand, scans them every scan time
// (register 01) and reports its status as register 02 says (after every
// scan, on a change, after a change held for some scans, at intervals, or
// only when asked), answers V, S, L, X, T, W and R with the parity and
// the checksum of the protocol (a command with a wrong one gets no
// reply), keeps its registers through power-offs, and injects the faults
// a host must survive ([Faults]): lost, duplicated and damaged reports,
// writes never echoed (a Performance, it is said), replies of the wrong
// parity (an eONE), and a firmware that reads its squares from h1 (the
// reading some hosts assume). People move the pieces with an
// [emu.Player].
package sim
