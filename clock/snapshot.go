package clock

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// SnapshotVersion is the version of the Snapshot layout written now.
const SnapshotVersion = 1

// snapshotMagic starts the binary encoding.
const snapshotMagic = "CLK"

// Snapshot is the complete state of a clock, for the store and for
// reinstating the times after an illegal move. It encodes as JSON (field
// names below) or, with MarshalBinary, as a compact versioned binary form.
// Instants are offsets on the timeline of the process that took it; after
// a restart, see [Clock.Rebase].
type Snapshot struct {
	Version   int           `json:"version"`
	Control   string        `json:"control"`
	Status    Status        `json:"status"`
	Running   Side          `json:"running"`
	Phase     Phase         `json:"phase"`
	Hold      HoldReason    `json:"hold"`
	SkipStone bool          `json:"skip_stone,omitempty"`
	Notified  bool          `json:"notified,omitempty"`
	TurnStart time.Duration `json:"turn_start"`
	Anchor    time.Duration `json:"anchor"`
	Left      time.Duration `json:"left"`
	HoldAt    time.Duration `json:"hold_at"`
	Known     time.Duration `json:"known"`
	FlagSide  Side          `json:"flag_side"`
	FlagAt    time.Duration `json:"flag_at"`
	Verdict   Verdict       `json:"verdict"`
	Sides     [2]SideState  `json:"sides"`
}

// SideState is one side's part of a Snapshot, and the clock's live state
// for that side.
type SideState struct {
	Main       time.Duration `json:"main"`                 // main time left at the start of the turn
	BlockLeft  time.Duration `json:"block_left,omitempty"` // Canadian block time left between turns
	Spent      time.Duration `json:"spent"`                // total time used by completed moves
	FlagAt     time.Duration `json:"flag_at,omitempty"`    // when the flag fell, if Flagged
	Overtime   bool          `json:"overtime,omitempty"`   // the last stage's main time is used up
	Flagged    bool          `json:"flagged,omitempty"`
	Stage      int           `json:"stage"`       // stage index from 0
	StageMoves int           `json:"stage_moves"` // moves completed in the stage
	Moves      int           `json:"moves"`       // moves completed in the game
	ByoLeft    int           `json:"byo_left,omitempty"`
	UnitsLeft  int           `json:"units_left,omitempty"`
	Stones     int           `json:"stones,omitempty"` // moves still due in the Canadian block
	Block      int           `json:"block,omitempty"`  // Canadian block index from 0
}

// Snapshot returns the clock's committed state. Queued events are not part
// of it.
func (c *Clock) Snapshot() Snapshot {
	m := &c.m
	s := Snapshot{
		Version: SnapshotVersion, Control: c.ctl.String(),
		Status: m.status, Running: m.running, Phase: m.ph, Hold: m.hold,
		SkipStone: m.skipStone, Notified: m.notified,
		TurnStart: m.turnStart, Anchor: m.anchor, Left: m.left, HoldAt: m.holdAt, Known: m.known,
		FlagSide: m.flagSide, FlagAt: m.flagAt, Verdict: m.verdict,
	}
	s.Sides = m.p
	return s
}

// Restore replaces the clock's state (and time control) with s, after
// checking that s is consistent. Options stay. Queued events are kept.
func (c *Clock) Restore(s Snapshot) error {
	ctl, err := s.check()
	if err != nil {
		return fmt.Errorf("restore clock: %w", err)
	}
	c.ctl = ctl
	m := &c.m
	m.state = state{
		status: s.Status, running: s.Running, ph: s.Phase, hold: s.Hold,
		skipStone: s.SkipStone, notified: s.Notified,
		turnStart: s.TurnStart, anchor: s.Anchor, left: s.Left, holdAt: s.HoldAt, known: s.Known,
		flagSide: s.FlagSide, flagAt: s.FlagAt, verdict: s.Verdict,
	}
	m.p = s.Sides
	return nil
}

// FromSnapshot returns a clock restored from s.
func FromSnapshot(s Snapshot, opt Options) (*Clock, error) {
	ctl, err := s.check()
	if err != nil {
		return nil, fmt.Errorf("clock from snapshot: %w", err)
	}
	c, err := New(ctl, opt)
	if err != nil {
		return nil, err
	}
	if err := c.Restore(s); err != nil {
		return nil, err
	}
	return c, nil
}

// Rebase moves the clock from one process's timeline to another's: the
// old instant from becomes the new instant to. A running clock is paused
// at to (RestartHold), so the arbiter resumes it: downtime is charged to
// nobody (FIDE 6.10.2, the arbiter's judgement).
func (c *Clock) Rebase(from, to time.Duration) {
	m := &c.m
	d := to - from
	m.turnStart += d
	m.anchor += d
	m.known = to
	if m.status != NotStarted {
		m.holdAt += d
	}
	if m.status == Flagged {
		m.flagAt += d
	}
	for i := range m.p {
		if m.p[i].Flagged {
			m.p[i].FlagAt += d
		}
	}
	if m.status == Running {
		m.status, m.hold, m.holdAt = Paused, RestartHold, to
		if to < m.anchor {
			m.holdAt = m.anchor
		}
	}
}

