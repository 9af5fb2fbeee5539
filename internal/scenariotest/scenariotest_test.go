package scenariotest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var arrows = Syntax{Expect: ">"}

var inline = Syntax{InlineComments: true, Repeat: true}

// echo is a small DSL: "echo A B" outputs A and B (with Full "full A"),
// "add X Y = Z" checks its sum inline, "count" outputs how many times it ran.
func echo() Func {
	n := 0
	return func(c *Command) []Output {
		switch c.Fields[0] {
		case "echo":
			var outs []Output
			for _, a := range c.Fields[1:] {
				outs = append(outs, Output{Line: a, Full: "full " + a})
			}
			return outs
		case "add":
			x, _ := strconv.Atoi(c.Fields[1])
			y, _ := strconv.Atoi(c.Fields[2])
			c.Check(fmt.Sprintf("add %d %d = %d", x, y, x+y))
		case "count":
			n++
			return Lines(strconv.Itoa(n))
		}
		return nil
	}
}

// recorder is a testing.TB that keeps the first fatal message and ends
// the goroutine of the run, as testing.T does.
type recorder struct {
	testing.TB
	fatal string
}

func (r *recorder) Helper()             {}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// try runs a file through run and returns the fatal message, if any.
func try(t *testing.T, path string, syn Syntax, rewrite bool) string {
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		run(rec, path, syn, echo(), rewrite)
	}()
	<-done
	return rec.fatal
}

func write(t *testing.T, text string) string {
	path := filepath.Join(t.TempDir(), "s.txt")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

func read(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}

func TestRunPasses(t *testing.T) {
	Run(t, "testdata/echo.txt", arrows, echo())
}

func TestMismatchNamesFileAndLine(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		syn        Syntax
		want       []string // substrings of the failure
	}{
		{"wrong line", "echo a b\n> a\n> c\n", arrows, []string{"s.txt:3: echo a b: output differs", "3: c", "\tb"}},
		{"missing line", "# c\necho a b\n> a\n", arrows, []string{"s.txt:3: echo a b: output differs"}},
		{"extra line", "echo a\n> a\n> b\n", arrows, []string{"s.txt:3: echo a: output differs", "\t3: b"}},
		{"no expectation", "\necho a\n", arrows, []string{"s.txt:2: echo a: output differs", "want:\n\t(nothing)"}},
		{"quote not in full", "echo a\n> a ~ nope\n", arrows, []string{"s.txt:2:"}},
		{"inline", "add 1 1 = 2\nadd 2 2 = 5 # no\n", inline, []string{"s.txt:2: want\n\tadd 2 2 = 5\ngot\n\tadd 2 2 = 4"}},
		{"output without a place", "echo a\n", inline, []string{"s.txt:1: echo a: output differs"}},
		{"output before a command", "> a\n", arrows, []string{"s.txt:1: expected output \"> a\" follows no command"}},
		{"repeat without end", "repeat 2\nadd 1 1 = 2\n", inline, []string{"s.txt:1: repeat without end"}},
		{"end without repeat", "end\n", inline, []string{"s.txt:1: end without repeat"}},
		{"bad repeat count", "repeat x\nend\n", inline, []string{"s.txt:1: repeat count \"x\""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := write(t, tc.text)
			msg := try(t, path, tc.syn, false)
			require.NotEmpty(t, msg, "the run must fail")
			for _, w := range tc.want {
				assert.Contains(t, msg, w)
			}
			assert.Equal(t, tc.text, read(t, path), "a failing run leaves the file alone")
		})
	}
}

