package export_test

import (
	"archive/zip"
	"bytes"
	stdhtml "html"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/export"
	"arbiter/internal/scenariotest"
	"arbiter/pairing/trf"
	"arbiter/rules"
	"arbiter/rules/chess"
	"arbiter/rules/kvaa"
	"arbiter/rules/shogi/kifu"
	"arbiter/rules/tavreli"
	"arbiter/rules/tensor"
	"arbiter/store"
)

// Hostile player names: every export must carry them as text.
const (
	evilFirst  = `<script>alert(1)</script>`
	evilSecond = `"><img src=x onerror=alert(2)>`
)

var started = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

// fixture is an event database with one finished or running game of every
// game type, played by picking legal moves in a fixed pattern.
type fixture struct {
	db    *store.DB
	d     *director.Director
	games map[string]store.Game
}

// cases name each game type with its tournament, ply count and result.
var cases = []struct {
	game, tc string
	plies    int
	result   rules.Outcome
}{
	{"tavreli", "15m+10s", 24, rules.Win(rules.First, rules.Resignation)},
	{"shogi", "10m:byo=30s", 30, rules.Win(rules.Second, rules.Resignation)},
	{"chess", "90m+30s", 20, rules.Draw(rules.Agreement)},
	{"tensor", "", 12, rules.Outcome{}},
	{"kvaa", "10m", 16, rules.Win(rules.First, rules.Time)},
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "event.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	cfg := director.Config{Name: "Export test"}
	for _, c := range cases {
		cfg.Tournaments = append(cfg.Tournaments, director.Tournament{
			Name: strings.ToUpper(c.game[:1]) + c.game[1:] + " Open", Game: c.game, System: "round-robin", Rounds: 1,
			TimeControl: c.tc, TieBreaks: []string{"SB"},
			Players: []store.Player{{Name: evilFirst, Rating: 1500}, {Name: evilSecond, Rating: 1400}},
		})
	}
	d, err := director.New(cfg, db, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	f := &fixture{db: db, d: d, games: map[string]store.Game{}}
	tours, err := db.Tournaments()
	require.NoError(t, err)
	for i, c := range cases {
		f.games[c.game] = play(t, db, tours[i], c.plies, c.result)
	}
	return f
}

// play stores a game of n plies: at each ply the legal move at a fixed
// stride through the legal list, with made-up but consistent clocks.
func play(t testing.TB, db *store.DB, tour store.Tournament, n int, o rules.Outcome) store.Game {
	t.Helper()
	g := &store.Game{TournamentID: tour.ID, Round: 1, BoardNo: 1, Game: tour.Game, Options: tour.Options, TimeControl: tour.TimeControl,
		First: evilFirst, Second: evilSecond, FirstID: 1, SecondID: 2, Started: started}
	require.NoError(t, db.CreateGame(g))
	require.NoError(t, db.PutRound(&store.Round{TournamentID: tour.ID, Number: 1, PairedAt: started,
		Pairings: []store.Pairing{{Board: 1, First: 1, Second: 2, GameID: g.ID}}}))
	opts, err := rules.ParseOptions(tour.Options)
	require.NoError(t, err)
	game, err := rules.New(tour.Game, opts)
	require.NoError(t, err)
	pos := game.Start()
	clocks := [2]time.Duration{10 * time.Minute, 10 * time.Minute}
	for ply := 1; ply <= n; ply++ {
		legal := pos.Legal()
		require.NotEmpty(t, legal, "%s ply %d", tour.Game, ply)
		m := legal[(ply*7+3)%len(legal)]
		side := pos.Turn()
		used := time.Duration(ply%5+1)*time.Second + time.Duration(ply)*100*time.Millisecond
		clocks[side] -= used
		next, err := pos.Play(m)
		require.NoError(t, err)
		require.NoError(t, db.AppendMove(&store.Move{GameID: g.ID, Ply: ply, Notation: pos.FormatMove(m), Canonical: m.String(),
			Position: next.String(), Wall: started.Add(time.Duration(ply) * 10 * time.Second),
			ClockFirst: clocks[0], ClockSecond: clocks[1], Used: used}))
		pos = next
		if pos.Outcome(nil).Over() {
			break
		}
	}
	if o.Over() {
		require.NoError(t, db.SetResult(g.ID, o.Result.String(), o.Reason.String(), started.Add(time.Hour), nil))
	}
	out, err := db.Game(g.ID)
	require.NoError(t, err)
	return out
}

func (f *fixture) sheet(t *testing.T, game string) *export.Sheet {
	t.Helper()
	s, err := export.Load(f.db, "Export test", f.games[game].ID)
	require.NoError(t, err)
	return s
}

// golden compares got with testdata/name.golden, or rewrites it with -rewrite.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	scenariotest.Golden(t, filepath.Join("testdata", name+".golden"), got)
}

