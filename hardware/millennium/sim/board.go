package sim

import (
	"math/rand/v2"
	"sync"
	"time"

	"arbiter/hardware/eboard"
	"arbiter/hardware/millennium"
	"arbiter/rules"
)

// Model is a board with a ChessLink inside.
type Model uint8

// Models.
const (
	Exclusive Model = iota
	Performance
	EONE
)

// String names the model.
func (m Model) String() string {
	switch m {
	case Performance:
		return "Performance"
	case EONE:
		return "eONE"
	}
	return "Exclusive"
}

// version is the firmware version each model answers V with: the
// Exclusive's is the one python-mchess logged from a real board; the
// others follow the high-byte guess of chesslinkdriver (not to be relied
// on, as the notes say).
var version = [...][2]byte{Exclusive: {0x01, 0x03}, Performance: {0x01, 0x10}, EONE: {0x02, 0x00}}

// Faults are what the board does wrong. Probabilities are per report.
type Faults struct {
	Drop      float64 // a status report is not sent
	Duplicate float64 // a status report is sent twice
	Corrupt   float64 // a byte of a report is damaged: its checksum fails
	// NoWriteAck: L, X and W are carried out but not acknowledged (what
	// one driver's code hints a Performance does).
	NoWriteAck bool
	// WrongParity: replies carry even parity (an eONE, by one driver's
	// changelog): only the checksum tells good bytes from bad.
	WrongParity bool
}

// Config describes a board.
type Config struct {
	Model Model
	// ID is what registers 10h..13h hold: the id a host wrote. Zero is a
	// board no host named yet (FF FF FF FF in its memory).
	ID [4]byte
	// Rotated: the board lies turned round (Black at the a1 corner):
	// squares placed with PlaceSquare land on the turned fields.
	Rotated bool
	// Reversed: the firmware reports its squares from h1 (h1 g1 ... a8)
	// and numbers its LEDs from the h1 corner, the reading python-mchess
	// and chesslinkdriver assume, where the document starts at a8.
	Reversed bool
	// Registers are written over the factory's at power-up, as another
	// program left them (the board keeps them through power-offs).
	Registers map[byte]byte
	Faults    Faults
	Seed      uint64
	// Now is the board's clock, for its reset (default: time since the
	// board was made).
	Now func() time.Duration
	// Reported, if set, is called as every status report goes out (not
	// one that is lost), with the board locked (benchmarks time them).
	Reported func()
}

// Stats counts what a board did.
type Stats struct {
	Scans, Reports, Dropped, Duplicated, Corrupted int
	Commands, Refused                              int // commands carried out; commands with a wrong parity or checksum
	Writes                                         int // registers written
	LEDCommands                                    int // L and X carried out
}

// Board is an emulated ChessLink board. Its methods are safe for
// concurrent use: the line calls HandleHost and Scan while a player moves
// pieces.
type Board struct {
	cfg Config

	mu     sync.Mutex
	out    func([]byte)
	rng    *rand.Rand
	fields [64]millennium.Piece // as the pieces stand, in the document's order (a8 first)
	reg    [256]byte            // the E2ROM: kept through power-offs
	leds   millennium.LEDs      // in the document's numbering
	slot   byte
	in     []byte
	dec    millennium.Decoder
	// resetUntil: after a T the board is busy starting up until then.
	resetUntil time.Duration

	last      [64]millennium.Piece // the last scan
	reported  [64]millennium.Piece // the last status reported
	stable    int                  // scans since the last change
	lastTimed time.Duration        // the last report of mode 2

	stats Stats
}

// NewBoard returns a powered-up board with no pieces and the registers of
// a board fresh from the factory (scan time 20, a report every scan).
func NewBoard(cfg Config) *Board {
	if cfg.Now == nil {
		epoch := time.Now()
		cfg.Now = func() time.Duration { return time.Since(epoch) }
	}
	b := &Board{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))}
	b.reg[millennium.RegScanTime] = 20
	b.reg[millennium.RegReportTime] = 25
	b.reg[millennium.RegBrightness] = 15
	for i := range 4 {
		b.reg[millennium.RegID+i] = 0xff
	}
	if cfg.ID != [4]byte{} {
		copy(b.reg[millennium.RegID:], cfg.ID[:])
	}
	for addr, v := range cfg.Registers {
		b.reg[addr] = v
	}
	b.Restart()
	return b
}

