package sensorboard

import (
	"fmt"
	"time"

	"arbiter/board"
	"arbiter/rules"
)

// Link is the protocol state of one board as the host sees it: sequence
// checking, clock unwrapping and mapping, dump assembly, missed-press
// detection and health. It is pure: frames and instants go in, events and
// requests come out through the two functions the owner sets. A Link
// survives port changes: the driver keeps one per board id, so a board that
// is unplugged and plugged in again continues where it stopped.
type Link struct {
	// Emit receives every event. It is called synchronously.
	Emit func(board.Event)
	// Send transmits a host message to the board (a dump request).
	Send func(Message)

	port  string
	hello *Hello
	board string

	expect  uint16
	synced  bool
	oldRun  int // consecutive frames older than expected
	rawTime uint32
	boardMs int64
	timed   bool
	tm      TimeMap

	token       uint16
	dumpPending bool
	dumpAsked   time.Duration
	dump        *board.Snapshot
	dumpGot     []bool
	dumpZones   []bool
	dumpGap     bool

	presses  map[buttonKey]uint8
	txLost   uint16
	haveTxLo bool

	lastRx time.Duration
	health board.Health

	Stats LinkStats
}

type buttonKey struct {
	b board.ButtonKind
	s board.Side
}

// LinkStats counts what a link has dealt with.
type LinkStats struct {
	Frames     uint64 // frames accepted
	Lost       uint64 // frames missing according to sequence numbers
	Duplicates uint64 // frames dropped as duplicated or out of order
	PreHello   uint64 // frames dropped before the handshake
	Unknown    uint64 // frames of types this version does not know
	Dumps      uint64 // snapshots delivered
}

// Dump-request retry interval, and health thresholds in heartbeats.
const (
	dumpRetry       = 2 * time.Second
	delayedBeats    = 2.5
	notRespondBeats = 6
	// abandonBeats: a board silent this long, though it was hailed at
	// notRespondBeats, is given up (Link.Abandoned), which frees its id
	// for a port that answers.
	abandonBeats = 12
	maxOldRun    = 16
)

// Board returns the board id, empty before the first handshake.
func (l *Link) Board() string { return l.board }

// SetPort records the port the board is now reached through, and starts
// the handshake state: frames are ignored until the next HELLO.
func (l *Link) SetPort(port string, now time.Duration) {
	l.port = port
	l.synced = false
	l.lastRx = now
	l.setHealth(board.Connecting, now)
}

// Disconnected reports that the port failed. Everything received so far has
// already been delivered; the link keeps its state for the board's return.
func (l *Link) Disconnected(now time.Duration) {
	l.synced = false
	l.dumpPending = false
	l.dump = nil
	l.setHealth(board.Disconnected, now)
}

func (l *Link) setHealth(h board.Health, now time.Duration) {
	if h == l.health {
		return
	}
	l.health = h
	if l.board == "" {
		return
	}
	l.Emit(board.Event{Kind: board.EventHealth, Board: l.board, Port: l.port, Host: now, At: now, Health: h})
}

// Tick lets time pass: it updates health from the silence since the last
// frame and retries an unanswered dump request. The driver calls it after
// every read, including timed-out ones.
func (l *Link) Tick(now time.Duration) {
	if l.hello == nil || l.health == board.Disconnected || l.health == board.Connecting {
		return
	}
	hb := l.beat()
	silent := now - l.lastRx
	switch {
	case silent > time.Duration(notRespondBeats*float64(hb)):
		if l.health != board.NotResponding {
			l.hail() // a board that lost its way answers a HELLO_REQ
		}
		l.setHealth(board.NotResponding, now)
	case silent > time.Duration(delayedBeats*float64(hb)):
		l.setHealth(board.Delayed, now)
	}
	if l.dumpPending && now-l.dumpAsked > dumpRetry {
		l.requestDump(now)
	}
}

