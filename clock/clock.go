package clock

import (
	"fmt"
	"time"
)

// Status is the state of the whole clock.
type Status uint8

// The clock statuses.
const (
	NotStarted Status = iota
	Running
	// Paused: held by the arbiter, by a silent link, or after a restart.
	// Presses stamped before the hold instant are still accepted.
	Paused
	// Flagged: a final flag froze both clocks.
	Flagged
	// Stopped: the game ended otherwise (result, resignation).
	Stopped
)

var statusNames = [...]string{"not-started", "running", "paused", "flagged", "stopped"}

// String names the status.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Phase is which kind of time a side is spending.
type Phase uint8

// The phases.
const (
	Main      Phase = iota // main time
	InDelay                // the delay window before main time (US and Bronstein delay)
	InByoyomi              // a byoyomi period
	InUnit                 // an NHK-style thinking unit
	InBlock                // a Canadian overtime block
	Expired                // the flag fell (claim-only mode: play goes on)
	Counting               // upcount: no limit
)

var phaseNames = [...]string{"main", "delay", "byoyomi", "unit", "block", "expired", "upcount"}

// String names the phase.
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// HoldReason says why a clock is paused.
type HoldReason uint8

// The reasons for a hold.
const (
	NoHold HoldReason = iota
	ArbiterHold
	LinkHold    // the board was silent past a flag instant
	RestartHold // the daemon restarted (see Rebase)
)

// FlagPolicy is who calls flags.
type FlagPolicy uint8

// The flag policies.
const (
	// AutoFlag: the daemon is the observing arbiter; a confirmed flag is
	// final and freezes both clocks.
	AutoFlag FlagPolicy = iota
	// ClaimOnly: FIDE A.4 without adequate supervision; a fallen flag is
	// recorded and play goes on until the opponent claims.
	ClaimOnly
)

// String returns "auto" or "claim-only", the config spelling.
func (f FlagPolicy) String() string {
	switch f {
	case AutoFlag:
		return "auto"
	case ClaimOnly:
		return "claim-only"
	}
	return fmt.Sprintf("FlagPolicy(%d)", uint8(f))
}

// UnmarshalText reads "auto" or "claim-only".
func (f *FlagPolicy) UnmarshalText(text []byte) error {
	switch string(text) {
	case "auto":
		*f = AutoFlag
	case "claim-only":
		*f = ClaimOnly
	default:
		return fmt.Errorf("flag policy %q: want auto or claim-only", text)
	}
	return nil
}

// MarshalText writes the config spelling.
func (f FlagPolicy) MarshalText() ([]byte, error) {
	if f > ClaimOnly {
		return nil, fmt.Errorf("marshal flag policy %d: unknown", uint8(f))
	}
	return []byte(f.String()), nil
}

// DefaultGrace is how long past a flag instant a silent link is tolerated
// before the clock is held.
const DefaultGrace = 500 * time.Millisecond

// Options are the event's clock policies.
type Options struct {
	Flags FlagPolicy
	// Grace is the silence tolerated past a flag instant; 0 means
	// DefaultGrace.
	Grace time.Duration
	// Adjudicator decides what a flag means; nil means a flag loses
	// (shogi, draughts).
	Adjudicator Adjudicator
	// NoLink says no board confirms the timeline (a manual or console
	// game): Advance then commits deadlines at host time.
	NoLink bool
}

// Clock is the game clock of one board. It is not safe for concurrent
// use: its owner (an arbiter.Session, which one goroutine runs) calls it.
type Clock struct {
	ctl    Control
	opt    Options
	m      machine
	events []Event
}

// New returns a clock for ctl that has not started.
func New(ctl Control, opt Options) (*Clock, error) {
	if err := ctl.Validate(); err != nil {
		return nil, fmt.Errorf("new clock: %w", err)
	}
	if opt.Grace == 0 {
		opt.Grace = DefaultGrace
	}
	if opt.Grace < 0 || opt.Flags > ClaimOnly {
		return nil, fmt.Errorf("new clock: bad options (grace %v, flags %d)", opt.Grace, opt.Flags)
	}
	c := &Clock{ctl: ctl, opt: opt}
	c.m = machine{ctl: &c.ctl, opt: &c.opt, out: &c.events}
	for i := range c.m.p {
		c.m.p[i] = initialPlayer(&c.ctl)
	}
	return c, nil
}

