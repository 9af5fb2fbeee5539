package web

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/export"
	"arbiter/rules"
	"arbiter/store"
)

// A sixth game, known only to this file: each side runs one stone along
// its own rank, one square a turn, and the first to reach the last file
// wins. It is registered below the way a game package registers itself,
// with its facts and a record format, all in package rules, and nothing
// else in the program is told of it: the pages, the records and the feed
// must show it as they show the five real games.
const sixthName = "test-sixth"

const sixthWidth = 4

func init() {
	rules.Register(sixthName, func(opts rules.Options) (rules.Game, error) {
		if len(opts) > 0 {
			return nil, fmt.Errorf("no options, got %v", opts)
		}
		return sixthGame{}, nil
	})
	rules.Describe(sixthName, rules.Facts{Title: "Stone race", SideLetters: [2]byte{'l', 'r'}, TopDown: true,
		Pieces: map[string]rules.PieceFacts{"C": {Name: "runner stone", Noun: "stone"}}})
	rules.RegisterFormat(sixthName, rules.Format{Name: "race", Ext: "race", MediaType: "text/x-race; charset=utf-8",
		Title: "Stone race record", Separator: "===\n"}, func(r *rules.Record) (string, error) {
		var b strings.Builder
		fmt.Fprintf(&b, "race %s vs %s\n", r.First.Name, r.Second.Name)
		for i, m := range r.Moves {
			fmt.Fprintf(&b, "%d %s\n", i+1, m)
		}
		return b.String(), nil
	})
}

var sixthGeometry = rules.NewRect(sixthWidth, 2)

type sixthGame struct{}

func (sixthGame) Name() string              { return sixthName }
func (sixthGame) Options() rules.Options    { return rules.Options{} }
func (sixthGame) Geometry() *rules.Geometry { return sixthGeometry }
func (sixthGame) Traits() rules.Traits      { return rules.Traits{} }
func (sixthGame) SideName(c rules.Color) string {
	if c == rules.First {
		return "Left"
	}
	return "Right"
}
func (sixthGame) Start() rules.Position { return sixthPos{} }
func (sixthGame) ParsePosition(s string) (rules.Position, error) {
	var p sixthPos
	if _, err := fmt.Sscanf(s, "%d/%d/%d", &p.at[0], &p.at[1], &p.turn); err != nil {
		return nil, fmt.Errorf("position %q: %w", s, err)
	}
	return p, nil
}

// sixthPos has each side's stone on its file, First's on rank 0.
type sixthPos struct {
	at   [2]int
	turn rules.Color
}

type sixthMove struct{ from, to rules.Square }

func (m sixthMove) From() rules.Square { return m.from }
func (m sixthMove) To() rules.Square   { return m.to }
func (m sixthMove) String() string {
	return sixthGeometry.Name(m.from) + sixthGeometry.Name(m.to)
}

func (p sixthPos) square(c rules.Color) rules.Square {
	return rules.Square(int(c)*sixthWidth + p.at[c])
}

func (p sixthPos) Turn() rules.Color { return p.turn }
func (p sixthPos) Legal() []rules.Move {
	if p.Outcome(nil).Over() {
		return nil
	}
	from := p.square(p.turn)
	return []rules.Move{sixthMove{from, from + 1}}
}
func (p sixthPos) Play(m rules.Move) (rules.Position, error) {
	for _, l := range p.Legal() {
		if l == m {
			p.at[p.turn]++
			p.turn = p.turn.Other()
			return p, nil
		}
	}
	return nil, fmt.Errorf("%v is not legal", m)
}
func (p sixthPos) InCheck() bool { return false }
func (p sixthPos) Outcome([]rules.Position) rules.Outcome {
	for c := rules.First; c <= rules.Second; c++ {
		if p.at[c] == sixthWidth-1 {
			return rules.Win(c, rules.Checkmate)
		}
	}
	return rules.Outcome{}
}
func (p sixthPos) View() rules.View {
	v := rules.NewView(sixthGeometry)
	for c := rules.First; c <= rules.Second; c++ {
		v.Stacks[p.square(c)] = []rules.Piece{{Color: c, Kind: 'C'}}
	}
	return v
}
func (p sixthPos) Key() rules.Key { return rules.Key(p.String()) }
func (p sixthPos) ParseMove(s string) (rules.Move, error) {
	for _, m := range p.Legal() {
		if m.String() == s {
			return m, nil
		}
	}
	return nil, fmt.Errorf("move %q: not legal here", s)
}
func (p sixthPos) FormatMove(m rules.Move) string { return m.String() }
func (p sixthPos) String() string                 { return fmt.Sprintf("%d/%d/%d", p.at[0], p.at[1], p.turn) }

