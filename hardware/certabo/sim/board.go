package sim

import (
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"arbiter/hardware/certabo"
	"arbiter/hardware/eboard"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// Faults are what the board does wrong. Probabilities are per square and
// frame (Junk, Misread) or per frame and command (the others).
type Faults struct {
	Junk     float64 // an empty square reads junk
	Misread  float64 // a chip is read with a byte wrong
	Drop     float64 // a frame is not sent
	Cut      float64 // bytes are lost in the middle of a frame
	LoseLEDs float64 // an LED command is lost
}

// Config describes a board and its set.
type Config struct {
	// Rotated: the board lies turned round (Black at the a1 corner).
	Rotated bool
	// Period is how often the board sends a frame (default 300 ms: a
	// frame of up to 1280 bytes takes a third of a second at 38400 baud).
	Period time.Duration
	// Chip is the set's chip number: its ids begin 3, Chip (default 0),
	// as in picochess's captured frames; sets differ in it.
	Chip byte
	// AckLEDs: the board answers every LED command with a line "L" (what
	// picochess reads as a board with plain LEDs).
	AckLEDs bool
	Faults  Faults
	Seed    uint64
	// Reported, if set, is called as every frame goes out (not one that
	// is lost), with the board locked (benchmarks time them).
	Reported func()
}

// Stats counts what a board did.
type Stats struct {
	Frames, Dropped, Cut, Junk, Misread int
	LEDCommands, LEDsLost               int
	// Unknown counts pieces set down with a chip that is not the set's
	// (no captured piece or spare of the kind was at hand).
	Unknown int
}

type chip struct {
	id    certabo.ID
	piece rules.Piece
	spare bool
}

// Board is an emulated Certabo board and its set. Its methods are safe for
// concurrent use: the line calls HandleHost and Scan while a player moves
// pieces.
type Board struct {
	cfg Config

	mu      sync.Mutex
	out     func([]byte)
	rng     *rand.Rand
	squares [64]*chip // in the board's own order (a8 first, as labelled)
	hand    []*chip   // lifted, the latest last
	box     []*chip   // off the board: captured pieces and spares
	next    int       // the next chip number
	leds    certabo.LEDs
	in      []byte
	cut     bool // the next frame is the first after power-up: cut
	stats   Stats
}

// NewBoard returns a powered-up board with its set in the box: the 32
// pieces, and a spare queen, rook, bishop and knight of each colour.
func NewBoard(cfg Config) *Board {
	if cfg.Period <= 0 {
		cfg.Period = 300 * time.Millisecond
	}
	b := &Board{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))}
	start := chess.Start().View()
	for sq := range 64 {
		if p, ok := start.Top(rules.Square(sq)); ok {
			b.box = append(b.box, b.newChip(p, false))
		}
	}
	for _, c := range []rules.Color{rules.White, rules.Black} {
		for _, k := range []rules.Kind{'Q', 'R', 'B', 'N'} {
			b.box = append(b.box, b.newChip(rules.Piece{Color: c, Kind: k}, true))
		}
	}
	b.Restart()
	return b
}

func (b *Board) newChip(p rules.Piece, spare bool) *chip {
	n := byte(b.next)
	b.next++
	return &chip{id: certabo.ID{3, b.cfg.Chip, 0x50 + n, 0x20 + n, 0x80 + n}, piece: p, spare: spare}
}

// Counters returns what the board did so far.
func (b *Board) Counters() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stats
}

// SetOutput implements [emu.Firmware].
func (b *Board) SetOutput(out func([]byte)) {
	b.mu.Lock()
	b.out = out
	b.mu.Unlock()
}

// Restart implements [emu.Firmware]: LEDs dark, and a first frame cut.
func (b *Board) Restart() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.leds, b.in, b.cut = certabo.LEDs{}, nil, true
}

// ScanPeriod implements [emu.Firmware].
func (b *Board) ScanPeriod() time.Duration { return b.cfg.Period }

// field returns the board's field of a chess square.
func (b *Board) field(sq rules.Square) int {
	o := eboard.Normal
	if b.cfg.Rotated {
		o = eboard.Rotated
	}
	return o.Field(sq)
}

// Turn turns the board round (or back) with the pieces on it, as players
// who sit the other way do: what stands on a8 as the board is labelled
// stands where h1 was.
func (b *Board) Turn() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cfg.Rotated = !b.cfg.Rotated
	slices.Reverse(b.squares[:])
}

// LiftSquare implements [emu.Hands]: the piece goes to the hand.
func (b *Board) LiftSquare(sq rules.Square) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f := b.field(sq)
	if c := b.squares[f]; c != nil {
		b.hand = append(b.hand, c)
		b.squares[f] = nil
	}
}

// PlaceSquare implements [emu.Hands]: the piece set down is the latest of
// its kind in the hand, else a captured one or a spare from the box (a
// promotion), else a piece of another set.
func (b *Board) PlaceSquare(sq rules.Square, p rules.Piece) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f := b.field(sq)
	if old := b.squares[f]; old != nil {
		b.box = append(b.box, old) // pushed off
	}
	b.squares[f] = b.take(p)
}