func initialPlayer(ctl *Control) SideState {
	p := SideState{ByoLeft: ctl.Overtime.Periods, UnitsLeft: ctl.Overtime.Units}
	if ctl.Kind != Upcount {
		p.Main = ctl.Stages[0].Base
	}
	return p
}

// Control returns the clock's time control.
func (c *Clock) Control() Control { return c.ctl }

// Status returns the clock's status.
func (c *Clock) Status() Status { return c.m.status }

// Hold returns why the clock is paused, and the instant it froze.
func (c *Clock) Hold() (HoldReason, time.Duration) { return c.m.hold, c.m.holdAt }

// Running returns the side whose turn it is, and false before Start.
func (c *Clock) Running() (Side, bool) { return c.m.running, c.m.status != NotStarted }

// Result returns the final flag: the flagged side, the instant and the
// verdict; ok is false unless the status is Flagged.
func (c *Clock) Result() (side Side, at time.Duration, v Verdict, ok bool) {
	if c.m.status != Flagged {
		return 0, 0, NoVerdict, false
	}
	return c.m.flagSide, c.m.flagAt, c.m.verdict, true
}

// Events appends the events queued since the last call to dst and clears
// the queue. Reusing dst keeps it allocation-free.
func (c *Clock) Events(dst []Event) []Event {
	dst = append(dst, c.events...)
	c.events = c.events[:0]
	return dst
}

// Start starts the first mover's clock at instant at. With a Fischer first
// stage both sides are credited the increment for their first move.
func (c *Clock) Start(at time.Duration) error {
	m := &c.m
	if m.status != NotStarted {
		return ErrStarted
	}
	if c.ctl.Kind == Standard {
		if st := c.ctl.Stages[0]; st.Method == Fischer {
			m.p[First].Main += st.Bonus
			m.p[Second].Main += st.Bonus
		}
	}
	m.status = Running
	m.known = max(m.known, at)
	m.beginTurn(First, at)
	m.advance(at)
	return nil
}

// Press is the side's clock button at instant at (the board's timestamp
// mapped to host time). A press is also proof that the board has delivered
// everything up to at, so deadlines up to at are committed first: if a
// flag fell at or before at, the press is rejected with ErrFlagged. A press
// by the side whose clock is not running returns ErrNotRunning and charges
// or switches nothing, as on a real clock (it still confirms the timeline).
func (c *Clock) Press(side Side, at time.Duration) (Move, error) {
	m := &c.m
	if !side.Valid() {
		return Move{}, ErrBadSide
	}
	switch m.status {
	case NotStarted:
		return Move{}, ErrNotStarted
	case Flagged:
		return Move{}, ErrFlagged
	case Stopped:
		return Move{}, ErrFinished
	}
	m.deliver(at)
	switch {
	case m.status == Flagged:
		return Move{}, ErrFlagged
	case m.status == Paused && at >= m.holdAt:
		return Move{}, ErrPaused
	case side != m.running:
		return Move{}, ErrNotRunning
	case at < m.anchor:
		return Move{}, fmt.Errorf("press by %s at %v: before the turn's last adjustment at %v", side, at, m.anchor)
	}
	return m.press(side, at), nil
}

// PressHeld takes a move that side made while the clock is held (paused
// by the arbiter, or held after a restart of the daemon): side's turn ends
// at the hold, so the time it used before the hold is charged and nothing
// after it, its move counts (a stage reached, an increment), and the
// opponent's turn begins at the hold. The clock stays held; resumed, it
// runs for the side to move. A side whose clock is not running returns
// ErrNotRunning, a clock that is not held ErrNotPaused, and one whose
// flag fell before the hold ErrFlagged.
func (c *Clock) PressHeld(side Side) (Move, error) {
	m := &c.m
	switch {
	case !side.Valid():
		return Move{}, ErrBadSide
	case m.status != Paused:
		return Move{}, ErrNotPaused
	case side != m.running:
		return Move{}, ErrNotRunning
	}
	// The phases due before the hold end first (a delay used up, a
	// period begun), as a press would see them.
	m.advance(m.holdAt)
	if m.status == Flagged {
		return Move{}, ErrFlagged
	}
	return m.press(side, max(m.holdAt, m.anchor)), nil
}

// Delivered tells the clock that the board's link has delivered every
// event up to instant at (a frame or heartbeat stamped at). Deadlines up
// to at are committed: rollovers happen and flags become final.
func (c *Clock) Delivered(at time.Duration) {
	c.m.deliver(at)
}

