package replay

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

func TestParseOutcome(t *testing.T) {
	for _, o := range []rules.Outcome{
		rules.Win(rules.First, rules.Checkmate), rules.Loss(rules.First, rules.Resignation),
		rules.Draw(rules.Agreement), rules.Win(rules.Second, rules.ArbiterDecision),
	} {
		got, err := parseOutcome(o.String())
		require.NoError(t, err)
		require.Equal(t, o, got)
	}
	for _, bad := range []string{"", "*", "1-0", "2-0 checkmate", "1-0 mate", "0-1  checkmate"} {
		_, err := parseOutcome(bad)
		require.Error(t, err, "%q", bad)
	}
}

func TestParseAddTime(t *testing.T) {
	side, d, err := parseAddTime("second +2m0s")
	require.NoError(t, err)
	require.Equal(t, rules.Second, side)
	require.Equal(t, 2*time.Minute, d)
	for _, bad := range []string{"", "first", "third +1s", "first +soon"} {
		_, _, err := parseAddTime(bad)
		require.Error(t, err, "%q", bad)
	}
}

// The action parsers read text from the database: they must never panic,
// and what they accept must read back the same.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"1-0 checkmate", "1/2-1/2 agreement", "0-1 time", "first +2m0s", "second +30s", "", "x y z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if o, err := parseOutcome(s); err == nil {
			again, err := parseOutcome(o.String())
			if err != nil || again != o {
				t.Fatalf("outcome %q read as %v, which reads back as %v (%v)", s, o, again, err)
			}
		}
		// As the director writes it (Director.AddTime).
		if side, d, err := parseAddTime(s); err == nil {
			again, d2, err := parseAddTime(fmt.Sprintf("%s +%s", side, d))
			if err != nil || again != side || d2 != d {
				t.Fatalf("add-time %q read as %v %v, which reads back as %v %v (%v)", s, side, d, again, d2, err)
			}
		}
	})
}
