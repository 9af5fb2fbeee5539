package scenariotest

import "strings"

// render returns the file's text with the commands' expected lines
// replaced by outputs and their text by inline, everything else (comments,
// blank lines, indentation) as it was. A command absent from outputs keeps
// its expected lines.
func (f *File) render(outputs map[*Command][]string, inline map[*Command]string) string {
	replace := map[int]string{} // line index: its new text
	drop := map[int]bool{}      // line index: removed
	after := map[int][]string{} // line index: lines inserted after it
	var walk func([]*Command)
	walk = func(cmds []*Command) {
		for _, c := range cmds {
			walk(c.body)
			if text, ok := inline[c]; ok && text != c.Text {
				replace[c.Line-1] = f.withCode(f.lines[c.Line-1], text)
			}
			lines, ok := outputs[c]
			if !ok {
				continue
			}
			for i, w := range c.Want {
				switch {
				case i >= len(lines):
					drop[w.Line-1] = true
				case lines[i] != w.Text:
					raw := f.lines[w.Line-1]
					lead := raw[:len(raw)-len(strings.TrimLeft(raw, " \t"))]
					replace[w.Line-1] = lead + f.syntax.Expect + " " + lines[i]
				}
			}
			if len(lines) > len(c.Want) {
				at, lead := c.Line-1, ""
				if len(c.Want) > 0 {
					at = c.Want[len(c.Want)-1].Line - 1
					raw := f.lines[at]
					lead = raw[:len(raw)-len(strings.TrimLeft(raw, " \t"))]
				}
				for _, l := range lines[len(c.Want):] {
					after[at] = append(after[at], lead+f.syntax.Expect+" "+l)
				}
			}
		}
	}
	walk(f.Commands)
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
