package clock

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ErrUnknownControl is returned by [Parse] for the PGN value "?": the time
// control was not recorded.
var ErrUnknownControl = errors.New("time control unknown")

// SyntaxError reports bad time-control text: what is wrong, at which
// column, and the offending token.
type SyntaxError struct {
	Input  string // the whole text
	Offset int    // byte offset of Token in Input
	Token  string // the offending text, empty at the end of input
	Msg    string // what is wrong
}

// Error implements error.
func (e *SyntaxError) Error() string {
	tok := strconv.Quote(e.Token)
	if e.Token == "" {
		tok = "end of text"
	}
	return fmt.Sprintf("time control %q: column %d (%s): %s", e.Input, e.Offset+1, tok, e.Msg)
}

// Parse reads a time control. The grammar, a superset of the PGN
// TimeControl tag (where bare numbers are seconds):
//
//	control  = "-"                          no clock (upcount)
//	         | "?"                          unknown: ErrUnknownControl
//	         | "*" dur                      hourglass
//	         | stage { ":" stage } [ ":" overtime ]
//	stage    = [ moves "/" ] dur [ "@" [ "ceil" | "round" ] dur ] [ "+" [ "d" | "b" ] dur ]
//	overtime = "byo=" [ n "x" ] dur [ "+" n "x" dur ]
//	         | "can=" n [ "+" n ] "/" dur { "," ( "carry" | "next" ) }
//	dur      = integer seconds | { number ( "h" | "m" | "s" | "ms" ) }
//
// "@unit" charges each move in whole units (shogi stopwatch, truncating by
// default); "+dur" is a Fischer increment, "+d" a US delay, "+b" a
// Bronstein delay. "byo=5x30s+10x1m" is five 30 s byoyomi periods followed
// by ten one-minute thinking units; "can=10+10/5m" is progressive Canadian
// overtime. Examples: "40/90m+30s:30m+30s", "40/5400+30:1800+30",
// "90m:byo=30s", "6h@1m:byo=1m", "0:byo=30s+10x1m", "*60", "-".
func Parse(text string) (Control, error) {
	p := parser{in: strings.TrimSpace(text)}
	c, err := p.control()
	if err != nil {
		return Control{}, err
	}
	if err := c.Validate(); err != nil {
		return Control{}, &SyntaxError{Input: p.in, Offset: 0, Token: p.in, Msg: err.Error()}
	}
	return c, nil
}

type parser struct {
	in  string
	pos int
}

func (p *parser) fail(at int, msg string) error {
	end := at
	for end < len(p.in) && p.in[end] != ':' && p.in[end] != '+' && p.in[end] != '/' &&
		p.in[end] != ',' && p.in[end] != '@' && (end == at || p.in[end] != '=') {
		end++
	}
	if end == at && at < len(p.in) {
		end = at + 1
	}
	return &SyntaxError{Input: p.in, Offset: at, Token: p.in[at:end], Msg: msg}
}

func (p *parser) eof() bool { return p.pos >= len(p.in) }

func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.in[p.pos]
}

func (p *parser) accept(s string) bool {
	if strings.HasPrefix(p.in[p.pos:], s) {
		p.pos += len(s)
		return true
	}
	return false
}

// keyword accepts the first of words found at the cursor and returns its
// index, or -1 if none is there.
func (p *parser) keyword(words ...string) int {
	for i, w := range words {
		if p.accept(w) {
			return i
		}
	}
	return -1
}

func (p *parser) control() (Control, error) {
	switch p.in {
	case "":
		return Control{}, p.fail(0, "empty time control")
	case "-":
		return Control{Kind: Upcount}, nil
	case "?":
		return Control{}, ErrUnknownControl
	}
	if p.accept("*") {
		return p.hourglass()
	}
	return p.standard()
}

// hourglass reads the time of an hourglass control, after its "*".
func (p *parser) hourglass() (Control, error) {
	d, err := p.positive("hourglass time")
	if err != nil {
		return Control{}, err
	}
	if !p.eof() {
		return Control{}, p.fail(p.pos, "hourglass takes only a time")
	}
	return Control{Kind: Hourglass, Stages: []Stage{{Base: d}}}, nil
}

