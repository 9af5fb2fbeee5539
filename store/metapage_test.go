package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/store"
)

// lastMove is the move the meta-page event stores last, in a transaction
// of its own: what a fall back to the previous transaction loses.
var lastMove = store.Move{GameID: 38, Ply: 11, Notation: "Ne1", Canonical: "g2e1", Position: "after Ne1", Wall: wall}

// metaEvent writes an event of 40 games of 10 moves whose last
// transaction stores game 38's move 11, Ne1, and returns its bytes.
func metaEvent(t *testing.T, path string) []byte {
	t.Helper()
	db, err := store.Open(path, nil)
	require.NoError(t, err)
	raw := db.NewRawLog(0)
	for i := range 40 {
		g := store.Game{Game: "chess", First: fmt.Sprintf("White %d", i), Second: fmt.Sprintf("Black %d", i), BoardID: fmt.Sprintf("B%02d", i%8), Started: wall}
		require.NoError(t, db.CreateGame(&g))
		ms := make([]store.Move, 10)
		for p := range ms {
			ms[p] = crashMove(g.ID, p+1)
			_, err := raw.Append(g.BoardID, int64(p), wall, []byte{0x8e, byte(p)})
			require.NoError(t, err)
		}
		require.NoError(t, store.AppendMovesInOneTx(db, ms))
	}
	require.NoError(t, raw.Flush())
	m := lastMove
	require.NoError(t, db.AppendMove(&m))
	require.NoError(t, db.Close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}

// activeMeta returns the meta page (0 or 1) of the file's last
// transaction: the one with the higher transaction id.
func activeMeta(data []byte) int {
	txid := func(page int) uint64 {
		off := page*4096 + 16 + 48
		return uint64(data[off]) | uint64(data[off+1])<<8 | uint64(data[off+2])<<16 | uint64(data[off+3])<<24
	}
	if txid(1) > txid(0) {
		return 1
	}
	return 0
}

// Every byte of both meta pages flipped, one at a time: Open (as serve
// runs it, and read-only as the tools do) refuses the file with a
// MetaError, and leaves it byte for byte as it was. bbolt itself would
// have opened every one of these files, most of them silently on the
// previous transaction.
func TestOpenRefusesEveryMetaByteFlipped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "event.db")
	data := metaEvent(t, path)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	require.NoError(t, err)
	defer f.Close()
	after := make([]byte, len(data))
	flip := func(off int) {
		_, err := f.WriteAt([]byte{data[off] ^ 0xff}, int64(off))
		require.NoError(t, err)
	}
	restore := func(off int) {
		_, err := f.WriteAt(data[off:off+1], int64(off))
		require.NoError(t, err)
	}
	for off := range 2 * 4096 {
		flip(off)
		// As serve opens it, and as db check does.
		for _, opts := range []*store.Options{nil, {ReadOnly: true, NoVerify: true}} {
			db, err := store.Open(path, opts)
			if err == nil {
				db.Close()
				t.Fatalf("byte %d flipped (meta page %d, byte %d of it): the file opened", off, off/4096, off%4096)
			}
			var me *store.MetaError
			if !errors.As(err, &me) || !errors.Is(err, store.ErrCorrupt) {
				t.Fatalf("byte %d flipped: %v, want a MetaError", off, err)
			}
		}
		n, err := f.ReadAt(after, 0)
		require.NoError(t, err)
		after[off] ^= 0xff
		fi, err := f.Stat()
		require.NoError(t, err)
		if n != len(data) || fi.Size() != int64(len(data)) || !bytes.Equal(after, data) {
			t.Fatalf("byte %d flipped: the refused file was written to", off)
		}
		restore(off)
	}
	db, err := store.Open(path, nil)
	require.NoError(t, err, "the file as it was opens")
	require.NoError(t, db.Close())
}

// The damaged active meta page, for each byte of its data flipped: the
// error says which page and what; a repair names the last transaction's
// move as lost when the damaged page still leads to its tree, refuses to
// write without AcceptPrevious, and with it writes a file that opens on
// the previous transaction, everything before it intact. The original is
// untouched.
func TestRepairAcceptPrevious(t *testing.T) {
	dir := t.TempDir()
	data := metaEvent(t, filepath.Join(dir, "event.db"))
	active := activeMeta(data)
	for off := 0; off < 64; off++ {
		abs := active*4096 + 16 + off
		bad := bytes.Clone(data)
		bad[abs] ^= 0xff
		path := filepath.Join(dir, fmt.Sprintf("bad%d.db", off))
		require.NoError(t, os.WriteFile(path, bad, 0o600))
		_, err := store.Open(path, nil)
		var me *store.MetaError
		require.ErrorAs(t, err, &me, "byte %d", off)
		require.Len(t, me.Damaged, 1)
		assert.Equal(t, active, me.Damaged[0].Page)
		assert.False(t, me.Damaged[0].Lossless, "byte %d", off)
		assert.Contains(t, err.Error(), fmt.Sprintf("meta page %d is damaged", active))

		out := filepath.Join(dir, fmt.Sprintf("repaired%d.db", off))
		r, err := store.Repair(path, store.RepairOptions{Out: out})
		require.ErrorIs(t, err, store.ErrLossyRepair, "byte %d", off)
		assert.NoFileExists(t, out, "nothing is written without AcceptPrevious")
		var text strings.Builder
		require.NoError(t, r.WriteText(&text))
		assert.True(t, r.Later, "byte %d: %s", off, text.String())
		// Its root page (bytes 16-23) flipped leads nowhere: what the
		// last transaction wrote cannot be read. Any other byte leaves the
		// way to its pages readable.
		if off >= 16 && off < 24 {
			assert.Contains(t, r.Unreadable, "root page", "byte %d: %s", off, text.String())
			assert.Contains(t, text.String(), "loses it, whatever it was")
		} else {
			assert.Equal(t, []string{"game 38, changed: position", "game 38 move 11 Ne1"}, r.Lost, "byte %d: %s", off, text.String())
			assert.Empty(t, r.Unreadable)
			assert.Contains(t, text.String(), "  - game 38 move 11 Ne1\n")
		}

		r, err = store.Repair(path, store.RepairOptions{Out: out, AcceptPrevious: true})
		require.NoError(t, err, "byte %d", off)
		assert.Equal(t, out, r.Written)
		db, err := store.Open(out, nil)
		require.NoError(t, err, "byte %d: the repaired file opens", off)
		ms, err := db.Moves(38)
		require.NoError(t, err)
		assert.Len(t, ms, 10, "byte %d: the last transaction's move is gone, the rest kept", off)
		ms, err = db.Moves(37)
		require.NoError(t, err)
		assert.Len(t, ms, 10)
		require.NoError(t, db.Check())
		// The event goes on from there.
		m := lastMove
		require.NoError(t, db.AppendMove(&m))
		require.NoError(t, db.Close())
		after, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Equal(t, bad, after, "byte %d: the damaged file is untouched", off)
		require.NoError(t, os.Remove(out))
	}
}

