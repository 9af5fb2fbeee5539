package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"arbiter/board"
	"arbiter/hardware/sensorboard"
	"arbiter/rules"
)

// Faults are the misbehaviours a simulated board shows, each with a rate:
// per frame for the link faults, per move for the physical ones.
type Faults struct {
	Drop      float64 // a frame is lost (its sequence number is used)
	Corrupt   float64 // one byte of a frame is changed
	Duplicate float64 // a frame is sent twice
	Bounce    float64 // a square's sensor chatters on a change
	// Disconnect: the board is unplugged after a move and plugged in again
	// a moment later; it restarts (new boot id, sequence and clock from 0).
	Disconnect float64
	// KnockOver: a stack is knocked over between moves and set up again.
	KnockOver float64
}

// LinkFaults are the faults of a board at one rate: dropped, corrupted
// and duplicated frames, and sensors that bounce (five times as often, as
// contacts chatter more than cables fail).
func LinkFaults(rate float64) Faults {
	return Faults{Drop: rate, Corrupt: rate, Duplicate: rate, Bounce: rate * 5}
}

// Config describes a simulated board.
type Config struct {
	ID       string
	Firmware string // default "sim-1"
	// Geometry is the board; Graph names it when it is not rectangular.
	Geometry *rules.Geometry
	Graph    string
	Caps     board.Caps
	// MaxHeight is the highest stack the sensors count (default 31).
	MaxHeight int
	// Heartbeat is the heartbeat interval (default 500 ms).
	Heartbeat time.Duration
	Seed      uint64
	Faults    Faults
	// Zones are the trays the board senses and announces, in its own
	// order: nil for every zone of the geometry, an empty list for none
	// (a Kvaa board without trays), or some of them (PROTOCOL
	// hello-kvaa: the reserve trays only). The pieces lie in every zone
	// of the geometry all the same; only the board's trays are reported.
	Zones []board.ZoneInfo
	// Buttons are the buttons the board has; nil for every kind for
	// each side and a shared arbiter button (simButtons).
	Buttons []board.ButtonInfo
}

// Buttons every simulated board has.
var simButtons = []board.ButtonInfo{
	{Kind: board.ButtonClock, Side: board.SideFirst},
	{Kind: board.ButtonClock, Side: board.SideSecond},
	{Kind: board.ButtonAdjust, Side: board.SideFirst},
	{Kind: board.ButtonAdjust, Side: board.SideSecond},
	{Kind: board.ButtonAnswer, Side: board.SideFirst},
	{Kind: board.ButtonAnswer, Side: board.SideSecond},
	{Kind: board.ButtonOffer, Side: board.SideFirst},
	{Kind: board.ButtonOffer, Side: board.SideSecond},
	{Kind: board.ButtonResign, Side: board.SideFirst},
	{Kind: board.ButtonResign, Side: board.SideSecond},
	{Kind: board.ButtonClaim, Side: board.SideFirst},
	{Kind: board.ButtonClaim, Side: board.SideSecond},
	{Kind: board.ButtonArbiter, Side: board.SideNone},
}

// Board is the firmware of a simulated board: the physical pieces on it,
// what its sensors make of them, and the protocol. Physical actions
// (Lift, Place, ...) produce the frames real sensors would; host frames are
// answered as the protocol says. Frames go to the output set with
// [Board.SetOutput]; time comes from the clock given to [NewBoard].
type Board struct {
	cfg    Config
	clock  Clock
	sensor board.Sensor

	mu      sync.Mutex
	rng     *rand.Rand
	out     func([]byte)
	enc     sensorboard.Encoder
	boot    uint32
	bootAt  time.Duration
	lastTx  time.Duration
	stacks  [][]rules.Piece
	zones   [][]rules.Piece // by the geometry's zone
	trays   []int           // the geometry's zone of each of the board's trays
	presses map[board.ButtonInfo]uint8
	host    hostState
	wire    []byte
	log     []Sent
	logging bool
	connCh  chan struct{}
}

