package clock

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kind is the overall shape of a time control.
type Kind uint8

// The kinds of time control.
const (
	// Standard is one or more stages of main time, each with an optional
	// per-move bonus, optionally followed by overtime.
	Standard Kind = iota
	// Hourglass moves the time used by the mover to the opponent, so the
	// sum of both clocks is constant.
	Hourglass
	// Upcount has no limit: each side's clock counts up.
	Upcount
)

// Method is how a stage grants extra time for each move.
type Method uint8

// The per-move bonus methods.
const (
	// NoBonus grants nothing beyond the stage's base time.
	NoBonus Method = iota
	// Fischer adds the bonus for each move; the bonus for the first move is
	// credited at Start (DGT behaviour, and USI's "increment before the move").
	Fischer
	// Delay (US or simple delay) lets the bonus elapse before the main time
	// starts counting down.
	Delay
	// Bronstein returns the time used up to the bonus after each move. It is
	// the same state machine as Delay; only the display differs (it shows
	// main time plus the delay left).
	Bronstein
)

// Rounding is how the time of a move is charged when a stage charges in
// whole units (the shogi stopwatch).
type Rounding uint8

// The rounding modes for charged time.
const (
	// Truncate drops the incomplete unit: with 1-minute units a move of
	// 59 s costs nothing (shogi stopwatch practice).
	Truncate Rounding = iota
	// Up charges every started unit.
	Up
	// Nearest charges to the nearest unit, halves up.
	Nearest
)

// Stage is one period of main time.
type Stage struct {
	// Moves is the number of moves a side must complete within this stage;
	// 0 means the rest of the game. If the last stage has a quota, it
	// repeats (40/2h, 40/2h, ...).
	Moves int
	// Base is the time added to each side's clock when the stage begins.
	Base time.Duration
	// Method and Bonus are the per-move bonus.
	Method Method
	Bonus  time.Duration
	// Unit, if positive, charges each move's time in whole units rounded
	// by Rounding instead of exactly (the shogi stopwatch: 1 minute,
	// truncating). Main time is used up at the first instant the charge
	// would reach it, and overtime starts there: with 1 min left and 60 s
	// byoyomi, a move of 1:59 is charged the last minute, and 2:00 flags.
	Unit     time.Duration
	Rounding Rounding
}

// OvertimeKind is what happens when the last stage's main time runs out.
type OvertimeKind uint8

// The kinds of overtime.
const (
	// NoOvertime: running out of main time is a flag.
	NoOvertime OvertimeKind = iota
	// Byoyomi is Japanese byoyomi, optionally followed by thinking units.
	Byoyomi
	// Canadian is Canadian overtime: a number of moves in a block of time.
	Canadian
)

// Overtime describes the time after the last stage's main time.
type Overtime struct {
	Kind OvertimeKind

	// Byoyomi: Periods periods of Period. A move made inside the current
	// period keeps every period; overstepping it consumes one and the next
	// starts at once. After the last period, Units thinking units of Unit
	// each are entered one by one (NHK style: units are consumed when
	// entered, and the next move again gets a fresh Period).
	Periods int
	Period  time.Duration
	Units   int
	Unit    time.Duration

	// Canadian: Moves moves in Block; block k (from 0) needs Moves+k*Step
	// moves (progressive Canadian when Step > 0). With Carry (British Go
	// Association), leftover time after the moves are done is kept and the
	// next block starts when it runs out; otherwise a new block starts at
	// the press that completes the moves and leftover time is discarded.
	// With FromNextMove, the move in progress when a block starts mid-turn
	// does not count as its first move.
	Moves        int
	Step         int
	Block        time.Duration
	Carry        bool
	FromNextMove bool
}

// Control is a time control. The zero value is not valid; use [Parse] or
// fill in the fields and call [Control.Validate].
type Control struct {
	Kind     Kind
	Stages   []Stage
	Overtime Overtime
}

// maxDuration bounds every duration in a control, far above any real
// event, so that sums of them cannot overflow.
const maxDuration = 10000 * time.Hour

// maxCount bounds move counts and period counts.
const maxCount = 100000

// Validate reports the first thing that makes c unusable.
func (c Control) Validate() error {
	switch c.Kind {
	case Upcount:
		if len(c.Stages) != 0 || c.Overtime.Kind != NoOvertime {
			return errors.New("upcount control has stages or overtime")
		}
		return nil
	case Hourglass:
		return c.validateHourglass()
	case Standard:
		return c.validateStandard()
	}
	return fmt.Errorf("unknown control kind %d", c.Kind)
}

