package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

var recWall = time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)

// recordEvent writes an event with a record of every kind: tournament,
// players, round, games with moves and a result, raw frames, an alert,
// actions, a setting, an outbox cursor and a hub's inbox entries.
// It is compacted into path, so that every record's bytes are found once
// in the file (no old copy of a page is left).
func recordEvent(t *testing.T, path string) {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "uncompacted.db"), nil)
	require.NoError(t, err)
	defer func() {
		require.NoError(t, db.Compact(path))
		require.NoError(t, db.Close())
	}()
	tr := Tournament{Name: "Open", Game: "chess", System: "swiss-dutch", Rounds: 3, Created: recWall}
	require.NoError(t, db.CreateTournament(&tr))
	for i := 1; i <= 4; i++ {
		require.NoError(t, db.PutPlayer(&Player{TournamentID: tr.ID, ID: i, Name: fmt.Sprintf("Player %d", i), Rating: 2400 - 50*i}))
	}
	var games []Game
	for b := 1; b <= 2; b++ {
		g := Game{TournamentID: tr.ID, Round: 1, BoardNo: b, BoardID: fmt.Sprintf("TB-%04d", b), Game: "chess", First: fmt.Sprintf("Player %d", b),
			Second: fmt.Sprintf("Player %d", b+2), FirstID: b, SecondID: b + 2, Started: recWall}
		require.NoError(t, db.CreateGame(&g))
		games = append(games, g)
	}
	require.NoError(t, db.PutRound(&Round{TournamentID: tr.ID, Number: 1, PairedAt: recWall, Pairings: []Pairing{
		{Board: 1, First: 1, Second: 3, GameID: games[0].ID}, {Board: 2, First: 2, Second: 4, GameID: games[1].ID}}}))
	require.NoError(t, db.AddAction(&Action{Who: "auto", What: "pair-round", Why: "the previous round is complete", At: recWall}))
	raw := db.NewRawLog(0)
	for _, g := range games {
		for p, san := range []string{"e4", "e5", "Nf3", "Nc6"} {
			seq, err := raw.Append(g.BoardID, int64(p)*1e9, recWall.Add(time.Duration(p)*time.Second), []byte{0x02, byte(p), 0x01})
			require.NoError(t, err)
			m := Move{GameID: g.ID, Ply: p + 1, Notation: san, Canonical: san, Position: fmt.Sprintf("pos%d", p+1), Wall: recWall,
				ClockFirst: 90 * time.Minute, ClockSecond: 89 * time.Minute, RawSeq: seq, ClockState: []byte("clock state of the move")}
			require.NoError(t, db.AppendMove(&m))
		}
	}
	require.NoError(t, raw.Flush())
	require.NoError(t, db.AddAlert(&Alert{GameID: games[0].ID, BoardID: "TB-0001", Kind: "touch-move", Message: "touched e2", At: recWall}))
	require.NoError(t, db.SetResult(games[1].ID, "1/2-1/2", "agreement", recWall, &Action{Who: "chief", What: "set-result", Why: "agreed", At: recWall}))
	require.NoError(t, db.PutSetting("dgt", []byte(`{"settle":"250ms"}`)))
	require.NoError(t, db.SetOutboxCursors(map[uint64]OutboxCursor{games[0].ID: {Game: true, Ply: 2}}))
	_, _, err = db.ImportGame("east", 7, Game{Game: "chess", First: "X", Second: "Y", Started: recWall})
	require.NoError(t, err)
}

