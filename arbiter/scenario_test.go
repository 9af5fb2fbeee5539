package arbiter_test

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/clock"
	"arbiter/internal/scenariotest"
	"arbiter/rules"
	_ "arbiter/rules/chess"
	_ "arbiter/rules/kvaa"
	_ "arbiter/rules/shogi"
	_ "arbiter/rules/tavreli"
	_ "arbiter/rules/tensor"
)

// A scenario file drives one session with board events and checks every
// output it produces.
//
//	game chess                      the registered game (then its options: options k=v,...);
//	                                a later game line starts a new session
//	position <text>                 start position (default: the game's start)
//	caps heights+kind+face+color+zones
//	trays reserve:first reserve:second  the zones a board counts, in its own order,
//	                                when it counts only some of the game's ("zone i n"
//	                                then names the board's zone i)
//	config completion=release touch=strict|report|off penalty=report|chess|loss settle=300ms
//	clock <time control>            start a clock at instant 0
//
// Then one event per line, at an instant in seconds:
//
//	1.0 lift e2 [n]        the stack on e2 loses n pieces (default 1)
//	1.2 place e4 [n] [top] the stack on e4 gains n pieces; top is the sensed top piece ("Q", "p", "S+")
//	1.2 set e4 h [top]     the stack on e4 is now h high
//	1.5 zone i n           zone i holds n pieces
//	1.6 press first|second, adjust first|second, call first
//	1.6 answer first|second n, or "lost": a press whose value was lost,
//	                       or "yes"/"no": the answer values 1 and 2
//	2.0 tick               let time pass
//	2.0 resolve <move>     the arbiter picks a candidate; takeback; claim first|second
//	2.0 unstored n         the daemon has not stored the moves from ply n on (0: all stored)
//	2.0 link-lost, link-restored, heartbeat
//	2.0 gap                frames were lost (set/lift/place after it change the
//	                       board's true state unseen until:)
//	2.0 dump               the board sends its whole state
//	2.0 unseen set e4 0    (also unseen lift, unseen place) the board's state
//	                       changes and no frame tells: a board unplugged, or
//	                       restarted, whose next dump shows it
//	2.0 unseen press first a press no frame tells (the board logs it)
//	2.0 recall             the board sends its own log: every press so far,
//	                       seen or unseen, with the board as it stood then
//
// Each event line is followed by the outputs it must produce, each on a
// line starting with "> ", in order, and no others. An expected output
// may end with " ~ text": the output's full form (its String, with the
// alert's message or the recovery's reason and fixes) must contain text.
//
// The runner keeps each square's height and its last reported top piece
// (unknown after a lift that names none), and a dump sends both.
//
// internal/scenariotest reads the files and compares the outputs;
// "go test -run TestScenarios -rewrite" writes the outputs the code
// produces in place of the expected lines that differ.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/scenarios/*.txt")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) { runScenario(t, f) })
	}
}

type scenario struct {
	t       *testing.T
	file    string
	game    rules.Game
	opts    rules.Options
	start   rules.Position
	cfg     arbiter.Config
	cfgSet  []string
	caps    arbiter.Caps
	clk     *clock.Clock
	s       *arbiter.Session
	heights []int
	tops    []rules.Piece         // the last top reported per square; zero: unknown or empty
	logged  []arbiter.LoggedPress // every press, as a board that logs them keeps them
	pending []string              // the command's outputs, in summary form
	full    []string              // the same in full (String)
	line    int
}

func runScenario(t *testing.T, file string) {
	sc := &scenario{t: t, file: file}
	scenariotest.Run(t, file, scenariotest.Syntax{Expect: ">"}, func(c *scenariotest.Command) []scenariotest.Output {
		sc.line = c.Line
		sc.step(c.Text)
		if sc.s != nil {
			if err := arbiter.Consistent(sc.s); err != nil {
				sc.fail("after %q: the session is inconsistent: %v", c.Text, err)
			}
		}
		outs := make([]scenariotest.Output, len(sc.pending))
		for i := range sc.pending {
			outs[i] = scenariotest.Output{Line: sc.pending[i], Full: sc.full[i]}
		}
		sc.pending, sc.full = nil, nil
		return outs
	})
}