// hostState is what the board has received from the host.
type hostState struct {
	seen    bool
	lastSeq uint16
	rxBad   uint16
	txLost  uint16
	Clock   sensorboard.ClockMsg
	Light   sensorboard.LightMsg
	Alert   sensorboard.AlertMsg
	Acks    []sensorboard.AckMoveMsg
	// Question is the question shown to the players: cleared by an
	// ACK_MOVE or a QUESTION of kind none.
	Question sensorboard.QuestionMsg
}

// Sent is a frame the board sent, as the test oracle sees it.
type Sent struct {
	Header  sensorboard.Header
	Msg     sensorboard.Message
	Dropped bool // a fault kept it off the wire
	Boot    uint32
}

// NewBoard returns a powered-up board with no pieces on it.
func NewBoard(cfg Config, clock Clock) (*Board, error) {
	if cfg.Geometry == nil {
		return nil, fmt.Errorf("sim: board %q: no geometry", cfg.ID)
	}
	if cfg.ID == "" {
		return nil, fmt.Errorf("sim: board without id")
	}
	if !cfg.Geometry.Rectangular() && cfg.Graph == "" {
		return nil, fmt.Errorf("sim: board %q: a board that is not rectangular needs a graph name", cfg.ID)
	}
	if cfg.Firmware == "" {
		cfg.Firmware = "sim-1"
	}
	if cfg.MaxHeight <= 0 {
		cfg.MaxHeight = 31
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = 500 * time.Millisecond
	}
	if cfg.Zones == nil {
		for _, z := range cfg.Geometry.Zones() {
			cfg.Zones = append(cfg.Zones, board.ZoneInfo{Kind: z.Kind, Owner: z.Owner})
		}
	}
	if cfg.Buttons == nil {
		cfg.Buttons = simButtons
	}
	h := board.Info{ID: cfg.ID, Zones: cfg.Zones}
	trays, err := h.ZoneMap(cfg.Geometry)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	b := &Board{
		trays:  trays,
		cfg:    cfg,
		clock:  clock,
		sensor: board.Sensor{Caps: cfg.Caps, MaxHeight: cfg.MaxHeight},
		rng:    rand.New(rand.NewPCG(cfg.Seed, 0x5EB0A4D)),
		stacks: make([][]rules.Piece, cfg.Geometry.Len()),
		zones:  make([][]rules.Piece, len(cfg.Geometry.Zones())),
		connCh: make(chan struct{}),
	}
	b.powerUp()
	return b, nil
}

// ID returns the board's id.
func (b *Board) ID() string { return b.cfg.ID }

// Config returns the board's configuration.
func (b *Board) Config() Config { return b.cfg }

// KeepLog makes the board remember every frame it sends (for tests).
func (b *Board) KeepLog() {
	b.mu.Lock()
	b.logging = true
	b.mu.Unlock()
}

// Log returns the frames sent so far.
func (b *Board) Log() []Sent {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.log)
}

func (b *Board) powerUp() {
	// The boot value is drawn at random (PROTOCOL 3.1), not from the
	// seed alone: a board started again with the same seed is another
	// power-up, which the host must tell from a board answering a
	// HELLO_REQ. The seeded draw stays, so the rest of the board's random
	// choices are as the seed makes them.
	b.boot = b.rng.Uint32() ^ rand.Uint32()
	b.bootAt = b.clock.Now()
	b.lastTx = b.bootAt
	b.enc.Reset()
	b.presses = map[board.ButtonInfo]uint8{}
	b.host = hostState{}
}

// Restart power-cycles the board: a new boot id, sequence and clock from
// zero, a spontaneous HELLO. The pieces stay where they are.
func (b *Board) Restart() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.powerUp()
	b.connCh = make(chan struct{})
	b.sendLocked(b.helloLocked())
}

// Connected returns a channel closed when the host has sent its first
// frame since power-up.
func (b *Board) Connected() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.connCh
}

// SetOutput sets where frames go; nil discards them (an unplugged cable).
func (b *Board) SetOutput(out func([]byte)) {
	b.mu.Lock()
	b.out = out
	b.mu.Unlock()
}

// Load puts the pieces of v on the board without producing events, as
// when the board is set up before it is switched on.
func (b *Board) Load(v rules.View) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := v.Clone()
	copy(b.stacks, c.Stacks)
	copy(b.zones, c.Zones)
}

