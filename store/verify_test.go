package store_test

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"arbiter/store"
)

// seedEvent writes an event of games games of plies moves each, with
// frames raw frames per move, to a new database at path.
func seedEvent(tb testing.TB, path string, games, plies, frames int) {
	tb.Helper()
	db, err := store.Open(path, nil)
	require.NoError(tb, err)
	defer func() { require.NoError(tb, db.Close()) }()
	raw := db.NewRawLog(0)
	for i := range games {
		g := store.Game{Game: "tavreli", First: fmt.Sprintf("Player %d", 2*i), Second: fmt.Sprintf("Player %d", 2*i+1),
			BoardID: fmt.Sprintf("B%03d", i%100), Started: wall}
		require.NoError(tb, db.CreateGame(&g))
		ms := make([]store.Move, plies)
		for p := range plies {
			ms[p] = crashMove(g.ID, p+1)
			for range frames {
				_, err := raw.Append(g.BoardID, int64(p), wall, []byte("\x8e\x00\x05\x12\x34\x01"))
				require.NoError(tb, err)
			}
		}
		require.NoError(tb, store.AppendMovesInOneTx(db, ms))
		require.NoError(tb, raw.Flush())
	}
}

func fileHash(t *testing.T, path string) [32]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return sha256.Sum256(data)
}

// pagesOfType lists the pages of the given bbolt type ("leaf", "branch").
func pagesOfType(t *testing.T, path, typ string) []int {
	t.Helper()
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, PreLoadFreelist: true})
	require.NoError(t, err)
	defer bdb.Close()
	var ids []int
	require.NoError(t, bdb.View(func(tx *bolt.Tx) error {
		for id := 2; ; id++ {
			p, err := tx.Page(id)
			if err != nil || p == nil {
				return nil
			}
			if p.Type == typ {
				ids = append(ids, id)
			}
		}
	}))
	return ids
}

// declaredSize returns the size the meta page declares.
func declaredSize(t *testing.T, path string) int64 {
	t.Helper()
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	require.NoError(t, err)
	defer bdb.Close()
	var n int64
	require.NoError(t, bdb.View(func(tx *bolt.Tx) error { n = tx.Size(); return nil }))
	return n
}

func TestOpenRefusesTruncatedFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "event.db")
	seedEvent(t, path, 20, 60, 2)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	size := len(data)
	// The file may be longer than its pages (bbolt grows it in steps):
	// the end that counts is the high-water mark.
	hwm := int(declaredSize(t, path))
	require.LessOrEqual(t, hwm, size)
	for _, n := range []int{size / 2, hwm - 1, hwm - 4096, 8192, 4096 + 100, 4096, 100} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			p := filepath.Join(dir, fmt.Sprintf("t%d.db", n))
			require.NoError(t, os.WriteFile(p, data[:n], 0o600))
			before := fileHash(t, p)
			for _, ro := range []bool{false, true} {
				_, err := store.Open(p, &store.Options{ReadOnly: ro})
				require.ErrorIs(t, err, store.ErrCorrupt, "read-only %v", ro)
				assert.ErrorIs(t, err, store.ErrTruncated)
				assert.Contains(t, err.Error(), "truncated")
				// db check opens without the full check: the header
				// check still refuses it.
				_, err = store.Open(p, &store.Options{ReadOnly: ro, NoVerify: true})
				require.ErrorIs(t, err, store.ErrTruncated)
			}
			assert.Equal(t, before, fileHash(t, p), "a truncated file must not be written")
		})
	}
}

func TestOpenRefusesEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "event.db")
	require.NoError(t, os.WriteFile(path, nil, 0o600))
	for _, ro := range []bool{false, true} {
		_, err := store.Open(path, &store.Options{ReadOnly: ro})
		require.ErrorIs(t, err, store.ErrEmpty)
		assert.ErrorIs(t, err, store.ErrCorrupt)
		assert.Contains(t, err.Error(), "empty")
	}
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Zero(t, fi.Size(), "an empty file must not be initialised")

	// A missing file is what starts a new event.
	db, err := store.Open(filepath.Join(t.TempDir(), "new.db"), nil)
	require.NoError(t, err)
	require.NoError(t, db.Close())
}

// One damaged page: Open (what serve runs before its first write) refuses
// the file and leaves it untouched; Check reports it as an error, never a
// crash.
func TestOpenRefusesDamagedPage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "event.db")
	seedEvent(t, path, 20, 60, 2)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	leaves := pagesOfType(t, path, "leaf")
	branches := pagesOfType(t, path, "branch")
	require.NotEmpty(t, leaves)
	require.NotEmpty(t, branches)
	const ps = 4096
	rng := rand.New(rand.NewPCG(3, 4))
	cases := []struct {
		name string
		page int
		hurt func(page []byte)
	}{
		{"leaf zeroed", leaves[len(leaves)/2], func(p []byte) { clear(p) }},
		{"leaf random", leaves[len(leaves)/3], func(p []byte) {
			for i := range p {
				p[i] = byte(rng.Uint32())
			}
		}},
		{"leaf payload", leaves[len(leaves)/4], func(p []byte) {
			// The first bytes after the element headers: keys and values.
			count := int(p[10]) | int(p[11])<<8
			for i := 16 + 16*count; i < 16+16*count+64; i++ {
				p[i] ^= 0x5a
			}
		}},
		{"branch random after header", branches[0], func(p []byte) {
			for i := 16; i < len(p); i++ {
				p[i] = byte(rng.Uint32())
			}
		}},
		{"branch pointers far away", branches[len(branches)-1], func(p []byte) {
			for i := 16; i+16 <= len(p); i += 16 { // every element's pgid
				copy(p[i+8:i+16], []byte{0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0})
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := append([]byte(nil), data...)
			c.hurt(bad[c.page*ps : (c.page+1)*ps])
			p := filepath.Join(dir, "bad.db")
			require.NoError(t, os.WriteFile(p, bad, 0o600))
			before := fileHash(t, p)
			_, err := store.Open(p, nil)
			require.ErrorIs(t, err, store.ErrCorrupt)
			assert.Equal(t, before, fileHash(t, p), "a damaged file must not be written")

			// db check: the shape of the trees is checked at open, the
			// rest by Check; either way an error, never a crash.
			db, err := store.Open(p, &store.Options{ReadOnly: true, NoVerify: true})
			if err == nil {
				err = db.Check()
				require.NoError(t, db.Close())
			}
			require.ErrorIs(t, err, store.ErrCorrupt)
			assert.NotContains(t, err.Error(), "goroutine", "a panic's trace is not a message")
			assert.Equal(t, before, fileHash(t, p))
		})
	}
}

// BenchmarkOpenCheck measures what the full check at open costs on an
// event of realistic size: 900 games of 80 moves (a 100-board event over
// nine rounds) with four raw frames per move. "verify" is Open as serve
// runs it, "header-only" is Open with NoVerify.
func BenchmarkOpenCheck(b *testing.B) {
	path := filepath.Join(b.TempDir(), "event.db")
	seedEvent(b, path, 900, 80, 4)
	fi, err := os.Stat(path)
	require.NoError(b, err)
	for _, noVerify := range []bool{false, true} {
		name := "verify"
		if noVerify {
			name = "header-only"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				db, err := store.Open(path, &store.Options{ReadOnly: true, NoVerify: noVerify})
				if err != nil {
					b.Fatal(err)
				}
				db.Close()
			}
			b.ReportMetric(float64(fi.Size())/(1<<20), "MB")
		})
	}
}