// take returns a chip of piece p: from the hand, the box (captured pieces
// before spares), or a new one.
func (b *Board) take(p rules.Piece) *chip {
	for i := len(b.hand) - 1; i >= 0; i-- {
		if b.hand[i].piece == p {
			c := b.hand[i]
			b.hand = slices.Delete(b.hand, i, i+1)
			return c
		}
	}
	best := -1
	for i, c := range b.box {
		if c.piece == p && (best < 0 || b.box[best].spare && !c.spare) {
			best = i
		}
	}
	if best >= 0 {
		c := b.box[best]
		b.box = slices.Delete(b.box, best, best+1)
		return c
	}
	b.stats.Unknown++
	return b.newChip(p, true)
}

// PieceAt implements [emu.Hands].
func (b *Board) PieceAt(sq rules.Square) (rules.Piece, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c := b.squares[b.field(sq)]; c != nil {
		return c.piece, true
	}
	return rules.Piece{}, false
}

// Flush implements [emu.Hands]: what is left in the hand (captured
// pieces) goes to the box.
func (b *Board) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.box = append(b.box, b.hand...)
	b.hand = nil
}

// SetUp puts the pieces of a chess view on the board at once, with the
// set's own pieces (spares only where it has not enough).
func (b *Board) SetUp(v rules.View) { b.setUp(v, nil, false) }

// SetUpSpares puts the pieces of a view on the board with the spares
// first: shown a start position this way, a host learns the spares' chips
// (the maker's "Setup" that adds pieces to a calibration).
func (b *Board) SetUpSpares(v rules.View) { b.setUp(v, nil, true) }

// SetUpCalibration puts the start position on the board with the spare
// queens on d3 and d6, as a host calibrating the board wants them.
func (b *Board) SetUpCalibration() {
	b.setUp(chess.Start().View(), map[rules.Square]rules.Piece{
		19: {Color: rules.White, Kind: 'Q'}, 43: {Color: rules.Black, Kind: 'Q'}}, false)
}

func (b *Board) setUp(v rules.View, extra map[rules.Square]rules.Piece, spares bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for f, c := range b.squares {
		if c != nil {
			b.box = append(b.box, c)
			b.squares[f] = nil
		}
	}
	b.box = append(b.box, b.hand...)
	b.hand = nil
	place := func(sq rules.Square, p rules.Piece, spares bool) {
		best := -1
		for i, c := range b.box {
			if c.piece == p && (best < 0 || b.box[best].spare != spares && c.spare == spares) {
				best = i
			}
		}
		if best < 0 {
			b.stats.Unknown++
			b.squares[b.field(sq)] = b.newChip(p, true)
			return
		}
		b.squares[b.field(sq)] = b.box[best]
		b.box = slices.Delete(b.box, best, best+1)
	}
	for sq := range v.Stacks {
		if p, ok := v.Top(rules.Square(sq)); ok {
			place(rules.Square(sq), p, spares)
		}
	}
	for sq, p := range extra {
		place(sq, p, true)
	}
}

// Scan implements [emu.Firmware]: the board reads every chip and sends
// the frame.
func (b *Board) Scan() {
	b.mu.Lock()
	defer b.mu.Unlock()
	var f certabo.Frame
	fl := b.cfg.Faults
	for i, c := range b.squares {
		switch {
		case c == nil && b.rng.Float64() < fl.Junk:
			b.stats.Junk++
			for k := range f[i] {
				if b.rng.IntN(4) > 0 {
					f[i][k] = byte(b.rng.IntN(256))
				}
			}
		case c == nil:
		case b.rng.Float64() < fl.Misread:
			b.stats.Misread++
			f[i] = c.id
			f[i][1+b.rng.IntN(4)] = byte(b.rng.IntN(256))
		default:
			f[i] = c.id
		}
	}
	b.stats.Frames++
	msg := certabo.AppendFrame(nil, &f)
	switch r := b.rng.Float64(); {
	case b.cut:
		b.cut = false
		b.stats.Cut++
		msg = msg[len(msg)/2:] // the host opened the port in the middle of it
	case r < fl.Drop:
		b.stats.Dropped++
		return
	case r < fl.Drop+fl.Cut:
		// Bytes lost in the middle of the frame: the line still ends.
		b.stats.Cut++
		from := b.rng.IntN(len(msg) - 2)
		to := from + 1 + b.rng.IntN(len(msg)-2-from)
		msg = append(msg[:from:from], msg[to:]...)
	}
	if b.cfg.Reported != nil {
		b.cfg.Reported()
	}
	if b.out != nil {
		b.out(msg)
	}
}

// HandleHost implements [emu.Firmware]: every eight bytes are an LED
// command.
func (b *Board) HandleHost(p []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.in = append(b.in, p...)
	for len(b.in) >= 8 {
		cmd := b.in[:8]
		b.in = b.in[8:]
		if b.rng.Float64() < b.cfg.Faults.LoseLEDs {
			b.stats.LEDsLost++
			continue
		}
		b.stats.LEDCommands++
		copy(b.leds[:], cmd)
		if b.cfg.AckLEDs && b.out != nil {
			b.out([]byte("L\r\n"))
		}
	}
}

// Lit reports whether a chess square's LED is lit.
func (b *Board) Lit(sq rules.Square) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.leds.Lit(b.field(sq))
}

// LEDs returns the LEDs as the last command left them, in the board's
// frame.
func (b *Board) LEDs() certabo.LEDs {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.leds
}