// instantLimit bounds instants in a snapshot, keeping all arithmetic on
// them far from overflow (about 11 years).
const instantLimit = 100000 * time.Hour

// check validates s and returns its control.
func (s *Snapshot) check() (Control, error) {
	if s.Version != SnapshotVersion {
		return Control{}, fmt.Errorf("snapshot version %d, want %d", s.Version, SnapshotVersion)
	}
	ctl, err := Parse(s.Control)
	if err != nil {
		return Control{}, fmt.Errorf("snapshot control: %w", err)
	}
	if !s.enumsValid() {
		return Control{}, errors.New("snapshot has an out-of-range enum")
	}
	if err := s.checkInstants(); err != nil {
		return Control{}, err
	}
	if !s.phaseFits(ctl) {
		return Control{}, fmt.Errorf("snapshot phase %s does not fit control %q", s.Phase, s.Control)
	}
	for i, p := range s.Sides {
		if err := p.check(ctl); err != nil {
			return Control{}, fmt.Errorf("snapshot %s side: %w", Side(i), err)
		}
	}
	return ctl, nil
}

// enumsValid reports whether every enum of s has a known value.
func (s *Snapshot) enumsValid() bool {
	return s.Status <= Stopped && s.Running.Valid() && s.Phase <= Counting && s.Hold <= RestartHold &&
		s.FlagSide.Valid() && s.Verdict <= AskArbiter
}

// checkInstants checks the instants of s, the time left in the phase, and
// that the phase started no earlier than the turn.
func (s *Snapshot) checkInstants() error {
	for _, in := range [...]struct {
		name string
		d    time.Duration
	}{
		{"turn_start", s.TurnStart}, {"anchor", s.Anchor}, {"hold_at", s.HoldAt}, {"known", s.Known}, {"flag_at", s.FlagAt},
	} {
		if !within(in.d, -instantLimit, instantLimit) {
			return fmt.Errorf("snapshot %s %v out of range", in.name, in.d)
		}
	}
	if !within(s.Left, 0, maxDuration) {
		return fmt.Errorf("snapshot left %v out of range", s.Left)
	}
	if s.Anchor < s.TurnStart {
		return fmt.Errorf("snapshot anchor %v before turn start %v", s.Anchor, s.TurnStart)
	}
	return nil
}

// phaseFits reports whether the phase of s is one ctl has.
func (s *Snapshot) phaseFits(ctl Control) bool {
	switch s.Phase {
	case Counting:
		return ctl.Kind == Upcount
	case InByoyomi, InUnit:
		return ctl.Overtime.Kind == Byoyomi
	case InBlock:
		return ctl.Overtime.Kind == Canadian
	case Main, InDelay:
		return ctl.Kind != Upcount || s.Status == NotStarted
	}
	return true
}

// check validates a side's state of a snapshot under ctl.
func (p SideState) check(ctl Control) error {
	o := ctl.Overtime
	switch {
	case !p.timesInRange():
		return errors.New("time out of range")
	case !p.stageInRange(ctl):
		return fmt.Errorf("stage %d out of range", p.Stage)
	case !p.movesInRange():
		return errors.New("move counts out of range")
	case !p.overtimeInRange(o):
		return errors.New("overtime counters out of range")
	case p.Overtime && o.Kind == NoOvertime:
		return errors.New("in overtime without overtime")
	}
	if ctl.Kind == Standard {
		if st := ctl.stage(p.Stage); st.Moves > 0 && p.StageMoves >= st.Moves {
			return fmt.Errorf("%d moves in a stage of %d", p.StageMoves, st.Moves)
		}
	}
	return nil
}

// timesInRange reports whether the side's times are within bounds.
func (p SideState) timesInRange() bool {
	return within(p.Main, 0, 2*maxDuration) && within(p.BlockLeft, 0, maxDuration) &&
		within(p.Spent, 0, instantLimit) && within(p.FlagAt, -instantLimit, instantLimit)
}

// movesInRange reports whether the side's move counts are within bounds,
// the moves in the stage among the moves in the game.
func (p SideState) movesInRange() bool {
	return within(p.Moves, 0, maxCount*maxCount) && within(p.StageMoves, 0, p.Moves)
}

// overtimeInRange reports whether the side's overtime counters are
// within bounds under o.
func (p SideState) overtimeInRange(o Overtime) bool {
	return within(p.ByoLeft, 0, o.Periods) && within(p.UnitsLeft, 0, o.Units) &&
		within(p.Stones, 0, maxCount*maxCount) && within(p.Block, 0, p.Moves)
}

