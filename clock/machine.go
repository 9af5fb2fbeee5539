package clock

import "time"

// The state machine of clocks.md 1.4. Every method takes the instant it
// acts at; nothing here reads the time.

// state is everything a Snapshot keeps: the game's status and the running
// turn, plus each side's SideState.
type state struct {
	status    Status
	running   Side
	ph        Phase
	hold      HoldReason
	skipStone bool // the move in progress does not count for the block
	notified  bool // FlagPending raised for the pending flag of this turn
	turnStart time.Duration
	anchor    time.Duration // when the current phase began counting in this turn
	left      time.Duration // allowance of the current phase at anchor (not Main)
	holdAt    time.Duration // freeze instant when not Running
	known     time.Duration // the board has delivered events up to here
	p         [2]SideState
	flagSide  Side
	flagAt    time.Duration
	verdict   Verdict
}

// machine is the state plus what it needs to run; a copy with out == nil
// is a silent projection.
type machine struct {
	ctl *Control
	opt *Options
	out *[]Event
	state
}

// pendingFlag reports a flag that has fallen by host instant now on the
// projection but that the board has not yet confirmed.
func (m *machine) pendingFlag(now time.Duration) (Side, time.Duration, bool) {
	proj := m.projection()
	proj.advance(proj.effective(now))
	for i := range proj.p {
		if proj.p[i].Flagged && !m.p[i].Flagged && m.known < proj.p[i].FlagAt {
			return Side(i), proj.p[i].FlagAt, true
		}
	}
	return 0, 0, false
}

func (m *machine) projection() machine {
	p := *m
	p.out = nil
	return p
}

func (m *machine) emit(e Event) {
	if m.out != nil {
		*m.out = append(*m.out, e)
	}
}

// effective clamps t to the freeze instant of a clock that is not running.
func (m *machine) effective(t time.Duration) time.Duration {
	if m.status != Running && m.status != NotStarted && t > m.holdAt {
		return m.holdAt
	}
	return t
}

// deliver records that the board has delivered up to at and commits.
func (m *machine) deliver(at time.Duration) {
	m.known = max(m.known, at)
	if m.status == Running || m.status == Paused {
		m.advance(m.effective(at))
	}
}

// advance commits every deadline at or before limit.
func (m *machine) advance(limit time.Duration) {
	for m.status == Running || m.status == Paused {
		at, ok := m.deadline()
		if !ok || at > limit {
			return
		}
		m.expire(at)
	}
}

// deadline is when the running side's current phase ends.
func (m *machine) deadline() (time.Duration, bool) {
	p := &m.p[m.running]
	switch m.ph {
	case Main:
		if st := m.ctl.stage(p.Stage); st.Unit > 0 && m.ctl.Kind == Standard {
			return m.anchor + exhaustAt(p.Main, st.Unit, st.Rounding), true
		}
		return m.anchor + p.Main, true
	case InDelay, InByoyomi, InUnit, InBlock:
		return m.anchor + m.left, true
	}
	return 0, false
}

// charge is what a move of u costs when charged in units of g.
func charge(u, g time.Duration, r Rounding) time.Duration {
	switch r {
	case Up:
		return (u + g - 1) / g * g
	case Nearest:
		return (u + g/2) / g * g
	}
	return u / g * g
}

// exhaustAt is the first u with charge(u) >= rem: the moment main time is
// used up.
func exhaustAt(rem, g time.Duration, r Rounding) time.Duration {
	if rem <= 0 {
		return 0
	}
	k := (rem + g - 1) / g
	switch r {
	case Up:
		return (k-1)*g + 1
	case Nearest:
		return k*g - g/2
	}
	return k * g
}

func (m *machine) beginTurn(side Side, at time.Duration) {
	m.running, m.turnStart, m.anchor = side, at, at
	m.skipStone, m.notified = false, false
	p := &m.p[side]
	switch {
	case m.ctl.Kind == Upcount:
		m.ph = Counting
	case p.Flagged:
		m.ph = Expired
	case p.Overtime:
		switch m.ctl.Overtime.Kind {
		case Byoyomi:
			m.ph, m.left = InByoyomi, m.ctl.Overtime.Period
		case Canadian:
			m.ph, m.left = InBlock, p.BlockLeft
		}
	default:
		m.ph = Main
		if st := m.ctl.stage(p.Stage); m.ctl.Kind == Standard && (st.Method == Delay || st.Method == Bronstein) {
			m.ph, m.left = InDelay, st.Bonus
		}
	}
}

// enterOvertime starts overtime at instant at, in the middle of a turn.
func (m *machine) enterOvertime(at time.Duration) {
	o := &m.ctl.Overtime
	p := &m.p[m.running]
	m.anchor = at
	switch o.Kind {
	case Byoyomi:
		m.ph, m.left = InByoyomi, o.Period
	case Canadian:
		p.Block, p.Stones, p.BlockLeft = 0, o.Moves, o.Block
		m.ph, m.left, m.skipStone = InBlock, o.Block, o.FromNextMove
	}
}

