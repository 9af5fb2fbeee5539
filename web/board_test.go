package web

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/director"
	"arbiter/rules"
	_ "arbiter/rules/shogi"
	"arbiter/store"
)

func TestParsePiece(t *testing.T) {
	tests := []struct {
		game, text string
		want       pieceModel
	}{
		{"tavreli", "P(H)", pieceModel{Text: "P(H)", Glyph: "P", Mark: "H"}},
		{"tavreli", "p(Q)", pieceModel{Text: "p(Q)", Glyph: "P", Mark: "Q", Second: true}},
		{"shogi", "s+", pieceModel{Text: "s+", Glyph: "全", Letter: "S+", Second: true, Back: true}},
		{"shogi", "K", pieceModel{Text: "K", Glyph: "玉", Letter: "K"}},
		{"chess", "q", pieceModel{Text: "q", Glyph: "♛", Second: true}},
		{"kvaa", "C", pieceModel{Text: "C", Glyph: "C"}},
		{"kvaa", "c+", pieceModel{Text: "c+", Glyph: "C+", Second: true, Back: true}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, parsePiece(tt.game, tt.text), tt.text)
	}
}

// A tower is drawn with its height and its pieces bottom to top.
func TestTowerDiagram(t *testing.T) {
	v := &director.BoardView{Width: 2, Height: 1, Squares: []director.SquareView{
		{Name: "a1", File: 0, Rank: 0, Stack: []string{"P(B)", "p(N)", "Q"}},
		{Name: "b1", File: 1, Rank: 0},
	}}
	var buf bytes.Buffer
	require.NoError(t, mustParsePages().partials.ExecuteTemplate(&buf, "board", newBoardModel("tavreli", v)))
	html := buf.String()
	assert.Contains(t, html, `title="a1: P(B) p(N) Q (tower of 3, bottom to top)"`)
	assert.Contains(t, html, `<span class="height">3</span>`)
	assert.Regexp(t, `<ol class="stack"[^>]*><li class="first">P\(B\)</li><li class="second">p\(N\)</li><li class="first">Q</li></ol>`, html)
	// The top piece is the one shown large.
	assert.Regexp(t, `<span class="pc first">Q</span>`, html)
}

// Shogi is drawn with rank a at the top, file 9 on the left, and the hands
// grouped with counts.
func TestShogiDiagram(t *testing.T) {
	g, err := rules.New("shogi", nil)
	require.NoError(t, err)
	pos, err := g.ParsePosition("lnsgkgsnl/1r5b1/pppppp1pp/9/9/9/PP1PPP1PP/1B5R1/LNSGKGSNL b 2Pp 1")
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, mustParsePages().partials.ExecuteTemplate(&buf, "board", newBoardModel("shogi", director.NewBoardView(g, pos))))
	html := buf.String()
	// Square 0 is 9a, gote's lance, top left.
	// Each piece also carries its letters, shown on a device without a
	// Japanese font.
	assert.Regexp(t, `class="sq c1 r1" title="[^"]*: l"><span class="pc second" data-letter="L">香</span>`, html)
	// Sente's king on 5i, bottom row.
	assert.Regexp(t, `class="sq c5 r9" title="[^"]*: K"><span class="pc first" data-letter="K">玉</span>`, html)
	assert.Regexp(t, `hand-sente \(sente\)</span> <span class="pc first" data-letter="P">歩</span><sub>×2</sub>`, html)
	assert.Regexp(t, `hand-gote \(gote\)</span> <span class="pc second" data-letter="P">歩</span></div>`, html)
}

// The console offers a prompt's candidate moves with their notation.
func TestConsolePromptForm(t *testing.T) {
	l := director.Live{Table: "B9", Number: 9, GameID: 42, Game: "chess", First: evilScript, Second: "Bo", Health: "active",
		Prompt: &arbiter.Prompt{Question: "promote to?", Choices: []string{"e8=Q", `e8=N<b>`}, Moves: []string{"e7e8q", "e7e8n"}}}
	data := pageData{Event: "E", Page: "console", Data: map[string]any{
		"User": "chief", "CSRF": "tok", "Tables": []tableCard{card(l)}, "Reasons": resultReasons(),
		"Alerts": []store.Alert{}, "Unboarded": []store.Game{}, "Tournaments": []tourSummary{}, "Actions": []store.Action{},
	}}
	var buf bytes.Buffer
	require.NoError(t, mustParsePages().sets["console"].ExecuteTemplate(&buf, "layout", data))
	html := buf.String()
	assert.Contains(t, html, `action="/console/games/42/resolve"`)
	assert.Contains(t, html, `<option value="e7e8q">e8=Q (e7e8q)</option>`)
	assert.Contains(t, html, `<option value="e7e8n">e8=N&lt;b&gt; (e7e8n)</option>`)
	assert.NotContains(t, html, evilScript)
	// Every console form carries the CSRF token.
	forms := regexp.MustCompile(`(?s)<form method="post".*?</form>`).FindAllString(html, -1)
	require.NotEmpty(t, forms)
	for _, f := range forms {
		assert.True(t, strings.Contains(f, `name="csrf" value="tok"`), f)
	}
}

func TestClockText(t *testing.T) {
	for ms, want := range map[int64]string{-5: "0:00.0", 9_950: "0:09.9", 10_000: "0:10", 65_000: "1:05", 3_600_000: "1:00:00", 5_459_650: "1:30:59"} {
		assert.Equal(t, want, clockText(ms), "%d", ms)
	}
}
