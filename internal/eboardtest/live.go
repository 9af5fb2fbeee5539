package eboardtest

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/hardware/eboard/emu"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// Live is an arbiter session fed by a live driver, as a table runs one:
// give Handle to the driver as its handler. It keeps the instant at which
// each move was committed.
type Live struct {
	mu        sync.Mutex
	info      *board.Info
	sess      *arbiter.Session
	committed []time.Time
	alerts    []arbiter.Alert
	started   bool
	changed   chan struct{}
}

// NewLive returns a session waiting for a board's hello.
func NewLive() *Live { return &Live{changed: make(chan struct{}, 1)} }

// Handle takes one event of the driver.
func (l *Live) Handle(e board.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e.Kind == board.EventHello {
		l.info = e.Info
	}
	ev, ok := arbiter.FromSensor(e)
	if !ok || l.sess == nil {
		return
	}
	l.take(l.sess.Handle(ev))
}

func (l *Live) take(outs []arbiter.Output) {
	for _, o := range outs {
		switch o := o.(type) {
		case arbiter.MoveMade:
			l.committed = append(l.committed, time.Now())
		case arbiter.Alert:
			l.alerts = append(l.alerts, o)
		case arbiter.Started:
			l.started = true
		}
	}
	select {
	case l.changed <- struct{}{}:
	default:
	}
}

// Start begins a chess game as a table does, once the board has greeted
// the driver: resync asks the driver for the whole board.
func (l *Live) Start(resync func(id string) error, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		l.mu.Lock()
		info := l.info
		l.mu.Unlock()
		if info != nil {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("eboardtest: no hello within %v", timeout)
		}
		time.Sleep(5 * time.Millisecond)
	}
	g, err := chess.New(nil)
	if err != nil {
		return err
	}
	cfg, err := arbiter.BoardConfig(g, "", "")
	if err != nil {
		return err
	}
	l.mu.Lock()
	cfg.Caps = arbiter.CapsOf(l.info.Caps)
	s, err := arbiter.NewSession(cfg, g, g.Start(), nil)
	if err != nil {
		l.mu.Unlock()
		return err
	}
	l.sess = s
	l.take(s.Start(0))
	id := l.info.ID
	l.mu.Unlock()
	if err := resync(id); err != nil {
		return err
	}
	return l.wait(func() bool { return l.started }, time.Until(deadline)+5*time.Second, "the set-up seen")
}

// Settle returns the settle time of a chess game's session: how long a
// board with no clock to press must stay unchanged before a move on it is
// committed.
func Settle() time.Duration {
	g, _ := chess.New(nil)
	return arbiter.DefaultConfig(g).Settle
}

// Committed waits for the ply-th move (from 1) and returns the instant it
// was committed.
func (l *Live) Committed(ply int, timeout time.Duration) (time.Time, error) {
	if err := l.wait(func() bool { return len(l.committed) >= ply }, timeout, fmt.Sprintf("ply %d committed", ply)); err != nil {
		return time.Time{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.committed[ply-1], nil
}

// Alerts returns the alerts raised so far.
func (l *Live) Alerts() []arbiter.Alert {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]arbiter.Alert(nil), l.alerts...)
}

func (l *Live) wait(done func() bool, timeout time.Duration, what string) error {
	deadline := time.After(timeout)
	for {
		l.mu.Lock()
		ok := done()
		l.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-l.changed:
		case <-deadline:
			return fmt.Errorf("eboardtest: %s: not within %v", what, timeout)
		}
	}
}

// ReportClock times the first report a board sends after a move: give
// Reported to the emulator as its report hook.
type ReportClock struct {
	mu    sync.Mutex
	armed bool
	at    time.Time
}

// Reported is the emulator's hook: it is called as a report goes out.
func (c *ReportClock) Reported() {
	c.mu.Lock()
	if c.armed && c.at.IsZero() {
		c.at = time.Now()
	}
	c.mu.Unlock()
}

// Arm makes the next report the one timed (on), or none (off: the move
// is being made).
func (c *ReportClock) Arm(on bool) {
	c.mu.Lock()
	c.armed, c.at = on, time.Time{}
	c.mu.Unlock()
}

// First returns when the first report since Arm(true) went out (zero:
// none yet).
func (c *ReportClock) First() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at
}

// TimeMoves plays n random legal moves from pos with pl, each one once
// the one before is committed, and returns how long each took from the
// board's first report after the move was made to its commit, and that
// less the session's settle time (over-settle).
func (l *Live) TimeMoves(clock *ReportClock, pl *emu.Player, pos rules.Position, n int, rng *rand.Rand, timeout time.Duration) (lat, over []time.Duration, err error) {
	settle := Settle()
	for i := range n {
		next := KeepGoing(pos, rng)
		if next == nil {
			return lat, over, fmt.Errorf("eboardtest: no move keeps the game going in %s", pos)
		}
		clock.Arm(false)
		pl.Move(pos.View(), next.View())
		clock.Arm(true)
		at, err := l.Committed(i+1, timeout)
		if err != nil {
			return lat, over, err
		}
		d := at.Sub(clock.First())
		lat, over = append(lat, d), append(over, d-settle)
		pos = next
	}
	if a := l.Alerts(); len(a) > 0 {
		return lat, over, fmt.Errorf("eboardtest: alerts %v", a)
	}
	return lat, over, nil
}
