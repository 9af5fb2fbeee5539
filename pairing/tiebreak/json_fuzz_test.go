package tiebreak

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzJSON decodes arbitrary JSON into tie-break lists and values, as a
// configuration or an API client would send them: what is accepted encodes
// and decodes to the same thing; nothing panics.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{
		`{"tiebreaks":["bh/c1","SB","DE/P"],"values":[1.5,null,-0,2e3]}`,
		`{"tiebreaks":["XX"]}`, `{"tiebreaks":[""]}`, `{"tiebreaks":[1]}`, `{"values":["1"]}`, `{"values":[1e400]}`,
		`{"tiebreaks":["BH/C1/C2","BH/M1","TPR","APRO","KS","PS"]}`, `{"values":[null,0.5]}`, `[]`, `{`, `null`,
	} {
		f.Add([]byte(s))
	}
	type doc struct {
		Tiebreaks []Spec  `json:"tiebreaks"`
		Values    []Value `json:"values"`
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var d doc
		if err := json.Unmarshal(data, &d); err != nil {
			return
		}
		out, err := json.Marshal(d)
		require.NoError(t, err, "%+v", d)
		var back doc
		require.NoError(t, json.Unmarshal(out, &back), "%s", out)
		assert.Equal(t, d, back, "%s", out)
		for _, s := range d.Tiebreaks {
			again, err := ParseSpec(s.String())
			require.NoError(t, err, "%q", s.String())
			assert.Equal(t, s, again)
		}
	})
}