// standard reads a standard control: stages separated by ":" and the
// overtime, if any, last.
func (p *parser) standard() (Control, error) {
	var c Control
	for {
		if strings.HasPrefix(p.in[p.pos:], "byo=") || strings.HasPrefix(p.in[p.pos:], "can=") {
			o, err := p.lastOvertime(c.Stages)
			if err != nil {
				return Control{}, err
			}
			c.Overtime = o
			return c, nil
		}
		st, err := p.nextStage(c.Stages)
		if err != nil {
			return Control{}, err
		}
		c.Stages = append(c.Stages, st)
		if p.eof() {
			return c, nil
		}
		if err := p.stageSeparator(); err != nil {
			return Control{}, err
		}
	}
}

// lastOvertime reads the overtime after the stages read so far, which
// must end with a stage for the rest of the game; nothing may follow it.
func (p *parser) lastOvertime(stages []Stage) (Overtime, error) {
	if len(stages) == 0 {
		return Overtime{}, p.fail(p.pos, "overtime needs a main-time stage before it")
	}
	if stages[len(stages)-1].Moves > 0 {
		return Overtime{}, p.fail(p.pos, "overtime needs a last stage for the rest of the game")
	}
	o, err := p.overtime()
	if err != nil {
		return Overtime{}, err
	}
	if !p.eof() {
		return Overtime{}, p.fail(p.pos, "overtime must come last")
	}
	return o, nil
}

// nextStage reads the stage after the stages read so far, the last of
// which must have a move quota.
func (p *parser) nextStage(stages []Stage) (Stage, error) {
	start := p.pos
	st, err := p.stage()
	if err != nil {
		return Stage{}, err
	}
	if len(stages) > 0 && stages[len(stages)-1].Moves == 0 {
		return Stage{}, p.fail(start, "a stage follows a stage for the rest of the game")
	}
	if len(stages) >= maxCount {
		return Stage{}, p.fail(start, "too many stages")
	}
	return st, nil
}

// stageSeparator reads the ":" between two stages.
func (p *parser) stageSeparator() error {
	if !p.accept(":") {
		return p.fail(p.pos, `expected ":" between stages`)
	}
	if p.eof() {
		return p.fail(p.pos, `nothing after ":"`)
	}
	return nil
}

func (p *parser) stage() (Stage, error) {
	var st Stage
	save := p.pos
	if n, ok := p.integer(); ok && p.peek() == '/' {
		if n == 0 || n > maxCount {
			return st, p.fail(save, "move quota must be 1 to 100000")
		}
		st.Moves = n
		p.pos++
	} else {
		p.pos = save
	}
	base, err := p.duration()
	if err != nil {
		return st, err
	}
	st.Base = base
	if p.accept("@") {
		st.Rounding = [...]Rounding{Truncate, Up, Nearest}[p.keyword("ceil", "round")+1]
		if st.Unit, err = p.positive("charge unit"); err != nil {
			return st, err
		}
	}
	if p.accept("+") {
		st.Method = [...]Method{Fischer, Delay, Bronstein}[p.keyword("d", "b")+1]
		at := p.pos
		if st.Bonus, err = p.duration(); err != nil {
			return st, err
		}
		if st.Bonus == 0 {
			if st.Method != Fischer {
				return st, p.fail(at, "delay must be positive")
			}
			st.Method = NoBonus // PGN "300+0"
		}
	}
	return st, nil
}

func (p *parser) overtime() (Overtime, error) {
	if p.accept("byo=") {
		return p.byoyomi()
	}
	p.accept("can=")
	return p.canadian()
}

// byoyomi reads byoyomi after its "byo=": [n "x"] dur ["+" n "x" dur].
func (p *parser) byoyomi() (Overtime, error) {
	o := Overtime{Kind: Byoyomi, Periods: 1}
	n, d, err := p.countTimes(false)
	if err != nil {
		return o, err
	}
	if n > 0 {
		o.Periods = n
	}
	o.Period = d
	if p.accept("+") {
		if o.Units, o.Unit, err = p.countTimes(true); err != nil {
			return o, err
		}
	}
	return o, nil
}

