package kvaa

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter/rules"
)

// CaptureMode says whether a player who can capture must (option
// "capture", §4.4.6).
type CaptureMode uint8

const (
	// Optional lets the player choose any legal move (the default, D-19).
	Optional CaptureMode = iota
	// Compulsory makes the move a capture whenever one is available.
	Compulsory
)

// Placement is the rule for bringing in reserve counters (option
// "placement", §4.5.1).
type Placement uint8

const (
	// MoveThenPlace is 4.5.1.1: move, then place.
	MoveThenPlace Placement = iota + 1
	// PlaceThenMove is 4.5.1.2, the default (D-20): place, then move another
	// counter.
	PlaceThenMove
	// PlaceInstead is 4.5.1.3: the placement is the whole turn.
	PlaceInstead
	// Deferred is 4.5.1.4: a placement is a turn of its own, at any time.
	Deferred
)

// String returns the variant's section number, "4.5.1.1" to "4.5.1.4".
func (p Placement) String() string { return "4.5.1." + strconv.Itoa(int(p)) }

// Fallback is the 4.5.1.2 rule for a placement after which no move is
// possible (option "p2_fallback", D-11).
type Fallback uint8

const (
	// Global forbids such a placement whenever another placement leaves a
	// move (the default).
	Global Fallback = iota
	// PerPlacement lets such a placement end the turn.
	PerPlacement
)

// Adjudication decides a mutual blockade or a game without progress (option
// "adjudication", §4.7.4/§4.7.5, D-18).
type Adjudication uint8

const (
	// MaterialOnBoard: more counters on the board wins (the default).
	MaterialOnBoard Adjudication = iota
	// MaterialTotal: more counters on the board and in reserve wins.
	MaterialTotal
	// AdjudicateDraw: the game is drawn.
	AdjudicateDraw
)

// TimeControl is a base time and an increment per turn (option
// "time_control", written "600+0" in seconds, D-24).
type TimeControl struct {
	Base, Increment time.Duration
}

// String writes the time control in whole seconds, "600+0".
func (t TimeControl) String() string {
	return strconv.FormatInt(int64(t.Base/time.Second), 10) + "+" + strconv.FormatInt(int64(t.Increment/time.Second), 10)
}

// ParseTimeControl reads "base+increment" in whole seconds.
func ParseTimeControl(s string) (TimeControl, error) {
	b, i, ok := strings.Cut(s, "+")
	if !ok {
		return TimeControl{}, fmt.Errorf("time control %q: want base+increment in seconds, e.g. 600+0", s)
	}
	base, err := parseCount(b, 1, 1e6)
	if err != nil {
		return TimeControl{}, fmt.Errorf("time control %q base: %w", s, err)
	}
	inc, err := parseCount(i, 0, 1e6)
	if err != nil {
		return TimeControl{}, fmt.Errorf("time control %q increment: %w", s, err)
	}
	return TimeControl{time.Duration(base) * time.Second, time.Duration(inc) * time.Second}, nil
}

// FlagResult is what running out of time gives (option "flag_result").
type FlagResult uint8

const (
	// FlagLoss: the player whose time ran out loses (the default).
	FlagLoss FlagResult = iota
	// FlagDraw: the game is drawn.
	FlagDraw
)

// IllegalPolicy is the penalty for an illegal turn (option
// "illegal_policy", D-23).
type IllegalPolicy struct {
	Kind IllegalKind
	// N is the seconds added to the opponent (TimePenalty) or the number of
	// the illegal attempt that loses (ForfeitAfter).
	N int
}

// IllegalKind is a kind of illegal-move policy.
type IllegalKind uint8

const (
	// Correct: the turn is only corrected (the default).
	Correct IllegalKind = iota
	// TimePenalty: N seconds are added to the opponent's clock.
	TimePenalty
	// ForfeitAfter: the N-th illegal attempt loses.
	ForfeitAfter
)

// String writes the policy as "correct", "time_penalty:N" or
// "forfeit_after:N".
func (p IllegalPolicy) String() string {
	switch p.Kind {
	case TimePenalty:
		return "time_penalty:" + strconv.Itoa(p.N)
	case ForfeitAfter:
		return "forfeit_after:" + strconv.Itoa(p.N)
	}
	return "correct"
}

