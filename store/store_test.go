package store_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"arbiter/store"
)

func openTemp(t *testing.T) (*store.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "event.db")
	db, err := store.Open(path, nil)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db, path
}

var wall = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func newGame(t *testing.T, db *store.DB) store.Game {
	t.Helper()
	g := store.Game{Game: "tavreli", First: "Ivanov", Second: "Petrov", Started: wall, BoardID: "B1"}
	require.NoError(t, db.CreateGame(&g))
	return g
}

func move(gameID uint64, ply int) store.Move {
	return store.Move{GameID: gameID, Ply: ply, Notation: "e2-e4", Canonical: "e2e4", Position: "pos" + strings.Repeat("x", ply),
		BoardMs: int64(ply) * 1000, HostNs: int64(ply) * 1e9, Wall: wall.Add(time.Duration(ply) * time.Second),
		ClockFirst: 5 * time.Minute, ClockSecond: 4 * time.Minute, Used: 3 * time.Second}
}

func TestOpenCreatesAndReopens(t *testing.T) {
	db, path := openTemp(t)
	v, err := db.Version()
	require.NoError(t, err)
	assert.Equal(t, store.SchemaVersion, v)
	g := newGame(t, db)
	require.NoError(t, db.Close())

	db2, err := store.Open(path, nil)
	require.NoError(t, err)
	defer db2.Close()
	got, err := db2.Game(g.ID)
	require.NoError(t, err)
	assert.Equal(t, "Ivanov", got.First)
	assert.NoError(t, db2.Check())
}

func TestOpenRefusesForeignFiles(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	content := []byte("these are the arbiter's notes, not a database\n" + strings.Repeat("x", 5000))
	require.NoError(t, os.WriteFile(text, content, 0o600))
	_, err := store.Open(text, nil)
	assert.ErrorIs(t, err, store.ErrForeign)
	after, _ := os.ReadFile(text)
	assert.Equal(t, content, after, "a foreign file must never be written")

	// A bbolt database of some other program.
	other := filepath.Join(dir, "other.db")
	bdb, err := bolt.Open(other, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, bdb.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte("settings"))
		if err != nil {
			return err
		}
		return b.Put([]byte("k"), []byte("v"))
	}))
	require.NoError(t, bdb.Close())
	before, _ := os.ReadFile(other)
	_, err = store.Open(other, nil)
	assert.ErrorIs(t, err, store.ErrForeign)
	after, _ = os.ReadFile(other)
	assert.Equal(t, before, after)
}

func TestOpenRefusesCorruptFile(t *testing.T) {
	db, path := openTemp(t)
	newGame(t, db)
	require.NoError(t, db.Close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	// Damage both meta pages (page size 4096): bbolt can trust neither.
	for _, off := range []int{20, 4096 + 20} {
		data[off] ^= 0xff
		data[off+1] ^= 0xff
	}
	require.NoError(t, os.WriteFile(path, data, 0o600))
	_, err = store.Open(path, nil)
	require.Error(t, err)
	assert.True(t, errors.Is(err, store.ErrCorrupt) || errors.Is(err, store.ErrForeign), "got %v", err)
	after, _ := os.ReadFile(path)
	assert.Equal(t, data, after, "a damaged file must not be rewritten")
}

func TestOpenLockedFailsFast(t *testing.T) {
	_, path := openTemp(t)
	start := time.Now()
	_, err := store.Open(path, &store.Options{LockTimeout: 300 * time.Millisecond})
	assert.ErrorIs(t, err, store.ErrLocked)
	assert.Less(t, time.Since(start), time.Second)
	assert.Contains(t, err.Error(), "in use by another arbiter process")
}

func TestTooNewSchemaRefused(t *testing.T) {
	db, path := openTemp(t)
	require.NoError(t, db.Bolt().Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte("99"))
	}))
	require.NoError(t, db.Close())
	_, err := store.Open(path, nil)
	assert.ErrorIs(t, err, store.ErrTooNew)
}

