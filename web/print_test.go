package web

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/store"
)

func TestPrintouts(t *testing.T) {
	e := newEvent(t)
	// Tavreli: round 1 played with rematches allowed, round 2 paired by hand
	// with byes only.
	require.NoError(t, e.db.PutRound(&store.Round{TournamentID: e.tav, Number: 1, How: "rematches",
		Pairings: []store.Pairing{{Board: 1, First: 1, Second: 2, Result: "1-0"}}}))
	require.NoError(t, e.db.PutRound(&store.Round{TournamentID: e.tav, Number: 2, How: "manual",
		Pairings: []store.Pairing{{Board: 1, First: 1, Result: "F"}, {First: 2, Result: "Z"}}}))
	c := e.client()
	chess := fmt.Sprintf("/tournaments/%d", e.chess)
	tav := fmt.Sprintf("/tournaments/%d", e.tav)

	tests := []struct {
		name, path string
		status     int
		want, not  []string
	}{
		{"chess pairings", chess + "/rounds/1/pairings", http.StatusOK,
			[]string{`href="/static/print.css"`, "Round 1", "White", "Black", "&lt;script&gt;alert(1)&lt;/script&gt;", "&#34;&gt;&lt;img src=x", "2000", "1900"},
			[]string{evilScript, evilImg, "paired by hand", "rematches", `class="nav"`}},
		{"chess slips", chess + "/rounds/1/slips", http.StatusOK,
			[]string{`href="/static/print.css"`, `class="slip"`, "Board 1", "Board 2", "1-0", "½-½", "0-1", "signature White", "signature Black", "&lt;script&gt;alert(1)&lt;/script&gt;"},
			[]string{evilScript, evilImg}},
		{"rematches round", tav + "/rounds/1/pairings", http.StatusOK,
			[]string{"rematches allowed", "Ivan", "Anna", "1-0"}, []string{"paired by hand"}},
		{"hand-paired round with byes", tav + "/rounds/2/pairings", http.StatusOK,
			[]string{"paired by hand", "Not playing this round", "full-point bye", "not paired (absent)", "<td>1</td>"},
			[]string{"rematches allowed"}},
		{"standings", chess + "/print/standings", http.StatusOK,
			[]string{`href="/static/print.css"`, "<th>SB</th>", "SB = Sonneborn-Berger", "Dmitri", "&lt;script&gt;alert(1)&lt;/script&gt;"},
			[]string{evilScript, evilImg, `<nav`}},
		{"crosstable", chess + "/print/crosstable", http.StatusOK,
			[]string{`href="/static/print.css"`, "<th>Pts</th>", "Carla", "&#34;&gt;&lt;img src=x"},
			[]string{evilScript, evilImg, `<nav`}},
		{"standings of no tournament", "/tournaments/999/print/standings", http.StatusNotFound, nil, nil},
		{"round not paired", chess + "/rounds/3/pairings", http.StatusNotFound, []string{"no round 3"}, nil},
		{"bad round", chess + "/rounds/x/slips", http.StatusBadRequest, []string{"not a positive number"}, nil},
		{"no tournament", "/tournaments/999/rounds/1/pairings", http.StatusNotFound, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body, _ := c.get(tc.path)
			require.Equal(t, tc.status, status, body)
			for _, w := range tc.want {
				assert.Contains(t, body, w)
			}
			for _, n := range tc.not {
				assert.NotContains(t, body, n)
			}
		})
	}

	// Ivan's point from round 1 shows in round 2, before the round.
	_, body, _ := c.get(tav + "/rounds/2/pairings")
	ivan := body[strings.Index(body, "Ivan"):]
	assert.Contains(t, ivan[:80], "<td>1</td>", "Ivan's score before round 2")

	// The print stylesheet is served (an inline one would be blocked by the
	// Content-Security-Policy).
	status, css, _ := c.get("/static/print.css")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, css, "@media print")
	assert.Contains(t, css, ".back{display:none}")

	// The tournament page links the printouts.
	_, body, _ = c.get(chess)
	assert.Contains(t, body, chess+"/rounds/1/pairings")
	assert.Contains(t, body, chess+"/rounds/1/slips")
	assert.Contains(t, body, chess+"/print/standings")
	assert.Contains(t, body, chess+"/print/crosstable")
}