// View returns the physical state: every stack and zone.
func (b *Board) View() rules.View {
	b.mu.Lock()
	defer b.mu.Unlock()
	return rules.View{Stacks: b.stacks, Zones: b.zones}.Clone()
}

// HostState returns what the host last asked the board to show.
func (b *Board) HostState() (sensorboard.ClockMsg, sensorboard.LightMsg, sensorboard.AlertMsg, []sensorboard.AckMoveMsg) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.host.Clock, b.host.Light, b.host.Alert, slices.Clone(b.host.Acks)
}

// Question returns the question the host last asked the board to show
// (kind QuestionNone when none is open).
func (b *Board) Question() sensorboard.QuestionMsg {
	b.mu.Lock()
	defer b.mu.Unlock()
	q := b.host.Question
	q.Choices = slices.Clone(q.Choices)
	return q
}

func (b *Board) nowMs() uint32 { return uint32((b.clock.Now() - b.bootAt) / time.Millisecond) }

// sense reduces a stack to what the sensors report.
func (b *Board) sense(s []rules.Piece) board.SquareState { return b.sensor.Square(s) }

// change applies f to a square and reports the sensed change, if any.
func (b *Board) change(sq rules.Square, f func(s []rules.Piece) []rules.Piece) {
	before := b.sense(b.stacks[sq])
	b.stacks[sq] = f(b.stacks[sq])
	after := b.sense(b.stacks[sq])
	if before == after {
		return
	}
	msg := func(st board.SquareState) *sensorboard.SquareMsg {
		return &sensorboard.SquareMsg{Square: uint16(b.cfg.Geometry.SensorIndex(sq)), Height: st.Height, Saturated: st.Saturated, Top: st.Top}
	}
	if b.chance(b.cfg.Faults.Bounce) {
		// A chattering contact: the new reading, the old, the new again.
		b.sendLocked(msg(after))
		b.sendLocked(msg(before))
	}
	b.sendLocked(msg(after))
}

// Lift takes the top n pieces off sq and returns them bottom first.
func (b *Board) Lift(sq rules.Square, n int) ([]rules.Piece, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.stacks[sq]
	if n < 1 || n > len(s) {
		return nil, fmt.Errorf("sim: lift %d from %s: stack has %d", n, b.cfg.Geometry.Name(sq), len(s))
	}
	got := slices.Clone(s[len(s)-n:])
	b.change(sq, func(s []rules.Piece) []rules.Piece { return s[:len(s)-n] })
	return got, nil
}

// Place puts pieces (bottom first) on sq in one movement.
func (b *Board) Place(sq rules.Square, ps ...rules.Piece) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.change(sq, func(s []rules.Piece) []rules.Piece { return append(s, ps...) })
}

// Turn sets the face of the top piece of sq, as a player turns a piece
// over where it stands.
func (b *Board) Turn(sq rules.Square, f rules.Face) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.stacks[sq]) == 0 {
		return fmt.Errorf("sim: turn over on empty %s", b.cfg.Geometry.Name(sq))
	}
	b.change(sq, func(s []rules.Piece) []rules.Piece {
		s[len(s)-1].Face = f
		return s
	})
	return nil
}

// zoneMsg reports a change of the geometry's zone z, if it is one of the
// board's trays.
func (b *Board) zoneMsg(z int, action board.ZoneAction, p rules.Piece) {
	caps := b.cfg.Caps
	if !caps.Has(board.CapZoneCount) && !caps.Has(board.CapZoneIdentity) {
		return
	}
	tray := slices.Index(b.trays, z)
	if tray < 0 {
		return // a zone the board does not sense
	}
	m := &sensorboard.ZoneMsg{Zone: uint8(tray), Action: board.ZoneCount}
	n := len(b.zones[z])
	if n > sensorboard.MaxHeight {
		n, m.Saturated = sensorboard.MaxHeight, true
	}
	m.Count = uint8(n)
	if caps.Has(board.CapZoneIdentity) {
		m.Action = action
		m.Piece = board.Ident{Known: true, Piece: p}
	}
	b.sendLocked(m)
}