func TestMoves(t *testing.T) {
	db, _ := openTemp(t)
	g := newGame(t, db)
	for ply := 1; ply <= 3; ply++ {
		m := move(g.ID, ply)
		require.NoError(t, db.AppendMove(&m))
	}
	// A retry of the same move is accepted and not duplicated.
	m3 := move(g.ID, 3)
	require.NoError(t, db.AppendMove(&m3))
	// A different move at a stored ply is refused.
	other := move(g.ID, 3)
	other.Notation = "d2-d4"
	assert.ErrorIs(t, db.AppendMove(&other), store.ErrDuplicate)
	// A gap is refused.
	m5 := move(g.ID, 5)
	assert.ErrorContains(t, db.AppendMove(&m5), "last stored ply is 3")
	// Unknown game.
	bad := move(999, 1)
	assert.ErrorIs(t, db.AppendMove(&bad), store.ErrNotFound)

	ms, err := db.Moves(g.ID)
	require.NoError(t, err)
	require.Len(t, ms, 3)
	assert.Equal(t, move(g.ID, 2), ms[1])
	got, err := db.Game(g.ID)
	require.NoError(t, err)
	assert.Equal(t, ms[2].Position, got.Position)

	// The arbiter takes back the last two moves, with a reason.
	assert.Error(t, db.TruncateMoves(g.ID, 2, "p1", &store.Action{Who: "arbiter"}), "why is required")
	require.NoError(t, db.TruncateMoves(g.ID, 2, "p1", &store.Action{Who: "chief", What: "correct-move", Why: "illegal move found later", At: wall}))
	ms, err = db.Moves(g.ID)
	require.NoError(t, err)
	assert.Len(t, ms, 1)
	acts, err := db.Actions(g.ID)
	require.NoError(t, err)
	require.Len(t, acts, 1)
	assert.Equal(t, "chief", acts[0].Who)
	m2 := move(g.ID, 2)
	require.NoError(t, db.AppendMove(&m2))
	assert.NoError(t, db.Check())

	// The reader amends the last move: replaced at its ply, with its action.
	amended := move(g.ID, 2)
	amended.Notation, amended.Position = "f1-c4", "p2b"
	why := &store.Action{Who: "reader", What: "amend-move", Why: "changed before the press", At: wall}
	assert.Error(t, db.ReplaceLastMove(&amended, &store.Action{Who: "reader"}), "why is required")
	old := move(g.ID, 1)
	assert.ErrorContains(t, db.ReplaceLastMove(&old, why), "not the last stored ply 2")
	require.NoError(t, db.ReplaceLastMove(&amended, why))
	ms, err = db.Moves(g.ID)
	require.NoError(t, err)
	require.Len(t, ms, 2)
	assert.Equal(t, amended, ms[1])
	got, err = db.Game(g.ID)
	require.NoError(t, err)
	assert.Equal(t, "p2b", got.Position)
	acts, err = db.Actions(g.ID)
	require.NoError(t, err)
	require.Len(t, acts, 2)
	assert.Equal(t, "amend-move", acts[1].What)
	assert.NoError(t, db.Check())
}