// Advance is called at host instant now, typically by a timer set to
// NextDeadline. It commits nothing the board has not confirmed (unless
// Options.NoLink): it raises FlagPending when a flag instant has passed,
// and (AutoFlag) holds the clock with a LinkSilent alert when the link
// stays silent past the flag instant plus the grace.
func (c *Clock) Advance(now time.Duration) {
	m := &c.m
	if c.opt.NoLink {
		m.deliver(now)
		return
	}
	if m.status != Running && m.status != Paused {
		return
	}
	side, flagAt, pending := m.pendingFlag(now)
	if !pending {
		return
	}
	if !m.notified {
		m.notified = true
		m.emit(Event{Kind: FlagPending, Side: side, At: flagAt, FlagAt: flagAt})
	}
	// In claim-only mode nothing is decided on a flag, so nothing needs
	// protecting from a silent link.
	if m.status == Running && c.opt.Flags == AutoFlag && now >= flagAt+c.opt.Grace {
		m.status, m.hold, m.holdAt = Paused, LinkHold, now
		m.emit(Event{Kind: LinkSilent, Side: side, At: now, FlagAt: flagAt})
	}
}

// NextDeadline returns the next host instant after now at which Advance
// (or, with a board, a confirmation) would change something: a rollover, a
// flag, or the end of the grace for confirming a flag. A DueLinkCheck at or
// before now is overdue: Advance should run at once. ok is false when
// nothing is due without input.
func (c *Clock) NextDeadline(now time.Duration) (Deadline, bool) {
	m := &c.m
	if m.status != Running && m.status != Paused {
		return Deadline{}, false
	}
	if !c.opt.NoLink && c.opt.Flags == AutoFlag {
		if side, flagAt, pending := m.pendingFlag(now); pending {
			if m.status == Running {
				return Deadline{At: flagAt + c.opt.Grace, Kind: DueLinkCheck, Side: side}, true
			}
			return Deadline{}, false
		}
	}
	proj := m.projection()
	proj.advance(proj.effective(now))
	if proj.status != Running {
		return Deadline{}, false
	}
	at, ok := proj.deadline()
	if !ok {
		return Deadline{}, false
	}
	d := Deadline{At: at, Kind: DueRollover, Side: proj.running}
	flags := proj.p[proj.running].Flagged
	proj.expire(at)
	if proj.p[proj.running].Flagged != flags || proj.status == Flagged {
		d.Kind = DueFlag
	}
	return d, true
}

// Pause holds the clock at instant at: time after it is charged to nobody.
func (c *Clock) Pause(at time.Duration) error {
	m := &c.m
	switch m.status {
	case NotStarted:
		return ErrNotStarted
	case Paused:
		return ErrPaused
	case Flagged:
		return ErrFlagged
	case Stopped:
		return ErrFinished
	}
	if at < m.anchor {
		return fmt.Errorf("pause at %v: before the running turn's phase began at %v", at, m.anchor)
	}
	m.status, m.hold, m.holdAt = Paused, ArbiterHold, at
	return nil
}

// Resume restarts a paused clock at instant at. Resuming confirms the
// timeline up to the hold: a flag that fell before the hold becomes final
// (give time with AddTime or SetTimes first if that is not wanted), and
// Resume then returns ErrFlagged.
func (c *Clock) Resume(at time.Duration) error {
	m := &c.m
	if m.status != Paused {
		return ErrNotPaused
	}
	if at < m.holdAt {
		return fmt.Errorf("resume at %v: before the hold at %v", at, m.holdAt)
	}
	m.advance(m.holdAt)
	if m.status == Flagged {
		return ErrFlagged
	}
	shift := at - m.holdAt
	m.turnStart += shift
	m.anchor += shift
	m.known = max(m.known, at)
	m.status, m.hold, m.holdAt, m.notified = Running, NoHold, 0, false
	return nil
}

// AddTime gives side d more main time (negative d takes time away). If the
// side's clock is running in overtime, d goes to the allowance in progress;
// a side waiting in overtime returns to main time on its next turn.
func (c *Clock) AddTime(side Side, d time.Duration) error {
	m := &c.m
	if err := c.canAddTime(side); err != nil {
		return err
	}
	m.notified = false
	p := &m.p[side]
	running := m.status != NotStarted && side == m.running
	if running {
		switch m.ph {
		case InByoyomi, InUnit, InBlock:
			if m.left+d < 0 {
				return fmt.Errorf("add %v to %s: overtime allowance would be negative", d, side)
			}
			m.left += d
			return nil
		}
	}
	if p.Main+d < 0 || p.Main+d > maxDuration {
		return fmt.Errorf("add %v to %s: main time would be %v", d, side, p.Main+d)
	}
	p.Main += d
	if p.Main > 0 && p.Overtime && !running {
		p.Overtime = false
	}
	return nil
}