// validateHourglass validates an hourglass control: one stage of base
// time only.
func (c Control) validateHourglass() error {
	if len(c.Stages) != 1 {
		return fmt.Errorf("hourglass control needs exactly one stage, has %d", len(c.Stages))
	}
	st := c.Stages[0]
	if st != (Stage{Base: st.Base}) {
		return errors.New("hourglass stage takes only a base time")
	}
	if st.Base <= 0 || st.Base > maxDuration {
		return fmt.Errorf("hourglass time %v out of range", st.Base)
	}
	if c.Overtime.Kind != NoOvertime {
		return errors.New("hourglass control has overtime")
	}
	return nil
}

// validateStandard validates a standard control: stages, the last of
// them for the rest of the game when there is overtime, and some time to
// start with.
func (c Control) validateStandard() error {
	if len(c.Stages) == 0 {
		return errors.New("control has no stages")
	}
	for i, st := range c.Stages {
		if err := st.validate(); err != nil {
			return fmt.Errorf("stage %d: %w", i+1, err)
		}
		if st.Moves == 0 && i != len(c.Stages)-1 {
			return fmt.Errorf("stage %d: only the last stage may be for the rest of the game", i+1)
		}
	}
	last := c.Stages[len(c.Stages)-1]
	if c.Overtime.Kind != NoOvertime && last.Moves != 0 {
		return errors.New("overtime needs a last stage for the rest of the game")
	}
	if err := c.Overtime.validate(); err != nil {
		return fmt.Errorf("overtime: %w", err)
	}
	if first := c.Stages[0]; first.Base == 0 && first.Method == NoBonus &&
		(len(c.Stages) > 1 || c.Overtime.Kind == NoOvertime) {
		return errors.New("stage 1 has no time at all")
	}
	return nil
}

// within reports whether lo ≤ v ≤ hi.
func within[T int | time.Duration](v, lo, hi T) bool { return lo <= v && v <= hi }

func (st Stage) validate() error {
	switch {
	case !within(st.Moves, 0, maxCount):
		return fmt.Errorf("move quota %d out of range", st.Moves)
	case !within(st.Base, 0, maxDuration):
		return fmt.Errorf("base time %v out of range", st.Base)
	case !within(st.Bonus, 0, maxDuration):
		return fmt.Errorf("bonus %v out of range", st.Bonus)
	}
	if err := st.validateBonus(); err != nil {
		return err
	}
	switch {
	case !within(st.Unit, 0, maxDuration):
		return fmt.Errorf("charge unit %v out of range", st.Unit)
	case st.Rounding > Nearest:
		return fmt.Errorf("unknown rounding %d", st.Rounding)
	case st.Unit == 0 && st.Rounding != Truncate:
		return errors.New("rounding without a charge unit")
	}
	return nil
}

// validateBonus checks that the stage has a bonus if and only if it has
// a bonus method.
func (st Stage) validateBonus() error {
	switch st.Method {
	case NoBonus:
		if st.Bonus != 0 {
			return errors.New("bonus without a method")
		}
	case Fischer, Delay, Bronstein:
		if st.Bonus == 0 {
			return errors.New("bonus method with zero bonus")
		}
	default:
		return fmt.Errorf("unknown bonus method %d", st.Method)
	}
	return nil
}

func (o Overtime) validate() error {
	switch o.Kind {
	case NoOvertime:
		if o != (Overtime{}) {
			return errors.New("parameters without an overtime kind")
		}
		return nil
	case Byoyomi:
		return o.validateByoyomi()
	case Canadian:
		return o.validateCanadian()
	}
	return fmt.Errorf("unknown overtime kind %d", o.Kind)
}

// validateByoyomi validates byoyomi: periods, and thinking units or none.
func (o Overtime) validateByoyomi() error {
	switch {
	case !within(o.Periods, 1, maxCount):
		return fmt.Errorf("byoyomi period count %d out of range", o.Periods)
	case o.Period <= 0 || o.Period > maxDuration:
		return fmt.Errorf("byoyomi period %v out of range", o.Period)
	case !within(o.Units, 0, maxCount):
		return fmt.Errorf("thinking unit count %d out of range", o.Units)
	case (o.Units == 0) != (o.Unit == 0) || !within(o.Unit, 0, maxDuration):
		return fmt.Errorf("thinking units %d of %v are inconsistent", o.Units, o.Unit)
	case o.hasCanadian():
		return errors.New("byoyomi with Canadian parameters")
	}
	return nil
}

