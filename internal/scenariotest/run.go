package scenariotest

import (
	"flag"
	"fmt"
	"strings"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "write what the scenario commands produced back into their files")

// An Output is one line a command produced.
type Output struct {
	// Line is compared with the expected line and written by -rewrite.
	Line string
	// Full is a longer form of the output (a message with its reasons):
	// an expected line "line ~ text" also needs text within Full.
	Full string
}

// Lines makes outputs of plain lines.
func Lines(lines ...string) []Output {
	outs := make([]Output, len(lines))
	for i, l := range lines {
		outs[i] = Output{Line: l, Full: l}
	}
	return outs
}

// matches reports whether the output satisfies the expected text.
func (o Output) matches(want string) bool {
	line, quote, quoted := strings.Cut(want, " ~ ")
	return line == o.Line && (!quoted || strings.Contains(o.Full, quote))
}

// Func runs one command and returns what it output. It reports bad
// commands itself (t.Fatalf with c.Pos()).
type Func func(c *Command) []Output

// Run reads the scenario file at path and runs its commands through do in
// order, repeat blocks as many times as they say. Each command's outputs
// must match its expected lines, one for one; the first difference fails
// the test with the file and line. With -rewrite, differences are written
// back into the file instead.
func Run(t testing.TB, path string, syn Syntax, do Func) {
	t.Helper()
	run(t, path, syn, do, *rewrite)
}

// runner holds what one Run has seen.
type runner struct {
	t       testing.TB
	syntax  Syntax
	rewrite bool
	outputs map[*Command][]string // -rewrite: the expected lines each command should have
	inline  map[*Command]string   // -rewrite: the text each command should have
}

func run(t testing.TB, path string, syn Syntax, do Func, rewrite bool) {
	t.Helper()
	data, f := load(t, path, syn)
	r := &runner{t: t, syntax: syn, rewrite: rewrite, outputs: map[*Command][]string{}, inline: map[*Command]string{}}
	r.commands(f.Commands, do)
	if !rewrite {
		return
	}
	out := f.render(r.outputs, r.inline)
	if out == string(data) {
		return
	}
	if err := writeFile(path, []byte(out)); err != nil {
		t.Fatalf("scenariotest: rewrite: %v", err)
	}
	t.Logf("scenariotest: rewrote %s", path)
}

func (r *runner) commands(cmds []*Command, do Func) {
	r.t.Helper()
	for _, c := range cmds {
		if c.body != nil || c.times > 0 {
			for range c.times {
				r.commands(c.body, do)
			}
			continue
		}
		c.run = r
		got := do(c)
		c.run = nil
		r.compare(c, got)
	}
}

// compare checks a command's outputs against its expected lines.
func (r *runner) compare(c *Command, got []Output) {
	r.t.Helper()
	if !r.rewrite {
		if first, same := firstDiff(c, got); !same {
			r.t.Fatalf("%s:%d: %s: output differs\nwant:\n%s\ngot:\n%s", c.File, first, c.Text, wantText(c.Want), gotText(got))
		}
		return
	}
	if r.syntax.Expect == "" && len(got) > 0 {
		r.t.Fatalf("%s: %d lines of output, but these files have no expected lines to write them to", c.Pos(), len(got))
	}
	lines := rewritten(c, got)
	if prev, ok := r.outputs[c]; ok && strings.Join(prev, "\n") != strings.Join(lines, "\n") {
		r.t.Fatalf("%s: output differs between repetitions, so it cannot be rewritten:\n%s\nthen:\n%s",
			c.Pos(), indent(prev), indent(lines))
	}
	r.outputs[c] = lines
}

// firstDiff reports whether the outputs got match the command's expected
// lines, and if not the line of the first difference.
func firstDiff(c *Command, got []Output) (first int, same bool) {
	for i := range max(len(got), len(c.Want)) {
		if i >= len(c.Want) {
			if len(c.Want) > 0 {
				return c.Want[len(c.Want)-1].Line, false
			}
			return c.Line, false
		}
		if i >= len(got) || !got[i].matches(c.Want[i].Text) {
			return c.Want[i].Line, false
		}
	}
	return c.Line, true
}

// rewritten returns the expected lines that the outputs got make of the
// command's: an expected line that still matches is kept as it is, quote
// and all; one with a full form (" ~ ") keeps it.
func rewritten(c *Command, got []Output) []string {
	lines := make([]string, len(got))
	for i, o := range got {
		lines[i] = o.Line
		if i < len(c.Want) && o.matches(c.Want[i].Text) {
			lines[i] = c.Want[i].Text // keep what still holds, quote and all
		} else if i < len(c.Want) && strings.Contains(c.Want[i].Text, " ~ ") && o.Full != "" {
			lines[i] = o.Line + " ~ " + o.Full
		}
	}
	return lines
}

// Check compares the command's inline expectations with what the code did:
// got is the text the command should have had, such as "read first 1m
// main=30s" where the file says main=20s. A difference fails the test with
// the command's file and line; with -rewrite it replaces the command's
// text in the file, keeping its indentation and comment. Call it only
// from within the Func that runs c.
func (c *Command) Check(got string) {
	r := c.run
	if r == nil {
		panic("scenariotest: Check called outside Run")
	}
	r.t.Helper()
	if !r.rewrite {
		if got != c.Text {
			r.t.Fatalf("%s: want\n\t%s\ngot\n\t%s", c.Pos(), c.Text, got)
		}
		return
	}
	if prev, ok := r.inline[c]; ok && prev != got {
		r.t.Fatalf("%s: differs between repetitions, so it cannot be rewritten: %q then %q", c.Pos(), prev, got)
	}
	r.inline[c] = got
}

func wantText(want []Expected) string {
	lines := make([]string, len(want))
	for i, w := range want {
		lines[i] = fmt.Sprintf("%d: %s", w.Line, w.Text)
	}
	return indent(lines)
}

func gotText(got []Output) string {
	lines := make([]string, len(got))
	for i, o := range got {
		lines[i] = o.Line
		if o.Full != "" && o.Full != o.Line {
			lines[i] += " (" + o.Full + ")"
		}
	}
	return indent(lines)
}

func indent(lines []string) string {
	if len(lines) == 0 {
		return "\t(nothing)"
	}
	return "\t" + strings.Join(lines, "\n\t")
}
