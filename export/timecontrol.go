package export

import (
	"strconv"
	"strings"
	"time"

	"arbiter/clock"
)

// PGNTimeControl writes a stored time control (the clock package's text
// form, e.g. "40/90m+30s:30m+30s") as the PGN standard's TimeControl tag
// value (section 9.6.1), in whole seconds: "5400+30",
// "40/5400+30:1800+30", "*60" for an hourglass, "-" for no clock. What
// the tag cannot say (a delay, byoyomi, Canadian overtime, charging in
// whole units, fractions of a second) and an unreadable text give "?",
// the tag's "unknown", with ok false.
func PGNTimeControl(text string) (tag string, ok bool) {
	c, err := clock.Parse(text)
	if err != nil {
		return "?", false
	}
	switch c.Kind {
	case clock.Upcount:
		return "-", true
	case clock.Hourglass:
		s, ok := wholeSeconds(c.Stages[0].Base)
		if !ok {
			return "?", false
		}
		return "*" + s, true
	}
	if c.Overtime.Kind != clock.NoOvertime {
		return "?", false
	}
	fields := make([]string, 0, len(c.Stages))
	for _, st := range c.Stages {
		f, ok := pgnStage(st)
		if !ok {
			return "?", false
		}
		fields = append(fields, f)
	}
	return strings.Join(fields, ":"), true
}

// pgnStage writes one stage of a control as a TimeControl field: moves/
// seconds, "+" the increment; ok false for what the tag cannot say.
func pgnStage(st clock.Stage) (field string, ok bool) {
	if st.Unit != 0 || (st.Method != clock.NoBonus && st.Method != clock.Fischer) {
		return "", false
	}
	var b strings.Builder
	if st.Moves > 0 {
		b.WriteString(strconv.Itoa(st.Moves) + "/")
	}
	base, ok := wholeSeconds(st.Base)
	if !ok {
		return "", false
	}
	b.WriteString(base)
	if st.Method == clock.Fischer && st.Bonus > 0 {
		inc, ok := wholeSeconds(st.Bonus)
		if !ok {
			return "", false
		}
		b.WriteString("+" + inc)
	}
	return b.String(), true
}

// wholeSeconds writes d in seconds; ok false when d is negative or has a
// fraction of a second.
func wholeSeconds(d time.Duration) (string, bool) {
	if d < 0 || d%time.Second != 0 {
		return "", false
	}
	return strconv.FormatInt(int64(d/time.Second), 10), true
}

// shogiTimes returns what the shogi records' time headers say of a stored
// time control: the main time (持ち時間, $TIME_LIMIT), the byoyomi period
// (秒読み) and the Fischer increment (加算時間); zeros for a control
// without a clock or one that does not parse. Stages after the first are
// not said (the record's note keeps the whole control).
func shogiTimes(text string) (main, byoyomi, increment time.Duration) {
	c, err := clock.Parse(text)
	if err != nil || c.Kind != clock.Standard || len(c.Stages) == 0 {
		return 0, 0, 0
	}
	st := c.Stages[0]
	main = st.Base
	if st.Method == clock.Fischer {
		increment = st.Bonus
	}
	if c.Overtime.Kind == clock.Byoyomi {
		byoyomi = c.Overtime.Period
	}
	return main, byoyomi, increment
}

// moveTimes returns the time each stored move took: the clock's own
// measure when the move has one, else the time between the move and the
// one before it (the game's start for the first) as the host saw them,
// else zero.
func moveTimes(s *Sheet) []time.Duration {
	out := make([]time.Duration, len(s.Moves))
	prev := s.Game.Started
	for i, m := range s.Moves {
		switch {
		case m.Used > 0:
			out[i] = m.Used
		case !prev.IsZero() && !m.Wall.IsZero() && m.Wall.After(prev):
			out[i] = m.Wall.Sub(prev)
		}
		prev = m.Wall
	}
	return out
}
