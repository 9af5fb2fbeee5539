package clock

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/internal/scenariotest"
)

// Scenario files (testdata/*.clock) drive a Clock line by line: events
// in, readings and events out. The expected values in them are worked by
// hand from clocks.md, not produced by this code.
//
//	control TEXT                 new clock (options must come before it)
//	option claim|nolink|grace=D|adjudicator=yes|no|unknown
//	start T | delivered T | advance T | pause T | resume T | stop T
//	press SIDE T [used=D] [! ERR]
//	claim SIDE T [! ERR]         checks nothing else; use event lines
//	add SIDE D [! ERR] | set D D [! ERR]
//	read SIDE T key=value...     keys: main delay overtime display stage
//	                             tocontrol byo units stones moves spent
//	                             phase running flagged
//	event KIND SIDE T [verdict=V] [final] [flagat=T]
//	events none                  no event left unchecked
//	status NAME
//	next T (none | KIND AT)      NextDeadline(T): KIND rollover|flag|link
//	snapshot NAME | restore NAME
//	repeat N ... end             repeat the lines between
//
// An instant T is a Go duration from the origin ("90m30s"), or "+D",
// relative to the last instant used. A "#" starts a comment.
//
// internal/scenariotest reads the files; "go test -run TestScenarios
// -rewrite" writes what the clock did in place of the read, event, status,
// next and press used= values that differ (hand-worked values are to be checked, not
// overwritten blindly: read the diff).
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.clock"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".clock"), func(t *testing.T) {
			runScenario(t, f)
		})
	}
}

type scenario struct {
	t       *testing.T
	file    string
	line    int
	cmd     *scenariotest.Command // the command running
	opt     Options
	clock   *Clock
	now     time.Duration
	pending []Event
	snaps   map[string]Snapshot
}

type fixedAdjudicator Answer

func (a fixedAdjudicator) CanEverWin(Side) Answer { return Answer(a) }

func runScenario(t *testing.T, file string) {
	s := &scenario{t: t, file: file, snaps: map[string]Snapshot{}}
	syntax := scenariotest.Syntax{InlineComments: true, Repeat: true}
	scenariotest.Run(t, file, syntax, func(c *scenariotest.Command) []scenariotest.Output {
		s.line, s.cmd = c.Line, c
		s.do(c.Fields)
		return nil
	})
	if s.clock != nil && len(s.pending) > 0 {
		t.Errorf("%s: unchecked events at the end: %v", file, s.pending)
	}
}

func (s *scenario) fail(format string, args ...any) {
	s.t.Helper()
	s.t.Fatalf("%s:%d: %s", s.file, s.line, fmt.Sprintf(format, args...))
}

func (s *scenario) check(err error) {
	s.t.Helper()
	if err != nil {
		s.fail("%v", err)
	}
}

func (s *scenario) arg(f []string, i int) string {
	s.t.Helper()
	if i >= len(f) {
		s.fail("%s: missing argument %d", f[0], i)
	}
	return f[i]
}

func (s *scenario) instant(tok string) time.Duration {
	s.t.Helper()
	rel := strings.HasPrefix(tok, "+")
	d, err := time.ParseDuration(strings.TrimPrefix(tok, "+"))
	if err != nil {
		s.fail("bad instant %q: %v", tok, err)
	}
	if rel {
		d += s.now
	}
	s.now = d
	return d
}

func (s *scenario) duration(tok string) time.Duration {
	s.t.Helper()
	d, err := time.ParseDuration(tok)
	if err != nil {
		s.fail("bad duration %q: %v", tok, err)
	}
	return d
}

func (s *scenario) side(tok string) Side {
	s.t.Helper()
	switch tok {
	case "first":
		return First
	case "second":
		return Second
	}
	s.fail("bad side %q", tok)
	return 0
}

var scenarioErrors = map[string]error{
	"not-started": ErrNotStarted, "started": ErrStarted, "not-running": ErrNotRunning,
	"flagged": ErrFlagged, "paused": ErrPaused, "not-paused": ErrNotPaused, "finished": ErrFinished,
	"no-flag": ErrNoFlag, "upcount": ErrUpcount,
}