// beat returns the board's heartbeat interval (1 s if it gave none).
func (l *Link) beat() time.Duration {
	hb := time.Duration(l.hello.Heartbeat) * time.Millisecond
	if hb <= 0 {
		hb = time.Second
	}
	return hb
}

// Abandoned reports whether the board has stopped answering for good as
// far as this port is concerned: silent for twelve heartbeats, six of
// them after it was hailed. The driver then gives the port up, so that
// the board's id is free for the port where it answers now (a cable moved
// to another socket, a symbolic link that leads elsewhere).
func (l *Link) Abandoned(now time.Duration) bool {
	if l.hello == nil || l.health != board.NotResponding {
		return false
	}
	return now-l.lastRx > time.Duration(abandonBeats*float64(l.beat()))
}

func (l *Link) requestDump(now time.Duration) {
	l.token++
	l.dumpPending = true
	l.dumpAsked = now
	l.dump = nil
	if l.Send != nil {
		l.Send(&DumpReqMsg{Token: l.token})
	}
}

// hail asks the board for its HELLO.
func (l *Link) hail() {
	if l.Send != nil {
		l.Send(&HelloReqMsg{Major: VersionMajor, Minor: VersionMinor})
	}
}

// Sent tells the link about a host frame that was sent to the board by
// someone else (a replay of a raw log): a dump request sets the token the
// link waits for, as if the link had made it.
func (l *Link) Sent(m Message, now time.Duration) {
	if r, ok := m.(*DumpReqMsg); ok {
		l.token = r.Token
		l.dumpPending = true
		l.dumpAsked = now
		l.dump = nil
	}
}

// DumpPending reports whether a dump has been asked for and not yet
// delivered.
func (l *Link) DumpPending() bool { return l.dumpPending }

// RequestDump asks the board for a full-state dump now.
func (l *Link) RequestDump(now time.Duration) { l.requestDump(now) }

func (l *Link) protoErr(f Frame, host time.Duration, err error) {
	l.Emit(board.Event{Kind: board.EventError, Board: l.board, Port: l.port, Seq: f.Seq, Host: host, At: host,
		Err: fmt.Errorf("%s frame #%d: %w", f.Type, f.Seq, err)})
}

// Frame handles one good frame read at host.
func (l *Link) Frame(f Frame, host time.Duration) {
	if f.Type == TypeHello {
		l.handleHello(f, host)
		return
	}
	if !l.synced {
		l.Stats.PreHello++
		return
	}
	if !l.inSequence(f.Seq, host) {
		return
	}
	l.Stats.Frames++
	l.lastRx = host
	if l.health != board.Active {
		l.setHealth(board.Active, host)
	}

	ev := board.Event{Board: l.board, Port: l.port, Seq: f.Seq, Host: host}
	l.stamp(&ev, f.Time, host)

	var err error
	switch f.Type {
	case TypeSquare:
		err = l.squareEvent(f.Payload, &ev)
	case TypeZone:
		err = l.zoneEvent(f.Payload, &ev)
	case TypeButton:
		err = l.buttonEvent(f.Payload, &ev)
	case TypeHeartbeat:
		err = l.heartbeatEvent(f, host, &ev)
	case TypePong:
		err = pongEvent(f.Payload, host, &ev)
	case TypeNak:
		nak := new(NakMsg)
		err = nak.UnmarshalPayload(f.Payload)
		ev.Kind, ev.Err = board.EventNak, nak
	case TypeDumpSquares, TypeDumpZone, TypeDumpEnd:
		l.dumpFrame(f, host, ev)
		return
	default:
		if !f.Type.FromBoard() {
			l.protoErr(f, host, fmt.Errorf("host message type sent by the board"))
			return
		}
		l.Stats.Unknown++ // a newer minor version's message: ignore it
		return
	}
	if err != nil {
		l.protoErr(f, host, err)
		return
	}
	l.Emit(ev)
}