func (sc *scenario) fail(format string, args ...any) {
	sc.t.Helper()
	sc.t.Fatalf("%s:%d: %s", sc.file, sc.line, fmt.Sprintf(format, args...))
}

func (sc *scenario) setup() {
	if sc.s != nil {
		return
	}
	if sc.game == nil {
		sc.fail("no game line before the first event")
	}
	sc.cfg = arbiter.DefaultConfig(sc.game)
	sc.cfg.Caps = sc.caps
	for _, kv := range sc.cfgSet {
		k, v, _ := strings.Cut(kv, "=")
		set, ok := configKeys[k]
		if !ok {
			sc.fail("unknown config key %q", k)
		}
		set(sc, v)
	}
	s, err := arbiter.NewSession(sc.cfg, sc.game, sc.start, sc.clk)
	if err != nil {
		sc.fail("new session: %v", err)
	}
	sc.s = s
	pos := sc.start
	if pos == nil {
		pos = sc.game.Start()
	}
	sc.heights = pos.View().Heights(nil)
	sc.tops = make([]rules.Piece, len(sc.heights))
	for i := range sc.tops {
		if top, ok := pos.View().Top(rules.Square(i)); ok {
			sc.tops[i] = top
		}
	}
	outs := s.Start(0)
	if !sc.cfg.AwaitSetup {
		// A game that does not wait for its set-up starts at once.
		if len(outs) != 1 || summary(outs[0]) != "started" {
			sc.fail("start: got %v, want just started", outs)
		}
		return
	}
	sc.collect(outs)
}

// configKeys are the config line's keys, each given its value.
var configKeys = map[string]func(sc *scenario, v string){
	"completion": func(sc *scenario, v string) {
		sc.cfg.Completion = map[string]arbiter.Completion{"press": arbiter.OnPress, "release": arbiter.OnRelease}[v]
	},
	"touch": func(sc *scenario, v string) {
		if err := sc.cfg.Policy(v, ""); err != nil {
			sc.fail("config: %v", err)
		}
	},
	"penalty": func(sc *scenario, v string) {
		if err := sc.cfg.Policy("", v); err != nil {
			sc.fail("config: %v", err)
		}
	},
	"boardtime": func(sc *scenario, v string) { sc.cfg.BoardTime = v == "on" },
	"setup":     func(sc *scenario, v string) { sc.cfg.AwaitSetup = v == "await" },
	"settle": func(sc *scenario, v string) {
		d, err := time.ParseDuration(v)
		if err != nil {
			sc.fail("config settle: %v", err)
		}
		sc.cfg.Settle = d
	},
}

func (sc *scenario) collect(outs []arbiter.Output) {
	for _, o := range outs {
		sc.checkBoardText(o)
		sc.pending = append(sc.pending, summary(o))
		sc.full = append(sc.full, fmt.Sprint(o))
	}
}

// checkBoardText checks that what a board's display shows of o is
// written for it (issue 35 §5): every alert a board shows, and every
// recovery, has its own text of at most board.MaxText bytes, which the
// protocol carries whole.
func (sc *scenario) checkBoardText(o arbiter.Output) {
	sc.t.Helper()
	var text, what string
	switch o := o.(type) {
	case arbiter.Alert:
		if o.Kind == arbiter.LinkAlert {
			return // boards are not told about their own link
		}
		text, what = o.Board, o.String()
	case arbiter.Recovery:
		if o.Done {
			return
		}
		text, what = o.Board, o.String()
	default:
		return
	}
	if text == "" || len(text) > board.MaxText {
		sc.fail("%q: the board's text %q is empty or longer than %d bytes", what, text, board.MaxText)
	}
}