// Model returns the board's model.
func (b *Board) Model() Model { return b.cfg.Model }

// SetOutput implements [emu.Firmware].
func (b *Board) SetOutput(out func([]byte)) {
	b.mu.Lock()
	b.out = out
	b.mu.Unlock()
}

func (b *Board) write(p []byte) {
	if b.out == nil {
		return
	}
	if b.cfg.Faults.WrongParity {
		for i := range p {
			p[i] ^= 0x80
		}
	}
	b.out(p)
}

// Restart implements [emu.Firmware]: the firmware starts again; its
// registers stay, its LEDs go dark.
func (b *Board) Restart() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.powerUp()
}

func (b *Board) powerUp() {
	b.in, b.leds, b.slot = nil, millennium.LEDs{}, 0
	b.dec = millennium.Decoder{Lengths: &millennium.CommandLengths}
	b.stable = 0
	b.reported = [64]millennium.Piece{}
	b.last = b.fields
}

// ScanPeriod implements [emu.Firmware]: register 01 in 2.048 ms units
// (below 15, the default 20).
func (b *Board) ScanPeriod() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.scanPeriod()
}

func (b *Board) scanPeriod() time.Duration {
	st := b.reg[millennium.RegScanTime]
	if st < 15 {
		st = 20
	}
	return time.Duration(st) * millennium.ScanUnit
}

// Registers returns the board's memory.
func (b *Board) Registers() [256]byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.reg
}

// Counters returns what the board did so far.
func (b *Board) Counters() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stats
}

// field returns the document's field of a chess square on this board.
func (b *Board) field(sq rules.Square) int {
	o := eboard.Normal
	if b.cfg.Rotated {
		o = eboard.Rotated
	}
	return o.Field(sq)
}

// LiftSquare lifts the piece on a chess square ([emu.Hands]).
func (b *Board) LiftSquare(sq rules.Square) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.fields[b.field(sq)] = 0
}

// PlaceSquare puts a chess piece on a chess square ([emu.Hands]).
func (b *Board) PlaceSquare(sq rules.Square, p rules.Piece) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.fields[b.field(sq)] = millennium.PieceOf(p)
}

// PieceAt returns the piece on a chess square ([emu.Hands]).
func (b *Board) PieceAt(sq rules.Square) (rules.Piece, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.fields[b.field(sq)].Rules()
}

// Flush implements [emu.Hands]: the board reports at its next scan.
func (b *Board) Flush() {}

// SetUp puts the pieces of a chess view on the board at once.
func (b *Board) SetUp(v rules.View) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.fields = [64]millennium.Piece{}
	for sq := range v.Stacks {
		if p, ok := v.Top(rules.Square(sq)); ok {
			b.fields[b.field(rules.Square(sq))] = millennium.PieceOf(p)
		}
	}
}

// status returns the board's status as its firmware sends it.
func (b *Board) status(f *[64]millennium.Piece) millennium.Status {
	s := millennium.Status(*f)
	if b.cfg.Reversed {
		for i, j := 0, 63; i < j; i, j = i+1, j-1 {
			s[i], s[j] = s[j], s[i]
		}
	}
	return s
}

// Scan implements [emu.Firmware]: the board reads its squares and
// reports its status as register 02 says.
func (b *Board) Scan() {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.cfg.Now()
	if now < b.resetUntil {
		return
	}
	b.stats.Scans++
	cur := b.fields
	changed := cur != b.last
	b.last = cur
	if changed {
		b.stable = 0
	} else {
		b.stable++
	}
	switch mode := b.reg[millennium.RegAutoReport] & 7; mode {
	case 0:
		b.report(&cur)
	case 1:
	case 2:
		if every := time.Duration(b.reg[millennium.RegReportTime]) * 4096 * time.Microsecond; now-b.lastTimed >= every {
			b.lastTimed = now
			b.report(&cur)
		}
	case 3:
		if changed {
			b.report(&cur)
		}
	default:
		// Modes 4 to 7: a change held for 2 to 5 identical scans.
		if b.stable+1 == int(mode)-2 && cur != b.reported {
			b.report(&cur)
		}
	}
}