// inSequence checks frame number seq, read at host, against the one
// expected: equal is the normal case; ahead means frames were lost;
// behind means a duplicate or a reordered frame, unless so many come in
// a row that the board must have restarted unseen. It reports whether
// the frame is to be handled: not a duplicate.
func (l *Link) inSequence(seq uint16, host time.Duration) bool {
	if d := int16(seq - l.expect); d != 0 {
		if d < 0 && l.oldRun < maxOldRun {
			l.oldRun++
			l.Stats.Duplicates++
			return false
		}
		lost := int(d)
		if d < 0 {
			// The board must have restarted and its HELLO was lost:
			// ask who it is now.
			lost = 0
			l.hail()
		}
		l.Stats.Lost += uint64(lost)
		l.gap(lost, seq, host)
	}
	l.oldRun = 0
	l.expect = seq + 1
	return true
}

// squareEvent makes ev the SQUARE message in payload.
func (l *Link) squareEvent(payload []byte, ev *board.Event) error {
	var m SquareMsg
	if err := m.UnmarshalPayload(payload); err != nil {
		return err
	}
	if int(m.Square) >= int(l.hello.Cells) {
		return fmt.Errorf("square %d beyond the board's %d cells", m.Square, l.hello.Cells)
	}
	ev.Kind = board.EventSquare
	ev.Square = rules.Square(m.Square)
	ev.Height = int(m.Height)
	ev.Saturated = m.Saturated
	ev.Top = m.Top
	return nil
}

// zoneEvent makes ev the ZONE message in payload.
func (l *Link) zoneEvent(payload []byte, ev *board.Event) error {
	var m ZoneMsg
	if err := m.UnmarshalPayload(payload); err != nil {
		return err
	}
	if int(m.Zone) >= len(l.hello.Zones) {
		return fmt.Errorf("zone %d beyond the board's %d zones", m.Zone, len(l.hello.Zones))
	}
	ev.Kind = board.EventZone
	ev.Zone = int(m.Zone)
	ev.Count = int(m.Count)
	ev.Saturated = m.Saturated
	ev.ZoneAction = m.Action
	ev.Piece = m.Piece
	return nil
}

// buttonEvent makes ev the BUTTON message in payload, with the presses
// its counter shows were missed.
func (l *Link) buttonEvent(payload []byte, ev *board.Event) error {
	var m ButtonMsg
	if err := m.UnmarshalPayload(payload); err != nil {
		return err
	}
	ev.Kind = board.EventButton
	ev.Button, ev.Side, ev.Pressed, ev.Presses, ev.Value = m.Button, m.Side, m.Pressed, m.Count, m.Value
	if m.Pressed {
		k := buttonKey{m.Button, m.Side}
		if last, ok := l.presses[k]; ok && m.Count != last {
			ev.Missed = int(m.Count - last - 1)
		}
		l.setPresses(k, m.Count)
	}
	return nil
}

// heartbeatEvent makes ev the HEARTBEAT of frame f, read at host, after
// reporting the frames the board says it failed to send.
func (l *Link) heartbeatEvent(f Frame, host time.Duration, ev *board.Event) error {
	var m HeartbeatMsg
	if err := m.UnmarshalPayload(f.Payload); err != nil {
		return err
	}
	// Frames the board failed to send carry no sequence number, so
	// its own loss counter is the only trace of them.
	if l.haveTxLo && m.TxLost != l.txLost {
		l.gap(int(m.TxLost-l.txLost), f.Seq, host)
	}
	l.txLost, l.haveTxLo = m.TxLost, true
	ev.Kind = board.EventHeartbeat
	return nil
}

// pongEvent makes ev the PONG message in payload, read at host, with the
// round trip it measures.
func pongEvent(payload []byte, host time.Duration, ev *board.Event) error {
	var m PongMsg
	if err := m.UnmarshalPayload(payload); err != nil {
		return err
	}
	ev.Kind = board.EventPong
	ev.RTT = time.Duration(uint32(host/time.Millisecond)-m.HostTime) * time.Millisecond
	return nil
}