// expectErr checks err against an optional trailing "! NAME" in f.
func (s *scenario) expectErr(f []string, err error) {
	s.t.Helper()
	for i, tok := range f {
		if tok != "!" {
			continue
		}
		want := s.arg(f, i+1)
		if want == "any" {
			if err == nil {
				s.fail("want an error, got none")
			}
			return
		}
		target, ok := scenarioErrors[want]
		if !ok {
			s.fail("unknown error name %q", want)
		}
		if !errors.Is(err, target) {
			s.fail("want error %v, got %v", target, err)
		}
		return
	}
	if err != nil {
		s.fail("unexpected error: %v", err)
	}
}

// scenarioCommands are the commands of the scenario files, each given its
// line's fields.
var scenarioCommands = map[string]func(s *scenario, f []string){
	"option":  (*scenario).option,
	"control": (*scenario).control,
	"start":   func(s *scenario, f []string) { s.expectErr(f, s.clock.Start(s.instant(s.arg(f, 1)))) },
	"delivered": func(s *scenario, f []string) {
		s.clock.Delivered(s.instant(s.arg(f, 1)))
	},
	"advance": func(s *scenario, f []string) { s.clock.Advance(s.instant(s.arg(f, 1))) },
	"pause":   func(s *scenario, f []string) { s.expectErr(f, s.clock.Pause(s.instant(s.arg(f, 1)))) },
	"resume":  func(s *scenario, f []string) { s.expectErr(f, s.clock.Resume(s.instant(s.arg(f, 1)))) },
	"stop":    func(s *scenario, f []string) { s.expectErr(f, s.clock.Stop(s.instant(s.arg(f, 1)))) },
	"press":   (*scenario).press,
	"claim": func(s *scenario, f []string) {
		_, err := s.clock.Claim(s.side(s.arg(f, 1)), s.instant(s.arg(f, 2)))
		s.expectErr(f, err)
	},
	"add": func(s *scenario, f []string) {
		s.expectErr(f, s.clock.AddTime(s.side(s.arg(f, 1)), s.duration(s.arg(f, 2))))
	},
	"set": func(s *scenario, f []string) {
		s.expectErr(f, s.clock.SetTimes(s.duration(s.arg(f, 1)), s.duration(s.arg(f, 2))))
	},
	"read":  func(s *scenario, f []string) { s.read(s.side(s.arg(f, 1)), s.instant(s.arg(f, 2)), f) },
	"event": (*scenario).event,
	"events": func(s *scenario, f []string) {
		s.pending = s.clock.Events(s.pending)
		if len(s.pending) > 0 {
			s.fail("unexpected events: %v", s.pending)
		}
	},
	"status": func(s *scenario, f []string) {
		if got := s.clock.Status().String(); got != s.arg(f, 1) {
			s.cmd.Check("status " + got)
		}
	},
	"next":     (*scenario).next,
	"snapshot": func(s *scenario, f []string) { s.snaps[s.arg(f, 1)] = s.clock.Snapshot() },
	"restore": func(s *scenario, f []string) {
		snap, ok := s.snaps[s.arg(f, 1)]
		if !ok {
			s.fail("no snapshot %q", f[1])
		}
		s.check(s.clock.Restore(snap))
	},
}

func (s *scenario) do(f []string) {
	s.t.Helper()
	run, ok := scenarioCommands[f[0]]
	if !ok {
		s.fail("unknown command %q", f[0])
	}
	if f[0] != "control" && f[0] != "option" && s.clock == nil {
		s.fail("%s before control", f[0])
	}
	run(s, f)
}

func (s *scenario) option(f []string) {
	s.t.Helper()
	for _, o := range f[1:] {
		k, v, _ := strings.Cut(o, "=")
		switch k {
		case "claim":
			s.opt.Flags = ClaimOnly
		case "nolink":
			s.opt.NoLink = true
		case "grace":
			s.opt.Grace = s.duration(v)
		case "adjudicator":
			a := map[string]Answer{"yes": Yes, "no": No, "unknown": Unknown}
			ans, ok := a[v]
			if !ok {
				s.fail("bad adjudicator %q", v)
			}
			s.opt.Adjudicator = fixedAdjudicator(ans)
		default:
			s.fail("unknown option %q", o)
		}
	}
}

func (s *scenario) control(f []string) {
	s.t.Helper()
	ctl, err := Parse(s.arg(f, 1))
	s.check(err)
	s.clock, err = New(ctl, s.opt)
	s.check(err)
}

