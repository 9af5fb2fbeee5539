package config

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The set of known keys is derived from the mapstructure tags of Config by
// reflection, and from those of the board protocols' settings as they
// registered them, so that a key added to the structs is known everywhere
// at once: in the check for unknown keys, in the suggestions, and as an
// ARBITER_* environment variable.

// field is one key of a struct: its name in the file and its type.
type field struct {
	name string
	typ  reflect.Type
}

// fields lists the keys of struct type t, following mapstructure's rules:
// the tag's name (before any comma), the Go name without a tag, "-"
// skipped, ",squash" fields inlined; and the keys the registered board
// protocols add to boards and to its port entries (protocolFields).
func fields(t reflect.Type) []field {
	var fs []field
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("mapstructure")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if slices.Contains(strings.Split(opts, ","), "squash") {
			if ft := indirect(f.Type); ft.Kind() == reflect.Struct {
				fs = append(fs, fields(ft)...)
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		fs = append(fs, field{name: name, typ: f.Type})
	}
	return append(fs, protocolFields(t)...)
}

func indirect(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// isSection reports whether t is decoded from a mapping of keys.
func isSection(t reflect.Type) bool {
	t = indirect(t)
	return t.Kind() == reflect.Struct && t != reflect.TypeFor[struct{}]() && len(fields(t)) > 0
}

// envKeys lists the dotted keys that an environment variable can set:
// every key outside a list whose value is not itself a section.
func envKeys(t reflect.Type, prefix string) []string {
	var keys []string
	for _, f := range fields(indirect(t)) {
		key := prefix + strings.ToLower(f.name)
		switch {
		case isSection(f.typ):
			keys = append(keys, envKeys(f.typ, key+".")...)
		case indirect(f.typ).Kind() == reflect.Slice && isSection(indirect(f.typ).Elem()):
			// A list of sections has no place in one variable.
		default:
			keys = append(keys, key)
		}
	}
	return keys
}

// envName is the environment variable that sets a dotted key.
func envName(key string) string {
	return envPrefix + "_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// allKeys lists every dotted key of t, lists marked with "[]", for
// suggestions across sections.
func allKeys(t reflect.Type, prefix string) []string {
	var keys []string
	for _, f := range fields(indirect(t)) {
		key := prefix + f.name
		keys = append(keys, key)
		ft := indirect(f.typ)
		switch {
		case isSection(ft):
			keys = append(keys, allKeys(ft, key+".")...)
		case ft.Kind() == reflect.Slice && isSection(ft.Elem()):
			keys = append(keys, allKeys(ft.Elem(), key+"[].")...)
		}
	}
	return keys
}

// lines maps each key of a YAML file, as the Problem keys spell it
// ("tournaments[0].players[2].name"), to its line.
type lines map[string]int

// line returns the line of key, or of its nearest enclosing key, or 0.
func (l lines) line(key string) int {
	n, _ := enclosing(l, key)
	return n
}

// enclosing returns the value of key in m, or that of its nearest
// enclosing key ("a.b[2]" for "a.b[2].c", then "a.b", then "a").
func enclosing[V any](m map[string]V, key string) (V, bool) {
	for key != "" {
		if v, ok := m[key]; ok {
			return v, true
		}
		i := strings.LastIndexAny(key, ".[")
		if i < 0 {
			break
		}
		key = key[:i]
	}
	var zero V
	return zero, false
}

// checkKeys walks a YAML document along type t and returns the line of
// every key, and a problem for every key that t does not know, with the
// nearest known key as a suggestion. Mismatched kinds (a list where a
// section belongs) are left to the decoder, which names them.
func checkKeys(doc *yaml.Node, t reflect.Type) (lines, []Problem) {
	w := &keyWalker{lines: lines{}, all: allKeys(t, ""), aliased: map[aliasUse]bool{}}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		doc = doc.Content[0]
	}
	w.walk(doc, t, "", 0)
	if w.unknown > maxUnknown {
		w.problems = append(w.problems, Problem{Key: "(file)", Value: fmt.Sprint(w.unknown),
			Why: fmt.Sprintf("%d more unknown keys; is this the configuration of arbiter?", w.unknown-maxUnknown)})
	}
	return w.lines, w.problems
}

type keyWalker struct {
	lines    lines
	problems []Problem
	unknown  int // unknown keys, of which the first maxUnknown are problems
	all      []string
	aliased  map[aliasUse]bool
}

// aliasUse is an anchored node checked as a type.
type aliasUse struct {
	n *yaml.Node
	t reflect.Type
}

// maxDepth bounds the nesting, maxUnknown the unknown keys reported: no
// configuration nests this deep, and a crafted file must exhaust neither
// the stack nor the time.
const (
	maxDepth   = 64
	maxUnknown = 100
)

func (w *keyWalker) walk(n *yaml.Node, t reflect.Type, path string, depth int) {
	if n == nil || depth > maxDepth {
		return
	}
	if n.Kind == yaml.AliasNode {
		// An anchored node is checked once per type, however often it is
		// used: aliases of aliases would otherwise multiply the work.
		use := aliasUse{n.Alias, t}
		if !w.aliased[use] {
			w.aliased[use] = true
			w.walk(n.Alias, t, path, depth+1)
		}
		return
	}
	t = indirect(t)
	switch {
	case isSection(t) && n.Kind == yaml.MappingNode:
		fs := fields(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.ScalarNode && k.Value == "<<" && k.Tag == "!!merge" {
				// A merge key: its mapping (or list of mappings) is
				// checked as part of this one.
				if v.Kind == yaml.SequenceNode {
					for _, m := range v.Content {
						w.walk(m, t, path, depth+1)
					}
				} else {
					w.walk(v, t, path, depth+1)
				}
				continue
			}
			key := joinKey(path, k.Value)
			j := slices.IndexFunc(fs, func(f field) bool { return strings.EqualFold(f.name, k.Value) })
			if j < 0 {
				if w.unknown++; w.unknown <= maxUnknown {
					w.problems = append(w.problems, Problem{Key: key, Value: nodeText(v), Line: k.Line,
						Why: "unknown key" + w.suggest(path, k.Value, fs)})
				}
				continue
			}
			w.lines[joinKey(path, fs[j].name)] = k.Line
			w.walk(v, fs[j].typ, joinKey(path, fs[j].name), depth+1)
		}
	case t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			key := fmt.Sprintf("%s[%d]", path, i)
			w.lines[key] = item.Line
			w.walk(item, t.Elem(), key, depth+1)
		}
	case t.Kind() == reflect.Map && n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := joinKey(path, n.Content[i].Value)
			w.lines[key] = n.Content[i].Line
			w.walk(n.Content[i+1], t.Elem(), key, depth+1)
		}
	}
}

