package sim

import (
	"math/rand/v2"
	"sync"
	"time"

	"arbiter/hardware/dgt"
	"arbiter/rules"
)

// Faults are the link and clock faults a [Board] injects. Probabilities
// are per field update (or per reply, on the bus).
type Faults struct {
	Drop      float64 // a field update is not sent
	Duplicate float64 // a field update is sent twice
	// Reorder: a lift is held back and reported after the next change
	// (the new occurrence before the clear of the old square).
	Reorder float64
	// ClockLag: clock readings show the clock as it was this long ago
	// (DGT says up to a second).
	ClockLag time.Duration
	// DropAcks: this many clock acknowledgements are never sent.
	DropAcks int
	// BusCorrupt: a bus reply's checksum is wrong. BusSilent: a bus
	// command is not answered.
	BusCorrupt float64
	BusSilent  float64
	// NoFromStart: DGT_BUS_SEND_FROM_START is never answered (the board's
	// game from its start tag cannot be read).
	NoFromStart bool
}

// FromStartForm is how a board answers DGT_BUS_SEND_FROM_START; DGT's
// notes do not say whether the start tag, and the pieces the board logs
// when it writes it, are part of the answer.
type FromStartForm uint8

// The forms of the answer from the start tag, up to the changes already
// sent.
const (
	// FromStartTag: the tag, the pieces on the board then, the changes
	// since (as the public board-side implementation sends it).
	FromStartTag FromStartForm = iota
	// FromStartNoTag: the pieces on the board then and the changes
	// since, without the tag.
	FromStartNoTag
	// FromStartChanges: the changes since the tag only.
	FromStartChanges
)

// Config describes a board.
type Config struct {
	Serial  string // five digits
	Version dgt.Version
	// Addr is the bus address (default: the serial number's value).
	Addr uint16
	// Rotated: the board lies with Black at the connector side; squares
	// placed with [Board.PlaceSquare] land on the rotated fields.
	Rotated bool
	// FromStart is how the board answers DGT_BUS_SEND_FROM_START.
	FromStart FromStartForm
	Faults    Faults
	Seed      uint64
	// Now is the board's clock (default: time since the board was made).
	Now func() time.Duration
	// PingSpread is the window over which the board answers a ping to
	// every board (default 1100 ms, as DGT's boards do).
	PingSpread time.Duration
	// AckDelay is how long the clock takes to acknowledge a command
	// (default 20 ms; real clocks take one or two seconds).
	AckDelay time.Duration
	// Baud is the line's speed: each byte the board sends takes ten bits
	// on the wire, and its bytes leave in order (default 0: at once).
	// While the board sends its EEPROM log (about 9 s for a full one at
	// DGT's 9600 baud) its firmware hears nothing the host sends. It
	// needs Now to be real time.
	Baud int
}

type mode uint8

const (
	modeIdle mode = iota
	modeUpdate
	modeUpdateBoard
	modeUpdateNice
)

// Board is an emulated DGT board. Its methods are safe for concurrent
// use: the host side calls [Board.HandleHost] through the [Line] while a
// [Player] moves pieces.
type Board struct {
	cfg Config

	mu     sync.Mutex
	off    bool // switched off: it hears nothing
	out    func([]byte)
	rng    *rand.Rand
	fields dgt.Position
	mode   mode
	bus    bool
	in     []byte // host bytes not yet a whole command
	held   []byte // a reordered lift, waiting for the next change

	log        []byte // EEPROM log, oldest first
	lastTag    time.Duration
	sentUpTo   int    // bus: log bytes already sent as changes
	lastChange []byte // bus: the last changes packet, for a repeat
	startTag   int    // bus: log offset of the last start tag, -1 if none
	tagPieces  int    // bus: bytes of the pieces logged with the start tag
	ignorePing bool   // bus: ignore the next ping to every board
	losePings  bool   // bus: its answers to pings to every board are lost
	beginState int    // 0 none, 1 start position tagged

	// The wire at Config.Baud: bytes waiting to leave, each chunk with
	// the instant its last bit is sent, and until when the log is being
	// sent.
	txQ      []txChunk
	txFree   time.Duration
	txOn     bool
	logUntil time.Duration

	clk      clock
	history  []clockSnap
	lastSent *dgt.ClockTimes
	dropAcks int
	text     string
	texts    []string // every text shown, in order

	// Stats counts what the board sent and lost; read it with Counters
	// while the board runs.
	Stats Stats
}