// stageInRange reports whether the side's stage is one of ctl's: the
// only one, 0, for an upcount.
func (p SideState) stageInRange(ctl Control) bool {
	if ctl.Kind == Upcount {
		return p.Stage == 0
	}
	return within(p.Stage, 0, len(ctl.Stages)-1)
}

// MarshalBinary encodes s compactly: "CLK", a version byte, the control
// text, then the fields as varints.
func (s Snapshot) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 64+len(s.Control))
	b = append(b, snapshotMagic...)
	b = append(b, byte(s.Version))
	b = binary.AppendUvarint(b, uint64(len(s.Control)))
	b = append(b, s.Control...)
	flags := byte(0)
	if s.SkipStone {
		flags |= 1
	}
	if s.Notified {
		flags |= 2
	}
	b = append(b, byte(s.Status), byte(s.Running), byte(s.Phase), byte(s.Hold), flags,
		byte(s.FlagSide), byte(s.Verdict))
	for _, d := range []time.Duration{s.TurnStart, s.Anchor, s.Left, s.HoldAt, s.Known, s.FlagAt} {
		b = binary.AppendVarint(b, int64(d))
	}
	for _, p := range s.Sides {
		pf := byte(0)
		if p.Overtime {
			pf |= 1
		}
		if p.Flagged {
			pf |= 2
		}
		b = append(b, pf)
		for _, d := range []time.Duration{p.Main, p.BlockLeft, p.Spent, p.FlagAt} {
			b = binary.AppendVarint(b, int64(d))
		}
		for _, n := range []int{p.Stage, p.StageMoves, p.Moves, p.ByoLeft, p.UnitsLeft, p.Stones, p.Block} {
			b = binary.AppendVarint(b, int64(n))
		}
	}
	return b, nil
}

// UnmarshalBinary decodes the MarshalBinary form. It checks the framing
// only; Restore checks the content.
func (s *Snapshot) UnmarshalBinary(data []byte) error {
	r := byteReader{b: data}
	if string(r.bytes(len(snapshotMagic))) != snapshotMagic || r.err != nil {
		return errors.New("decode clock snapshot: bad magic")
	}
	var t Snapshot
	t.Version = int(r.byte())
	if r.err == nil && t.Version != SnapshotVersion {
		return fmt.Errorf("decode clock snapshot: version %d, want %d", t.Version, SnapshotVersion)
	}
	n := r.uvarint()
	if r.err == nil && n > 4096 {
		return fmt.Errorf("decode clock snapshot: control text of %d bytes", n)
	}
	t.Control = string(r.bytes(int(n)))
	t.Status, t.Running, t.Phase, t.Hold = Status(r.byte()), Side(r.byte()), Phase(r.byte()), HoldReason(r.byte())
	flags := r.byte()
	t.SkipStone, t.Notified = flags&1 != 0, flags&2 != 0
	t.FlagSide, t.Verdict = Side(r.byte()), Verdict(r.byte())
	for _, d := range []*time.Duration{&t.TurnStart, &t.Anchor, &t.Left, &t.HoldAt, &t.Known, &t.FlagAt} {
		*d = time.Duration(r.varint())
	}
	for i := range t.Sides {
		p := &t.Sides[i]
		pf := r.byte()
		p.Overtime, p.Flagged = pf&1 != 0, pf&2 != 0
		for _, d := range []*time.Duration{&p.Main, &p.BlockLeft, &p.Spent, &p.FlagAt} {
			*d = time.Duration(r.varint())
		}
		for _, n := range []*int{&p.Stage, &p.StageMoves, &p.Moves, &p.ByoLeft, &p.UnitsLeft, &p.Stones, &p.Block} {
			*n = int(r.varint())
		}
	}
	if r.err != nil {
		return fmt.Errorf("decode clock snapshot at byte %d: %w", r.off, r.err)
	}
	if r.off != len(data) {
		return fmt.Errorf("decode clock snapshot: %d trailing bytes", len(data)-r.off)
	}
	*s = t
	return nil
}

// byteReader reads the binary form, remembering the first error.
type byteReader struct {
	b   []byte
	off int
	err error
}

var errShort = errors.New("truncated")

func (r *byteReader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b)-r.off {
		r.err = errShort
		return nil
	}
	v := r.b[r.off : r.off+n]
	r.off += n
	return v
}

func (r *byteReader) byte() byte {
	v := r.bytes(1)
	if v == nil {
		return 0
	}
	return v[0]
}

func (r *byteReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.err = errors.New("bad varint")
		return 0
	}
	r.off += n
	return v
}

// varint undoes binary.AppendVarint's zigzag encoding.
func (r *byteReader) varint() int64 {
	u := r.uvarint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}