// expire ends the running side's current phase at its deadline at.
func (m *machine) expire(at time.Duration) {
	side := m.running
	p := &m.p[side]
	o := &m.ctl.Overtime
	switch m.ph {
	case InDelay:
		m.ph, m.anchor = Main, at
	case Main:
		if m.ctl.Kind == Hourglass {
			m.p[side.Other()].Main += p.Main
		}
		p.Main = 0
		if m.ctl.Kind != Standard || o.Kind == NoOvertime || m.ctl.stage(p.Stage).Moves > 0 {
			m.flag(side, at)
			return
		}
		p.Overtime = true
		m.emit(Event{Kind: OvertimeEntered, Side: side, At: at})
		m.enterOvertime(at)
	case InByoyomi:
		switch {
		case p.ByoLeft > 1:
			p.ByoLeft--
			m.anchor, m.left = at, o.Period
			m.emit(Event{Kind: PeriodLost, Side: side, At: at})
		case p.UnitsLeft > 0:
			p.UnitsLeft--
			m.ph, m.anchor, m.left = InUnit, at, o.Unit
			m.emit(Event{Kind: UnitEntered, Side: side, At: at})
		default:
			p.ByoLeft = 0
			m.flag(side, at)
		}
	case InUnit:
		if p.UnitsLeft > 0 {
			p.UnitsLeft--
			m.anchor, m.left = at, o.Unit
			m.emit(Event{Kind: UnitEntered, Side: side, At: at})
			return
		}
		m.flag(side, at)
	case InBlock:
		if p.Stones > 0 || !o.Carry {
			m.left = 0
			m.flag(side, at)
			return
		}
		// BGA: the moves are done and the leftover is used up.
		p.Block++
		p.Stones = o.blockMoves(p.Block)
		m.anchor, m.left, m.skipStone = at, o.Block, o.FromNextMove
		m.emit(Event{Kind: BlockStarted, Side: side, At: at})
	}
}

func (m *machine) flag(side Side, at time.Duration) {
	p := &m.p[side]
	p.Flagged, p.FlagAt, p.Main = true, at, 0
	if side == m.running {
		m.ph, m.anchor = Expired, at
	}
	if m.opt.Flags == ClaimOnly {
		m.emit(Event{Kind: Flag, Side: side, At: at})
		return
	}
	m.status, m.holdAt, m.hold = Flagged, at, NoHold
	m.flagSide, m.flagAt = side, at
	m.verdict = FlagLoses
	if m.out != nil { // projections do not ask the rules
		m.verdict = m.verdictFor(side)
	}
	m.emit(Event{Kind: Flag, Side: side, At: at, Final: true, Verdict: m.verdict})
}

func (m *machine) verdictFor(flagged Side) Verdict {
	if m.opt.Adjudicator == nil {
		return FlagLoses
	}
	switch m.opt.Adjudicator.CanEverWin(flagged.Other()) {
	case Yes:
		return FlagLoses
	case No:
		return FlagDraws
	}
	return AskArbiter
}

// press completes side's move at instant at; deadlines up to at are
// already committed.
func (m *machine) press(side Side, at time.Duration) Move {
	p := &m.p[side]
	used := at - m.turnStart
	inPhase := at - m.anchor
	p.Spent += used
	var st Stage
	if m.ctl.Kind != Upcount {
		st = m.ctl.stage(p.Stage)
	}
	switch m.ph {
	case Main:
		m.chargeMain(side, st, inPhase)
	case InBlock:
		m.countStone(side, at, inPhase)
	}
	p.Moves++
	if m.ctl.Kind == Standard && !p.Overtime && !p.Flagged {
		m.countStageMove(side, st, at)
	}
	mv := Move{Side: side, Number: p.Moves, Start: m.turnStart, End: at, Used: used}
	m.beginTurn(side.Other(), at)
	mv.After = m.reading(side, at)
	m.advance(at)
	return mv
}

// chargeMain charges side's main time, in stage st, for a move that took
// inPhase of it; an hourglass gives the time to the opponent.
func (m *machine) chargeMain(side Side, st Stage, inPhase time.Duration) {
	p := &m.p[side]
	cost := inPhase
	if st.Unit > 0 && m.ctl.Kind == Standard {
		cost = charge(inPhase, st.Unit, st.Rounding)
	}
	cost = min(cost, p.Main)
	p.Main -= cost
	if m.ctl.Kind == Hourglass {
		m.p[side.Other()].Main += cost
	}
}

// countStone counts side's move at at, which took inPhase of a Canadian
// block, and starts the next block when the moves are done (unless
// leftover time carries).
func (m *machine) countStone(side Side, at, inPhase time.Duration) {
	p := &m.p[side]
	o := &m.ctl.Overtime
	p.BlockLeft = m.left - inPhase
	if !m.skipStone && p.Stones > 0 {
		p.Stones--
	}
	if p.Stones == 0 && !o.Carry {
		p.Block++
		p.Stones, p.BlockLeft = o.blockMoves(p.Block), o.Block
		m.emit(Event{Kind: BlockStarted, Side: side, At: at})
	}
}

// countStageMove counts side's move at at in stage st: the stage's next
// one begins when its quota is done, and a Fischer bonus is added.
func (m *machine) countStageMove(side Side, st Stage, at time.Duration) {
	p := &m.p[side]
	p.StageMoves++
	if st.Moves > 0 && p.StageMoves == st.Moves {
		p.Stage = min(p.Stage+1, len(m.ctl.Stages)-1)
		p.StageMoves = 0
		p.Main += m.ctl.stage(p.Stage).Base
		m.emit(Event{Kind: StageReached, Side: side, At: at})
	}
	if cur := m.ctl.stage(p.Stage); cur.Method == Fischer {
		p.Main += cur.Bonus
	}
}