// canadian reads Canadian overtime after its "can=": n ["+" n] "/" dur
// {"," option}.
func (p *parser) canadian() (Overtime, error) {
	o := Overtime{Kind: Canadian}
	at := p.pos
	n, ok := p.integer()
	if !ok || !within(n, 1, maxCount) {
		return o, p.fail(at, "Canadian overtime needs a move count of 1 to 100000")
	}
	o.Moves = n
	if p.accept("+") {
		at = p.pos
		if o.Step, ok = p.integer(); !ok || !within(o.Step, 1, maxCount) {
			return o, p.fail(at, "progressive step must be 1 to 100000")
		}
	}
	if !p.accept("/") {
		return o, p.fail(p.pos, `expected "/" and the block time`)
	}
	var err error
	if o.Block, err = p.positive("block time"); err != nil {
		return o, err
	}
	for p.accept(",") {
		switch p.keyword("carry", "next") {
		case 0:
			o.Carry = true
		case 1:
			o.FromNextMove = true
		default:
			return o, p.fail(p.pos, `unknown Canadian option (want "carry" or "next")`)
		}
	}
	return o, nil
}

// countTimes reads "n x dur" or, unless needCount, a bare "dur" (count 0).
func (p *parser) countTimes(needCount bool) (int, time.Duration, error) {
	at := p.pos
	n, ok := p.integer()
	if ok && p.peek() == 'x' {
		if n == 0 || n > maxCount {
			return 0, 0, p.fail(at, "count must be 1 to 100000")
		}
		p.pos++
	} else {
		if needCount {
			return 0, 0, p.fail(at, `expected a count and "x", as in "10x1m"`)
		}
		n = 0
		p.pos = at
	}
	d, err := p.positive("period")
	return n, d, err
}

// positive reads a duration that must not be zero; what names it in the
// error.
func (p *parser) positive(what string) (time.Duration, error) {
	at := p.pos
	d, err := p.duration()
	if err == nil && d == 0 {
		err = p.fail(at, what+" must be positive")
	}
	return d, err
}

// integer reads decimal digits; ok is false if there are none or too many.
func (p *parser) integer() (int, bool) {
	start := p.pos
	n := 0
	for !p.eof() && p.peek() >= '0' && p.peek() <= '9' {
		if n > 1e9 {
			p.pos = start
			return 0, false
		}
		n = n*10 + int(p.peek()-'0')
		p.pos++
	}
	return n, p.pos > start
}

var units = []struct {
	name string
	d    time.Duration
}{{"ms", time.Millisecond}, {"h", time.Hour}, {"m", time.Minute}, {"s", time.Second}}

// duration reads integer seconds or a sequence of number-unit pairs.
func (p *parser) duration() (time.Duration, error) {
	start := p.pos
	var total time.Duration
	for terms := 0; ; terms++ {
		at := p.pos
		whole, ok := p.integer()
		if !ok {
			if terms > 0 {
				return total, nil
			}
			if p.eof() {
				return 0, p.fail(at, "expected a time")
			}
			return 0, p.fail(at, "expected a time (seconds, or e.g. 90m, 1h30m, 30s)")
		}
		frac, fracDigits, err := p.fraction(at)
		if err != nil {
			return 0, err
		}
		unit := p.unit()
		if unit == 0 {
			if terms > 0 || fracDigits > 0 {
				return 0, p.fail(at, "number without a unit (h, m, s or ms)")
			}
			unit = time.Second // PGN: bare seconds
		}
		d, ok := term(whole, frac, fracDigits, unit)
		if total += d; !ok || total > maxDuration {
			return 0, p.fail(start, "time too long (the limit is 10000h)")
		}
	}
}

// fraction reads the decimal places of the number that started at at,
// if there is a decimal point: their value, to 9 places, and how many
// places that is.
func (p *parser) fraction(at int) (frac, digits int, err error) {
	if !p.accept(".") {
		return 0, 0, nil
	}
	for !p.eof() && p.peek() >= '0' && p.peek() <= '9' {
		if digits < 9 {
			frac = frac*10 + int(p.peek()-'0')
			digits++
		}
		p.pos++
	}
	if digits == 0 {
		return 0, 0, p.fail(at, "expected digits after the decimal point")
	}
	return frac, digits, nil
}