func TestRewrite(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
		syn              Syntax
	}{
		{"nothing to change", "# c\necho a\n> a\n", "# c\necho a\n> a\n", arrows},
		{"a wrong line", "echo a b\n> a\n> x\n", "echo a b\n> a\n> b\n", arrows},
		{"lines added after the last", "echo a b c\n  > a\n# c\n", "echo a b c\n  > a\n  > b\n  > c\n# c\n", arrows},
		{"lines added after the command", "echo a\n\n# next\necho b\n> b\n", "echo a\n> a\n\n# next\necho b\n> b\n", arrows},
		{"lines dropped, comments kept", "echo a\n> a\n# c\n> b\n> c\n", "echo a\n> a\n# c\n", arrows},
		{"quotes kept when they hold", "echo a b\n> a ~ full\n> x ~ y\n", "echo a b\n> a ~ full\n> b ~ full b\n", arrows},
		{"a quote that fails", "echo a\n> a ~ nope\n", "echo a\n> a ~ full a\n", arrows},
		{"no final newline", "echo a\n> b", "echo a\n> a", arrows},
		{"inline, comment kept", "  add 1 2 = 4   # sum\nadd 1 1 = 2\n", "  add 1 2 = 3   # sum\nadd 1 1 = 2\n", inline},
		{"inline in a repeat", "repeat 3\n add 2 2 = 5\nend\n", "repeat 3\n add 2 2 = 4\nend\n", inline},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := write(t, tc.text)
			require.Empty(t, try(t, path, tc.syn, true))
			assert.Equal(t, tc.want, read(t, path))
			// The rewritten file passes, and rewriting it again changes nothing.
			require.Empty(t, try(t, path, tc.syn, false))
			require.Empty(t, try(t, path, tc.syn, true))
			assert.Equal(t, tc.want, read(t, path))
		})
	}
}

func TestRewriteRefusesWhatItCannotWrite(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
		syn              Syntax
	}{
		{"outputs that differ between repetitions", "repeat 2\ncount\n> 1\nend\n", "s.txt:2: output differs between repetitions", Syntax{Expect: ">", Repeat: true}},
		{"outputs with no expected lines", "echo a\n", "s.txt:1: 1 lines of output, but these files have no expected lines", inline},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := write(t, tc.text)
			assert.Contains(t, try(t, path, tc.syn, true), tc.want)
			assert.Equal(t, tc.text, read(t, path))
		})
	}
}

func TestRepeat(t *testing.T) {
	var got []string
	path := write(t, "repeat 2\n  echo a # one\n  repeat 2\n    echo b\n  end\nend\necho c\n")
	run(t, path, inline, func(c *Command) []Output {
		got = append(got, c.Pos()[len(c.Pos())-1:]+c.Fields[1])
		return nil
	}, false)
	assert.Equal(t, []string{"2a", "4b", "4b", "2a", "4b", "4b", "7c"}, got)
}

func TestParse(t *testing.T) {
	f, err := Parse("x", []byte("# c\n  echo a  b # not a comment\n > a\n\n>b\r\n"), arrows)
	require.NoError(t, err)
	require.Len(t, f.Commands, 1)
	c := f.Commands[0]
	assert.Equal(t, "x:2", c.Pos())
	assert.Equal(t, "echo a  b # not a comment", c.Text)
	assert.Equal(t, []string{"echo", "a", "b", "#", "not", "a", "comment"}, c.Fields)
	assert.Equal(t, []Expected{{3, "a"}, {5, "b"}}, c.Want)
}

func TestCheckOutsideRunPanics(t *testing.T) {
	assert.Panics(t, func() { (&Command{}).Check("x") })
}

// FuzzParse checks that any text either parses or is refused with its
// position, and that a file whose commands produce exactly what it expects
// is rewritten byte for byte as it was.
func FuzzParse(f *testing.F) {
	for _, path := range []string{"testdata/echo.txt", "../../clock/testdata/repeating.clock", "../../arbiter/testdata/scenarios/chess_basic.txt"} {
		data, err := os.ReadFile(path)
		require.NoError(f, err)
		f.Add(string(data))
	}
	f.Add("repeat 2\nrepeat 1\nend\nend # x\n> y\r\n")
	f.Fuzz(func(t *testing.T, text string) {
		for _, syn := range []Syntax{arrows, inline, {Expect: ">", InlineComments: true, Repeat: true}} {
			file, err := Parse("f", []byte(text), syn)
			if err != nil {
				require.True(t, strings.HasPrefix(err.Error(), "f:"), "error %q names no position", err)
				continue
			}
			outputs, texts := map[*Command][]string{}, map[*Command]string{}
			var walk func([]*Command)
			walk = func(cmds []*Command) {
				for _, c := range cmds {
					walk(c.body)
					texts[c] = c.Text
					for _, w := range c.Want {
						outputs[c] = append(outputs[c], w.Text)
					}
				}
			}
			walk(file.Commands)
			require.Equal(t, text, file.render(outputs, texts))
		}
	})
}