// canAddTime says why time cannot be added to side, if it cannot: a clock
// without limit, a flag fallen, the game over.
func (c *Clock) canAddTime(side Side) error {
	m := &c.m
	switch {
	case !side.Valid():
		return ErrBadSide
	case c.ctl.Kind == Upcount:
		return ErrUpcount
	case m.status == Flagged:
		return ErrFlagged
	case m.status == Stopped:
		return ErrFinished
	case m.p[side].Flagged:
		return fmt.Errorf("add time to %s: %w", side, ErrFlagged)
	}
	return nil
}

// SetTimes sets both sides' main time, as the arbiter does after a clock
// fault (FIDE 6.10.2). The clock must be paused, not yet started, or
// flagged; a flagged clock becomes paused at the flag instant, so the
// arbiter can resume play. The running turn continues from the hold with
// the new time.
func (c *Clock) SetTimes(first, second time.Duration) error {
	m := &c.m
	switch {
	case c.ctl.Kind == Upcount:
		return ErrUpcount
	case m.status == Running:
		return ErrNotPaused
	case m.status == Stopped:
		return ErrFinished
	case first < 0 || second < 0 || first > maxDuration || second > maxDuration:
		return fmt.Errorf("set times %v and %v: out of range", first, second)
	}
	if m.status == Flagged {
		m.status, m.hold = Paused, ArbiterHold
		m.verdict = NoVerdict
	}
	for i, d := range [2]time.Duration{first, second} {
		p := &m.p[i]
		p.Main, p.Overtime, p.Flagged, p.FlagAt = d, false, false, 0
	}
	m.notified = false
	if m.status == Paused {
		m.anchor = m.holdAt
		m.skipStone = false
		m.ph = Main
		if c.ctl.Kind == Standard && m.p[m.running].Main == 0 && c.ctl.Overtime.Kind != NoOvertime &&
			c.ctl.stage(m.p[m.running].Stage).Moves == 0 {
			m.p[m.running].Overtime = true
			m.enterOvertime(m.holdAt)
		}
	}
	return nil
}

// Stop ends the game at instant at (result by other means): both clocks
// freeze. If a flag fell at or before at, Stop returns ErrFlagged instead.
func (c *Clock) Stop(at time.Duration) error {
	m := &c.m
	switch m.status {
	case NotStarted:
		m.status, m.holdAt = Stopped, at
		return nil
	case Flagged:
		return ErrFlagged
	case Stopped:
		return ErrFinished
	}
	m.deliver(at)
	if m.status == Flagged {
		return ErrFlagged
	}
	m.status, m.holdAt = Stopped, m.effective(at)
	return nil
}

// Claim is side's claim at instant at that the opponent's flag has fallen
// (ClaimOnly policy; under AutoFlag it reports the final flag if any). It
// returns the final Flag event.
func (c *Clock) Claim(side Side, at time.Duration) (Event, error) {
	m := &c.m
	if !side.Valid() {
		return Event{}, ErrBadSide
	}
	switch m.status {
	case NotStarted:
		return Event{}, ErrNotStarted
	case Stopped:
		return Event{}, ErrFinished
	case Running, Paused:
		m.deliver(at)
	}
	if m.status == Flagged {
		if m.flagSide == side.Other() {
			return Event{Kind: Flag, Side: m.flagSide, At: m.flagAt, Final: true, Verdict: m.verdict}, nil
		}
		return Event{}, ErrFlagged
	}
	opp := &m.p[side.Other()]
	if !opp.Flagged {
		return Event{}, ErrNoFlag
	}
	v := m.verdictFor(side.Other())
	if m.p[side].Flagged {
		v = FlagDraws // both flags down (FIDE Guidelines III)
	}
	m.status, m.holdAt = Flagged, m.effective(at)
	m.flagSide, m.flagAt, m.verdict = side.Other(), opp.FlagAt, v
	e := Event{Kind: Flag, Side: side.Other(), At: opp.FlagAt, Final: true, Verdict: v}
	m.emit(e)
	return e, nil
}