func TestTournamentRoundsAndResults(t *testing.T) {
	db, _ := openTemp(t)
	tr := store.Tournament{Name: "Open", Game: "tavreli", System: "swiss-dutch", Rounds: 5, Created: wall}
	require.NoError(t, db.CreateTournament(&tr))
	for i, name := range []string{"Ann", "Bob", "Cid"} {
		require.NoError(t, db.PutPlayer(&store.Player{TournamentID: tr.ID, ID: i + 1, Name: name, Rating: 2000 - i*100}))
	}
	assert.Error(t, db.PutPlayer(&store.Player{TournamentID: 77, ID: 1, Name: "X"}))
	ps, err := db.Players(tr.ID)
	require.NoError(t, err)
	require.Len(t, ps, 3)
	assert.Equal(t, "Cid", ps[2].Name)

	g := store.Game{TournamentID: tr.ID, Round: 1, BoardNo: 1, Game: "tavreli", First: "Ann", Second: "Bob", Started: wall}
	require.NoError(t, db.CreateGame(&g))
	require.NoError(t, db.PutRound(&store.Round{TournamentID: tr.ID, Number: 1, PairedAt: wall,
		Pairings: []store.Pairing{{Board: 1, First: 1, Second: 2, GameID: g.ID}, {Board: 2, First: 3, Second: 0, Result: "bye"}}}))
	require.NoError(t, db.SetResult(g.ID, "1-0", "checkmate", wall.Add(time.Hour), nil))
	rs, err := db.Rounds(tr.ID)
	require.NoError(t, err)
	require.Len(t, rs, 1)
	assert.Equal(t, "1-0", rs[0].Pairings[0].Result)
	got, err := db.Game(g.ID)
	require.NoError(t, err)
	assert.Equal(t, "checkmate", got.Reason)

	require.NoError(t, db.SetResult(g.ID, "0-1", "arbiter", wall.Add(2*time.Hour), &store.Action{Who: "chief", What: "set-result", Why: "scoresheet error"}))
	acts, err := db.Actions(0)
	require.NoError(t, err)
	require.Len(t, acts, 1)
	assert.Equal(t, g.ID, acts[0].GameID)
	require.NoError(t, db.SetPairingResult(tr.ID, 1, 1, "+/-"))
	rs, _ = db.Rounds(tr.ID)
	assert.Equal(t, "+/-", rs[0].Pairings[0].Result)
	assert.ErrorIs(t, db.SetPairingResult(tr.ID, 1, 9, "1-0"), store.ErrNotFound)
}

func TestAlerts(t *testing.T) {
	db, _ := openTemp(t)
	g := newGame(t, db)
	a := store.Alert{GameID: g.ID, BoardID: "B1", Kind: "illegal-move", Message: "e2-e5 is not legal", At: wall}
	require.NoError(t, db.AddAlert(&a))
	open, err := db.Alerts(true)
	require.NoError(t, err)
	require.Len(t, open, 1)
	assert.Error(t, db.ResolveAlert(a.ID, &store.Action{}))
	require.NoError(t, db.ResolveAlert(a.ID, &store.Action{Who: "chief", What: "resolve-alert", Why: "restored", At: wall}))
	open, _ = db.Alerts(true)
	assert.Empty(t, open)
	all, _ := db.Alerts(false)
	require.Len(t, all, 1)
	assert.True(t, all[0].Resolved)
	assert.NotZero(t, all[0].Resolution)
}

func TestRawLog(t *testing.T) {
	db, path := openTemp(t)
	l := db.NewRawLog(0)
	for i := range 5 {
		seq, err := l.Append("B1", int64(i), wall, []byte{byte(i), 0xAA})
		require.NoError(t, err)
		assert.Equal(t, uint64(i+1), seq)
	}
	_, err := l.Append("B2", 9, wall, []byte("x"))
	require.NoError(t, err)
	require.NoError(t, l.Flush())
	flushed, pending, _ := l.Stats()
	assert.Equal(t, uint64(6), flushed)
	assert.Zero(t, pending)

	fs, err := db.RawFrames("B1", 2, 4)
	require.NoError(t, err)
	require.Len(t, fs, 3)
	assert.Equal(t, []byte{1, 0xAA}, fs[0].Data)
	boards, err := db.RawBoards()
	require.NoError(t, err)
	assert.Equal(t, []string{"B1", "B2"}, boards)
	require.NoError(t, db.Close())

	// Sequence numbers go on after a restart.
	db2, err := store.Open(path, nil)
	require.NoError(t, err)
	defer db2.Close()
	seq, err := db2.NewRawLog(0).Append("B1", 0, wall, nil)
	require.NoError(t, err)
	assert.Equal(t, uint64(6), seq)
}