func TestScoresheetsGolden(t *testing.T) {
	f := newFixture(t)
	for _, c := range cases {
		s := f.sheet(t, c.game)
		for _, format := range export.Formats(c.game) {
			t.Run(c.game+"/"+format.Name, func(t *testing.T) {
				var buf bytes.Buffer
				require.NoError(t, s.Write(&buf, format.Name))
				golden(t, c.game+"."+format.Name, buf.Bytes())
				// Cross-check: the game's own reader reads the record back
				// to the stored moves.
				assert.Equal(t, canonical(s.Moves), readBack(t, c.game, format.Name, buf.Bytes()))
			})
		}
	}
}

func canonical(ms []store.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Canonical
	}
	return out
}

// readBack reads a record with the game package's reader and returns the
// moves in canonical form.
func readBack(t *testing.T, game, format string, data []byte) []string {
	t.Helper()
	var out []string
	switch game {
	case "tavreli":
		rec, err := tavreli.ParseGame(string(data))
		require.NoError(t, err)
		for _, p := range rec.Plies {
			out = append(out, p.Move.String())
		}
	case "shogi":
		read := map[string]func([]byte) (*kifu.Record, error){"kif": kifu.ReadKIF, "csa": kifu.ReadCSA, "ki2": kifu.ReadKI2}[format]
		rec, err := read(data)
		require.NoError(t, err)
		for _, m := range rec.Moves {
			out = append(out, m.USI)
		}
	case "chess", "tensor":
		var (
			imp []chess.Imported
			err error
		)
		if game == "chess" {
			imp, err = chess.ImportPGN(bytes.NewReader(data))
		} else {
			var g *tensor.Game
			g, err = tensor.New(nil)
			require.NoError(t, err)
			imp, err = g.ImportPGN(bytes.NewReader(data))
		}
		require.NoError(t, err)
		require.Len(t, imp, 1)
		for _, m := range imp[0].Moves {
			out = append(out, m.String())
		}
	case "kvaa":
		rec, err := kvaa.ParseRecord(string(data))
		require.NoError(t, err)
		for _, tn := range rec.Turns {
			out = append(out, tn.String())
		}
	}
	return out
}

