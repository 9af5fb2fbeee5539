package scenariotest

import "strings"

// render returns the file's text with the commands' expected lines
// replaced by outputs and their text by inline, everything else (comments,
// blank lines, indentation) as it was. A command absent from outputs keeps
// its expected lines.
func (f *File) render(outputs map[*Command][]string, inline map[*Command]string) string {
	e := &edits{f: f, replace: map[int]string{}, drop: map[int]bool{}, after: map[int][]string{}}
	e.commands(f.Commands, outputs, inline)
	replace, drop, after := e.replace, e.drop, e.after
	var b strings.Builder
	for i, raw := range f.lines {
		if !drop[i] {
			if text, ok := replace[i]; ok {
				raw = text
			}
			b.WriteString(raw)
			b.WriteByte('\n')
		}
		for _, l := range after[i] {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	out := b.String()
	if !f.final {
		out = strings.TrimSuffix(out, "\n")
	}
	return out
}

// edits are the changes render makes to a file's lines, by line index.
type edits struct {
	f       *File
	replace map[int]string   // line index: its new text
	drop    map[int]bool     // line index: removed
	after   map[int][]string // line index: lines inserted after it
}

// commands edits the lines of cmds and of the commands in their bodies.
func (e *edits) commands(cmds []*Command, outputs map[*Command][]string, inline map[*Command]string) {
	f := e.f
	for _, c := range cmds {
		e.commands(c.body, outputs, inline)
		if text, ok := inline[c]; ok && text != c.Text {
			e.replace[c.Line-1] = f.withCode(f.lines[c.Line-1], text)
		}
		if lines, ok := outputs[c]; ok {
			e.expected(c, lines)
		}
	}
}

// expected puts lines in place of c's expected lines: those that differ
// replaced, those no longer there dropped, new ones added after the last,
// with the indentation of the lines they follow.
func (e *edits) expected(c *Command, lines []string) {
	f := e.f
	for i, w := range c.Want {
		switch {
		case i >= len(lines):
			e.drop[w.Line-1] = true
		case lines[i] != w.Text:
			e.replace[w.Line-1] = leadOf(f.lines[w.Line-1]) + f.syntax.Expect + " " + lines[i]
		}
	}
	if len(lines) <= len(c.Want) {
		return
	}
	at, lead := c.Line-1, ""
	if len(c.Want) > 0 {
		at = c.Want[len(c.Want)-1].Line - 1
		lead = leadOf(f.lines[at])
	}
	for _, l := range lines[len(c.Want):] {
		e.after[at] = append(e.after[at], lead+f.syntax.Expect+" "+l)
	}
}

// leadOf returns the indentation of line raw.
func leadOf(raw string) string { return raw[:len(raw)-len(strings.TrimLeft(raw, " \t"))] }

// withCode puts code in place of a command line's code, keeping the
// line's indentation and, for inline comments, the space before the
// comment and the comment itself.
func (f *File) withCode(raw, code string) string {
	rest := strings.TrimLeft(raw, " \t")
	lead := raw[:len(raw)-len(rest)]
	tail := ""
	if f.syntax.InlineComments {
		if i := strings.Index(rest, "#"); i >= 0 {
			old := rest[:i]
			tail = old[len(strings.TrimRight(old, " \t")):] + rest[i:]
		}
	}
	return lead + code + tail
}