// Take removes piece p from zone z.
func (b *Board) Take(z int, p rules.Piece) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	i := slices.Index(b.zones[z], p)
	if i < 0 {
		return fmt.Errorf("sim: take %s from zone %d: not there", p, z)
	}
	b.zones[z] = slices.Delete(b.zones[z], i, i+1)
	b.zoneMsg(z, board.ZoneRemoved, p)
	return nil
}

// Put puts piece p into zone z.
func (b *Board) Put(z int, p rules.Piece) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.zones[z] = append(b.zones[z], p)
	rules.View{Zones: b.zones[z : z+1]}.SortZones()
	b.zoneMsg(z, board.ZoneAdded, p)
}

// Press presses and releases a button; value is the answer for
// ButtonAnswer.
func (b *Board) Press(kind board.ButtonKind, side board.Side, value uint8) {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := board.ButtonInfo{Kind: kind, Side: side}
	b.presses[k]++
	n := b.presses[k]
	b.sendLocked(&sensorboard.ButtonMsg{Button: kind, Side: side, Pressed: true, Count: n, Value: value})
	b.sendLocked(&sensorboard.ButtonMsg{Button: kind, Side: side, Pressed: false, Count: n, Value: value})
}

// Idle sends a heartbeat if the board has been silent for its interval.
// The runner calls it as time passes.
func (b *Board) Idle() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.clock.Now()-b.lastTx >= b.cfg.Heartbeat {
		b.sendLocked(b.heartbeatLocked())
	}
}

func (b *Board) heartbeatLocked() *sensorboard.HeartbeatMsg {
	return &sensorboard.HeartbeatMsg{HostSeen: b.host.seen, LastHostSeq: b.host.lastSeq, RxBad: b.host.rxBad, TxLost: b.host.txLost}
}

func (b *Board) helloLocked() *sensorboard.Hello {
	g := b.cfg.Geometry
	h := &sensorboard.Hello{
		Major: sensorboard.VersionMajor, Minor: sensorboard.VersionMinor,
		Boot: b.boot, Caps: b.cfg.Caps, MaxHeight: uint8(b.cfg.MaxHeight),
		Heartbeat: uint16(b.cfg.Heartbeat / time.Millisecond),
		Width:     uint8(g.Width()), Height: uint8(g.Height()), Cells: uint16(g.Len()),
		Buttons: b.cfg.Buttons, ID: b.cfg.ID, Firmware: b.cfg.Firmware, Graph: b.cfg.Graph,
		Zones: b.cfg.Zones,
	}
	return h
}

func (b *Board) chance(rate float64) bool { return rate > 0 && b.rng.Float64() < rate }

// sendLocked frames m and writes it, applying the link faults.
func (b *Board) sendLocked(m sensorboard.Message) {
	h := sensorboard.Header{Type: m.Type(), Seq: b.enc.Seq(), Time: b.nowMs()}
	b.wire = b.enc.Append(b.wire[:0], m, h.Time)
	b.lastTx = b.clock.Now()
	f := b.cfg.Faults
	drop := b.chance(f.Drop)
	if b.logging {
		b.log = append(b.log, Sent{Header: h, Msg: m, Dropped: drop || b.out == nil, Boot: b.boot})
	}
	if drop || b.out == nil {
		return
	}
	if b.chance(f.Corrupt) {
		i := b.rng.IntN(len(b.wire))
		b.wire[i] ^= byte(1 + b.rng.IntN(255))
	}
	b.out(b.wire)
	if b.chance(f.Duplicate) {
		b.out(b.wire)
	}
}

