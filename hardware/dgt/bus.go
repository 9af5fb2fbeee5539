package dgt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// BusConfig tunes a [Bus]. Zero fields take the defaults.
type BusConfig struct {
	// Timeout is how long a command waits for its reply (default 80 ms,
	// the header's advice: boards answer within 20 ms).
	Timeout time.Duration
	// Tries is how often a command is sent before the board counts as
	// silent (default 3).
	Tries int
	// PingWindow is how long a ping to every board (address 0) collects
	// answers (default 1200 ms: boards answer at random within 1100 ms).
	PingWindow time.Duration
	// Now returns the host's monotonic time, which stamps the raw log's
	// records and the outcome of every request (default: since NewBus).
	Now func() time.Duration
	// Raw, if set, receives the bus conversation as the host saw it, by
	// board address ([BusReplayer] reads it again): every command written
	// to a board (just before the write, sent true), every reply the host
	// took for a request to it (the message's bytes as read, a reply that
	// failed its checksum included), and the answers to a ping to every
	// board under each answering address. It is called from the goroutine
	// of the request, must be quick, and data is valid only during the
	// call.
	Raw func(addr uint16, host time.Duration, sent bool, data []byte)
}

// ErrNoReply is returned when a board did not answer a command after
// every try.
var ErrNoReply = errors.New("dgt: no reply from the board")

// ErrLineClosed is returned when the line itself failed: its port could
// not be written to, or its reads ended (an unplug). The line must be
// opened again.
var ErrLineClosed = errors.New("dgt: bus line closed")

// ErrChecksum is returned when every reply to a command failed its
// checksum.
var ErrChecksum = errors.New("dgt: every reply failed its checksum")

type busIn struct {
	m   Message
	err error
	raw []byte // the message's bytes as read
}

// Bus is the host side of a line of DGT boards in bus mode. Commands go
// one at a time, each waiting for its reply from the addressed board; a
// reply with a bad checksum is asked for again (DGT_BUS_REPEAT_CHANGES for
// changes, which would otherwise be lost). Its methods are safe for
// concurrent use. Close the line to stop it.
type Bus struct {
	w   io.Writer
	cfg BusConfig

	mu sync.Mutex // one command at a time
	in chan busIn
}

// NewBus starts reading rw in bus mode; it puts every board on the line in
// bus mode (DGT_TO_BUSMODE is a single-board command, so boards left in
// single-board mode obey it).
func NewBus(rw io.ReadWriter, cfg BusConfig) (*Bus, error) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 80 * time.Millisecond
	}
	if cfg.Tries <= 0 {
		cfg.Tries = 3
	}
	if cfg.PingWindow <= 0 {
		cfg.PingWindow = 1200 * time.Millisecond
	}
	if cfg.Now == nil {
		epoch := time.Now()
		cfg.Now = func() time.Duration { return time.Since(epoch) }
	}
	b := &Bus{w: rw, cfg: cfg, in: make(chan busIn, 64)}
	go b.read(rw)
	if _, err := rw.Write([]byte{CmdToBusMode}); err != nil {
		return nil, fmt.Errorf("dgt: bus: %w", err)
	}
	return b, nil
}

func (b *Bus) read(r io.Reader) {
	dec := Decoder{Bus: true}
	var pending []byte
	buf := make([]byte, 512)
	for {
		n, err := r.Read(buf)
		pending = append(pending, buf[:n]...)
		for len(pending) > 0 {
			k, m, derr := dec.Decode(pending)
			if errors.Is(derr, ErrIncomplete) {
				break
			}
			if derr == nil {
				m.Payload = append([]byte(nil), m.Payload...)
			}
			b.in <- busIn{m, derr, append([]byte(nil), pending[:k]...)}
			pending = pending[k:]
		}
		if err != nil {
			close(b.in)
			return
		}
	}
}

var replyTo = map[byte]byte{
	BusSendClock: MsgBusBWTime, BusSendBoard: MsgBusBoardDump, BusSendChanges: MsgBusUpdate,
	BusRepeatChanges: MsgBusUpdate, BusSetStartGame: MsgBusStartWritten, BusSendFromStart: MsgBusFromStart,
	BusPing: MsgBusPing, BusIgnoreNextPing: MsgBusPing, BusSendVersion: MsgBusVersion,
}

// Request sends bus command cmd to the board at addr and returns its
// reply. A reply with a bad checksum or none at all makes it ask again, up
// to Tries times; for DGT_BUS_SEND_CHANGES it asks with
// DGT_BUS_REPEAT_CHANGES so the board's changes are not lost.
func (b *Bus) Request(ctx context.Context, cmd byte, addr uint16) (Message, error) {
	m, _, err := b.exchange(ctx, cmd, addr)
	return m, err
}

