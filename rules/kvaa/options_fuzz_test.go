package kvaa

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// FuzzParseScheme: an accepted scheme writes a name that reads back as
// the same scheme.
func FuzzParseScheme(f *testing.F) {
	for _, s := range []string{"R2", "r.3", "R3+R7", "D+RING+INNER", "d+spoke", " R5 ", "", "+", "R9", "RING+", "R.R.2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sc, err := ParseScheme(s)
		if err != nil {
			return
		}
		back, err := ParseScheme(sc.String())
		require.NoError(t, err, "%q wrote %q", s, sc.String())
		assert.Equal(t, sc, back)
		assert.NotPanics(t, func() { sc.Neighbours(0); sc.Jumps() })
	})
}

// FuzzParseTimeControl: "base+increment" in seconds, read back the same.
func FuzzParseTimeControl(f *testing.F) {
	for _, s := range []string{"600+0", "600+5", "0+0", "1000000+1000000", "+", "600", "-1+0", "600+-1", " 600+0", "1e3+0", "99999999999999999999+0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := ParseTimeControl(s)
		if err != nil {
			return
		}
		assert.Positive(t, tc.Base)
		assert.GreaterOrEqual(t, tc.Increment, time.Duration(0))
		back, err := ParseTimeControl(tc.String())
		require.NoError(t, err, "%q wrote %q", s, tc.String())
		assert.Equal(t, tc, back)
	})
}

// FuzzParseConfig: any options string either is refused or gives a
// configuration whose own options give it back, and a game.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{"", "scheme=R7", "placement=4.5.1.2,first_player=n", "time_control=600+5,flag_result=draw",
		"illegal_policy=time_penalty:30", "illegal_policy=forfeit_after:3", "setup=standard", "mirror_rule=off",
		"scheme=D+RING,illegal_policy=correct", "nope=1", "time_control=600"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		opts, err := rules.ParseOptions(s)
		if err != nil {
			return
		}
		c, err := ParseConfig(opts)
		if err != nil {
			return
		}
		back, err := ParseConfig(c.Options())
		require.NoError(t, err, "%q wrote %q", s, c.String())
		assert.Equal(t, c, back)
		_, err = New(c)
		require.NoError(t, err, "config %q", c.String())
	})
}