func TestResultsAndClocksInRecords(t *testing.T) {
	f := newFixture(t)
	var buf bytes.Buffer
	s := f.sheet(t, "chess")
	require.NoError(t, s.Write(&buf, "pgn"))
	imp, err := chess.ImportPGN(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	rec := imp[0].Record
	assert.Equal(t, "1/2-1/2", rec.Result)
	white, _ := rec.Tag("White")
	assert.Equal(t, evilFirst, white)
	for i, m := range rec.Moves {
		require.True(t, m.HasClock, "move %d has a clock", i+1)
		want := s.Moves[i].ClockFirst
		if i%2 == 1 {
			want = s.Moves[i].ClockSecond
		}
		assert.Equal(t, want.Truncate(100*time.Millisecond), m.Clock, "clock after move %d", i+1)
	}

	buf.Reset()
	s = f.sheet(t, "shogi")
	require.NoError(t, s.Write(&buf, "kif"))
	krec, err := kifu.ReadKIF(buf.Bytes())
	require.NoError(t, err)
	assert.Equal(t, rules.Win(rules.Second, rules.Resignation), krec.End.Outcome())
	for i, m := range krec.Moves {
		assert.Equal(t, s.Moves[i].Used.Truncate(time.Second), m.Time, "time of move %d", i+1)
	}
	assert.Equal(t, evilFirst, krec.Meta.Sente)

	buf.Reset()
	s = f.sheet(t, "tavreli")
	require.NoError(t, s.Write(&buf, "cyrillic"))
	trec, err := tavreli.ParseGame(buf.String())
	require.NoError(t, err)
	assert.Equal(t, "1-0", trec.Result)
	alpha, _ := trec.Tag("Alphabet")
	assert.Equal(t, "cyrillic", alpha)
}

func TestUnknownFormat(t *testing.T) {
	f := newFixture(t)
	err := f.sheet(t, "chess").Write(io.Discard, "kif")
	require.ErrorIs(t, err, export.ErrFormat)
	assert.ErrorContains(t, err, "have pgn")
}

func TestBrokenGameIsAnError(t *testing.T) {
	s := &export.Sheet{Game: store.Game{ID: 9, Game: "chess"}, Moves: []store.Move{{Ply: 1, Canonical: "e2e5"}}}
	err := s.Write(io.Discard, "pgn")
	assert.ErrorContains(t, err, "ply 1")
	s = &export.Sheet{Game: store.Game{ID: 9, Game: "no-such-game"}}
	assert.Error(t, s.WriteHTML(io.Discard))
}

func TestHTMLScoresheetGolden(t *testing.T) {
	f := newFixture(t)
	for _, c := range cases {
		t.Run(c.game, func(t *testing.T) {
			var buf bytes.Buffer
			s := f.sheet(t, c.game)
			require.NoError(t, s.WriteHTML(&buf))
			html := buf.String()
			assert.NotContains(t, html, "<script>alert")
			assert.NotContains(t, html, "<img src=x")
			assert.Contains(t, html, "&lt;script&gt;alert(1)&lt;/script&gt;")
			text := stdhtml.UnescapeString(html)
			for _, m := range s.Moves {
				assert.Contains(t, text, "<td>"+m.Notation+"</td>")
			}
			golden(t, c.game+".html", buf.Bytes())
		})
	}
}

func TestTRF(t *testing.T) {
	f := newFixture(t)
	var buf bytes.Buffer
	require.NoError(t, export.WriteTRF(&buf, f.d, f.games["chess"].TournamentID))
	// The TRF text is pairing/trf's, tested there against the format;
	// here it must read back to the tournament that was played.
	back, err := trf.Parse(buf.Bytes())
	require.NoError(t, err)
	require.Len(t, back.Players, 2)
	assert.Equal(t, evilFirst, back.Players[0].Name)
	assert.Equal(t, 0.5, back.Players[0].Points)
	assert.Equal(t, "Chess Open", back.Name)
	require.Len(t, back.Players[0].Games, 1)
	assert.Equal(t, 2, back.Players[0].Games[0].Opponent)
	assert.Equal(t, byte('='), back.Players[0].Games[0].Result)

}

func TestArchive(t *testing.T) {
	f := newFixture(t)
	var buf bytes.Buffer
	require.NoError(t, export.Archive(&buf, f.db, "Export test", f.d))
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	var names []string
	files := map[string]*zip.File{}
	for _, zf := range zr.File {
		names = append(names, zf.Name)
		files[zf.Name] = zf
	}
	golden(t, "archive-listing", []byte(strings.Join(names, "\n")+"\n"))
	// A folder per tournament, each with its TRF.
	for _, c := range cases {
		dir := strings.ToUpper(c.game[:1]) + c.game[1:] + "-Open/"
		assert.True(t, slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, dir) && strings.HasSuffix(n, ".trf") }), dir)
	}
	// The files are the very records Write makes.
	s := f.sheet(t, "shogi")
	var want bytes.Buffer
	require.NoError(t, s.Write(&want, "csa"))
	zf := files["Shogi-Open/games/"+s.FileName(export.Formats("shogi")[1])]
	require.NotNil(t, zf, "csa record in the archive")
	rc, err := zf.Open()
	require.NoError(t, err)
	got, err := io.ReadAll(rc)
	require.NoError(t, err)
	assert.Equal(t, want.String(), string(got))
	assert.NotContains(t, names, "ERRORS.txt")
}

func TestSlug(t *testing.T) {
	tests := map[string]string{
		"Tavreli Open":       "Tavreli-Open",
		evilFirst:            "script-alert-1-script",
		"../../etc/passwd":   "etc-passwd",
		"Иванов, Пётр":       "Иванов-Пётр",
		"":                   "unnamed",
		"a/b\\c":             "a-b-c",
		"Shogi Open 2026.11": "Shogi-Open-2026.11",
	}
	for in, want := range tests {
		assert.Equal(t, want, export.Slug(in), in)
	}
}

func TestFormatClockAndUsed(t *testing.T) {
	assert.Equal(t, "1:30:00", export.FormatClock(90*time.Minute))
	assert.Equal(t, "0:00:09", export.FormatClock(9*time.Second+900*time.Millisecond))
	assert.Equal(t, "0:00:00", export.FormatClock(-time.Second))
	assert.Equal(t, "2.5s", export.FormatUsed(2500*time.Millisecond))
	assert.Equal(t, "42s", export.FormatUsed(42*time.Second))
	assert.Equal(t, "1:05", export.FormatUsed(65*time.Second))
	assert.Equal(t, "1:02:03", export.FormatUsed(time.Hour+2*time.Minute+3*time.Second))
}

// A Kvaa record's TimeControl is the game's own, in the rules' seconds
// form (D-24), not the rules' default; one that form cannot say is kept
// in ArbiterTimeControl beside the default.
func TestKvaaRecordTimeControl(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct{ stored, want string }{
		{"5m+3s", `[TimeControl "300+3"]`},
		{"10m", `[TimeControl "600+0"]`},
		{"40/90m+30s:30m+30s", `[ArbiterTimeControl "40/90m+30s:30m+30s"]`},
	} {
		g := f.games["kvaa"]
		g.TimeControl = c.stored
		require.NoError(t, f.db.UpdateGame(&g))
		var buf bytes.Buffer
		require.NoError(t, f.sheet(t, "kvaa").Write(&buf, "kvaa"))
		assert.Contains(t, buf.String(), c.want, c.stored)
	}
}