// exchange is [Bus.Request], with the instant of its outcome: when the
// reply (or the last one that failed its checksum) was taken, or for a
// board that stayed silent the last command's instant plus Timeout, an
// instant a replay of the raw log finds again.
func (b *Bus) exchange(ctx context.Context, cmd byte, addr uint16) (Message, time.Duration, error) {
	want, ok := replyTo[cmd]
	if !ok || addr == 0 {
		return Message{}, b.cfg.Now(), fmt.Errorf("dgt: bus command 0x%02x to board %d has no single reply", cmd, addr)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.drain()
	send := cmd
	var last error = ErrNoReply
	var at time.Duration
	for range b.cfg.Tries {
		p := BusCommand(send, addr)
		sent := b.cfg.Now()
		b.raw(addr, sent, true, p)
		if _, err := b.w.Write(p); err != nil {
			return Message{}, sent, fmt.Errorf("dgt: bus write to board %d: %w: %w", addr, ErrLineClosed, err)
		}
		m, took, err := b.await(ctx, want, addr, sent+b.cfg.Timeout)
		if err == nil {
			return m, took, nil
		}
		if ctx.Err() != nil {
			return Message{}, took, ctx.Err()
		}
		last, at = err, took
		if errors.Is(err, ErrNoReply) {
			at = sent + b.cfg.Timeout
		}
		if cmd == BusSendChanges {
			send = BusRepeatChanges
		}
	}
	return Message{}, at, fmt.Errorf("dgt: bus command 0x%02x to board %d, %d tries: %w", cmd, addr, b.cfg.Tries, last)
}

func (b *Bus) raw(addr uint16, host time.Duration, sent bool, data []byte) {
	if b.cfg.Raw != nil {
		b.cfg.Raw(addr, host, sent, data)
	}
}

// drain drops replies nobody waits for any more (late answers).
func (b *Bus) drain() {
	for {
		select {
		case _, ok := <-b.in:
			if !ok {
				return // the line is closed; await says so
			}
		default:
			return
		}
	}
}

// await waits for the reply to a request to addr until the host instant
// deadline (by Now, the raw log's clock); it logs the reply it takes,
// good or failing its checksum, and returns the instant it took it. A
// reply taken at or after the deadline (a loaded host may run late) is
// a late answer, dropped unlogged, as a replay of the log, which fails
// the request at its deadline, has it.
func (b *Bus) await(ctx context.Context, want byte, addr uint16, deadline time.Duration) (Message, time.Duration, error) {
	t := time.NewTimer(deadline - b.cfg.Now())
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return Message{}, b.cfg.Now(), ctx.Err()
		case <-t.C:
			return Message{}, b.cfg.Now(), ErrNoReply
		case r, ok := <-b.in:
			if !ok {
				return Message{}, b.cfg.Now(), fmt.Errorf("%w: %w", ErrLineClosed, io.EOF)
			}
			var de *DecodeError
			mine := r.err == nil && r.m.ID == want && r.m.Addr == addr
			bad := errors.As(r.err, &de) && de.Checksum && de.Addr == addr
			if !mine && !bad {
				continue // another board's late answer, or noise: keep waiting
			}
			took := b.cfg.Now()
			if took >= deadline {
				return Message{}, took, ErrNoReply
			}
			b.raw(addr, took, false, r.raw)
			if bad {
				return Message{}, took, ErrChecksum
			}
			return r.m, took, nil
		}
	}
}

// Ping checks that the board at addr answers.
func (b *Bus) Ping(ctx context.Context, addr uint16) error {
	_, err := b.Request(ctx, BusPing, addr)
	return err
}

// Version reads the firmware version of the board at addr.
func (b *Bus) Version(ctx context.Context, addr uint16) (Version, error) {
	m, err := b.Request(ctx, BusSendVersion, addr)
	if err != nil {
		return Version{}, err
	}
	if len(m.Payload) < 2 {
		return Version{}, parseErr(m, "version of %d bytes, want 2", len(m.Payload))
	}
	return Version{Major: m.Payload[0], Minor: m.Payload[1]}, nil
}

// Discover finds the boards on the line as the header advises: the known
// addresses are pinged one by one; then, until a round finds nothing new,
// every found board is told to ignore the next general ping and a ping to
// address 0 collects the others' answers.
func (b *Bus) Discover(ctx context.Context, known []uint16) ([]uint16, error) {
	found := map[uint16]bool{}
	var list []uint16
	add := func(a uint16) {
		if !found[a] {
			found[a] = true
			list = append(list, a)
		}
	}
	for _, a := range known {
		if err := b.Ping(ctx, a); err == nil {
			add(a)
		} else if ctx.Err() != nil {
			return list, ctx.Err()
		}
	}
	for {
		for _, a := range list {
			if _, err := b.Request(ctx, BusIgnoreNextPing, a); err != nil && ctx.Err() != nil {
				return list, ctx.Err()
			}
		}
		n := len(list)
		if err := b.generalPing(ctx, add); err != nil {
			return list, fmt.Errorf("dgt: bus ping: %w: %w", ErrLineClosed, err)
		}
		if ctx.Err() != nil {
			return list, ctx.Err()
		}
		if len(list) == n {
			return list, nil
		}
	}
}

// generalPing pings address 0 and gives add the address of every board
// that answers within the ping window. It fails if the ping cannot be
// written.
func (b *Bus) generalPing(ctx context.Context, add func(addr uint16)) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.drain()
	if _, err := b.w.Write(BusCommand(BusPing, 0)); err != nil {
		return err
	}
	deadline := time.NewTimer(b.cfg.PingWindow)
	defer deadline.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-deadline.C:
			return nil
		case r, ok := <-b.in:
			if !ok {
				return nil
			}
			if r.err == nil && r.m.ID == MsgBusPing && r.m.Addr != 0 {
				b.raw(r.m.Addr, b.cfg.Now(), false, r.raw)
				add(r.m.Addr)
			}
		}
	}
}
