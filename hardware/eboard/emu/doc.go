// Package emu holds what the emulators of e-boards that report whole
// positions share (hardware/dgt/sim, hardware/millennium/sim,
// hardware/certabo/sim): [Player], a person moving chess pieces with a
// person's noise, and [Line], a pseudo-terminal cable for one board's
// firmware that can be pulled out and plugged in again.
//
// Everything random is drawn from generators the caller seeds, so a run
// is reproducible.
package emu