// ParseIllegalPolicy is the inverse of [IllegalPolicy.String].
func ParseIllegalPolicy(s string) (IllegalPolicy, error) {
	if s == "correct" {
		return IllegalPolicy{}, nil
	}
	k, n, ok := strings.Cut(s, ":")
	var kind IllegalKind
	switch {
	case ok && k == "time_penalty":
		kind = TimePenalty
	case ok && k == "forfeit_after":
		kind = ForfeitAfter
	default:
		return IllegalPolicy{}, fmt.Errorf("illegal policy %q: want correct, time_penalty:N or forfeit_after:N", s)
	}
	v, err := parseCount(n, 1, 1e6)
	if err != nil {
		return IllegalPolicy{}, fmt.Errorf("illegal policy %q: %w", s, err)
	}
	return IllegalPolicy{kind, v}, nil
}

// CommitMode is what commits a turn (option "commit_mode", D-22).
type CommitMode uint8

const (
	// ClockPress: the mover's clock press (the default).
	ClockPress CommitMode = iota
	// Settle: the board unchanged for the settle time and matching a turn.
	Settle
)

// SensorLevel is what the board senses (option "sensor_level", 7.1):
// presence always, optionally the side of each counter, optionally trays.
type SensorLevel struct {
	Side  bool // Level 2: the side of the counter on each cell
	Trays bool // reserve and captured trays report counts
}

// String writes the level as "presence", "presence+side",
// "presence+trays" or "presence+side+trays".
func (l SensorLevel) String() string {
	s := "presence"
	if l.Side {
		s += "+side"
	}
	if l.Trays {
		s += "+trays"
	}
	return s
}

// ParseSensorLevel is the inverse of [SensorLevel.String]; the parts after
// "presence" may come in any order.
func ParseSensorLevel(s string) (SensorLevel, error) {
	parts := strings.Split(s, "+")
	if parts[0] != "presence" {
		return SensorLevel{}, fmt.Errorf("sensor level %q: must start with presence", s)
	}
	var l SensorLevel
	for _, p := range parts[1:] {
		switch {
		case p == "side" && !l.Side:
			l.Side = true
		case p == "trays" && !l.Trays:
			l.Trays = true
		default:
			return SensorLevel{}, fmt.Errorf("sensor level %q: part %q is not side or trays, or is repeated", s, p)
		}
	}
	return l, nil
}

// Config is the full configuration of a game (section 11), fixed before the
// first turn and written into the record.
type Config struct {
	Scheme                   Scheme
	Capture                  CaptureMode
	Placement                Placement
	First                    rules.Color // the side that moves first
	Colours                  [2]string   // labels of South and North
	Setup                    string      // "standard" or a KPS string
	MirrorRule               bool        // rule 4.6
	P2Fallback               Fallback
	P4CaptureBlocksPlacement bool
	NoProgressPlies          int // 0 = off
	RepetitionLimit          int // 0 = off
	Adjudication             Adjudication
	TimeControl              TimeControl
	FlagResult               FlagResult
	IllegalPolicy            IllegalPolicy
	CommitMode               CommitMode
	Settle                   time.Duration // settle_ms
	Debounce                 time.Duration // debounce_ms
	SensorLevel              SensorLevel
}

// DefaultConfig returns the spec's defaults.
func DefaultConfig() Config {
	return Config{
		Scheme:                   R2,
		Capture:                  Optional,
		Placement:                PlaceThenMove,
		First:                    rules.First,
		Colours:                  [2]string{"white", "black"},
		Setup:                    "standard",
		MirrorRule:               true,
		P2Fallback:               Global,
		P4CaptureBlocksPlacement: true,
		NoProgressPlies:          40,
		RepetitionLimit:          3,
		Adjudication:             MaterialOnBoard,
		TimeControl:              TimeControl{600 * time.Second, 0},
		FlagResult:               FlagLoss,
		IllegalPolicy:            IllegalPolicy{Kind: Correct},
		CommitMode:               ClockPress,
		Settle:                   1500 * time.Millisecond,
		Debounce:                 100 * time.Millisecond,
	}
}

// option describes one configurable option: its key, its record tag, and
// how to read and write its value.
type option struct {
	key, tag string
	codec
}

