package store_test

import (
	"encoding/binary"
	"hash/fnv"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/store"
)

// fixMetaChecksums rewrites the checksums of both meta pages (page size
// 4096) so that bbolt trusts whatever the fuzzer put in them.
func fixMetaChecksums(data []byte) {
	for _, off := range []int{0, 4096} {
		m := off + 16
		if len(data) < m+64 {
			return
		}
		h := fnv.New64a()
		h.Write(data[m : m+56])
		binary.LittleEndian.PutUint64(data[m+56:], h.Sum64())
	}
}

// FuzzOpen feeds crafted files to Open and Check: they may be refused,
// but must never crash the process or hang. With fix set the meta pages'
// checksums are made valid, so that bbolt believes the crafted header
// and the checks behind it are reached.
func FuzzOpen(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "seed.db")
	db, err := store.Open(path, nil)
	require.NoError(f, err)
	g := store.Game{Game: "tavreli", First: "A", Second: "B", Started: wall}
	require.NoError(f, db.CreateGame(&g))
	for ply := 1; ply <= 30; ply++ {
		m := crashMove(g.ID, ply)
		require.NoError(f, db.AppendMove(&m))
	}
	require.NoError(f, db.Close())
	seed, err := os.ReadFile(path)
	require.NoError(f, err)
	f.Add(seed, false)
	f.Add(seed, true)
	f.Add(seed[:len(seed)/2], false)
	f.Add(seed[:4096+80], true)
	f.Add([]byte{}, false)
	f.Add([]byte("arbiter notes"), false)
	for _, off := range []int{2 * 4096, 3 * 4096, 4 * 4096} {
		bad := append([]byte(nil), seed...)
		for i := off + 16; i < off+64 && i < len(bad); i++ {
			bad[i] ^= 0xa5
		}
		f.Add(bad, false)
	}
	meta := append([]byte(nil), seed...)
	binary.LittleEndian.PutUint64(meta[16+40:], 1<<40) // a huge high-water mark
	f.Add(meta, true)

	f.Fuzz(func(t *testing.T, data []byte, fix bool) {
		data = append([]byte(nil), data...)
		if fix {
			fixMetaChecksums(data)
		}
		p := filepath.Join(t.TempDir(), "f.db")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, opts := range []*store.Options{{ReadOnly: true, NoVerify: true}, nil} {
			db, err := store.Open(p, opts)
			if err != nil {
				continue
			}
			// A file that fails the check is only ever reported on.
			if db.Check() == nil {
				_, _ = db.Games()
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
		}
	})
}