// A sixth game, registered in a test file as a game package registers
// itself, shows on the public pages, in its records and in the round feed
// with its own name, side letters, piece names, drawing and record format,
// without any code outside rules/ naming it.
func TestSixthGameNeedsNoSwitch(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "event.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	cfg := Config{Event: export.Event{Name: "Sixth"}, Users: []User{{Name: "chief", Password: "arbiter"}}}
	d, err := director.New(director.Config{Name: "Sixth",
		Tournaments: []director.Tournament{{Name: "Race Open", Game: sixthName, System: "round-robin", Rounds: 1,
			TieBreaks: []string{"SB"}, Players: []store.Player{{Name: "Lena"}, {Name: "Rolf"}}}},
	}, db, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	tid := d.TournamentIDs()[0]

	// A finished game of round 1, as the director stores one.
	start := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	g := &store.Game{TournamentID: tid, Round: 1, BoardNo: 1, Game: sixthName, First: "Lena", Second: "Rolf",
		FirstID: 1, SecondID: 2, Started: start}
	require.NoError(t, db.CreateGame(g))
	var pos rules.Position = sixthPos{}
	for ply := 1; !pos.Outcome(nil).Over(); ply++ {
		m := pos.Legal()[0]
		pos, err = pos.Play(m)
		require.NoError(t, err)
		require.NoError(t, db.AppendMove(&store.Move{GameID: g.ID, Ply: ply, Notation: m.String(), Canonical: m.String(),
			Position: pos.String(), Wall: start.Add(time.Duration(ply) * time.Minute)}))
	}
	require.NoError(t, db.SetResult(g.ID, "1-0", rules.Checkmate.String(), start.Add(time.Hour), nil))
	require.NoError(t, db.PutRound(&store.Round{TournamentID: tid, Number: 1, PairedAt: start,
		Pairings: []store.Pairing{{Board: 1, First: 1, Second: 2, GameID: g.ID, Result: "1-0"}}}))

	srv := httptest.NewServer(New(d, cfg, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)
	get := func(path string) (string, http.Header) {
		t.Helper()
		resp, err := srv.Client().Get(srv.URL + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s: %s", path, body)
		return string(body), resp.Header
	}

	page, _ := get(fmt.Sprintf("/tournaments/%d", tid))
	assert.Contains(t, page, "Stone race", "the game's title from its facts")
	cross, _ := get(fmt.Sprintf("/tournaments/%d/crosstable", tid))
	assert.Contains(t, cross, `<td class="num">2l1</td>`, "Lena had the first side against 2, by its letter")
	assert.Contains(t, cross, `<td class="num">1r0</td>`, "Rolf the second side")

	gp, _ := get("/games/" + strconv.FormatUint(g.ID, 10))
	assert.Contains(t, gp, "left runner stone", "the piece named with its side and its facts")
	assert.Contains(t, gp, "Stone race record", "the record format offered")
	board := newBoardModel(sixthName, director.NewBoardView(sixthGame{}, sixthPos{}))
	require.NotNil(t, board)
	assert.Equal(t, "a1", board.Rows[0][0].Name, "drawn top down: rank 0 at the top, as the facts say")
	assert.Equal(t, "a1, left runner stone", board.Rows[0][0].Label)

	rec, h := get(fmt.Sprintf("/games/%d/record/race", g.ID))
	assert.Equal(t, "text/x-race; charset=utf-8", h.Get("Content-Type"))
	assert.Equal(t, "race Lena vs Rolf\n1 a1b1\n2 a2b2\n3 b1c1\n4 b2c2\n5 c1d1\n", rec)

	feed, h := get(fmt.Sprintf("/feed/%d/1.race", tid))
	assert.Equal(t, "text/x-race; charset=utf-8", h.Get("Content-Type"))
	assert.Equal(t, rec, feed, "the round feed in the game's own format")
}
