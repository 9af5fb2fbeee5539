package web

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 35 §3: the console gives a pairing's shogi game a handicap
// (駒落ち) while it has not begun; the choice is audited, shown on the
// tournament's page, and refused for an unknown handicap. A game without
// handicaps (chess) offers none.
func TestConsoleHandicap(t *testing.T) {
	tc := swiss(4, 2)
	tc.Game = "shogi"
	e, id := newTableless(t, tc)
	c := e.client()
	c.login("chief", "arbiter")
	r := e.round(id, 1)
	gid := r.Pairings[0].GameID
	page := fmt.Sprintf("/console/tournaments/%d", id)
	_, body, _ := c.get(page)
	assert.Contains(t, body, fmt.Sprintf(`action="/console/games/%d/handicap"`, gid))
	assert.Contains(t, body, "two pieces (二枚落ち)")

	code, body := c.act(fmt.Sprintf("/console/games/%d/handicap", gid), url.Values{"handicap": {"queen"}, "why": {"a typo"}})
	assert.Equal(t, http.StatusBadRequest, code, body)
	code, body = c.act(fmt.Sprintf("/console/games/%d/handicap", gid), url.Values{"handicap": {"lance"}, "why": {"teaching game"}})
	require.Equal(t, http.StatusSeeOther, code, body)
	g, err := e.db.Game(gid)
	require.NoError(t, err)
	assert.Contains(t, g.Options, "handicap=lance")
	require.Len(t, e.actions("handicap"), 1)
	_, body, _ = c.get(page)
	assert.Contains(t, body, `<option value="lance" selected>lance (香落ち)</option>`)
	assertEscaped(t, body)

	chess, cid := newTableless(t, swiss(4, 2))
	cc := chess.client()
	cc.login("chief", "arbiter")
	_, body, _ = cc.get(fmt.Sprintf("/console/tournaments/%d", cid))
	assert.NotContains(t, body, "/handicap\"")
}