// codec reads and writes one option's value.
type codec struct {
	parse  func(c *Config, v string) error
	format func(c *Config) string
}

// choice maps a value's text to and from its code.
func choice[T comparable](field func(c *Config) *T, names map[T]string) codec {
	parse := func(c *Config, v string) error {
		var want []string
		for code, name := range names {
			if name == v {
				*field(c) = code
				return nil
			}
			want = append(want, name)
		}
		return fmt.Errorf("%q is not one of %s", v, strings.Join(sortedStrings(want), ", "))
	}
	return codec{parse, func(c *Config) string { return names[*field(c)] }}
}

func intOption(field func(c *Config) *int, max int) codec {
	return codec{func(c *Config, v string) error {
		n, err := parseCount(v, 0, max)
		*field(c) = n
		return err
	}, func(c *Config) string {
		return strconv.Itoa(*field(c))
	}}
}

func msOption(field func(c *Config) *time.Duration) codec {
	return codec{func(c *Config, v string) error {
		n, err := parseCount(v, 0, 1e7)
		*field(c) = time.Duration(n) * time.Millisecond
		return err
	}, func(c *Config) string {
		return strconv.FormatInt(int64(*field(c)/time.Millisecond), 10)
	}}
}

// options lists every option of section 11, in the order of the spec's
// table; the tags are those of the record format (6.2), with tags added for
// the options the spec gives none.
var options = []option{
	{"scheme", "Scheme", codec{
		func(c *Config, v string) (err error) { c.Scheme, err = ParseScheme(v); return err },
		func(c *Config) string { return c.Scheme.String() }}},
	{"capture", "Capture", choice(func(c *Config) *CaptureMode { return &c.Capture },
		map[CaptureMode]string{Optional: "optional", Compulsory: "compulsory"})},
	{"placement", "Placement", choice(func(c *Config) *Placement { return &c.Placement },
		map[Placement]string{MoveThenPlace: "4.5.1.1", PlaceThenMove: "4.5.1.2", PlaceInstead: "4.5.1.3", Deferred: "4.5.1.4"})},
	{"first_player", "First", choice(func(c *Config) *rules.Color { return &c.First },
		map[rules.Color]string{rules.First: "S", rules.Second: "N"})},
	{"colours", "", codec{parseColours, func(c *Config) string { return c.Colours[0] + "/" + c.Colours[1] }}},
	{"setup", "Setup", codec{parseSetup, func(c *Config) string { return c.Setup }}},
	{"mirror_rule", "MirrorRule", choice(func(c *Config) *bool { return &c.MirrorRule },
		map[bool]string{true: "on", false: "off"})},
	{"p2_fallback", "P2Fallback", choice(func(c *Config) *Fallback { return &c.P2Fallback },
		map[Fallback]string{Global: "global", PerPlacement: "per_placement"})},
	{"p4_capture_blocks_placement", "P4CaptureBlocksPlacement", choice(func(c *Config) *bool { return &c.P4CaptureBlocksPlacement },
		map[bool]string{true: "true", false: "false"})},
	{"no_progress_plies", "NoProgress", intOption(func(c *Config) *int { return &c.NoProgressPlies }, 1e6)},
	{"repetition_limit", "Repetition", intOption(func(c *Config) *int { return &c.RepetitionLimit }, 1e6)},
	{"adjudication", "Adjudication", choice(func(c *Config) *Adjudication { return &c.Adjudication },
		map[Adjudication]string{MaterialOnBoard: "material_on_board", MaterialTotal: "material_total", AdjudicateDraw: "draw"})},
	{"time_control", "TimeControl", codec{
		func(c *Config, v string) (err error) { c.TimeControl, err = ParseTimeControl(v); return err },
		func(c *Config) string { return c.TimeControl.String() }}},
	{"flag_result", "FlagResult", choice(func(c *Config) *FlagResult { return &c.FlagResult },
		map[FlagResult]string{FlagLoss: "loss", FlagDraw: "draw"})},
	{"illegal_policy", "IllegalPolicy", codec{
		func(c *Config, v string) (err error) { c.IllegalPolicy, err = ParseIllegalPolicy(v); return err },
		func(c *Config) string { return c.IllegalPolicy.String() }}},
	{"commit_mode", "CommitMode", choice(func(c *Config) *CommitMode { return &c.CommitMode },
		map[CommitMode]string{ClockPress: "clock_press", Settle: "settle"})},
	{"settle_ms", "SettleMs", msOption(func(c *Config) *time.Duration { return &c.Settle })},
	{"debounce_ms", "DebounceMs", msOption(func(c *Config) *time.Duration { return &c.Debounce })},
	{"sensor_level", "SensorLevel", codec{
		func(c *Config, v string) (err error) { c.SensorLevel, err = ParseSensorLevel(v); return err },
		func(c *Config) string { return c.SensorLevel.String() }}},
}

