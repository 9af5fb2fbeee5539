package preflight_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	_ "arbiter/hardware/sensorboard/plug"
	"arbiter/hardware/serialport"
	"arbiter/internal/config"
	"arbiter/internal/preflight"
	"arbiter/internal/ptycable"
	"arbiter/rules"
	_ "arbiter/rules/chess"
	_ "arbiter/rules/shogi"
	"arbiter/store"
)

// event is a small event's configuration, its database in dir.
func event(t *testing.T, dir, extra string) *config.Config {
	t.Helper()
	text := fmt.Sprintf(`event: {name: "Club", database: %q}
tournaments:
  - name: "Shogi Club"
    game: shogi
    system: swiss-dutch
    rounds: 3
    players: [{name: A}, {name: B}, {name: C}, {name: D}, {name: E}, {name: F}]
  - name: "Rapid"
    game: chess
    system: round-robin
    rounds: 3
    players: [{name: G}, {name: H}, {name: I}, {name: J}]
%s`, filepath.Join(dir, "event.db"), extra)
	cfg, err := config.Parse([]byte(text), "club.yaml", nil)
	require.NoError(t, err)
	return cfg
}

// byItem returns the findings by item.
func byItem(fs []preflight.Finding) map[string]preflight.Finding {
	out := map[string]preflight.Finding{}
	for _, f := range fs {
		out[f.Item] = f
	}
	return out
}

// Each configured port is one line: a board that answers says who it is
// and where it goes; a port that answers nothing, one that does not
// exist, one another program holds and a pattern that matches nothing
// say so, with what to do.
func TestPorts(t *testing.T) {
	dir := t.TempDir()
	p, ok := board.Lookup("")
	require.True(t, ok)
	chess, err := rules.New("chess", nil)
	require.NoError(t, err)
	answering := func(id string, n uint64) string {
		sim, err := p.Simulate(board.SimConfig{Dir: dir, ID: id, Index: int(n), Game: chess, Seed: 1, Number: n, Speed: 10})
		require.NoError(t, err)
		t.Cleanup(func() { sim.Close() })
		return sim.Port().Path
	}
	assigned, free := answering("TB-0042", 2), answering("TB-0043", 1)
	silent := filepath.Join(dir, "silent")
	m, s, err := ptycable.Open(silent)
	require.NoError(t, err)
	t.Cleanup(func() { m.Close(); s.Close() })
	heldPath := filepath.Join(dir, "held")
	hm, hs, err := ptycable.Open(heldPath)
	require.NoError(t, err)
	t.Cleanup(func() { hm.Close(); hs.Close() })
	held, err := serialport.Open(heldPath, serialport.Config{LockDirs: []string{t.TempDir()}})
	require.NoError(t, err)
	t.Cleanup(func() { held.Close() })
	missing := filepath.Join(dir, "ttyUSB9")
	notes := filepath.Join(dir, "notes.txt") // a file given by mistake
	require.NoError(t, os.WriteFile(notes, []byte("board list"), 0o600))

	cfg := event(t, dir, fmt.Sprintf(`boards:
  ports:
    - {path: %q}
    - {path: %q}
    - {path: %q}
    - {path: %q}
    - {path: %q}
    - {path: %q}
    - {glob: %q}
  assign:
    - {board: TB-0042, tournament: Rapid, table: 2}
`, assigned, free, silent, missing, heldPath, notes, filepath.Join(dir, "none-*")))
	fs := preflight.Run(context.Background(), preflight.Input{Config: cfg, Timeout: 2 * time.Second},
		[]preflight.Check{{Name: "ports", Run: preflight.Ports}})
	require.Len(t, fs, 7, "%v", fs)
	got := byItem(fs)
	for item, want := range map[string]struct {
		level preflight.Level
		text  []string
	}{
		assigned:                     {preflight.OK, []string{"sensorboard: board TB-0042, firmware sim-1, 8x8, stack heights, piece identities, faces", "boards.assign: Rapid, table 2"}},
		free:                         {preflight.OK, []string{"board TB-0043", "not in boards.assign: takes a free table of Rapid, the first tournament whose game it fits"}},
		silent:                       {preflight.Error, []string{"no board answered the sensorboard handshake"}},
		missing:                      {preflight.Error, []string{"does not exist"}},
		heldPath:                     {preflight.Error, []string{"is held by this process"}},
		filepath.Join(dir, "none-*"): {preflight.Warning, []string{"no device matches the pattern now"}},
	} {
		f := got[item]
		assert.Equal(t, want.level, f.Level, "%s: %s", item, f)
		for _, w := range want.text {
			assert.Contains(t, f.Text, w, item)
		}
		if f.Level != preflight.OK {
			assert.NotEmpty(t, f.Advice, item)
		}
	}
	assert.Contains(t, got[missing].Advice, "/dev/serial/by-id/")
	assert.Contains(t, got[heldPath].Advice, "Stop the program named")
	assert.Equal(t, preflight.Error, preflight.Worst(fs))

	// While the daemon serves the event its drivers hold the ports: not
	// opened here.
	assert.Empty(t, preflight.Ports(context.Background(), preflight.Input{Config: cfg, Serving: true}))
	// No ports: the games wait for their results in the console.
	none := preflight.Ports(context.Background(), preflight.Input{Config: event(t, dir, "")})
	require.Len(t, none, 1)
	assert.Equal(t, preflight.OK, none[0].Level)
	assert.Contains(t, none[0].Text, "every game waits for its result")

	var out bytes.Buffer
	require.NoError(t, preflight.Write(&out, fs))
	assert.Regexp(t, `(?m)^error +ports +`+regexpQuote(missing)+` +does not exist$`, out.String())
	assert.Regexp(t, `(?m)^ +→ Plug the board in`, out.String())
}

