package rules_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
	_ "arbiter/rules/chess"
	_ "arbiter/rules/kvaa"
	_ "arbiter/rules/shogi"
	_ "arbiter/rules/tavreli"
	_ "arbiter/rules/tensor"
)

// FuzzParseOptions feeds the tournament options string to the parser and
// to every game: an accepted string has a canonical form that reads back
// the same, and a game built from it reports options that build the same
// game again. Bad input is an error, never a panic.
func FuzzParseOptions(f *testing.F) {
	for _, s := range []string{"", "capture=compulsory", " a = b , c=d", "a=b,a=c", "=x", "k", "k=", "k=a=b",
		"scheme=R7,placement=4.5.1.2", "array=RNBQKBNR,alphabet=cyrillic", "impasse=24,sennichite=draw",
		"setup=standard,first_player=s,time_control=600+5,illegal_policy=forfeit_after:3", "monsters=on", ",", "a=b,,c=d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := rules.ParseOptions(s)
		if err != nil {
			return
		}
		again, err := rules.ParseOptions(o.String())
		require.NoError(t, err, "canonical form %q of %q", o.String(), s)
		assert.Equal(t, o, again)
		for _, name := range rules.Games() {
			g, err := rules.New(name, o.Clone())
			if err != nil {
				continue
			}
			canonical := g.Options().String()
			g2, err := rules.NewFromText(name, canonical)
			require.NoError(t, err, "%s: its own options %q", name, canonical)
			assert.Equal(t, canonical, g2.Options().String(), name)
		}
	})
}