func (l *Link) setPresses(k buttonKey, n uint8) {
	if l.presses == nil {
		l.presses = make(map[buttonKey]uint8)
	}
	l.presses[k] = n
}

// stamp fills the event's board and host times.
func (l *Link) stamp(ev *board.Event, raw uint32, host time.Duration) {
	if !l.timed {
		l.boardMs = int64(raw)
		l.timed = true
	} else {
		d := int64(int32(raw - l.rawTime))
		if d < 0 {
			// The board clock went back: it restarted unseen. The old
			// mapping no longer holds; the HELLO will tell.
			l.tm.Reset()
			l.hail()
			d = 0
		}
		l.boardMs += d
	}
	l.rawTime = raw
	l.tm.Observe(l.boardMs, host)
	ev.BoardMs = l.boardMs
	at, ok := l.tm.Map(l.boardMs)
	if !ok || at > host {
		// Nothing is received before it happens.
		at = host
	}
	ev.At, ev.Mapped = at, ok
}

func (l *Link) gap(lost int, seq uint16, host time.Duration) {
	l.Emit(board.Event{Kind: board.EventGap, Board: l.board, Port: l.port, Seq: seq, Host: host, At: host, Lost: lost})
	if l.dump != nil {
		l.dumpGap = true
	}
	if !l.dumpPending {
		l.requestDump(host)
	}
}

func (l *Link) handleHello(f Frame, host time.Duration) {
	h := new(Hello)
	if err := h.UnmarshalPayload(f.Payload); err != nil {
		l.protoErr(f, host, err)
		return
	}
	if h.Major != VersionMajor {
		l.board = h.ID
		l.protoErr(f, host, fmt.Errorf("board %s speaks protocol %d.%d, host speaks %d.%d", h.ID, h.Major, h.Minor, VersionMajor, VersionMinor))
		return
	}
	if l.board != "" && h.ID != l.board {
		l.protoErr(f, host, fmt.Errorf("board id changed from %q to %q on one link", l.board, h.ID))
		return
	}
	restarted := l.hello == nil || l.hello.Boot != h.Boot
	if restarted {
		l.timed = false
		l.tm.Reset()
		l.presses = nil
		l.haveTxLo = false
	} else if l.synced {
		// A repeated HELLO on a live link counts in the sequence.
		if d := int16(f.Seq - l.expect); d > 0 {
			l.Stats.Lost += uint64(d)
		}
	}
	l.hello, l.board = h, h.ID
	l.expect = f.Seq + 1
	l.synced = true
	l.oldRun = 0
	l.lastRx = host
	l.Stats.Frames++
	ev := board.Event{Kind: board.EventHello, Board: l.board, Port: l.port, Seq: f.Seq, Host: host, Info: h.Info(), Restarted: restarted}
	l.stamp(&ev, f.Time, host)
	l.Emit(ev)
	l.setHealth(board.Active, host)
	// Whatever happened while the link was down, the dump tells.
	l.requestDump(host)
}

// dumpPart is one of the three message types of a dump.
type dumpPart interface {
	Message
	dumpToken() uint16
}

func (m *DumpSquaresMsg) dumpToken() uint16 { return m.Token }
func (m *DumpZoneMsg) dumpToken() uint16    { return m.Token }
func (m *DumpEndMsg) dumpToken() uint16     { return m.Token }

// dumpFrame handles frame f, a part of a dump, read at host; ev is the
// event its frame makes.
func (l *Link) dumpFrame(f Frame, host time.Duration, ev board.Event) {
	var part dumpPart
	switch f.Type {
	case TypeDumpSquares:
		part = new(DumpSquaresMsg)
	case TypeDumpZone:
		part = new(DumpZoneMsg)
	default:
		part = new(DumpEndMsg)
	}
	if err := part.UnmarshalPayload(f.Payload); err != nil {
		l.protoErr(f, host, err)
		return
	}
	if !l.dumpPending || part.dumpToken() != l.token {
		return // an answer to an older request
	}
	l.startDump()
	switch m := part.(type) {
	case *DumpSquaresMsg:
		l.dumpSquares(m, f, host)
	case *DumpZoneMsg:
		l.dumpZone(m, f, host)
	case *DumpEndMsg:
		l.dumpEnd(m, host, ev)
	}
}