func regexpQuote(s string) string {
	return strings.NewReplacer(".", `\.`, "*", `\*`, "(", `\(`, ")", `\)`).Replace(s)
}

// A board that fits no tournament's game is a warning naming why.
func TestPortsBoardForNoTournament(t *testing.T) {
	dir := t.TempDir()
	p, _ := board.Lookup("")
	chess, err := rules.New("chess", nil)
	require.NoError(t, err)
	sim, err := p.Simulate(board.SimConfig{Dir: dir, ID: "TB-9", Index: 1, Game: chess, Seed: 1, Number: 1, Speed: 10})
	require.NoError(t, err)
	t.Cleanup(func() { sim.Close() })
	cfg := event(t, dir, fmt.Sprintf("boards:\n  ports: [{path: %q}]\n", sim.Port().Path))
	cfg.Tournaments = cfg.Tournaments[:1] // the shogi club alone
	fs := preflight.Ports(context.Background(), preflight.Input{Config: cfg, Timeout: 2 * time.Second})
	require.Len(t, fs, 1)
	assert.Equal(t, preflight.Warning, fs[0].Level)
	assert.Contains(t, fs[0].Text, "fits no tournament's game: Shogi Club (shogi)")
}

// The database's folder must be writable and its disk roomy; a file
// there is an event's and no daemon holds it; the backup folder too.
func TestDatabase(t *testing.T) {
	dir := t.TempDir()
	cfg := event(t, dir, fmt.Sprintf("backup: {dir: %q}\n", filepath.Join(dir, "backups")))
	fs := preflight.Database(context.Background(), preflight.Input{Config: cfg})
	got := byItem(fs)
	require.Len(t, fs, 3, "%v", fs)
	assert.Equal(t, preflight.OK, got["event.database"].Level, "%s", got["event.database"])
	assert.Contains(t, got["event.database"].Text, "the event needs about 17 MB (15 games)", "9 Swiss games and 6 of the round robin")
	assert.Contains(t, got[cfg.Event.Database].Text, "a new event")
	assert.Equal(t, preflight.Warning, got["backup.dir"].Level, "on the database's disk")
	assert.Contains(t, got["backup.dir"].Advice, "another disk")

	// A daemon holds the database.
	db, err := store.Open(cfg.Event.Database, nil)
	require.NoError(t, err)
	got = byItem(preflight.Database(context.Background(), preflight.Input{Config: cfg}))
	assert.Equal(t, preflight.Warning, got[cfg.Event.Database].Level)
	assert.Contains(t, got[cfg.Event.Database].Text, "a daemon holds the database")
	assert.NotContains(t, byItem(preflight.Database(context.Background(), preflight.Input{Config: cfg, Serving: true})), cfg.Event.Database,
		"the serving daemon holds it")
	require.NoError(t, db.Close())
	got = byItem(preflight.Database(context.Background(), preflight.Input{Config: cfg}))
	assert.Equal(t, preflight.OK, got[cfg.Event.Database].Level)
	assert.Contains(t, got[cfg.Event.Database].Text, "an event already there (0 tournaments, 0 games)")

	// A damaged file; folders that are not there.
	require.NoError(t, os.WriteFile(cfg.Event.Database, []byte("not a database"), 0o600))
	got = byItem(preflight.Database(context.Background(), preflight.Input{Config: cfg}))
	assert.Equal(t, preflight.Error, got[cfg.Event.Database].Level)
	assert.Contains(t, got[cfg.Event.Database].Advice, "Restoring a backup", "%s", got[cfg.Event.Database])
	cfg.Event.Database = filepath.Join(dir, "no-such-folder", "event.db")
	cfg.Backup.Dir = filepath.Join(dir, "no", "such", "backups")
	got = byItem(preflight.Database(context.Background(), preflight.Input{Config: cfg}))
	assert.Equal(t, preflight.Error, got["event.database"].Level)
	assert.Contains(t, got["event.database"].Text, "no-such-folder")
	assert.Equal(t, preflight.Error, got["backup.dir"].Level)
}

