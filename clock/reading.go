package clock

import (
	"fmt"
	"time"
)

// Reading is what a display shows for one side at one instant.
type Reading struct {
	Side    Side
	Running bool // this side's clock is running now
	Phase   Phase
	// Main is the main time left; Delay the delay window left (own turn);
	// Overtime the time left in the current byoyomi period, thinking
	// unit or Canadian block.
	Main     time.Duration
	Delay    time.Duration
	Overtime time.Duration
	// Display is what a clock face shows in this mode: main time, the
	// delay countdown (US), main plus delay (Bronstein), the overtime
	// allowance, or the time spent (upcount).
	Display time.Duration
	// Stage is the stage number from 1; MovesToControl the moves still
	// due in it (0 when the stage is for the rest of the game).
	Stage          int
	MovesToControl int
	ByoyomiLeft    int // byoyomi periods left, counting the current one
	UnitsLeft      int // thinking units not yet entered
	StonesLeft     int // moves still due in the Canadian block
	Moves          int // moves completed
	Spent          time.Duration
	Flagged        bool
	FlagAt         time.Duration
}

// Move is the clock's record of one completed move.
type Move struct {
	Side   Side
	Number int           // the side's move number, from 1
	Start  time.Duration // when the turn began (shifted by pauses)
	End    time.Duration // the press
	Used   time.Duration // End - Start: the time the move took, pauses excluded
	After  Reading       // the mover's reading right after the press
}

// Due is the kind of a deadline.
type Due uint8

// The kinds of deadline.
const (
	DueRollover  Due = iota // a phase ends and the next begins (byoyomi, delay, Canadian)
	DueFlag                 // a flag falls
	DueLinkCheck            // the grace for board confirmation of a flag ends
)

// Deadline is the next instant at which something happens without input.
type Deadline struct {
	At   time.Duration
	Kind Due
	Side Side
}

// Reading returns what side's display shows at instant at. It is a pure
// function of the clock and at: projected rollovers and flags are shown
// but not committed.
func (c *Clock) Reading(side Side, at time.Duration) Reading {
	proj := c.m.projection()
	t := proj.effective(at)
	if proj.status == Running || proj.status == Paused {
		proj.advance(t)
		t = proj.effective(at)
	}
	return proj.reading(side&1, t)
}

// Remaining is side's time left at instant at, as a record or scoresheet
// wants it: the main time (an unused delay window is not banked time), or
// in overtime the allowance in progress; for upcount, the time spent. The
// display's value is Reading(...).Display.
func (c *Clock) Remaining(side Side, at time.Duration) time.Duration {
	r := c.Reading(side, at)
	switch r.Phase {
	case InByoyomi, InUnit, InBlock:
		return r.Overtime
	case Counting:
		return r.Spent
	}
	return r.Main
}

// reading is the display of side at instant t, with deadlines up to t
// already applied.
func (m *machine) reading(side Side, t time.Duration) Reading {
	p := &m.p[side]
	st := Stage{}
	if m.ctl.Kind != Upcount {
		st = m.ctl.stage(p.Stage)
	}
	r := m.waitingReading(side, p, st)
	live := m.status == Running || m.status == Paused || m.status == Flagged || m.status == Stopped
	if live && m.running == side {
		// The running side: its phase, and the time spent and left in it.
		r.Running = m.status == Running
		r.Phase = m.ph
		r.Spent += t - m.turnStart
		el := max(t-m.anchor, 0)
		switch m.ph {
		case Main:
			cost := el
			if st.Unit > 0 && m.ctl.Kind == Standard {
				cost = charge(el, st.Unit, st.Rounding)
			}
			r.Main = max(p.Main-cost, 0)
		case InDelay:
			r.Delay = max(m.left-el, 0)
		case InByoyomi, InUnit, InBlock:
			r.Overtime = max(m.left-el, 0)
		}
	} else if live && m.ctl.Kind == Hourglass && m.ph == Main {
		r.Main += min(max(t-m.anchor, 0), m.p[side.Other()].Main)
	}
	r.Display = r.display(st.Method)
	return r
}

// waitingReading is the reading of side, whose state is p, in stage st,
// as it stands between its turns: the counts, the time left at the start
// of the turn, and the phase it waits in.
func (m *machine) waitingReading(side Side, p *SideState, st Stage) Reading {
	r := Reading{
		Side: side, Main: p.Main, Stage: p.Stage + 1, Moves: p.Moves, Spent: p.Spent,
		ByoyomiLeft: p.ByoLeft, UnitsLeft: p.UnitsLeft, Flagged: p.Flagged, FlagAt: p.FlagAt,
	}
	if m.ctl.Kind == Standard && st.Moves > 0 && !p.Overtime {
		r.MovesToControl = st.Moves - p.StageMoves
	}
	switch {
	case m.ctl.Kind == Upcount:
		r.Phase = Counting
	case p.Flagged:
		r.Phase = Expired
	case p.Overtime && m.ctl.Overtime.Kind == Byoyomi:
		r.Phase, r.Overtime = InByoyomi, m.ctl.Overtime.Period
	case p.Overtime && m.ctl.Overtime.Kind == Canadian:
		r.Phase, r.Overtime, r.StonesLeft = InBlock, p.BlockLeft, p.Stones
	}
	return r
}

// display returns what a clock shows for r: the time of its phase, with
// the delay on top of the main time for a Bronstein stage (method), and
// 0 once the flag fell.
func (r *Reading) display(method Method) time.Duration {
	switch r.Phase {
	case Main:
		return r.Main
	case InDelay:
		if method == Bronstein {
			return r.Main + r.Delay
		}
		return r.Delay
	case InByoyomi, InUnit, InBlock:
		return r.Overtime
	case Counting:
		return r.Spent
	}
	return 0 // Expired
}

// Text writes a time on a clock as its display and the web pages show
// it: H:MM:SS or M:SS, with tenths under ten seconds; a negative time is
// 0.
func Text(d time.Duration) string {
	ms := d.Milliseconds()
	if ms < 0 {
		ms = 0
	}
	if ms < 10_000 {
		return fmt.Sprintf("0:%02d.%d", ms/1000, ms%1000/100)
	}
	s := ms / 1000
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s%3600/60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