func fillEvent(t *testing.T, db *store.DB) {
	t.Helper()
	tr := store.Tournament{Name: "Open <b>&</b>", Game: "shogi", System: "swiss-dutch", Rounds: 3, Created: wall}
	require.NoError(t, db.CreateTournament(&tr))
	require.NoError(t, db.PutPlayer(&store.Player{TournamentID: tr.ID, ID: 1, Name: "Habu"}))
	g := newGame(t, db)
	for ply := 1; ply <= 4; ply++ {
		m := move(g.ID, ply)
		require.NoError(t, db.AppendMove(&m))
	}
	require.NoError(t, db.PutRound(&store.Round{TournamentID: tr.ID, Number: 1, Pairings: []store.Pairing{{Board: 1, First: 1, GameID: g.ID}}}))
	require.NoError(t, db.AddAlert(&store.Alert{GameID: g.ID, Kind: "flag", At: wall}))
	require.NoError(t, db.AddAction(&store.Action{Who: "chief", What: "pause", At: wall}))
	l := db.NewRawLog(0)
	for i := range 10 {
		_, err := l.Append("B1", int64(i), wall, []byte{byte(i)})
		require.NoError(t, err)
	}
	require.NoError(t, l.Flush())
}

func TestBackupCheckCompact(t *testing.T) {
	db, _ := openTemp(t)
	fillEvent(t, db)
	dir := t.TempDir()

	backup := filepath.Join(dir, "backup.db")
	require.NoError(t, db.Backup(backup))
	assert.ErrorContains(t, db.Backup(backup), "file exists")
	compact := filepath.Join(dir, "compact.db")
	require.NoError(t, db.Compact(compact))

	for _, p := range []string{backup, compact} {
		c, err := store.Open(p, &store.Options{ReadOnly: true})
		require.NoError(t, err, p)
		assert.NoError(t, c.Check(), p)
		ms, err := c.Moves(1)
		require.NoError(t, err)
		assert.Len(t, ms, 4, p)
		require.NoError(t, c.Close())
	}
}

func TestCheckFindsBadRecords(t *testing.T) {
	db, _ := openTemp(t)
	fillEvent(t, db)
	require.NoError(t, db.Bolt().Update(func(tx *bolt.Tx) error {
		moves := tx.Bucket([]byte("moves")).Bucket([]byte{0, 0, 0, 0, 0, 0, 0, 1})
		if err := moves.Delete([]byte{0, 0, 0, 2}); err != nil {
			return err
		}
		return tx.Bucket([]byte("alerts")).Put([]byte{0, 0, 0, 0, 0, 0, 0, 9}, []byte("{not json"))
	}))
	err := db.Check()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ply 3 found where 2 was expected")
	assert.Contains(t, err.Error(), "alerts")
}

func TestExportImport(t *testing.T) {
	db, _ := openTemp(t)
	fillEvent(t, db)
	var buf bytes.Buffer
	require.NoError(t, db.Export(&buf))
	exported := buf.String()

	db2, _ := openTemp(t)
	require.NoError(t, db2.Import(strings.NewReader(exported)))
	var again bytes.Buffer
	require.NoError(t, db2.Export(&again))
	assert.Equal(t, exported, again.String(), "export of an import is the same file")
	assert.NoError(t, db2.Check())
	// New IDs continue after the imported ones.
	g := store.Game{Game: "shogi"}
	require.NoError(t, db2.CreateGame(&g))
	assert.Equal(t, uint64(2), g.ID)

	// Importing into a database that holds an event is refused.
	assert.ErrorIs(t, db2.Import(strings.NewReader(exported)), store.ErrNotEmpty)

	// A malformed file names its line and leaves the database empty.
	lines := strings.Split(exported, "\n")
	lines[3] = `{"type":"game","data":{"id":"nope"}}`
	db3, _ := openTemp(t)
	err := db3.Import(strings.NewReader(strings.Join(lines, "\n")))
	assert.ErrorContains(t, err, "import line 4")
	gs, err := db3.Games()
	require.NoError(t, err)
	assert.Empty(t, gs)
	assert.ErrorContains(t, db3.Import(strings.NewReader("hello\n")), "not an arbiter-event file")
}