// summary is the scenario form of an output: enough to pin the decision,
// short enough to write by hand.
func summary(o arbiter.Output) string {
	switch o := o.(type) {
	case arbiter.MoveMade:
		s := fmt.Sprintf("move %d %s", o.Ply, o.Notation)
		if o.Clock != [2]time.Duration{} {
			s += fmt.Sprintf(" used=%v clock=%v/%v", o.Used, o.Clock[0], o.Clock[1])
		}
		return s
	case arbiter.Alert:
		return fmt.Sprintf("alert %s %s", o.Kind, o.Side)
	case arbiter.Prompt:
		return "prompt " + strings.Join(o.Moves, " ")
	case arbiter.Recovery:
		if o.Done {
			return "recovered"
		}
		sq := make([]string, len(o.Fixes))
		for i, f := range o.Fixes {
			sq[i] = fmt.Sprintf("%s=%d", f.Name, f.Want)
		}
		return "recovery " + strings.Join(sq, " ")
	case arbiter.GameOver:
		return "over " + o.Outcome.String()
	case arbiter.MoveAmended:
		s := fmt.Sprintf("move %d amended: %s, was %s", o.Ply, o.New.Notation, o.Old)
		if o.New.Clock != [2]time.Duration{} {
			s += fmt.Sprintf(" used=%v clock=%v/%v", o.New.Used, o.New.Clock[0], o.New.Clock[1])
		}
		return s
	case arbiter.Started:
		return "started"
	case arbiter.ClockEvent:
		return "clock " + o.Event.Kind.String() + " " + o.Event.Side.String()
	}
	return fmt.Sprintf("%T", o)
}

func side(sc *scenario, s string) rules.Color {
	switch s {
	case "first", "white", "sente", "south":
		return rules.First
	case "second", "black", "gote", "north":
		return rules.Second
	}
	sc.fail("unknown side %q", s)
	return 0
}

func piece(sc *scenario, s string) rules.Piece {
	var p rules.Piece
	if strings.HasSuffix(s, "+") {
		p.Face = rules.Back
		s = strings.TrimSuffix(s, "+")
	}
	if len(s) != 1 {
		sc.fail("bad piece %q", s)
	}
	c := s[0]
	if c >= 'a' && c <= 'z' {
		p.Color = rules.Second
		c -= 'a' - 'A'
	}
	p.Kind = rules.Kind(c)
	return p
}

// step runs one line of a scenario file: a setting before the session's
// events, or an event at an instant.
func (sc *scenario) step(text string) {
	f := strings.Fields(text)
	if set, ok := settings[f[0]]; ok {
		set(sc, text, f)
		return
	}
	sc.setup()
	secs, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		sc.fail("bad instant %q", f[0])
	}
	l := &line{sc: sc, f: f, ev: arbiter.Event{At: time.Duration(secs * float64(time.Second)), BoardMs: int64(secs * 1000)}}
	if len(f) > 2 && f[1] == "unseen" {
		l.unseen = true
		l.f = append(f[:1:1], f[2:]...)
	}
	if len(l.f) < 2 {
		sc.fail("no event after the instant %s", f[0])
	}
	do, ok := directives[l.f[1]]
	if !ok {
		sc.fail("unknown event %q", l.f[1])
	}
	do(l)
}

// settings are the lines that set a session up, each given the line's
// text and fields.
var settings = map[string]func(sc *scenario, text string, f []string){
	"game":     (*scenario).newGame,
	"options":  (*scenario).options,
	"position": (*scenario).position,
	"caps":     (*scenario).capabilities,
	"trays":    (*scenario).trays,
	"config":   func(sc *scenario, _ string, f []string) { sc.cfgSet = append(sc.cfgSet, f[1:]...) },
	"clock":    (*scenario).clock,
}

// newGame starts a new session: its settings come after the line.
func (sc *scenario) newGame(_ string, f []string) {
	*sc = scenario{t: sc.t, file: sc.file, line: sc.line}
	sc.opts = rules.Options{}
	g, err := rules.New(f[1], nil)
	if err != nil {
		sc.fail("%v", err)
	}
	sc.game = g
}

func (sc *scenario) options(_ string, f []string) {
	o, err := rules.ParseOptions(f[1])
	if err != nil {
		sc.fail("%v", err)
	}
	g, err := rules.New(sc.game.Name(), o)
	if err != nil {
		sc.fail("%v", err)
	}
	sc.game = g
}

