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
	_ "arbiter/rules/kvaa"
	_ "arbiter/rules/shogi"
	_ "arbiter/rules/tensor"
	"arbiter/store"
)

func TestParsePiece(t *testing.T) {
	tests := []struct {
		game, text string
		want       pieceModel
	}{
		{"tavreli", "P(H)", pieceModel{Text: "P(H)", Kind: "P", Glyph: "P", Mark: "H", Name: "Ratnik marked Helgi"}},
		{"tavreli", "p(Q)", pieceModel{Text: "p(Q)", Kind: "P", Glyph: "P", Mark: "Q", Second: true, Name: "Ratnik marked Knyaz"}},
		{"shogi", "s+", pieceModel{Text: "s+", Kind: "S", Glyph: "全", Letter: "S+", Second: true, Back: true, Name: "promoted silver"}},
		{"shogi", "K", pieceModel{Text: "K", Kind: "K", Glyph: "玉", Letter: "K", Name: "king"}},
		{"chess", "q", pieceModel{Text: "q", Kind: "Q", Glyph: "Q", Second: true, Name: "queen"}},
		{"tensor", "T", pieceModel{Text: "T", Kind: "T", Glyph: "T", Name: "monster"}},
		{"kvaa", "C", pieceModel{Text: "C", Kind: "C", Glyph: "C", Name: "counter"}},
		{"kvaa", "c+", pieceModel{Text: "c+", Kind: "C", Glyph: "C+", Second: true, Back: true, Name: "counter, turned over"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, parsePiece(tt.game, tt.text), tt.text)
	}
}

// A tower is drawn with its height and its pieces bottom to top, and its
// square says so in words.
func TestTowerDiagram(t *testing.T) {
	v := &director.BoardView{Width: 2, Height: 1, Squares: []director.SquareView{
		{Name: "a1", File: 0, Rank: 0, Stack: []string{"P(B)", "p(N)", "Q"}},
		{Name: "b1", File: 1, Rank: 0},
	}}
	var buf bytes.Buffer
	require.NoError(t, mustParsePages().partials.ExecuteTemplate(&buf, "board", newBoardModel("tavreli", v)))
	html := buf.String()
	assert.Contains(t, html, `aria-label="a1, tower of 3, bottom to top: white Ratnik marked Luchnik, black Ratnik marked Vsadnik, white Knyaz"`)
	assert.Contains(t, html, `aria-label="b1, empty"`)
	assert.Contains(t, html, `<span class="height" aria-hidden="true" data-n="3"></span>`)
	// Under the top piece, the pieces beneath it, bottom to top.
	assert.Regexp(t, `<ol class="stack" aria-hidden="true"><li class="first" data-glyph="P" data-mark="B"></li><li class="second" data-glyph="P" data-mark="N"></li></ol>`, html)
	assert.Contains(t, html, `title="a1, tower of 3, bottom to top: white Ratnik marked Luchnik, black Ratnik marked Vsadnik, white Knyaz"`)
	// The top piece is the one drawn large.
	assert.Regexp(t, `<span class="pc kQ first" aria-hidden="true"></span>`, html)
}

// Shogi is drawn with rank a at the top, file 9 on the left, and the hands
// grouped with counts under the sides' names.
func TestShogiDiagram(t *testing.T) {
	g, err := rules.New("shogi", nil)
	require.NoError(t, err)
	pos, err := g.ParsePosition("lnsgkgsnl/1r5b1/pppppp1pp/9/9/9/PP1PPP1PP/1B5R1/LNSGKGSNL b 2Pp 1")
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, mustParsePages().partials.ExecuteTemplate(&buf, "board", newBoardModel("shogi", director.NewBoardView(g, pos))))
	html := buf.String()
	// Square 0 is 9a, gote's lance, top left, in the board's first row.
	// Each piece also carries its letters, shown on a device without a
	// Japanese font.
	assert.Regexp(t, `role="grid" aria-readonly="true" aria-label="Board, sente at the bottom"><div class="row" role="row"><div class="sq c1 r1" role="gridcell" aria-label="9a, gote lance"><span class="pc kL second" aria-hidden="true" data-letter="L">香</span>`, html)
	// Sente's king on 5i, bottom row.
	assert.Regexp(t, `class="sq c5 r9" role="gridcell" aria-label="5i, sente king"><span class="pc kK first" aria-hidden="true" data-letter="K">玉</span>`, html)
	assert.Contains(t, html, `<div class="zone" role="img" aria-label="Sente&#39;s hand: 2 × sente pawn"><span class="zname">Sente&#39;s hand</span> <span class="pc kP first" aria-hidden="true" data-letter="P">歩</span><span class="count">×2</span></div>`)
	assert.Contains(t, html, `<span class="zname">Gote&#39;s hand</span> <span class="pc kP second" aria-hidden="true" data-letter="P">歩</span></div>`)
	assert.NotContains(t, html, "hand-sente", "no internal zone names")
}

// Kvaa's zones are captioned with the side names, never the internal
// zone names.
func TestKvaaZones(t *testing.T) {
	g, err := rules.New("kvaa", nil)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, mustParsePages().partials.ExecuteTemplate(&buf, "board", newBoardModel("kvaa", director.NewBoardView(g, g.Start()))))
	html := buf.String()
	assert.Contains(t, html, `aria-label="South&#39;s reserve: 6 × south counter"><span class="zname">South&#39;s reserve</span> <span class="pc kC first" aria-hidden="true"></span><span class="count">×6</span>`)
	assert.Contains(t, html, `<span class="zname">North&#39;s pieces taken</span> <span class="empty">—</span>`)
	assert.NotContains(t, html, "reserve-south")
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

// The move list has one row per move number, the first side's move on
// the left and the second's on the right.
func TestMoveRows(t *testing.T) {
	first := func(ply int) moveView { return moveView{Ply: ply} }
	second := func(ply int) moveView { return moveView{Ply: ply, Second: true} }
	tests := []struct {
		name  string
		moves []moveView
		want  [][2]int // plies of each row, 0 for none
	}{
		{"none", nil, nil},
		{"one", []moveView{first(1)}, [][2]int{{1, 0}}},
		{"two rows", []moveView{first(1), second(2), first(3)}, [][2]int{{1, 2}, {3, 0}}},
		{"second side starts", []moveView{second(1), first(2), second(3)}, [][2]int{{0, 1}, {2, 3}}},
		{"two by the same side", []moveView{first(1), first(2), second(3)}, [][2]int{{1, 0}, {2, 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got [][2]int
			for i, r := range moveRows(tt.moves) {
				assert.Equal(t, i+1, r.Number)
				var row [2]int
				if r.First != nil {
					row[0] = r.First.Ply
				}
				if r.Second != nil {
					row[1] = r.Second.Ply
				}
				got = append(got, row)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
