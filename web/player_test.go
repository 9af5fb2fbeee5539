package web

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/store"
)

// A player's page lists their rounds with the side, the opponent, the
// result and the running score, and their performance rating; pairings
// show every player's score before the round; titles, federations and
// FIDE ids are shown where the players have them.
func TestPlayerPage(t *testing.T) {
	e := newEvent(t)
	ps, err := e.db.Players(e.chess)
	require.NoError(t, err)
	p := ps[2]
	p.Title, p.Federation, p.FideID = "WGM", "NOR", "1503014"
	require.NoError(t, e.db.PutPlayer(&p))
	c := e.client()
	c.login("chief", "arbiter")
	// Round 1: board 1 on the table, board 2 without a board; the
	// results by hand, then round 2 is paired.
	live := e.live().GameID
	games, err := e.db.Games()
	require.NoError(t, err)
	for _, g := range games {
		if g.TournamentID != e.chess || g.Round != 1 {
			continue
		}
		path := fmt.Sprintf("/console/games/%d/result", g.ID)
		if g.ID == live {
			code, body := c.act(path, url.Values{"result": {"1-0"}, "reason": {"resignation"}})
			require.Equal(t, http.StatusSeeOther, code, body)
			continue
		}
		code, body := c.act(path, url.Values{"result": {"1/2-1/2"}, "reason": {"agreement"}})
		require.Equal(t, http.StatusSeeOther, code, body)
	}
	e.waitFor("round 2", func() bool {
		rs, err := e.db.Rounds(e.chess)
		return err == nil && len(rs) == 2
	})
	rs, err := e.db.Rounds(e.chess)
	require.NoError(t, err)
	var p3 store.Pairing
	for _, p := range rs[1].Pairings {
		if p.First == 3 || p.Second == 3 {
			p3 = p
		}
	}
	require.NotZero(t, p3.Board, "player 3 plays round 2")

	code, body, _ := c.get(fmt.Sprintf("/tournaments/%d/players/3", e.chess))
	require.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, body, `<h1><span class="title">WGM</span> Carla</h1>`)
	assert.Contains(t, body, "federation NOR · rating 1800 · FIDE ID 1503014")
	// Round 1: Carla drew (0.5), or won or lost, by the table's result.
	var r1 store.Pairing
	for _, p := range rs[0].Pairings {
		if p.First == 3 || p.Second == 3 {
			r1 = p
		}
	}
	want := map[string]string{"1-0": "win", "0-1": "loss", "1/2-1/2": "draw"}[r1.Result]
	if r1.Second == 3 && want != "draw" {
		want = map[string]string{"win": "loss", "loss": "win"}[want]
	}
	assert.Regexp(t, fmt.Sprintf(`<tr><td class="num">1</td><td class="num">%d</td><td>(White|Black)</td>\s*<td>.*</td><td class="num">\d+</td>\s*<td><a href="/games/%d">%s</a> <small>\(`, r1.Board, r1.GameID, want), body)
	assert.Contains(t, body, fmt.Sprintf(`<a href="/games/%d">in play</a>`, p3.GameID), "round 2 is in play")
	// Everyone is rated: the performance is shown.
	assert.Regexp(t, `<dt>Performance</dt><dd>\d{3,4}</dd>`, body)

	// The pairings of round 2 show the scores before it, and the title.
	_, body, _ = c.get(fmt.Sprintf("/tournaments/%d", e.chess))
	assert.Contains(t, body, `<span class="title">WGM</span> <a href="/tournaments/1/players/3">Carla</a> <small class="fed">NOR</small>`)
	assert.Contains(t, body, "<p>Chess · round robin · 3 rounds", "the game and the system as players name them")
	assert.Contains(t, body, "<th scope=\"col\">Title</th>")
	assert.Contains(t, body, "<th scope=\"col\">FIDE ID</th>")
	before := map[string]string{"win": "1", "draw": "0.5", "loss": "0"}[want]
	if p3.First == 3 {
		assert.Contains(t, body, fmt.Sprintf(`Carla</a> <small class="fed">NOR</small> <small>(3)</small></td><td class="num">%s</td>`, before), "Carla's score before round 2")
	} else {
		assert.Contains(t, body, fmt.Sprintf(`<td class="num">%s</td><td><span class="title">WGM</span> <a href="/tournaments/1/players/3">Carla</a>`, before), "Carla's score before round 2")
	}
	// The crosstable links each player's page.
	_, body, _ = c.get(fmt.Sprintf("/tournaments/%d/crosstable", e.chess))
	assert.Contains(t, body, `<a href="/tournaments/1/players/3">Carla</a>`)
	// Standings name the player with the title too.
	_, body, _ = c.get(fmt.Sprintf("/tournaments/%d/standings", e.chess))
	assert.Contains(t, body, `<span class="title">WGM</span> <a href="/tournaments/1/players/3">Carla</a>`)

	for path, want := range map[string]int{
		fmt.Sprintf("/tournaments/%d/players/9", e.chess): http.StatusNotFound,
		fmt.Sprintf("/tournaments/%d/players/x", e.chess): http.StatusBadRequest,
		fmt.Sprintf("/tournaments/%d/players/0", e.chess): http.StatusBadRequest,
		"/tournaments/999/players/1":                      http.StatusNotFound,
	} {
		code, _, _ := c.get(path)
		assert.Equal(t, want, code, path)
	}
}