// A byte flipped inside one stored record, of every kind: Open refuses
// the file untouched, naming the record; Check names it; reading it
// through the store's API fails with a RecordError naming it; nothing
// else is reported.
func TestDamagedRecordNamed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "event.db")
	recordEvent(t, path)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	cases := []struct {
		name   string // the record, as errors name it
		bucket loc
		key    []byte
		flip   string // a text inside the record's JSON to damage (after it when it ends in a quote); "" the seal
		read   func(db *DB) error
		export bool // an export carries the record
	}{
		{"game 2 move 3", loc{bucketMoves, u64key(2)}, u32key(3), "clockState\":\"", func(db *DB) error { _, err := db.Moves(2); return err }, true},
		{"raw frame 3 of board TB-0001", loc{bucketRaw, []byte("TB-0001")}, u64key(3), "wall", func(db *DB) error { _, err := db.RawFrames("TB-0001", 0, 0); return err }, true},
		{"game 2", locGames, u64key(2), "1/2-1/2", func(db *DB) error { _, err := db.Game(2); return err }, true},
		{"round 1 of tournament 1", locRounds, pairKey(1, 1), "pairings", func(db *DB) error { _, err := db.Rounds(1); return err }, true},
		{"alert 1", locAlerts, u64key(1), "touched e2", func(db *DB) error { _, err := db.Alerts(false); return err }, true},
		{"action 2 (audit log)", locActions, u64key(2), "agreed", func(db *DB) error { _, err := db.Actions(0); return err }, true},
		{"player 3 of tournament 1", locPlayers, pairKey(1, 3), "Player 3", func(db *DB) error { _, err := db.Players(1); return err }, true},
		{"tournament 1", locTournaments, u64key(1), "swiss", func(db *DB) error { _, err := db.Tournaments(); return err }, true},
		{"setting dgt", locMeta, []byte("setting/dgt"), "250ms", func(db *DB) error { _, err := db.Setting("dgt"); return err }, true},
		{"outbox cursor of game 1", locOutbox, u64key(1), "ply", func(db *DB) error { _, err := db.OutboxCursorOf(1); return err }, false},
		{"inbox entry of hall east game 7", locInbox, inboxKey("east", 7), "", func(db *DB) error { _, err := db.ImportedGame("east", 7); return err }, false},
		{"game 1 move 1", loc{bucketMoves, u64key(1)}, u32key(1), "", func(db *DB) error { _, err := db.Moves(1); return err }, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stored []byte
			db, err := Open(path, &Options{ReadOnly: true})
			require.NoError(t, err)
			require.NoError(t, db.bolt.View(func(tx *bolt.Tx) error {
				stored = bytes.Clone(bucketAt(tx, c.bucket).Get(c.key))
				return nil
			}))
			require.NoError(t, db.Close())
			require.NotNil(t, stored)
			at := bytes.Index(data, stored)
			require.GreaterOrEqual(t, at, 0)
			require.Equal(t, -1, bytes.Index(data[at+1:], stored), "the record's bytes are found once")
			off := at + 2 // inside the checksum
			if c.flip != "" {
				i := bytes.Index(stored, []byte(c.flip))
				require.GreaterOrEqual(t, i, 0)
				off = at + i + len(c.flip) // just after the text: inside the value
				if c.flip[len(c.flip)-1] != '"' {
					off = at + i + 1 // inside the text itself
				}
			}
			bad := bytes.Clone(data)
			bad[off] ^= 0x04
			p := filepath.Join(dir, "bad.db")
			require.NoError(t, os.WriteFile(p, bad, 0o600))

			_, err = Open(p, nil)
			var re *RecordError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, c.name, re.Record)
			assert.ErrorIs(t, err, ErrCorrupt)
			assert.Contains(t, err.Error(), c.name)
			after, err := os.ReadFile(p)
			require.NoError(t, err)
			assert.Equal(t, bad, after, "the refused file is untouched")

			db, err = Open(p, &Options{ReadOnly: true, NoVerify: true})
			require.NoError(t, err)
			defer db.Close()
			err = db.Check()
			require.ErrorAs(t, err, &re)
			assert.Equal(t, c.name, re.Record)
			assert.Contains(t, err.Error(), "checksum mismatch")
			assert.NotContains(t, err.Error(), "problems", "one damaged record is one problem")

			err = c.read(db)
			require.ErrorAs(t, err, &re, "read: %v", err)
			assert.Equal(t, c.name, re.Record)
			if c.export {
				require.ErrorIs(t, db.Export(new(bytes.Buffer)), ErrCorrupt, "an export does not carry damage on")
			}
		})
	}
}

// A record without its checksum in a database of schema 2 (written there
// by something else than the store) is named by the check.
func TestUnsealedRecordNamed(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "e.db"), nil)
	require.NoError(t, err)
	defer db.Close()
	g := Game{Game: "chess", Started: recWall}
	require.NoError(t, db.CreateGame(&g))
	require.NoError(t, db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMoves).Bucket(u64key(g.ID)).Put(u32key(1), []byte(`{"game":1,"ply":1,"notation":"e4"}`))
	}))
	err = db.Check()
	var re *RecordError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "game 1 move 1", re.Record)
	assert.ErrorIs(t, err, errNoSeal)
}

// A record moved to another key (its bytes intact) is caught: the
// checksum covers the key.
func TestRecordUnderAnotherKey(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "e.db"), nil)
	require.NoError(t, err)
	defer db.Close()
	a := Alert{Kind: "touch-move", Message: "m", At: recWall}
	require.NoError(t, db.AddAlert(&a))
	require.NoError(t, db.bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketAlerts)
		return b.Put(u64key(0), bytes.Clone(b.Get(u64key(1))))
	}))
	err = db.Check()
	var re *RecordError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "alert 0", re.Record)
	assert.True(t, errors.Is(err, errChecksum))
}

// FuzzRecord feeds stored values to the record decoding: a value is
// either read (and then sealed again to the same bytes) or refused with a
// RecordError; it never crashes.
func FuzzRecord(f *testing.F) {
	m, _ := jsonOf(Move{GameID: 1, Ply: 2, Notation: "Ne1", ClockState: []byte{1, 2}})
	f.Add(u32key(2), seal(u32key(2), m))
	f.Add(u32key(2), m)
	f.Add(u32key(2), []byte{sealFormat})
	f.Add(u32key(2), []byte{sealFormat, 0, 0, 0, 0})
	f.Add([]byte{}, seal(nil, []byte("{}")))
	f.Fuzz(func(t *testing.T, key, v []byte) {
		var got Move
		err := decodeInto(loc{bucketMoves, u64key(1)}, key, v, &got)
		if err != nil {
			var re *RecordError
			if !errors.As(err, &re) || re.Record == "" {
				t.Fatalf("%v: not a RecordError naming the record", err)
			}
			return
		}
		payload, sealed, err := unseal(key, v)
		if err != nil {
			t.Fatalf("decoded, yet unseal fails: %v", err)
		}
		if sealed && !bytes.Equal(seal(key, payload), v) {
			t.Fatal("a sealed record does not seal again to its bytes")
		}
	})
}

func jsonOf(v any) ([]byte, error) { return json.Marshal(v) }