// report sends a status report, with the faults.
func (b *Board) report(f *[64]millennium.Piece) {
	b.reported = *f
	st := b.status(f)
	msg := millennium.Append(nil, 's', st.String())
	b.stats.Reports++
	fl := b.cfg.Faults
	switch r := b.rng.Float64(); {
	case r < fl.Drop:
		b.stats.Dropped++
		return
	case r < fl.Drop+fl.Duplicate:
		b.stats.Duplicated++
		msg = append(msg, msg...)
	case r < fl.Drop+fl.Duplicate+fl.Corrupt:
		b.stats.Corrupted++
		msg[1+b.rng.IntN(64)] ^= 0x01
	}
	if b.cfg.Reported != nil {
		b.cfg.Reported()
	}
	b.write(msg)
}

// HandleHost implements [emu.Firmware]: the board carries out every
// whole command whose parity and checksum are right, and ignores the
// rest.
func (b *Board) HandleHost(p []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.in = append(b.in, p...)
	for len(b.in) > 0 {
		n, m, err := b.dec.Decode(b.in)
		if err == millennium.ErrIncomplete {
			break
		}
		good := err == nil
		for _, c := range b.in[:n] {
			good = good && millennium.ParityOK(c)
		}
		b.in = b.in[n:]
		if !good {
			b.stats.Refused++
			continue
		}
		b.command(m)
	}
}

// command carries out one command.
func (b *Board) command(m millennium.Message) {
	now := b.cfg.Now()
	if now < b.resetUntil {
		b.stats.Refused++
		return
	}
	b.stats.Commands++
	ack := !b.cfg.Faults.NoWriteAck
	switch m.Letter {
	case 'V':
		v := version[b.cfg.Model]
		b.write(millennium.Append(nil, 'v', millennium.HexByte(v[0])+millennium.HexByte(v[1])))
	case 'S':
		st := b.status(&b.fields)
		b.write(millennium.Append(nil, 's', st.String()))
	case 'L':
		slot, leds, ok := millennium.ParseLEDs(m.Data)
		if !ok {
			return
		}
		b.stats.LEDCommands++
		b.slot, b.leds = slot, leds
		if b.cfg.Reversed {
			for i, j := 0, 80; i < j; i, j = i+1, j-1 {
				b.leds[i], b.leds[j] = b.leds[j], b.leds[i]
			}
		}
		if ack {
			b.write(millennium.Append(nil, 'l', ""))
		}
	case 'X':
		b.stats.LEDCommands++
		b.leds = millennium.LEDs{}
		if ack {
			b.write(millennium.Append(nil, 'x', ""))
		}
	case 'T':
		// A hardware reset: about three seconds of start-up, the status
		// and the LEDs cleared; the registers stay.
		b.resetUntil = now + 3*time.Second
		b.powerUp()
	case 'W':
		addr, v := millennium.Hex(m.Data, 0), millennium.Hex(m.Data, 2)
		b.reg[addr] = v
		b.stats.Writes++
		if ack {
			b.write(millennium.Append(nil, 'w', m.Data))
		}
	case 'R':
		addr := millennium.Hex(m.Data, 0)
		b.write(millennium.Append(nil, 'r', m.Data+millennium.HexByte(b.reg[addr])))
	}
}

// LED returns the pattern of an LED (0 to 80, in the document's
// numbering from the a8 corner of the board as it stands), as the last L
// or X left it.
func (b *Board) LED(i int) byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.leds[i]
}

// Lit returns the pattern a chess square shows: the AND of its four
// corner LEDs (0 when one of them is dark).
func (b *Board) Lit(sq rules.Square) byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	f := b.field(sq)
	row, col := f/8, f%8
	p := byte(0xff)
	for c := col; c <= col+1; c++ {
		for k := row; k <= row+1; k++ {
			p &= b.leds[9*c+k]
		}
	}
	return p
}

// LEDsDark reports whether every LED is off.
func (b *Board) LEDsDark() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.leds.Dark()
}
