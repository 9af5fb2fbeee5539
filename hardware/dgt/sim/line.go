package sim

import (
	"time"

	"arbiter/hardware/eboard/emu"
)

// Line is the cable between the host and one board, or a bus of boards:
// a pseudo-terminal behind a stable symbolic link ([emu.Line]). Every
// board hears every host byte and writes to the same line, as on DGT's
// bus; each board's clock ticks while it is plugged in.
type Line = emu.Line

// Attach plugs boards into a new pseudo-terminal; link, if not empty,
// becomes a symbolic link to it that survives unplugs.
func Attach(link string, boards ...*Board) (*Line, error) {
	fws := make([]emu.Firmware, len(boards))
	for i, b := range boards {
		fws[i] = b
	}
	return emu.Attach(link, fws...)
}

// Scan is the board's work on its line between two host commands: its
// clock ticks ([emu.Firmware]).
func (b *Board) Scan() { b.ClockTick() }

// ScanPeriod implements [emu.Firmware]: the clock ticks every 50 ms.
func (b *Board) ScanPeriod() time.Duration { return 50 * time.Millisecond }