func joinKey(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// nodeText shows a value in a problem: the scalar itself, or what kind of
// value it is.
func nodeText(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		return n.Value
	case yaml.MappingNode:
		return "{...}"
	case yaml.SequenceNode:
		return "[...]"
	}
	return ""
}

// suggest names the known key nearest to name: a sibling if one is close,
// otherwise a key of another section with that last name ("listen" at the
// top level: did you mean http.listen?).
func (w *keyWalker) suggest(path, name string, siblings []field) string {
	name = strings.ToLower(name)
	best, bestD := "", len(name)
	for _, f := range siblings {
		if d := distance(name, strings.ToLower(f.name)); d < bestD {
			best, bestD = f.name, d
		}
	}
	if best != "" && bestD <= closeEnough(name) {
		return fmt.Sprintf("; did you mean %s?", best)
	}
	best, bestD = "", len(name)
	for _, k := range w.all {
		last := k[strings.LastIndexByte(k, '.')+1:]
		if d := distance(name, strings.ToLower(last)); d < bestD && d <= closeEnough(name) {
			best, bestD = k, d
		}
	}
	if best != "" {
		return fmt.Sprintf("; did you mean %s (in another section)?", best)
	}
	known := make([]string, len(siblings))
	for i, f := range siblings {
		known[i] = f.name
	}
	where := "here"
	if path != "" {
		where = "in " + path
	}
	return fmt.Sprintf("; the keys %s are %s", where, strings.Join(known, ", "))
}

// closeEnough is the largest edit distance that still reads as a typo of
// a name this long.
func closeEnough(name string) int {
	return max(1, min(3, len(name)/3))
}

// distance is the optimal-string-alignment edit distance between a and b:
// insertions, deletions, substitutions and transpositions of neighbours
// ("listne" is one step from "listen").
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 || len(ra)-len(rb) > 3 || len(rb)-len(ra) > 3 {
		// Too far apart to be a typo; a bound, not the distance.
		if a == b {
			return 0
		}
		return max(len(ra), len(rb))
	}
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// sections are the top-level keys, upper-cased as in the environment.
func sections() []string {
	var s []string
	for _, f := range fields(reflect.TypeFor[Config]()) {
		s = append(s, strings.ToUpper(f.name))
	}
	return s
}

// envWarnings returns a warning for every ARBITER_* variable of environ
// that looks like a configuration key (its first word names a section, or
// it is a typo of a known variable) but sets nothing.
func envWarnings(environ []string) []Problem {
	known := map[string]bool{}
	var names []string
	for _, k := range envKeys(reflect.TypeFor[Config](), "") {
		known[envName(k)] = true
		names = append(names, envName(k))
	}
	secs := sections()
	var ws []Problem
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		rest, ok := strings.CutPrefix(name, envPrefix+"_")
		if !ok || known[name] {
			continue
		}
		first, _, _ := strings.Cut(rest, "_")
		best, bestD := "", 3
		for _, n := range names {
			if d := distance(name, n); d < bestD {
				best, bestD = n, d
			}
		}
		if !slices.Contains(secs, first) && best == "" {
			continue // another program's variable, such as ARBITER_ARTIFACTS
		}
		why := "not a configuration key: it sets nothing"
		if best != "" {
			why += fmt.Sprintf("; did you mean %s?", best)
		} else if slices.Contains(secs, first) {
			var in []string
			for _, n := range names {
				if strings.HasPrefix(n, envPrefix+"_"+first+"_") {
					in = append(in, n)
				}
			}
			if len(in) > 0 {
				why += "; the variables of " + strings.ToLower(first) + " are " + strings.Join(in, ", ")
			} else {
				why += "; " + strings.ToLower(first) + " cannot be set from the environment"
			}
		}
		ws = append(ws, Problem{Key: name, Value: value, Why: why, From: "environment"})
	}
	return ws
}

// environ is os.Environ, sorted so that warnings come in a stable order.
func environ() []string {
	e := os.Environ()
	slices.Sort(e)
	return e
}