// HandleHost obeys one frame from the host.
func (b *Board) HandleHost(f sensorboard.Frame) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.host.seen {
		close(b.connCh)
	}
	b.host.seen = true
	b.host.lastSeq = f.Seq
	nak := func(r sensorboard.NakReason) {
		b.sendLocked(&sensorboard.NakMsg{HostSeq: f.Seq, HostType: f.Type, Reason: r})
	}
	m := sensorboard.NewMessage(f.Type)
	if m == nil || f.Type.FromBoard() {
		nak(sensorboard.NakUnknownType)
		return
	}
	if err := m.UnmarshalPayload(f.Payload); err != nil {
		nak(sensorboard.NakBadPayload)
		return
	}
	switch m := m.(type) {
	case *sensorboard.HelloReqMsg:
		b.sendLocked(b.helloLocked())
	case *sensorboard.DumpReqMsg:
		b.dumpLocked(m.Token)
	case *sensorboard.PingMsg:
		b.sendLocked(&sensorboard.PongMsg{Token: m.Token, HostTime: f.Time})
	case *sensorboard.ClockMsg:
		b.host.Clock = *m
	case *sensorboard.LightMsg:
		b.host.Light = *m
	case *sensorboard.AlertMsg:
		b.host.Alert = *m
	case *sensorboard.AckMoveMsg:
		b.host.Acks = append(b.host.Acks, *m)
		b.host.Question = sensorboard.QuestionMsg{}
	case *sensorboard.QuestionMsg:
		b.host.Question = *m
	}
}

// RejectHost counts a host frame that failed its CRC.
func (b *Board) RejectHost() {
	b.mu.Lock()
	b.host.rxBad++
	b.mu.Unlock()
}

func (b *Board) dumpLocked(token uint16) {
	all := b.sensor.View(b.cfg.Geometry, rules.View{Stacks: b.stacks})
	for first := 0; first < len(all); first += sensorboard.MaxDumpSquares {
		b.sendLocked(&sensorboard.DumpSquaresMsg{Token: token, First: uint16(first),
			Squares: all[first:min(first+sensorboard.MaxDumpSquares, len(all))]})
	}
	caps := b.cfg.Caps
	for tray, z := range b.trays {
		ps := b.zones[z]
		m := &sensorboard.DumpZoneMsg{Token: token, Zone: uint8(tray)}
		if caps.Has(board.CapZoneCount) || caps.Has(board.CapZoneIdentity) {
			c := len(ps)
			if c > sensorboard.MaxHeight {
				c, m.Saturated = sensorboard.MaxHeight, true
			}
			m.Count = uint8(c)
		}
		if caps.Has(board.CapZoneIdentity) {
			m.Pieces = slices.Clone(ps)
			if len(m.Pieces) > sensorboard.MaxDumpPieces {
				m.Pieces = m.Pieces[:sensorboard.MaxDumpPieces]
			}
		}
		b.sendLocked(m)
	}
	end := &sensorboard.DumpEndMsg{Token: token, Squares: uint16(len(all)), Zones: uint8(len(b.trays))}
	for _, k := range b.cfg.Buttons {
		end.Buttons = append(end.Buttons, board.ButtonState{Button: k.Kind, Side: k.Side, Count: b.presses[k]})
	}
	b.sendLocked(end)
}

// Sensed returns what the board's sensors report now for every square, in
// the board's sensor order: the truth a host should reach after healing
// every gap.
func (b *Board) Sensed() []board.SquareState {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sensor.View(b.cfg.Geometry, rules.View{Stacks: b.stacks})
}

// Do performs one physical step.
func (b *Board) Do(s Step) error {
	switch s.Op {
	case OpLift:
		_, err := b.Lift(s.Square, s.N)
		return err
	case OpPlace:
		b.Place(s.Square, s.Pieces...)
	case OpTurn:
		return b.Turn(s.Square, s.Face)
	case OpTake:
		return b.Take(s.Zone, s.Piece)
	case OpPut:
		b.Put(s.Zone, s.Piece)
	case OpPress:
		b.Press(s.Button, s.Side, s.Value)
	default:
		return fmt.Errorf("sim: unknown step %v", s)
	}
	return nil
}

// GraphName is the graph name a simulated board of game g announces in its
// handshake: the game's name for a board that is not rectangular (Kvaa),
// empty for a rectangular one.
func GraphName(g rules.Game) string {
	if g.Geometry().Rectangular() {
		return ""
	}
	return g.Name()
}

// Arrange moves the pieces into the position v square by square, as
// players set up a board, reporting each square that changes.
func (b *Board) Arrange(v rules.View) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for sq := range b.stacks {
		want := append([]rules.Piece(nil), v.Stacks[sq]...)
		b.change(rules.Square(sq), func([]rules.Piece) []rules.Piece { return want })
	}
	for z := range b.zones {
		b.zones[z] = append([]rules.Piece(nil), v.Zones[z]...)
	}
}