// dumpSquares takes the squares of a dump's part m, of frame f.
func (l *Link) dumpSquares(m *DumpSquaresMsg, f Frame, host time.Duration) {
	for i, s := range m.Squares {
		sq := int(m.First) + i
		if sq >= len(l.dump.Squares) {
			l.protoErr(f, host, fmt.Errorf("dump square %d beyond the board's %d cells", sq, len(l.dump.Squares)))
			l.dumpGap = true
			return
		}
		l.dump.Squares[sq] = s
		l.dumpGot[sq] = true
	}
}

// dumpZone takes the zone of a dump's part m, of frame f.
func (l *Link) dumpZone(m *DumpZoneMsg, f Frame, host time.Duration) {
	if int(m.Zone) >= len(l.dump.Zones) {
		l.protoErr(f, host, fmt.Errorf("dump zone %d beyond the board's %d zones", m.Zone, len(l.dump.Zones)))
		l.dumpGap = true
		return
	}
	z := board.ZoneState{Count: int(m.Count), Saturated: m.Saturated}
	if len(m.Pieces) > 0 {
		z.Pieces = append([]rules.Piece(nil), m.Pieces...)
	}
	l.dump.Zones[m.Zone] = z
	l.dumpZones[m.Zone] = true
}

// dumpEnd ends the dump: it delivers the snapshot as ev, after the
// presses its counters show were missed, or asks for the dump again if a
// part of it is missing.
func (l *Link) dumpEnd(m *DumpEndMsg, host time.Duration, ev board.Event) {
	if !l.dumpComplete(m) {
		l.requestDump(host)
		return
	}
	snap := l.dump
	snap.Token = m.Token
	snap.Buttons = append([]board.ButtonState(nil), m.Buttons...)
	l.dump = nil
	l.dumpPending = false
	l.Stats.Dumps++
	ev.Kind = board.EventSnapshot
	ev.Snapshot = snap
	l.missedPresses(snap.Buttons, ev)
	l.Emit(ev)
}

// dumpComplete reports whether every square and zone of the dump that m
// ends arrived.
func (l *Link) dumpComplete(m *DumpEndMsg) bool {
	complete := !l.dumpGap && int(m.Squares) == len(l.dump.Squares) && int(m.Zones) == len(l.dump.Zones)
	for _, ok := range l.dumpGot {
		complete = complete && ok
	}
	for _, ok := range l.dumpZones {
		complete = complete && ok
	}
	return complete
}

// missedPresses reports the presses the counters of buttons show but no
// frame reported: they were lost, and are reported now, stamped with the
// snapshot's time (ev's).
func (l *Link) missedPresses(buttons []board.ButtonState, ev board.Event) {
	for _, b := range buttons {
		k := buttonKey{b.Button, b.Side}
		last, ok := l.presses[k]
		l.setPresses(k, b.Count)
		if !ok || last == b.Count {
			continue
		}
		be := ev
		be.Kind = board.EventButton
		be.Snapshot = nil
		be.Button, be.Side, be.Pressed, be.Presses = b.Button, b.Side, true, b.Count
		be.Missed = int(b.Count - last - 1)
		be.Recovered = true
		l.Emit(be)
	}
}

func (l *Link) startDump() {
	if l.dump != nil {
		return
	}
	l.dump = &board.Snapshot{
		Squares: make([]board.SquareState, l.hello.Cells),
		Zones:   make([]board.ZoneState, len(l.hello.Zones)),
	}
	l.dumpGot = make([]bool, l.hello.Cells)
	l.dumpZones = make([]bool, len(l.hello.Zones))
	l.dumpGap = false
}