// Tags of the record that carry the colours option.
const (
	tagSouthColour = "SouthColour"
	tagNorthColour = "NorthColour"
)

func parseColours(c *Config, v string) error {
	s, n, ok := strings.Cut(v, "/")
	if !ok {
		return fmt.Errorf("%q: want South's label/North's label, e.g. white/black", v)
	}
	for _, l := range []string{s, n} {
		if err := checkLabel(l); err != nil {
			return err
		}
	}
	c.Colours = [2]string{s, n}
	return nil
}

// checkLabel rejects colour labels that would not survive an options
// string or a record tag.
func checkLabel(l string) error {
	if strings.TrimSpace(l) != l || l == "" || strings.ContainsAny(l, "/,=\"[]{}\n\r") {
		return fmt.Errorf("colour label %q: must be non-empty, without surrounding space or any of / , = \" [ ] { }", l)
	}
	return nil
}

func parseSetup(c *Config, v string) error {
	if v == "standard" {
		c.Setup = v
		return nil
	}
	if _, err := ParseKPS(v); err != nil {
		return fmt.Errorf("not \"standard\" or a valid KPS: %w", err)
	}
	c.Setup = v
	return nil
}

// ParseConfig reads options, "key=value" as in [rules.Options]; missing keys
// take the defaults. With a KPS setup the side to move there is the first
// player; an explicit first_player must agree with it.
func ParseConfig(opts rules.Options) (Config, error) {
	c := DefaultConfig()
	byKey := make(map[string]option, len(options))
	for _, o := range options {
		byKey[o.key] = o
	}
	for _, k := range sortedKeys(opts) {
		o, ok := byKey[k]
		if !ok {
			return Config{}, fmt.Errorf("unknown option %q (known: %s)", k, strings.Join(optionKeys(), ", "))
		}
		if err := o.parse(&c, opts[k]); err != nil {
			return Config{}, fmt.Errorf("option %s: %w", k, err)
		}
	}
	if c.Setup != "standard" {
		st, _ := ParseKPS(c.Setup) // validated by parseSetup
		if _, given := opts["first_player"]; given && st.Turn != c.First {
			return Config{}, fmt.Errorf("option setup has %s to move but first_player=%s", sideLetter(st.Turn), sideLetter(c.First))
		}
		c.First = st.Turn
		if !c.MirrorRule && (st.Forbidden[0] != noStep || st.Forbidden[1] != noStep) {
			return Config{}, fmt.Errorf("option setup gives a forbidden step but mirror_rule=off")
		}
	}
	return c, nil
}

// Options returns every option with its value, defaults included, so that
// a stored game replays under its own rules.
func (c Config) Options() rules.Options {
	o := make(rules.Options, len(options))
	for _, opt := range options {
		o[opt.key] = opt.format(&c)
	}
	return o
}

// String returns the options in canonical "key=value,..." form.
func (c Config) String() string { return c.Options().String() }

func sortedKeys(o rules.Options) []string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func sortedStrings(s []string) []string {
	slices.Sort(s)
	return s
}

func optionKeys() []string {
	keys := make([]string, len(options))
	for i, o := range options {
		keys[i] = o.key
	}
	return keys
}

// parseCount reads a decimal integer between lo and hi.
func parseCount(s string, lo, hi int) (int, error) {
	bad := s == "" || len(s) > 9 || (len(s) > 1 && s[0] == '0')
	for i := 0; i < len(s) && !bad; i++ {
		bad = s[i] < '0' || s[i] > '9'
	}
	n, _ := strconv.Atoi(s)
	if bad || n < lo || n > hi {
		return 0, fmt.Errorf("%q is not a whole number from %d to %d", s, lo, hi)
	}
	return n, nil
}