func FuzzImport(f *testing.F) {
	src := filepath.Join(f.TempDir(), "src.db")
	db, err := store.Open(src, nil)
	require.NoError(f, err)
	g := store.Game{Game: "kvaa", Started: wall}
	require.NoError(f, db.CreateGame(&g))
	m := move(g.ID, 1)
	require.NoError(f, db.AppendMove(&m))
	var buf bytes.Buffer
	require.NoError(f, db.Export(&buf))
	require.NoError(f, db.Close())
	f.Add(buf.Bytes())
	f.Add([]byte(`{"format":"arbiter-event","version":1}` + "\n" + `{"type":"move","data":{"game":1,"ply":1}}`))
	dir := f.TempDir()
	n := 0
	f.Fuzz(func(t *testing.T, data []byte) {
		n++
		db, err := store.Open(filepath.Join(dir, "fuzz"+strings.Repeat("x", n%50)+time.Now().Format("150405.000000000")+".db"), nil)
		require.NoError(t, err)
		defer db.Close()
		if err := db.Import(bytes.NewReader(data)); err == nil {
			assert.NoError(t, db.Check())
		}
	})
}

// TestSettings: a setting is stored, replaced, read back after the file is
// opened again, and a missing one is ErrNotFound.
func TestSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "event.db")
	db, err := store.Open(path, nil)
	require.NoError(t, err)
	_, err = db.Setting("boards.dgt")
	require.ErrorIs(t, err, store.ErrNotFound)
	require.ErrorContains(t, err, "boards.dgt")
	require.Error(t, db.PutSetting("", []byte("x")))
	require.NoError(t, db.PutSetting("boards.dgt", []byte(`{"settle":1}`)))
	require.NoError(t, db.PutSetting("boards.dgt", []byte(`{"settle":2}`)))
	require.NoError(t, db.Close())
	db, err = store.Open(path, nil)
	require.NoError(t, err)
	defer db.Close()
	v, err := db.Setting("boards.dgt")
	require.NoError(t, err)
	assert.JSONEq(t, `{"settle":2}`, string(v))
}

// The settings go with an exported event: the imported event reads its
// raw logs as the daemon that wrote them did.
func TestExportKeepsSettings(t *testing.T) {
	db, _ := openTemp(t)
	fillEvent(t, db)
	require.NoError(t, db.PutSetting("replay/dgt", []byte(`{"settle":100000000}`)))
	require.NoError(t, db.PutSetting("replay/dgt-bus", []byte(`{"white_right":true}`)))
	var buf bytes.Buffer
	require.NoError(t, db.Export(&buf))
	assert.Contains(t, buf.String(), `{"type":"setting","data":{"key":"replay/dgt",`)

	db2, _ := openTemp(t)
	require.NoError(t, db2.Import(bytes.NewReader(buf.Bytes())))
	for key, want := range map[string]string{"replay/dgt": `{"settle":100000000}`, "replay/dgt-bus": `{"white_right":true}`} {
		v, err := db2.Setting(key)
		require.NoError(t, err, key)
		assert.JSONEq(t, want, string(v), key)
	}
	var again bytes.Buffer
	require.NoError(t, db2.Export(&again))
	assert.Equal(t, buf.String(), again.String(), "export of an import is the same file")

	bad := strings.Replace(buf.String(), `"key":"replay/dgt",`, `"key":"",`, 1)
	db3, _ := openTemp(t)
	assert.ErrorContains(t, db3.Import(strings.NewReader(bad)), "bad setting")
}