// unit reads a unit name and returns the unit, 0 if there is none.
func (p *parser) unit() time.Duration {
	for _, u := range units {
		if p.accept(u.name) {
			return u.d
		}
	}
	return 0
}

// term returns whole.frac (frac having fracDigits places) units, and
// false if that exceeds maxDuration.
func term(whole, frac, fracDigits int, unit time.Duration) (time.Duration, bool) {
	if time.Duration(whole) > maxDuration/unit {
		return 0, false
	}
	d := time.Duration(whole) * unit
	if fracDigits > 0 {
		scale := time.Duration(1)
		for range fracDigits {
			scale *= 10
		}
		d += time.Duration(frac) * (unit / scale)
		if unit%scale != 0 {
			d += time.Duration(frac) * (unit % scale) / scale
		}
	}
	return d, true
}

// MarshalText implements encoding.TextMarshaler with the String form, so
// a Control can sit in configs and JSON records.
func (c Control) MarshalText() ([]byte, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("marshal time control: %w", err)
	}
	return []byte(c.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with Parse.
func (c *Control) UnmarshalText(text []byte) error {
	ctl, err := Parse(string(text))
	if err != nil {
		return err
	}
	*c = ctl
	return nil
}

// String returns the canonical text form, which [Parse] reads back to the
// same Control.
func (c Control) String() string {
	switch c.Kind {
	case Upcount:
		return "-"
	case Hourglass:
		if len(c.Stages) == 1 {
			return "*" + formatDuration(c.Stages[0].Base)
		}
	}
	var b strings.Builder
	for i, st := range c.Stages {
		if i > 0 {
			b.WriteByte(':')
		}
		st.writeText(&b)
	}
	c.Overtime.writeText(&b)
	return b.String()
}

// writeText writes the stage in the form Parse reads:
// [moves "/"] dur ["@" rounding unit] ["+" method bonus].
func (st Stage) writeText(b *strings.Builder) {
	if st.Moves > 0 {
		b.WriteString(strconv.Itoa(st.Moves))
		b.WriteByte('/')
	}
	b.WriteString(formatDuration(st.Base))
	if st.Unit > 0 {
		b.WriteByte('@')
		switch st.Rounding {
		case Up:
			b.WriteString("ceil")
		case Nearest:
			b.WriteString("round")
		}
		b.WriteString(formatDuration(st.Unit))
	}
	switch st.Method {
	case Fischer:
		b.WriteString("+" + formatDuration(st.Bonus))
	case Delay:
		b.WriteString("+d" + formatDuration(st.Bonus))
	case Bronstein:
		b.WriteString("+b" + formatDuration(st.Bonus))
	}
}

// writeText writes the overtime, if any, in the form Parse reads, with
// the ":" that puts it after the stages.
func (o Overtime) writeText(b *strings.Builder) {
	switch o.Kind {
	case Byoyomi:
		b.WriteString(":byo=")
		if o.Periods != 1 {
			b.WriteString(strconv.Itoa(o.Periods) + "x")
		}
		b.WriteString(formatDuration(o.Period))
		if o.Units > 0 {
			b.WriteString("+" + strconv.Itoa(o.Units) + "x" + formatDuration(o.Unit))
		}
	case Canadian:
		b.WriteString(":can=" + strconv.Itoa(o.Moves))
		if o.Step > 0 {
			b.WriteString("+" + strconv.Itoa(o.Step))
		}
		b.WriteString("/" + formatDuration(o.Block))
		if o.Carry {
			b.WriteString(",carry")
		}
		if o.FromNextMove {
			b.WriteString(",next")
		}
	}
}

// formatDuration writes d in the unit form Parse reads: "90m", "2h",
// "1m30s", "30s", "1.5s", "0".
func formatDuration(d time.Duration) string { return spell(d, textUnits) }
