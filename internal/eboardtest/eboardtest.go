// Package eboardtest plays chess on an emulated e-board through the
// daemon's reading path, in virtual time and without goroutines, for the
// tests of the e-board protocols (hardware/millennium, hardware/certabo):
// the board's firmware answers the host's session and reports what a
// person's hands do; its bytes go through the protocol's session, exactly
// as its driver runs it live, into an arbiter session set up as a table
// sets one up for a game on a sensor board (replay.Reader). Every random
// draw comes from a seed, so a failing game can be played again.
package eboardtest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/hardware/eboard"
	"arbiter/hardware/eboard/emu"
	"arbiter/replay"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// Board is an emulated e-board: its firmware, and its squares as a
// person's hands meet them.
type Board interface {
	emu.Firmware
	emu.Hands
	// SetUp puts a position on the board at once, as between two games.
	SetUp(v rules.View)
}

// Config describes a table.
type Config struct {
	// Protocol names the protocol whose registered replayer reads the
	// board: an *eboard.Replayer, whose session's writes the table sends
	// to the board.
	Protocol string
	Board    Board
	// Setting is the driver's replay setting (nil: its defaults).
	Setting []byte
	// Latency is how long bytes take on the line (default 1 ms).
	Latency time.Duration
	// Clock is the table's virtual clock, the board's too (nil: a new
	// one).
	Clock *Clock
}

// Clock is a virtual clock: the table moves it, the board reads it.
type Clock struct{ now time.Duration }

// Now returns the clock's instant.
func (c *Clock) Now() time.Duration { return c.now }

type chunk struct {
	at time.Duration
	b  []byte
}

// Table is an emulated board on a table: a person's hands, the firmware,
// and the host reading it, on one virtual clock.
type Table struct {
	cfg      Config
	clock    *Clock
	rd       *replay.Reader
	rep      *eboard.Replayer
	inbox    []chunk
	nextScan time.Duration
	plugged  bool
	seq      uint64

	// What the session decided, in order.
	Moves      []arbiter.MoveMade
	Amended    []arbiter.MoveAmended
	Alerts     []arbiter.Alert
	Recoveries []arbiter.Recovery
	Prompts    []arbiter.Prompt
	Started    bool
	Over       *arbiter.GameOver
	// Events counts the board events the host delivered, by kind.
	Events map[board.EventKind]int
	// Bytes counts the bytes the board sent.
	Bytes int
}

// New plugs the board in and starts the host's session on it.
func New(cfg Config) (*Table, error) {
	if cfg.Latency <= 0 {
		cfg.Latency = time.Millisecond
	}
	if cfg.Clock == nil {
		cfg.Clock = &Clock{}
	}
	rd, err := replay.NewReaderWithSetting(cfg.Protocol, "virtual", 0, cfg.Setting)
	if err != nil {
		return nil, err
	}
	rep, ok := rd.Replayer().(*eboard.Replayer)
	if !ok {
		return nil, fmt.Errorf("eboardtest: protocol %s is read by a %T, not an e-board session", cfg.Protocol, rd.Replayer())
	}
	t := &Table{cfg: cfg, clock: cfg.Clock, rd: rd, rep: rep, plugged: true, Events: map[board.EventKind]int{}}
	rep.SendTo(func(p []byte) {
		if t.plugged {
			cfg.Board.HandleHost(bytes.Clone(p))
		}
	})
	rd.Output = t.output
	rd.Event = func(e board.Event) { t.Events[e.Kind]++ }
	cfg.Board.SetOutput(t.capture)
	t.nextScan = cfg.Board.ScanPeriod()
	rd.Connect("virtual", t.clock.now)
	return t, nil
}

// Replayer returns the host's session runner.
func (t *Table) Replayer() *eboard.Replayer { return t.rep }

func (t *Table) capture(p []byte) {
	t.Bytes += len(p)
	t.inbox = append(t.inbox, chunk{at: t.clock.now + t.cfg.Latency, b: bytes.Clone(p)})
}

