package web

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// TestTableStatus checks that the public table cards say honestly what a
// table is doing: a finished game is finished, a lost board is a warning.
func TestTableStatus(t *testing.T) {
	e := newEvent(t)
	c := e.client()

	status, body, _ := c.get("/")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, "to move", "a game in play says whose move it is")
	assert.NotContains(t, body, "finished")
	assert.NotContains(t, body, "health-warning")

	require.NoError(t, e.d.Resign(e.ctx, e.table, rules.First, "test"))
	e.waitFor("the result", func() bool { return e.live().Result != "" })
	e.table.SetHealth("disconnected")
	since := e.live().HealthSince
	require.False(t, since.IsZero())

	tests := []struct {
		name, path string
		want, not  []string
	}{
		{"event page", "/", []string{"<b>finished</b> · <b>0-1</b> (resignation)", `class="warn health-warning">board disconnected since ` + since.Format("15:04") + "<"}, []string{"to move"}},
		{"live page", "/live", []string{"<b>finished</b>", "board disconnected since " + since.Format("15:04")}, []string{"to move"}},
		{"table fragment", "/fragment/table/B1", []string{"<b>finished</b> · <b>0-1</b> (resignation)", "board disconnected since"}, []string{"to move"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body, _ := c.get(tc.path)
			require.Equal(t, http.StatusOK, status)
			for _, w := range tc.want {
				assert.Contains(t, body, w)
			}
			for _, n := range tc.not {
				assert.NotContains(t, body, n)
			}
		})
	}

	e.table.SetHealth("not-responding")
	_, body, _ = c.get("/")
	assert.Contains(t, body, "board not responding since ")

	// A table of a tournament with no round paired, whose board never came.
	_, err := e.d.AddTable(e.tav, "B2")
	require.NoError(t, err)
	_, body, _ = c.get("/fragment/table/B2")
	assert.Contains(t, body, "waiting for its board")
	assert.Contains(t, body, "round 1 not paired yet.")
	assert.NotContains(t, body, "health-warning")
}

func TestTableCardTexts(t *testing.T) {
	tests := []struct {
		health, text, warning string
	}{
		{"no board", "waiting for its board", ""},
		{"connecting", "board connecting", ""},
		{"active", "board connected", ""},
		{"delayed", "board slow to answer", ""},
		{"not-responding", "board not responding", "board not responding"},
		{"disconnected", "board disconnected", "board disconnected"},
	}
	for _, tc := range tests {
		t.Run(tc.health, func(t *testing.T) {
			c := tableCard{}
			c.Live.Health = tc.health
			assert.Equal(t, tc.text, c.HealthText())
			assert.Equal(t, tc.warning, c.Warning())
		})
	}
}