// validateCanadian validates Canadian overtime: moves in a block.
func (o Overtime) validateCanadian() error {
	switch {
	case !within(o.Moves, 1, maxCount) || !within(o.Step, 0, maxCount):
		//lint:ignore ST1005 Canadian is a proper noun
		return fmt.Errorf("Canadian moves %d (+%d per block) out of range", o.Moves, o.Step)
	case o.Block <= 0 || o.Block > maxDuration:
		//lint:ignore ST1005 Canadian is a proper noun
		return fmt.Errorf("Canadian block %v out of range", o.Block)
	case o.hasByoyomi():
		//lint:ignore ST1005 Canadian is a proper noun
		return errors.New("Canadian overtime with byoyomi parameters")
	}
	return nil
}

// hasByoyomi reports whether any byoyomi parameter is set.
func (o Overtime) hasByoyomi() bool {
	return o.Periods != 0 || o.Period != 0 || o.Units != 0 || o.Unit != 0
}

// hasCanadian reports whether any Canadian parameter is set.
func (o Overtime) hasCanadian() bool {
	return o.Moves != 0 || o.Step != 0 || o.Block != 0 || o.Carry || o.FromNextMove
}

// blockMoves is the number of moves Canadian block k (from 0) requires,
// saturating so that a very long game cannot overflow. Without a step
// every block needs the same moves, however many blocks went before.
func (o Overtime) blockMoves(k int) int {
	const most = maxCount * maxCount
	if o.Step == 0 {
		return o.Moves
	}
	if k >= (most-o.Moves)/o.Step {
		return most
	}
	return o.Moves + k*o.Step
}

// stage returns stage i, repeating the last one beyond the end.
func (c *Control) stage(i int) Stage {
	if i >= len(c.Stages) {
		return c.Stages[len(c.Stages)-1]
	}
	return c.Stages[i]
}

// Describe returns a human description such as
// "90 min/40 moves + 30 min, +30 s/move".
func (c Control) Describe() string {
	switch c.Kind {
	case Upcount:
		return "no clock (upcount)"
	case Hourglass:
		if len(c.Stages) == 1 {
			return "hourglass, " + human(c.Stages[0].Base) + " each"
		}
	}
	if len(c.Stages) == 0 {
		return "invalid time control"
	}
	var b strings.Builder
	same := c.sameBonus()
	for i, st := range c.Stages {
		if i > 0 {
			b.WriteString(" + ")
		}
		st.describe(&b, len(c.Stages) == 1, !same)
	}
	if last := c.Stages[len(c.Stages)-1]; last.Moves > 0 {
		b.WriteString(", repeating")
	}
	if same {
		if s := c.Stages[0].bonusText(); s != "" {
			b.WriteString(", " + s)
		}
	}
	c.Overtime.describe(&b)
	return b.String()
}

// sameBonus reports whether every stage has the first one's bonus and
// charge unit.
func (c Control) sameBonus() bool {
	first := c.Stages[0]
	for _, st := range c.Stages[1:] {
		if st.Method != first.Method || st.Bonus != first.Bonus ||
			st.Unit != first.Unit || st.Rounding != first.Rounding {
			return false
		}
	}
	return true
}

// describe writes the stage for people: its time, its move quota and,
// withBonus, its bonus. An only stage without time has "no main time".
func (st Stage) describe(b *strings.Builder, only, withBonus bool) {
	if st.Base == 0 && only {
		b.WriteString("no main time")
	} else {
		b.WriteString(human(st.Base))
	}
	if st.Moves > 0 {
		fmt.Fprintf(b, "/%d moves", st.Moves)
	}
	if withBonus {
		if s := st.bonusText(); s != "" {
			b.WriteString(" (" + s + ")")
		}
	}
}

// describe writes the overtime for people, after the stages: ", then …".
func (o Overtime) describe(b *strings.Builder) {
	switch o.Kind {
	case Byoyomi:
		if o.Periods == 1 {
			fmt.Fprintf(b, ", then %s byoyomi", human(o.Period))
		} else {
			fmt.Fprintf(b, ", then %d × %s byoyomi", o.Periods, human(o.Period))
		}
		if o.Units > 0 {
			fmt.Fprintf(b, " + %d × %s thinking time", o.Units, human(o.Unit))
		}
	case Canadian:
		if o.Step > 0 {
			fmt.Fprintf(b, ", then %d moves (+%d each block) in %s (Canadian)", o.Moves, o.Step, human(o.Block))
		} else {
			fmt.Fprintf(b, ", then %d moves in %s (Canadian)", o.Moves, human(o.Block))
		}
		if o.Carry {
			b.WriteString(", leftover kept")
		}
		if o.FromNextMove {
			b.WriteString(", counting from the next move")
		}
	}
}