// press checks the press's error and the time it used inline (used=D).
func (s *scenario) press(f []string) {
	s.t.Helper()
	side := s.side(s.arg(f, 1))
	mv, err := s.clock.Press(side, s.instant(s.arg(f, 2)))
	s.expectErr(f, err)
	fields := slices.Clone(f)
	differs := false
	for i, kv := range f[3:] {
		if k, v, ok := strings.Cut(kv, "="); ok && k == "used" && mv.Used != s.duration(v) {
			fields[3+i], differs = "used="+mv.Used.String(), true
		}
	}
	if differs {
		s.cmd.Check(strings.Join(fields, " "))
	}
}

// next checks NextDeadline inline: "next T none" or "next T KIND AT".
func (s *scenario) next(f []string) {
	s.t.Helper()
	dl, ok := s.clock.NextDeadline(s.instant(s.arg(f, 1)))
	got := f[0] + " " + f[1] + " none"
	if ok {
		got = fmt.Sprintf("%s %s %s %v", f[0], f[1], dueNames[dl.Kind], dl.At)
	}
	if s.arg(f, 2) == "none" {
		if ok {
			s.cmd.Check(got)
		}
		return
	}
	if !ok || dl.Kind != dueKinds[f[2]] || dl.At != s.duration(s.arg(f, 3)) {
		s.cmd.Check(got)
	}
}

func (s *scenario) read(side Side, at time.Duration, f []string) {
	s.t.Helper()
	r := s.clock.Reading(side, at)
	fields := slices.Clone(f)
	differs := false
	for i, kv := range f[3:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			s.fail("bad reading check %q", kv)
		}
		var got, want string
		dur := func(d time.Duration) { got, want = d.String(), s.duration(v).String() }
		num := func(n int) { got, want = strconv.Itoa(n), v }
		switch k {
		case "main":
			dur(r.Main)
		case "delay":
			dur(r.Delay)
		case "overtime":
			dur(r.Overtime)
		case "display":
			dur(r.Display)
		case "spent":
			dur(r.Spent)
		case "stage":
			num(r.Stage)
		case "tocontrol":
			num(r.MovesToControl)
		case "byo":
			num(r.ByoyomiLeft)
		case "units":
			num(r.UnitsLeft)
		case "stones":
			num(r.StonesLeft)
		case "moves":
			num(r.Moves)
		case "phase":
			got, want = r.Phase.String(), v
		case "running":
			got, want = strconv.FormatBool(r.Running), v
		case "flagged":
			got, want = strconv.FormatBool(r.Flagged), v
		default:
			s.fail("unknown reading key %q", k)
		}
		if got != want {
			fields[3+i], differs = k+"="+got, true
		}
	}
	if differs {
		s.t.Logf("%s:%d: read %s at %v: %+v", s.file, s.line, side, at, r)
		s.cmd.Check(strings.Join(fields, " "))
	}
}

func (s *scenario) event(f []string) {
	s.t.Helper()
	s.pending = s.clock.Events(s.pending)
	if len(s.pending) == 0 {
		s.fail("no event, want %v", f[1:])
	}
	e := s.pending[0]
	s.pending = s.pending[1:]
	want := Event{Side: s.side(s.arg(f, 2)), At: s.duration(s.arg(f, 3))}
	for k := range eventNames {
		if eventNames[k] == f[1] {
			want.Kind = EventKind(k)
		}
	}
	if want.Kind == 0 {
		s.fail("unknown event kind %q", f[1])
	}
	for _, kv := range f[4:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "final":
			want.Final = true
		case "verdict":
			m := map[string]Verdict{"loss": FlagLoses, "draw": FlagDraws, "arbiter": AskArbiter}
			want.Verdict = m[v]
		case "flagat":
			want.FlagAt = s.duration(v)
		default:
			s.fail("unknown event key %q", k)
		}
	}
	if want.Kind == Flag && want.Final && want.Verdict == NoVerdict {
		want.Verdict = FlagLoses
	}
	if e != want {
		s.cmd.Check(eventLine(e))
	}
}

var dueKinds = map[string]Due{"rollover": DueRollover, "flag": DueFlag, "link": DueLinkCheck}

var dueNames = map[Due]string{DueRollover: "rollover", DueFlag: "flag", DueLinkCheck: "link"}

// eventLine is the scenario line that expects e.
func eventLine(e Event) string {
	line := fmt.Sprintf("event %s %s %v", e.Kind, e.Side, e.At)
	if e.Verdict != NoVerdict {
		line += " verdict=" + e.Verdict.String()
	}
	if e.Final {
		line += " final"
	}
	if e.FlagAt != 0 {
		line += fmt.Sprintf(" flagat=%v", e.FlagAt)
	}
	return line
}