// Counters returns a copy of the board's Stats, safe while it runs.
func (b *Board) Counters() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.Stats
}

// Stats counts what a board did.
type Stats struct {
	Updates, Dropped, Duplicated, Reordered int
	Dumps, ClockMsgs, Acks                  int
	BusReplies, BusCorrupted, BusSilenced   int
	StartTags                               int // DGT_BUS_SET_START_GAME carried out
}

// NewBoard returns a powered-up board with no pieces.
func NewBoard(cfg Config) *Board {
	if cfg.Serial == "" {
		cfg.Serial = "01025"
	}
	if cfg.Version == (dgt.Version{}) {
		cfg.Version = dgt.Version{Major: 1, Minor: 10}
	}
	if cfg.Addr == 0 {
		for _, c := range cfg.Serial {
			cfg.Addr = cfg.Addr*10 + uint16(c-'0')
		}
		cfg.Addr &= 0x3fff
	}
	if cfg.Now == nil {
		epoch := time.Now()
		cfg.Now = func() time.Duration { return time.Since(epoch) }
	}
	if cfg.PingSpread <= 0 {
		cfg.PingSpread = 1100 * time.Millisecond
	}
	if cfg.AckDelay <= 0 {
		cfg.AckDelay = 20 * time.Millisecond
	}
	b := &Board{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)), dropAcks: cfg.Faults.DropAcks, startTag: -1}
	b.powerUp()
	return b
}

// Addr returns the board's bus address.
func (b *Board) Addr() uint16 { return b.cfg.Addr }

// SetOutput sets where the board's bytes go (nil: nowhere, unplugged;
// the bytes still on the wire are lost).
func (b *Board) SetOutput(out func([]byte)) {
	b.mu.Lock()
	b.out = out
	if out == nil {
		b.txQ, b.logUntil = nil, 0
	}
	b.mu.Unlock()
}

// txChunk is bytes on the wire, and the instant their last bit is sent.
type txChunk struct {
	due time.Duration
	p   []byte
}

// txUnit is how many bytes leave the wire at a time at Config.Baud.
const txUnit = 32

func (b *Board) write(p []byte) {
	if b.out == nil {
		return
	}
	if b.cfg.Baud <= 0 {
		b.out(p)
		return
	}
	b.txFree = max(b.txFree, b.cfg.Now())
	for len(p) > 0 {
		n := min(len(p), txUnit)
		b.txFree += time.Duration(n) * 10 * time.Second / time.Duration(b.cfg.Baud)
		b.txQ = append(b.txQ, txChunk{due: b.txFree, p: append([]byte(nil), p[:n]...)})
		p = p[n:]
	}
	if !b.txOn {
		b.txOn = true
		go b.transmit()
	}
}

// transmit sends the bytes on the wire as their time comes, in order.
func (b *Board) transmit() {
	for {
		b.mu.Lock()
		if len(b.txQ) == 0 {
			b.txOn = false
			b.mu.Unlock()
			return
		}
		c := b.txQ[0]
		b.txQ = b.txQ[1:]
		wait := c.due - b.cfg.Now()
		b.mu.Unlock()
		if wait > 0 {
			time.Sleep(wait)
		}
		b.mu.Lock()
		if b.out != nil {
			b.out(c.p)
		}
		b.mu.Unlock()
	}
}

// busy reports whether the firmware is sending its log, when it hears
// nothing the host sends.
func (b *Board) busy() bool { return b.cfg.Baud > 0 && b.cfg.Now() < b.logUntil }

