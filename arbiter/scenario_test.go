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
//	2.0 link-lost, link-restored, heartbeat
//	2.0 gap                frames were lost (set/lift/place after it change the
//	                       board's true state unseen until:)
//	2.0 dump               the board sends its whole state
//	2.0 unseen set e4 0    (also unseen lift, unseen place) the board's state
//	                       changes and no frame tells: a board unplugged, or
//	                       restarted, whose next dump shows it
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
	tops    []rules.Piece // the last top reported per square; zero: unknown or empty
	pending []string      // the command's outputs, in summary form
	full    []string      // the same in full (String)
	line    int
}

func runScenario(t *testing.T, file string) {
	sc := &scenario{t: t, file: file}
	scenariotest.Run(t, file, scenariotest.Syntax{Expect: ">"}, func(c *scenariotest.Command) []scenariotest.Output {
		sc.line = c.Line
		sc.step(c.Text)
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
		switch k {
		case "completion":
			sc.cfg.Completion = map[string]arbiter.Completion{"press": arbiter.OnPress, "release": arbiter.OnRelease}[v]
		case "touch":
			if err := sc.cfg.Policy(v, ""); err != nil {
				sc.fail("config: %v", err)
			}
		case "penalty":
			if err := sc.cfg.Policy("", v); err != nil {
				sc.fail("config: %v", err)
			}
		case "boardtime":
			sc.cfg.BoardTime = v == "on"
		case "setup":
			sc.cfg.AwaitSetup = v == "await"
		case "settle":
			d, err := time.ParseDuration(v)
			if err != nil {
				sc.fail("config settle: %v", err)
			}
			sc.cfg.Settle = d
		default:
			sc.fail("unknown config key %q", k)
		}
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

func (sc *scenario) collect(outs []arbiter.Output) {
	for _, o := range outs {
		sc.pending = append(sc.pending, summary(o))
		sc.full = append(sc.full, fmt.Sprint(o))
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

func (sc *scenario) step(text string) {
	f := strings.Fields(text)
	switch f[0] {
	case "game":
		// A new game starts a new session: settings come after it.
		*sc = scenario{t: sc.t, file: sc.file, line: sc.line}
		sc.opts = rules.Options{}
		g, err := rules.New(f[1], nil)
		if err != nil {
			sc.fail("%v", err)
		}
		sc.game = g
		return
	case "options":
		o, err := rules.ParseOptions(f[1])
		if err != nil {
			sc.fail("%v", err)
		}
		g, err := rules.New(sc.game.Name(), o)
		if err != nil {
			sc.fail("%v", err)
		}
		sc.game = g
		return
	case "position":
		p, err := sc.game.ParsePosition(strings.TrimSpace(strings.TrimPrefix(text, "position")))
		if err != nil {
			sc.fail("%v", err)
		}
		sc.start = p
		return
	case "caps":
		for _, c := range strings.Split(f[1], "+") {
			switch c {
			case "heights":
			case "kind":
				sc.caps.TopKind = true
			case "face":
				sc.caps.TopFace = true
			case "color":
				sc.caps.TopColor = true
			case "zones":
				sc.caps.Zones = true
			default:
				sc.fail("unknown capability %q", c)
			}
		}
		return
	case "config":
		sc.cfgSet = append(sc.cfgSet, f[1:]...)
		return
	case "clock":
		ctl, err := clock.Parse(strings.Join(f[1:], " "))
		if err != nil {
			sc.fail("%v", err)
		}
		c, err := clock.New(ctl, clock.Options{})
		if err != nil {
			sc.fail("%v", err)
		}
		sc.clk = c
		return
	}
	sc.setup()
	secs, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		sc.fail("bad instant %q", f[0])
	}
	at := time.Duration(secs * float64(time.Second))
	ev := arbiter.Event{At: at, BoardMs: int64(secs * 1000)}
	unseen := len(f) > 2 && f[1] == "unseen"
	if unseen {
		f = append(f[:1:1], f[2:]...)
	}
	sq := func(name string) rules.Square {
		s, ok := sc.game.Geometry().Lookup(name)
		if !ok {
			sc.fail("no square %q", name)
		}
		return s
	}
	num := func(i, def int) int {
		if len(f) <= i {
			return def
		}
		n, err := strconv.Atoi(f[i])
		if err != nil {
			return def
		}
		return n
	}
	switch f[1] {
	case "lift", "place", "set":
		s := sq(f[2])
		h := sc.heights[s]
		top := 3
		switch f[1] {
		case "lift":
			h -= num(3, 1)
			top = 4
		case "place":
			h += num(3, 1)
			top = 4
			if len(f) == 4 && num(3, -1) == -1 {
				h = sc.heights[s] + 1
				top = 3
			}
		case "set":
			h = num(3, 0)
			top = 4
		}
		if h < 0 {
			sc.fail("height of %s would be negative", f[2])
		}
		sc.heights[s] = h
		ev.Kind, ev.Square, ev.Height = arbiter.SquareChanged, rules.Square(sc.game.Geometry().SensorIndex(s)), h
		if len(f) > top {
			ev.Top = piece(sc, f[top])
		}
		sc.tops[s] = ev.Top
		if unseen {
			return // the board's state changed, and no frame told
		}
	case "zone":
		ev.Kind, ev.Zone, ev.Count = arbiter.ZoneChanged, num(2, 0), num(3, 0)
	case "press":
		ev.Kind, ev.Side = arbiter.ClockPressed, side(sc, f[2])
	case "adjust":
		ev.Kind, ev.Side = arbiter.AdjustPressed, side(sc, f[2])
	case "call":
		ev.Kind, ev.Side = arbiter.ArbiterCalled, side(sc, f[2])
	case "answer":
		ev.Kind, ev.Side, ev.Choice = arbiter.Answered, side(sc, f[2]), num(3, 0)
		if len(f) > 3 {
			switch f[3] {
			case "lost":
				ev.Choice = arbiter.AnswerLost
			case "yes":
				ev.Choice = arbiter.AnswerYes
			case "no":
				ev.Choice = arbiter.AnswerNo
			}
		}
	case "heartbeat":
		ev.Kind = arbiter.Heartbeat
	case "gap":
		ev.Kind = arbiter.Gap
	case "dump":
		ev.Kind = arbiter.StateDump
		geo := sc.game.Geometry()
		ev.Heights = make([]int, len(sc.heights))
		ev.Tops = make([]rules.Piece, len(sc.heights))
		for i := range ev.Heights {
			ev.Heights[i] = sc.heights[geo.SensorSquare(i)]
			if ev.Heights[i] > 0 {
				ev.Tops[i] = sc.tops[geo.SensorSquare(i)]
			}
		}
	case "link-lost":
		ev.Kind = arbiter.LinkLost
	case "link-restored":
		ev.Kind = arbiter.LinkRestored
	case "tick":
		sc.collect(sc.s.Tick(at))
		return
	case "resolve":
		outs, err := sc.s.Resolve(f[2], at)
		if err != nil {
			sc.pending = append(sc.pending, "error "+err.Error())
			sc.full = append(sc.full, err.Error())
		}
		sc.collect(outs)
		return
	case "takeback":
		outs, err := sc.s.TakeBack(at)
		if err != nil {
			sc.pending = append(sc.pending, "error "+err.Error())
			sc.full = append(sc.full, err.Error())
		}
		sc.collect(outs)
		return
	case "claim":
		outs, err := sc.s.Claim(side(sc, f[2]), at)
		if err != nil {
			sc.pending = append(sc.pending, "error "+err.Error())
			sc.full = append(sc.full, err.Error())
		}
		sc.collect(outs)
		return
	default:
		sc.fail("unknown event %q", f[1])
	}
	sc.collect(sc.s.Handle(ev))
}
