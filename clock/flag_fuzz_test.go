package clock

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzFlagPolicy: the flag policy is read from configuration text; what
// is accepted writes back the same text, everything else is an error
// naming the value, and nothing panics.
func FuzzFlagPolicy(f *testing.F) {
	for _, s := range []string{"auto", "claim-only", "", "Auto", "claim only", "claim-only\n", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var p FlagPolicy
		if err := p.UnmarshalText([]byte(s)); err != nil {
			assert.Contains(t, err.Error(), "flag policy")
			return
		}
		text, err := p.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, s, string(text))
		var opts struct{ Flags FlagPolicy }
		data, err := json.Marshal(struct{ Flags FlagPolicy }{p})
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(data, &opts))
		assert.Equal(t, p, opts.Flags)
	})
}