func (st Stage) bonusText() string {
	var parts []string
	switch st.Method {
	case Fischer:
		parts = append(parts, "+"+human(st.Bonus)+"/move")
	case Delay:
		parts = append(parts, human(st.Bonus)+" delay")
	case Bronstein:
		parts = append(parts, human(st.Bonus)+" Bronstein delay")
	}
	if st.Unit > 0 {
		parts = append(parts, "charged in units of "+human(st.Unit)+" ("+st.Rounding.words()+")")
	}
	return strings.Join(parts, ", ")
}

// roundingWords say how each rounding charges, for people.
var roundingWords = [...]string{Truncate: "truncated", Up: "rounded up", Nearest: "rounded"}

// words says how r charges, for people: "rounded up".
func (r Rounding) words() string {
	if int(r) < len(roundingWords) {
		return roundingWords[r]
	}
	return "rounding " + strconv.Itoa(int(r))
}

// human writes d for people: "90 min", "2 h", "30 s", "1 min 30 s".
func human(d time.Duration) string { return spell(d, humanUnits) }

// unitNames are the words spell uses.
type unitNames struct{ h, m, s, sep, zero string }

var (
	humanUnits = unitNames{h: " h", m: " min", s: " s", sep: " ", zero: "0 s"}
	textUnits  = unitNames{h: "h", m: "m", s: "s", zero: "0"}
)

// spell writes d in the largest whole unit, as minutes and seconds, or as
// exact decimal seconds.
func spell(d time.Duration, u unitNames) string {
	n := func(d time.Duration) string { return strconv.FormatInt(int64(d), 10) }
	switch {
	case d == 0:
		return u.zero
	case d%time.Hour == 0:
		return n(d/time.Hour) + u.h
	case d%time.Minute == 0:
		return n(d/time.Minute) + u.m
	case d%time.Second == 0 && d > time.Minute:
		return n(d/time.Minute) + u.m + u.sep + n(d%time.Minute/time.Second) + u.s
	case d%time.Second == 0:
		return n(d/time.Second) + u.s
	}
	return n(d/time.Second) + "." + strings.TrimRight(fmt.Sprintf("%09d", int64(d%time.Second)), "0") + u.s
}

// PGN returns the control as a PGN TimeControl tag value, and false if the
// PGN form cannot express it (delays, overtime, charge units, fractions of
// a second).
func (c Control) PGN() (string, bool) {
	switch c.Kind {
	case Upcount:
		return "-", true
	case Hourglass:
		if len(c.Stages) != 1 || !wholeSeconds(c.Stages[0].Base) {
			return "", false
		}
		return "*" + pgnSeconds(c.Stages[0].Base), true
	}
	if c.Overtime.Kind != NoOvertime || len(c.Stages) == 0 {
		return "", false
	}
	var b strings.Builder
	for i, st := range c.Stages {
		if i > 0 {
			b.WriteByte(':')
		}
		if !st.writePGN(&b) {
			return "", false
		}
	}
	return b.String(), true
}

// writePGN writes the stage as a PGN TimeControl field, moves/seconds+
// increment, and reports false if PGN cannot express it.
func (st Stage) writePGN(b *strings.Builder) bool {
	if st.Unit != 0 || (st.Method != NoBonus && st.Method != Fischer) || !wholeSeconds(st.Base) || !wholeSeconds(st.Bonus) {
		return false
	}
	if st.Moves > 0 {
		b.WriteString(strconv.Itoa(st.Moves) + "/")
	}
	b.WriteString(pgnSeconds(st.Base))
	if st.Method == Fischer {
		b.WriteString("+" + pgnSeconds(st.Bonus))
	}
	return true
}

// wholeSeconds reports whether d is a whole number of seconds.
func wholeSeconds(d time.Duration) bool { return d%time.Second == 0 }

// pgnSeconds writes d in whole seconds, as PGN does.
func pgnSeconds(d time.Duration) string { return strconv.FormatInt(int64(d/time.Second), 10) }
