package tiebreak

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJSON(t *testing.T) {
	var cfg struct {
		Tiebreaks []Spec `json:"tiebreaks"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"tiebreaks":["bh/c1","SB","DE/P"]}`), &cfg))
	assert.Equal(t, []Spec{{Kind: BH, CutLow: 1}, {Kind: SB}, {Kind: DE, Forfeits: true}}, cfg.Tiebreaks)
	require.ErrorContains(t, json.Unmarshal([]byte(`{"tiebreaks":["XX"]}`), &cfg), "unknown name")

	tour := build(t, small)
	st, err := Compute(tour, MustParseSpecs("BH ARO"), Options{})
	require.NoError(t, err)
	data, err := json.Marshal(st)
	require.NoError(t, err)
	var back Standings
	require.NoError(t, json.Unmarshal(data, &back))
	assert.Equal(t, st, &back)

	ct, err := NewCrosstable(tour, st)
	require.NoError(t, err)
	data, err = json.Marshal(ct.Rows[1].Cells[:2])
	require.NoError(t, err)
	assert.JSONEq(t, `[{"opponent":3,"opponentRank":3,"colour":"second","result":"draw","points":0.5},
		{"colour":"none","result":"pairing bye","points":1}]`, string(data))

	none, err := json.Marshal(Value{})
	require.NoError(t, err)
	assert.Equal(t, "null", string(none))
	_, err = json.Marshal(Spec{Kind: 99})
	require.Error(t, err)
	_, err = json.Marshal(Result(42))
	require.Error(t, err)
}
