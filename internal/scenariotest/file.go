package scenariotest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Syntax says how a kind of scenario file marks its parts.
type Syntax struct {
	// Expect starts an expected-output line (after any indentation), such
	// as ">"; the rest of the line, trimmed, is the expected text. Empty:
	// the files carry their expectations inline, on the commands.
	Expect string
	// InlineComments lets "#" start a comment anywhere on a command line.
	// Otherwise only a line starting with "#" is a comment, and "#" may
	// appear in commands and expected lines.
	InlineComments bool
	// Repeat reads "repeat N" ... "end" as a block run N times.
	Repeat bool
}

// A Command is one command line of a file and the expected lines that
// follow it.
type Command struct {
	// File and Line place the command (Line counts from 1).
	File string
	Line int
	// Text is the command without its comment and surrounding space, and
	// Fields is Text split at white space.
	Text   string
	Fields []string
	// Want is the expected output, in order.
	Want []Expected

	times int        // a repeat block: how many times to run body
	body  []*Command // the commands of a repeat block
	run   *runner    // set while Run runs the command
}

// Expected is one expected-output line.
type Expected struct {
	// Line is its line number in the file, and Text what follows the
	// Expect mark, trimmed.
	Line int
	Text string
}

// Pos is "file:line" of the command, for error messages.
func (c *Command) Pos() string { return fmt.Sprintf("%s:%d", c.File, c.Line) }

// File is a scenario file read by Parse.
type File struct {
	// Path names the file in messages.
	Path string
	// Commands are the file's commands in order; a repeat block is run by
	// Run and never reaches the callback.
	Commands []*Command

	syntax Syntax
	lines  []string // the raw lines, without their line ends
	final  bool     // whether the last line ended with a newline
}

// Parse reads the text of a scenario file. Its errors name the file and
// line that is wrong.
func Parse(path string, data []byte, syn Syntax) (*File, error) {
	text := string(data)
	f := &File{Path: path, syntax: syn, final: strings.HasSuffix(text, "\n")}
	if text != "" {
		f.lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	}
	type block struct {
		cmd  *Command
		list *[]*Command
	}
	var open []block // repeat blocks not yet ended
	list := &f.Commands
	var last *Command // the command expected lines attach to
	for i, raw := range f.lines {
		n := i + 1
		line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if syn.Expect != "" && strings.HasPrefix(line, syn.Expect) {
			if last == nil {
				return nil, fmt.Errorf("%s:%d: expected output %q follows no command", path, n, line)
			}
			last.Want = append(last.Want, Expected{Line: n, Text: strings.TrimSpace(strings.TrimPrefix(line, syn.Expect))})
			continue
		}
		code := line
		if syn.InlineComments {
			code, _, _ = strings.Cut(code, "#")
			code = strings.TrimSpace(code)
		} else if strings.HasPrefix(code, "#") {
			code = ""
		}
		if code == "" {
			continue
		}
		c := &Command{File: path, Line: n, Text: code, Fields: strings.Fields(code)}
		last = c
		if syn.Repeat {
			switch c.Fields[0] {
			case "repeat":
				times, err := repeatCount(c)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", c.Pos(), err)
				}
				c.times = times
				*list = append(*list, c)
				open = append(open, block{c, list})
				list = &c.body
				last = nil
				continue
			case "end":
				if len(open) == 0 {
					return nil, fmt.Errorf("%s: end without repeat", c.Pos())
				}
				list = open[len(open)-1].list
				open = open[:len(open)-1]
				last = nil
				continue
			}
		}
		*list = append(*list, c)
	}
	if len(open) > 0 {
		return nil, fmt.Errorf("%s: repeat without end", open[len(open)-1].cmd.Pos())
	}
	return f, nil
}

func repeatCount(c *Command) (int, error) {
	if len(c.Fields) != 2 {
		return 0, fmt.Errorf("want \"repeat N\", got %q", c.Text)
	}
	n, err := strconv.Atoi(c.Fields[1])
	if err != nil || n < 0 {
		return 0, fmt.Errorf("repeat count %q is not a number of times", c.Fields[1])
	}
	return n, nil
}

// Read reads and parses the test file at path without running it, for a
// test that walks its commands itself (a table of published data);
// the test fails with the file and line of what is wrong.
func Read(t testing.TB, path string, syn Syntax) *File {
	t.Helper()
	_, f := load(t, path, syn)
	return f
}

// load reads and parses the file at path, failing the test with what is
// wrong.
func load(t testing.TB, path string, syn Syntax) ([]byte, *File) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("scenariotest: %v", err)
	}
	f, err := Parse(path, data, syn)
	if err != nil {
		t.Fatalf("scenariotest: %v", err)
	}
	return data, f
}