func (sc *scenario) position(text string, _ []string) {
	p, err := sc.game.ParsePosition(strings.TrimSpace(strings.TrimPrefix(text, "position")))
	if err != nil {
		sc.fail("%v", err)
	}
	sc.start = p
}

// capabilities are the caps line's words.
var capabilities = map[string]func(*arbiter.Caps){
	"heights": func(*arbiter.Caps) {},
	"kind":    func(c *arbiter.Caps) { c.TopKind = true },
	"face":    func(c *arbiter.Caps) { c.TopFace = true },
	"color":   func(c *arbiter.Caps) { c.TopColor = true },
	"zones":   func(c *arbiter.Caps) { c.Zones = true },
}

func (sc *scenario) capabilities(_ string, f []string) {
	for _, c := range strings.Split(f[1], "+") {
		set, ok := capabilities[c]
		if !ok {
			sc.fail("unknown capability %q", c)
		}
		set(&sc.caps)
	}
}

// trays are the zones the board counts: kind:side each.
func (sc *scenario) trays(_ string, f []string) {
	kinds := map[string]rules.ZoneKind{"hand": rules.Hand, "reserve": rules.Reserve, "captured": rules.Captured}
	sc.caps.Trays = []board.ZoneInfo{}
	for _, w := range f[1:] {
		k, s, _ := strings.Cut(w, ":")
		kind, ok := kinds[k]
		if !ok {
			sc.fail("unknown zone kind %q", k)
		}
		sc.caps.Trays = append(sc.caps.Trays, board.ZoneInfo{Kind: kind, Owner: side(sc, s)})
	}
}

func (sc *scenario) clock(_ string, f []string) {
	ctl, err := clock.Parse(strings.Join(f[1:], " "))
	if err != nil {
		sc.fail("%v", err)
	}
	c, err := clock.New(ctl, clock.Options{})
	if err != nil {
		sc.fail("%v", err)
	}
	sc.clk = c
}

// line is an event line being run: its fields (the instant, the
// directive, its arguments) and the event it makes, at its instant.
type line struct {
	sc *scenario
	f  []string
	ev arbiter.Event
	// unseen: the board's state changes and no frame tells.
	unseen bool
}

// num is argument i as a number, or def when it is missing or no number.
func (l *line) num(i, def int) int {
	if len(l.f) <= i {
		return def
	}
	n, err := strconv.Atoi(l.f[i])
	if err != nil {
		return def
	}
	return n
}

func (l *line) square(name string) rules.Square {
	s, ok := l.sc.game.Geometry().Lookup(name)
	if !ok {
		l.sc.fail("no square %q", name)
	}
	return s
}

// handle gives the session the line's event.
func (l *line) handle() { l.sc.collect(l.sc.s.Handle(l.ev)) }

// directives are the event lines' words after the instant.
var directives = map[string]func(l *line){
	"lift":  (*line).lift,
	"place": (*line).place,
	"set":   func(l *line) { l.change(l.num(3, 0), 4) },
	"zone": func(l *line) {
		l.ev.Kind, l.ev.Zone, l.ev.Count = arbiter.ZoneChanged, l.num(2, 0), l.num(3, 0)
		l.handle()
	},
	"press": (*line).press,
	"recall": func(l *line) {
		l.ev.Kind, l.ev.Presses = arbiter.Recalled, l.sc.logged
		l.handle()
	},
	"adjust":        sided(arbiter.AdjustPressed),
	"call":          sided(arbiter.ArbiterCalled),
	"answer":        (*line).answer,
	"heartbeat":     bare(arbiter.Heartbeat),
	"gap":           bare(arbiter.Gap),
	"dump":          (*line).dump,
	"link-lost":     bare(arbiter.LinkLost),
	"link-restored": bare(arbiter.LinkRestored),
	"tick":          func(l *line) { l.sc.collect(l.sc.s.Tick(l.ev.At)) },
	"resolve":       func(l *line) { l.sc.result(l.sc.s.Resolve(l.f[2], l.ev.At)) },
	"takeback":      func(l *line) { l.sc.result(l.sc.s.TakeBack(l.ev.At)) },
	"claim":         func(l *line) { l.sc.result(l.sc.s.Claim(side(l.sc, l.f[2]), l.ev.At)) },
	"unstored":      func(l *line) { l.sc.collect(l.sc.s.SetUnstored(l.num(2, 0), l.ev.At)) },
}

