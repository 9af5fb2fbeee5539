package web

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
	"arbiter/rules/chess"
)

// poll fetches a feed the way a broadcast viewer does, with the ETag of
// its last answer.
func (c *client) poll(path, etag string) (*http.Response, string) {
	c.t.Helper()
	req, err := http.NewRequest(http.MethodGet, c.e.srv.URL+path, nil)
	require.NoError(c.t, err)
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	resp, err := c.http.Do(req)
	require.NoError(c.t, err)
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, err = buf.ReadFrom(resp.Body)
	require.NoError(c.t, err)
	return resp, buf.String()
}

func TestRoundFeedForBroadcasts(t *testing.T) {
	e := newEvent(t)
	e.move("e2", "e4", rules.White, 0, 1)
	c := e.client()
	path := fmt.Sprintf("/feed/%d/1.pgn", e.chess)

	resp, body := c.poll(path, "")
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Equal(t, "application/x-chess-pgn; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Equal(t, "*", resp.Header.Get("Access-Control-Allow-Origin"))
	assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"))
	etag := resp.Header.Get("ETag")
	require.NotEmpty(t, etag)
	imp, err := chess.ImportPGN(strings.NewReader(body))
	require.NoError(t, err, body)
	require.Len(t, imp, 2, "both boards of round 1, the one without a table not started")
	assert.NotContains(t, body, "\n\n\n", "one blank line between games")
	assert.Empty(t, imp[1].Moves)
	board2, _ := imp[1].Record.Tag("Board")
	assert.Equal(t, "2", board2)
	rec := imp[0].Record
	round, _ := rec.Tag("Round")
	board, _ := rec.Tag("Board")
	assert.Equal(t, "1.1", round)
	assert.Equal(t, "1", board)
	assert.Equal(t, "*", rec.Result, "in play")
	require.Len(t, rec.Moves, 1)
	assert.True(t, rec.Moves[0].HasClock)
	assert.Contains(t, body, "1. e4 {[%clk 1:30:")

	// Unchanged: 304 without a body, and the CORS header still there.
	resp, body = c.poll(path, etag)
	assert.Equal(t, http.StatusNotModified, resp.StatusCode)
	assert.Empty(t, body)
	assert.Equal(t, "*", resp.Header.Get("Access-Control-Allow-Origin"))
	assert.Equal(t, etag, resp.Header.Get("ETag"))
	resp, _ = c.poll(path, `"other", W/`+etag)
	assert.Equal(t, http.StatusNotModified, resp.StatusCode, "a list and a weak tag match too")

	// A move changes the feed and its tag.
	e.move("e7", "e5", rules.Black, 0, 1)
	resp, body = c.poll(path, etag)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.NotEqual(t, etag, resp.Header.Get("ETag"))
	assert.Contains(t, body, " e5 {[%clk 1:30:")
}

func TestRoundFeedRefusesWhatIsNotThere(t *testing.T) {
	e := newEvent(t)
	c := e.client()
	tests := []struct {
		path string
		code int
		says string
	}{
		{fmt.Sprintf("/feed/%d/1.kif", e.chess), http.StatusBadRequest, `format "kif" of chess (have pgn)`},
		{fmt.Sprintf("/feed/%d/2.pgn", e.chess), http.StatusNotFound, "round 2"},
		{fmt.Sprintf("/feed/%d/1", e.chess), http.StatusBadRequest, "ROUND.FORMAT"},
		{fmt.Sprintf("/feed/%d/01.pgn", e.chess), http.StatusBadRequest, "ROUND.FORMAT"},
		{fmt.Sprintf("/feed/%d/x.pgn", e.chess), http.StatusBadRequest, "ROUND.FORMAT"},
		{"/feed/999/1.pgn", http.StatusNotFound, "999"},
		{"/feed/0/1.pgn", http.StatusBadRequest, "tournament"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			code, body, h := c.get(tt.path)
			assert.Equal(t, tt.code, code, body)
			assert.Contains(t, body, tt.says)
			assert.Equal(t, "*", h.Get("Access-Control-Allow-Origin"))
		})
	}

	req, err := http.NewRequest(http.MethodOptions, e.srv.URL+fmt.Sprintf("/feed/%d/1.pgn", e.chess), nil)
	require.NoError(t, err)
	req.Header.Set("Origin", "https://lichess.org")
	req.Header.Set("Access-Control-Request-Headers", "if-none-match")
	resp, err := c.http.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)
	assert.Equal(t, "*", resp.Header.Get("Access-Control-Allow-Origin"))
	assert.Contains(t, resp.Header.Get("Access-Control-Allow-Headers"), "If-None-Match")
}

func TestEtagMatch(t *testing.T) {
	for _, tt := range []struct {
		header string
		want   bool
	}{
		{`"a"`, true}, {`W/"a"`, true}, {`"b", "a"`, true}, {`*`, true},
		{``, false}, {`"b"`, false}, {`a`, false}, {`"a`, false},
	} {
		assert.Equal(t, tt.want, etagMatch(tt.header, `"a"`), tt.header)
	}
}