// The older meta page damaged: the repair says nothing is lost if the
// number it names is right, and keeps the last transaction.
func TestRepairOlderMetaPage(t *testing.T) {
	dir := t.TempDir()
	data := metaEvent(t, filepath.Join(dir, "event.db"))
	older := 1 - activeMeta(data)
	data[older*4096+16+60] ^= 0xff // its checksum
	path := filepath.Join(dir, "bad.db")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	_, err := store.Open(path, nil)
	require.ErrorAs(t, err, new(*store.MetaError))

	r, err := store.Repair(path, store.RepairOptions{})
	require.ErrorIs(t, err, store.ErrLossyRepair, "a damaged page's data needs the arbiter's word")
	assert.False(t, r.Later)
	var text strings.Builder
	require.NoError(t, r.WriteText(&text))
	assert.Contains(t, text.String(), "loses nothing")

	r, err = store.Repair(path, store.RepairOptions{AcceptPrevious: true, Now: wall})
	require.NoError(t, err)
	assert.Equal(t, path+".damaged-20261121T100000Z", r.Aside)
	aside, err := os.ReadFile(r.Aside)
	require.NoError(t, err)
	assert.Equal(t, data, aside, "the original is kept aside as it was")
	db, err := store.Open(path, nil)
	require.NoError(t, err)
	defer db.Close()
	ms, err := db.Moves(38)
	require.NoError(t, err)
	assert.Len(t, ms, 11, "the last transaction is kept")
}

// Bytes bbolt does not read (a meta page's header, the zeros after its
// data) damaged: refused all the same, and repaired without loss and
// without AcceptPrevious, in place after the original is kept aside.
func TestRepairLossless(t *testing.T) {
	for _, off := range []int{0, 8, 12, 100, 4095, 4096 + 9, 4096 + 2000} {
		t.Run(fmt.Sprint(off), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "event.db")
			data := metaEvent(t, path)
			data[off] ^= 0x10
			require.NoError(t, os.WriteFile(path, data, 0o600))
			_, err := store.Open(path, nil)
			var me *store.MetaError
			require.ErrorAs(t, err, &me)
			assert.True(t, me.Lossless(), "%v", err)

			r, err := store.Repair(path, store.RepairOptions{Now: wall})
			require.NoError(t, err)
			assert.True(t, r.Lossless())
			assert.FileExists(t, r.Aside)
			db, err := store.Open(path, nil)
			require.NoError(t, err)
			defer db.Close()
			ms, err := db.Moves(38)
			require.NoError(t, err)
			assert.Len(t, ms, 11)

			again, err := store.Repair(filepath.Join(dir, "event.db.damaged-20261121T100000Z"), store.RepairOptions{Out: filepath.Join(dir, "copy.db")})
			require.NoError(t, err, "a copy can be written as well")
			assert.Equal(t, filepath.Join(dir, "copy.db"), again.Written)
		})
	}
}

// Both meta pages damaged: no repair, the newest backup is the way.
func TestRepairBothMetaPagesDamaged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "event.db")
	data := metaEvent(t, path)
	data[16+60] ^= 0xff
	data[4096+16+60] ^= 0xff
	require.NoError(t, os.WriteFile(path, data, 0o600))
	r, err := store.Repair(path, store.RepairOptions{AcceptPrevious: true})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "restore the newest backup")
	assert.Empty(t, r.Written)
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, data, after)
}

// A repair waits for no daemon: a file held by one is refused.
func TestRepairRefusesHeldFile(t *testing.T) {
	db, path := openTemp(t)
	_, err := store.Repair(path, store.RepairOptions{})
	require.ErrorIs(t, err, store.ErrLocked)
	require.NoError(t, db.Close())
	r, err := store.Repair(path, store.RepairOptions{})
	require.NoError(t, err)
	assert.Nil(t, r.Damage, "an intact file needs nothing")
}