func (t *Table) output(o arbiter.Output) {
	switch o := o.(type) {
	case arbiter.MoveMade:
		t.Moves = append(t.Moves, o)
		// The table acknowledges the move on the board (its LEDs).
		_ = t.rep.Show(&board.AckMove{Ply: uint16(o.Ply), From: o.Move.From(), To: o.Move.To(), Text: o.Notation}, t.clock.now)
	case arbiter.MoveAmended:
		t.Amended = append(t.Amended, o)
	case arbiter.Alert:
		t.Alerts = append(t.Alerts, o)
	case arbiter.Recovery:
		if !o.Done {
			t.Recoveries = append(t.Recoveries, o)
		}
	case arbiter.Prompt:
		t.Prompts = append(t.Prompts, o)
	case arbiter.Started:
		t.Started = true
	case arbiter.GameOver:
		t.Over = &o
	}
}

// Wait lets d pass: the board scans and reports, the host reads and acts
// on its timers, in time order.
func (t *Table) Wait(d time.Duration) { t.until(t.clock.now + d) }

func (t *Table) until(end time.Duration) {
	for {
		next := end
		if len(t.inbox) > 0 && t.inbox[0].at < next {
			next = t.inbox[0].at
		}
		if t.plugged && t.nextScan < next {
			next = t.nextScan
		}
		t.clock.now = next
		t.rd.Advance(next)
		did := false
		for len(t.inbox) > 0 && t.inbox[0].at <= next {
			c := t.inbox[0]
			t.inbox = t.inbox[1:]
			t.seq++
			t.rd.Feed(c.b, c.at, t.seq)
			did = true
		}
		if t.plugged && t.nextScan <= next {
			t.cfg.Board.Scan()
			t.nextScan = next + t.cfg.Board.ScanPeriod()
			did = true
		}
		if next >= end && !did {
			return
		}
	}
}

// Unplug pulls the board's cable (a board knocked off it): the host sees
// its port fail, and the board loses its power.
func (t *Table) Unplug() {
	t.plugged = false
	t.inbox = nil
	t.cfg.Board.SetOutput(nil)
	t.rd.Disconnect(t.clock.now)
}

// Replug plugs it in again: the board powers up, the host opens the port.
func (t *Table) Replug() {
	t.cfg.Board.Restart()
	t.cfg.Board.SetOutput(t.capture)
	t.plugged = true
	t.nextScan = t.clock.now + t.cfg.Board.ScanPeriod()
	t.rd.Connect("virtual", t.clock.now)
}

// Start begins a chess game on the table as the director does for a board
// of the announced capabilities: it waits for the set-up, judges settling
// by what the board reported, and asks the board for its whole state.
func (t *Table) Start() error {
	info := t.rd.Info()
	if info == nil {
		return fmt.Errorf("eboardtest: the board has not told who it is after %v", t.clock.now)
	}
	g, err := chess.New(nil)
	if err != nil {
		return err
	}
	cfg, err := arbiter.BoardConfig(g, "", "")
	if err != nil {
		return err
	}
	cfg.Caps = arbiter.CapsOf(info.Caps)
	s, err := arbiter.NewSession(cfg, g, g.Start(), nil)
	if err != nil {
		return err
	}
	t.rd.Attach(s, t.clock.now)
	return nil
}

// Player returns a person at the board whose pauses are the table's
// time.
func (t *Table) Player(rng *rand.Rand) *emu.Player {
	return &emu.Player{Board: t.cfg.Board, Rng: rng, Sleep: t.Wait, Carry: true}
}

// Game is a random legal chess game: its positions, the start first, and
// its moves in SAN.
type Game struct {
	Positions []rules.Position
	SAN       []string
}