// powerUp restarts the firmware: idle, bus mode (the power-up default),
// and the power-up tags in the log.
func (b *Board) powerUp() {
	b.mode, b.bus, b.in, b.held = modeIdle, true, nil, nil
	b.txQ, b.logUntil = nil, 0
	b.appendLog(dgt.EENop, dgt.EENop, dgt.EENop, dgt.EEPowerUp)
	for f, p := range b.fields {
		if p != dgt.Empty {
			b.logField(f, p)
		}
	}
	b.checkBegin()
}

// SwitchOff cuts the board's power: it hears and answers nothing until
// [Board.SwitchOn] (a board switched on late, after its round began).
func (b *Board) SwitchOff() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.off = true
}

// SwitchOn powers the board up again, as its firmware does at power-up.
func (b *Board) SwitchOn() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.off = false
	b.powerUp()
}

// LosePingAnswers makes the board's answers to a ping to every board
// lost (they collide on the line, or a loaded host takes them after its
// window), or no longer lost. Pings to its own address are answered.
func (b *Board) LosePingAnswers(lose bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.losePings = lose
}

// Restart powers the board off and on again (as after an unplug).
func (b *Board) Restart() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.powerUp()
}

// Fields returns the physical board.
func (b *Board) Fields() dgt.Position {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.fields
}

// Clock returns what the clock shows now: its times, whether it runs
// and which side's turn it is (NoClock when none is plugged in).
func (b *Board) Clock() dgt.ClockTimes {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.clk.reading(b.cfg.Now())
}

// Text returns the text a DGT 3000 shows now ("" when it shows the
// times).
func (b *Board) Text() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.text
}

// Texts returns every text the DGT 3000 was asked to show, in order, ""
// where it went back to the times.
func (b *Board) Texts() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.texts...)
}

// field returns the DGT field of a chess square on this board.
func (b *Board) field(sq rules.Square) int {
	o := dgt.Normal
	if b.cfg.Rotated {
		o = dgt.Rotated
	}
	return o.Field(sq)
}

// SetUp puts the pieces of a chess view on the board at once, as people
// do between games; no field updates are sent, but the board's log keeps
// every change (and the start position's tag), as the firmware's does.
func (b *Board) SetUp(v rules.View) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var want dgt.Position
	for sq, st := range v.Stacks {
		if len(st) > 0 {
			p, _ := dgt.PieceOf(st[len(st)-1])
			want[b.field(rules.Square(sq))] = p
		}
	}
	// The pieces are moved by hand, and the log keeps every change: the
	// board emptied where it differs, then filled, as people set it up.
	for f := range want {
		if b.fields[f] != want[f] && b.fields[f] != dgt.Empty {
			b.fields[f] = dgt.Empty
			b.logField(f, dgt.Empty)
		}
	}
	b.checkBegin()
	for f := range want {
		if b.fields[f] != want[f] {
			b.fields[f] = want[f]
			b.logField(f, want[f])
		}
	}
	b.checkBegin()
}

// LiftSquare lifts the piece on a chess square.
func (b *Board) LiftSquare(sq rules.Square) { b.Set(b.field(sq), dgt.Empty) }

// PlaceSquare puts a chess piece on a chess square (replacing whatever is
// there, as when a capturing piece pushes the captured one off).
func (b *Board) PlaceSquare(sq rules.Square, p rules.Piece) {
	code, _ := dgt.PieceOf(p)
	b.Set(b.field(sq), code)
}

// Set changes DGT field f to piece p and reports it as the firmware does.
func (b *Board) Set(f int, p dgt.Piece) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fields[f] == p {
		return
	}
	b.fields[f] = p
	b.logField(f, p)
	b.checkBegin()
	if b.bus || (b.mode == modeIdle) {
		return
	}
	b.Stats.Updates++
	msg := dgt.AppendMessage(nil, dgt.MsgFieldUpdate, []byte{byte(f), byte(p)})
	fl := b.cfg.Faults
	switch r := b.rng.Float64(); {
	case r < fl.Drop:
		b.Stats.Dropped++
		msg = nil
	case r < fl.Drop+fl.Duplicate:
		b.Stats.Duplicated++
		msg = append(msg, msg...)
	case p == dgt.Empty && b.held == nil && r < fl.Drop+fl.Duplicate+fl.Reorder:
		b.Stats.Reordered++
		b.held = msg
		return
	}
	b.write(msg)
	b.flushHeld()
}

