package rules

import (
	"fmt"
	"slices"
	"strings"
)

// Options are a game's rule options as text, key to value ("capture" to
// "compulsory"). Games document their keys and defaults, reject unknown keys
// and bad values, and report every option, defaults included, from
// [Game.Options] so that records carry the rules they were played under.
type Options map[string]string

// ParseOptions reads "key=value,key=value". Spaces around keys and values
// are ignored; an empty string gives no options.
func ParseOptions(s string) (Options, error) {
	o := Options{}
	s = strings.TrimSpace(s)
	if s == "" {
		return o, nil
	}
	for i, item := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(item, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			return nil, fmt.Errorf("option %d %q: want key=value", i+1, item)
		}
		if _, dup := o[k]; dup {
			return nil, fmt.Errorf("option %q given twice", k)
		}
		o[k] = v
	}
	return o, nil
}

// String writes the options as "key=value,..." with keys in sorted order,
// the canonical form stored with a game.
func (o Options) String() string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(o[k])
	}
	return b.String()
}

// Clone returns a copy of o.
func (o Options) Clone() Options {
	c := make(Options, len(o))
	for k, v := range o {
		c[k] = v
	}
	return c
}