// RandomGame plays a random legal chess game of up to plies plies that
// prefers, now and then, what is hard to read: castling, promotion, en
// passant and captures.
func RandomGame(rng *rand.Rand, plies int) Game {
	var p rules.Position = chess.Start()
	g := Game{Positions: []rules.Position{p}}
	var history []rules.Position
	for range plies {
		if p.Outcome(history).Over() {
			break
		}
		legal := p.Legal()
		m := legal[rng.IntN(len(legal))]
		for _, c := range legal {
			if hard(p, c) && rng.IntN(3) == 0 {
				m = c
			}
		}
		next, err := p.Play(m)
		if err != nil {
			panic(fmt.Sprintf("eboardtest: a legal move %s does not play: %v", m, err))
		}
		g.SAN = append(g.SAN, p.FormatMove(m))
		history = append(history, p)
		p = next
		g.Positions = append(g.Positions, p)
	}
	return g
}

// hard reports whether a move is one a reader may misread: castling, a
// promotion, en passant, a capture.
func hard(p rules.Position, m rules.Move) bool {
	s := p.FormatMove(m)
	for i := range len(s) {
		if s[i] == 'x' || s[i] == '=' || s[i] == 'O' {
			return true
		}
	}
	return false
}

// Human is how a person at the board plays in a test.
type Human struct {
	// Step is the longest pause between two actions of a move; Slide,
	// PushOff and LiftBack are emu.Player's.
	Step                     time.Duration
	Slide, PushOff, LiftBack float64
	// Think is the shortest and the longest time before a move.
	Think [2]time.Duration
	// Unplug is the chance, per move, that the board is knocked off its
	// cable while the player thinks (after the last move was read) and
	// plugged in again after the move.
	Unplug float64
}

// Play plays the moves of g on the table as h does, from the position the
// table's game started in, and returns how often the board was knocked
// off its cable.
func (t *Table) Play(g Game, h Human, rng *rand.Rand) (unplugs int) {
	pl := t.Player(rng)
	pl.Step, pl.Slide, pl.PushOff, pl.LiftBack = h.Step, h.Slide, h.PushOff, h.LiftBack
	for i := range g.SAN {
		think := h.Think[0]
		if h.Think[1] > h.Think[0] {
			think += time.Duration(rng.Int64N(int64(h.Think[1] - h.Think[0])))
		}
		t.Wait(think)
		off := rng.Float64() < h.Unplug
		if off {
			// Knocked off while a player thinks, after the last move was
			// read: a board with no log of its own shows one move made
			// meanwhile, not two.
			for w := 0; len(t.Moves) < i && w < 20; w++ {
				t.Wait(250 * time.Millisecond)
			}
			unplugs++
			t.Unplug()
			t.Wait(200 * time.Millisecond)
		}
		pl.Move(g.Positions[i].View(), g.Positions[i+1].View())
		if off {
			t.Wait(300 * time.Millisecond)
			t.Replug()
			t.Wait(time.Second) // the cable is put back: the players look
		}
	}
	return unplugs
}

// Check returns what the table read wrong of g: a move other than the
// game's, an alert other than of the board off its cable, a recovery, a
// question or an amended move.
func (t *Table) Check(g Game) error {
	var read []string
	for _, m := range t.Moves {
		read = append(read, m.Notation)
	}
	var errs []error
	if !slices.Equal(read, g.SAN) {
		errs = append(errs, fmt.Errorf("read %d moves %v, the game's %d are %v", len(read), read, len(g.SAN), g.SAN))
	}
	for _, a := range t.Alerts {
		if a.Kind != arbiter.LinkAlert {
			errs = append(errs, fmt.Errorf("a false alert: %s", a.Message))
		}
	}
	for _, r := range t.Recoveries {
		errs = append(errs, fmt.Errorf("a recovery: %s", r))
	}
	for _, p := range t.Prompts {
		errs = append(errs, fmt.Errorf("a question: %v", p))
	}
	for _, a := range t.Amended {
		errs = append(errs, fmt.Errorf("an amended move: %v", a))
	}
	return errors.Join(errs...)
}

// KeepGoing returns the position after a random legal move after which
// the game goes on, or nil when there is none.
func KeepGoing(p rules.Position, rng *rand.Rand) rules.Position {
	moves := p.Legal()
	for _, k := range rng.Perm(len(moves)) {
		if n, err := p.Play(moves[k]); err == nil && !n.Outcome(nil).Over() {
			return n
		}
	}
	return nil
}