// bare is a directive for an event of kind k with no arguments.
func bare(k arbiter.EventKind) func(*line) {
	return func(l *line) { l.ev.Kind = k; l.handle() }
}

// sided is a directive for an event of kind k by a side.
func sided(k arbiter.EventKind) func(*line) {
	return func(l *line) { l.ev.Kind, l.ev.Side = k, side(l.sc, l.f[2]); l.handle() }
}

// lift: the stack loses n pieces (default 1), the top piece named after.
func (l *line) lift() {
	l.change(l.sc.heights[l.square(l.f[2])]-l.num(3, 1), 4)
}

// place: the stack gains n pieces (default 1), the top piece named after
// the count or in its place.
func (l *line) place() {
	h := l.sc.heights[l.square(l.f[2])]
	if len(l.f) == 4 && l.num(3, -1) == -1 {
		l.change(h+1, 3)
		return
	}
	l.change(h+l.num(3, 1), 4)
}

// change sets the height of the line's square to h, with the top piece
// named by field top if the line has it.
func (l *line) change(h, top int) {
	sc := l.sc
	s := l.square(l.f[2])
	if h < 0 {
		sc.fail("height of %s would be negative", l.f[2])
	}
	sc.heights[s] = h
	l.ev.Kind, l.ev.Square, l.ev.Height = arbiter.SquareChanged, rules.Square(sc.game.Geometry().SensorIndex(s)), h
	if len(l.f) > top {
		l.ev.Top = piece(sc, l.f[top])
	}
	sc.tops[s] = l.ev.Top
	if l.unseen {
		return // the board's state changed, and no frame told
	}
	l.handle()
}

// answers are the answer values with a name.
var answers = map[string]int{"lost": arbiter.AnswerLost, "yes": arbiter.AnswerYes, "no": arbiter.AnswerNo}

func (l *line) answer() {
	l.ev.Kind, l.ev.Side, l.ev.Choice = arbiter.Answered, side(l.sc, l.f[2]), l.num(3, 0)
	if len(l.f) > 3 {
		if c, ok := answers[l.f[3]]; ok {
			l.ev.Choice = c
		}
	}
	l.handle()
}

// dump sends the board's whole state as the runner keeps it.
func (l *line) dump() {
	l.ev.Kind = arbiter.StateDump
	l.ev.Heights, l.ev.Tops = l.sc.board()
	l.handle()
}

// press is a clock press, which the board also logs: unseen, only logged.
func (l *line) press() {
	l.ev.Kind, l.ev.Side = arbiter.ClockPressed, side(l.sc, l.f[2])
	heights, tops := l.sc.board()
	l.sc.logged = append(l.sc.logged, arbiter.LoggedPress{Heights: heights, Tops: tops, Side: l.ev.Side, SideKnown: true})
	if !l.unseen {
		l.handle()
	}
}

// board returns the board's whole state as the runner keeps it, in
// sensor order.
func (sc *scenario) board() ([]int, []rules.Piece) {
	geo := sc.game.Geometry()
	heights := make([]int, len(sc.heights))
	tops := make([]rules.Piece, len(sc.heights))
	for i := range heights {
		heights[i] = sc.heights[geo.SensorSquare(i)]
		if heights[i] > 0 {
			tops[i] = sc.tops[geo.SensorSquare(i)]
		}
	}
	return heights, tops
}

// result collects the outputs of a console action, or its error.
func (sc *scenario) result(outs []arbiter.Output, err error) {
	if err != nil {
		sc.pending = append(sc.pending, "error "+err.Error())
		sc.full = append(sc.full, err.Error())
	}
	sc.collect(outs)
}
