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
	secs := func(d time.Duration) (string, bool) {
		if d < 0 || d%time.Second != 0 {
			return "", false
		}
		return strconv.FormatInt(int64(d/time.Second), 10), true
	}
	switch c.Kind {
	case clock.Upcount:
		return "-", true
	case clock.Hourglass:
		s, ok := secs(c.Stages[0].Base)
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
		if st.Unit != 0 || (st.Method != clock.NoBonus && st.Method != clock.Fischer) {
			return "?", false
		}
		var b strings.Builder
		if st.Moves > 0 {
			b.WriteString(strconv.Itoa(st.Moves) + "/")
		}
		base, ok := secs(st.Base)
		if !ok {
			return "?", false
		}
		b.WriteString(base)
		if st.Method == clock.Fischer && st.Bonus > 0 {
			inc, ok := secs(st.Bonus)
			if !ok {
				return "?", false
			}
			b.WriteString("+" + inc)
		}
		fields = append(fields, b.String())
	}
	return strings.Join(fields, ":"), true
}