// DropChanges loses the changes the board has not yet sent on the bus, as
// when a changes reply is lost for good after the board moved on.
func (b *Board) DropChanges() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sentUpTo = len(b.log)
}

// Flush sends a lift held back by the Reorder fault now (the firmware's
// next scan).
func (b *Board) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushHeld()
}

func (b *Board) flushHeld() {
	if b.held != nil {
		h := b.held
		b.held = nil
		b.write(h)
	}
}

// FillLog fills the board's EEPROM with earlier games, before what it
// holds now, as a board in use for a while has it: its log is then full
// (dgt.LogSize bytes) and takes its longest to send.
func (b *Board) FillLog() {
	b.mu.Lock()
	defer b.mu.Unlock()
	var old []byte
	for i := 0; len(old)+len(b.log) < dgt.LogSize; i++ {
		// A knight of an earlier game going back and forth, a press now
		// and then.
		f := byte(57 + 5*(i%2))
		old = dgt.AppendLogTag(old, dgt.LogTag{Kind: dgt.TagField, Field: f, Piece: dgt.Empty})
		old = dgt.AppendLogTag(old, dgt.LogTag{Kind: dgt.TagField, Field: f ^ 0x10, Piece: dgt.WKnight})
		if i%4 == 3 {
			old = dgt.AppendLogTag(old, dgt.LogTag{Kind: dgt.TagTime, Left: i%8 == 3, Time: time.Duration(i%60) * time.Second})
		}
	}
	b.log = append(old, b.log...)
	b.sentUpTo += len(old)
	if b.startTag >= 0 {
		b.startTag += len(old)
	}
	b.appendLog() // trimmed to the EEPROM's size
}

func (b *Board) appendLog(p ...byte) {
	b.log = append(b.log, p...)
	if over := len(b.log) - dgt.LogSize; over > 0 {
		b.log = append(b.log[:0], b.log[over:]...)
		b.sentUpTo = max(b.sentUpTo-over, 0)
		if b.startTag >= 0 {
			b.startTag -= over
		}
	}
}

func (b *Board) logField(f int, p dgt.Piece) {
	now := b.cfg.Now()
	quick := now-b.lastTag < 250*time.Millisecond
	b.lastTag = now
	b.log = dgt.AppendLogTag(b.log, dgt.LogTag{Kind: dgt.TagField, Field: byte(f), Piece: p, Quick: quick})
	b.appendLog()
}

// checkBegin writes the begin-position tags, with the header's
// hysteresis: a new tag only after more than two pieces left the tagged
// position.
func (b *Board) checkBegin() {
	rot := dgt.StartPosition
	for i, j := 0, 63; i < j; i, j = i+1, j-1 {
		rot[i], rot[j] = rot[j], rot[i]
	}
	switch {
	case b.fields == dgt.StartPosition && b.beginState == 0:
		b.appendLog(dgt.EEBeginPos)
		b.beginState = 1
	case b.fields == rot && b.beginState == 0:
		b.appendLog(dgt.EEBeginPosRot)
		b.beginState = 1
	case b.fields == dgt.Position{} && b.beginState != 2:
		b.appendLog(dgt.EEEmptyBoard)
		b.beginState = 2
	case b.beginState != 0:
		d := diff(&b.fields, &dgt.Position{})
		if b.beginState == 1 {
			d = min(diff(&b.fields, &dgt.StartPosition), diff(&b.fields, &rot))
		}
		if d > 2 {
			b.beginState = 0
			// The firmware looks at every piece put down: a board that
			// now shows a start position got its tag on the way.
			b.checkBegin()
		}
	}
}

func diff(a, c *dgt.Position) int {
	n := 0
	for i := range a {
		if a[i] != c[i] {
			n++
		}
	}
	return n
}