// lichess is a fake of lichess's broadcast API: the rounds each token's
// user may push to; any POST fails the test.
func lichess(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			t.Errorf("preflight sent %s %s", r.Method, r.URL)
			http.Error(w, "no", http.StatusMethodNotAllowed)
			return
		}
		if r.URL.Path != "/api/broadcast/my-rounds" {
			http.NotFound(w, r)
			return
		}
		switch r.Header.Get("Authorization") {
		case "Bearer lip_owner":
			fmt.Fprintln(w, `{"round":{"id":"AbCd1234","name":"Round 1"},"tour":{"name":"Club Rapid"},"study":{"writeable":true}}`)
			fmt.Fprintln(w, `{"round":{"id":"ReadOnly","name":"Round 2"},"tour":{"name":"Club Rapid"},"study":{"writeable":false}}`)
		case "Bearer lip_other":
			fmt.Fprintln(w, `{"round":{"id":"Zz999999","name":"Round 1"},"tour":{"name":"Another"},"study":{"writeable":true}}`)
		default:
			http.Error(w, `{"error":"No such token"}`, http.StatusUnauthorized)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A lichess round's push is checked with lichess's list of the token's
// rounds, nothing pushed; another endpoint only for its server.
func TestBroadcast(t *testing.T) {
	srv := lichess(t)
	dir := t.TempDir()
	round := func(id string) string { return srv.URL + "/api/broadcast/round/" + id + "/push" }
	t.Setenv("ARBITER_TEST_TOKEN", "lip_owner")
	cfg := event(t, dir, fmt.Sprintf(`broadcast:
  push:
    - {url: %q, tournament: Rapid, round: 1, token_env: ARBITER_TEST_TOKEN}
    - {url: %q, tournament: Rapid, round: 1, token: lip_revoked}
    - {url: %q, tournament: Rapid, round: 1, token: lip_other}
    - {url: %q, tournament: Rapid, round: 2, token: lip_owner}
    - {url: %q, tournament: Rapid, round: 1}
    - {url: %q, tournament: Rapid, token: lip_owner}
    - {url: "http://127.0.0.1:1/push/{round}", tournament: Rapid, token: x}
`, round("AbCd1234"), round("AbCd1234"), round("AbCd1234"), round("ReadOnly"), round("AbCd1234"), srv.URL+"/feed/{round}"))
	fs := preflight.Broadcast(context.Background(), preflight.Input{Config: cfg, Timeout: 2 * time.Second})
	require.Len(t, fs, 7)
	for i, want := range []struct {
		level preflight.Level
		text  string
	}{
		{preflight.OK, "accepts the token for round AbCd1234 (Club Rapid / Round 1); nothing was pushed"},
		{preflight.Error, "refuses the token (401 Unauthorized)"},
		{preflight.Error, "round AbCd1234 is not among the broadcast rounds its user may push to"},
		{preflight.Error, "may not push to round ReadOnly"},
		{preflight.Error, "no token"},
		{preflight.Warning, "answers (404 Not Found to GET /); its token cannot be checked without a push"},
		{preflight.Error, "127.0.0.1:1 does not answer"},
	} {
		assert.Equal(t, fmt.Sprintf("broadcast.push[%d]", i), fs[i].Item)
		assert.Equal(t, want.level, fs[i].Level, "%d: %s", i, fs[i])
		assert.Contains(t, fs[i].Text, want.text, "%d", i)
		assert.NotContains(t, fs[i].String(), "lip_", "no token is shown")
	}
}

// The watch reports a port that is missing, one that answers nothing
// after the grace, and ends its report when the port is back; a port a
// board answered on is no longer its business.
func TestWatch(t *testing.T) {
	dir := t.TempDir()
	missing, silent := filepath.Join(dir, "ttyUSB9"), filepath.Join(dir, "silent")
	m, s, err := ptycable.Open(silent)
	require.NoError(t, err)
	t.Cleanup(func() { m.Close(); s.Close() })
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	answered := map[string]bool{}
	var said []string
	w := &preflight.Watch{
		Ports: []config.Port{{Path: missing}, {Path: silent}, {Glob: filepath.Join(dir, "acm*")}},
		Grace: 5 * time.Second, Now: func() time.Time { return now },
		Answered: func(p string) bool { return answered[p] },
		Report:   func(port, problem, advice string) { said = append(said, "report "+port+": "+problem) },
		Fine:     func(port, why string) { said = append(said, "fine "+port) },
	}
	step := w.Step
	step()
	assert.Equal(t, []string{"report " + missing + ": does not exist", "report " + filepath.Join(dir, "acm*") + ": no device matches the pattern"}, said)
	said = nil
	now = now.Add(2 * time.Second)
	step()
	assert.Empty(t, said, "nothing new within the grace, nothing said twice")
	now = now.Add(3 * time.Second)
	step()
	assert.Equal(t, []string{"report " + silent + ": no board has answered on it for 5s (protocol sensorboard)"}, said)

	// The missing port appears; a board answers on the silent one; a
	// device matches the pattern.
	said = nil
	m2, s2, err := ptycable.Open(missing)
	require.NoError(t, err)
	t.Cleanup(func() { m2.Close(); s2.Close() })
	m3, s3, err := ptycable.Open(filepath.Join(dir, "acm0"))
	require.NoError(t, err)
	t.Cleanup(func() { m3.Close(); s3.Close() })
	answered[silent] = true
	step()
	assert.Equal(t, []string{"fine " + missing, "fine " + filepath.Join(dir, "acm*")}, said)
	said = nil
	now = now.Add(5 * time.Second)
	step()
	assert.Equal(t, []string{"report " + missing + ": no board has answered on it for 5s (protocol sensorboard)",
		"report " + filepath.Join(dir, "acm0") + ": no board has answered on it for 5s (protocol sensorboard)"}, said)
}
