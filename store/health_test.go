package store_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/store"
)

// A refused write is reported by WriteError until a write succeeds again;
// a write refused by its own logic is not a disk failure.
func TestWriteErrorReportedAndCleared(t *testing.T) {
	db, _ := openTemp(t)
	g := newGame(t, db)
	m1 := move(g.ID, 1)
	require.NoError(t, db.AppendMove(&m1))
	require.NoError(t, db.WriteError())

	other := move(g.ID, 1)
	other.Notation = "d2-d4"
	require.ErrorIs(t, db.AppendMove(&other), store.ErrDuplicate)
	assert.NoError(t, db.WriteError(), "a duplicate move is not a disk failure")

	db.InjectWriteFault(func() error { return syscall.ENOSPC })
	m2 := move(g.ID, 2)
	require.ErrorIs(t, db.AppendMove(&m2), syscall.ENOSPC)
	var wf *store.WriteFailure
	require.ErrorAs(t, db.WriteError(), &wf)
	assert.Contains(t, db.WriteError().Error(), "no space left")

	// The raw log keeps its frames while the disk refuses them.
	l := db.NewRawLog(0)
	for i := range 5 {
		_, err := l.Append("B1", int64(i), wall, []byte{byte(i)})
		require.NoError(t, err)
	}
	require.Error(t, l.Flush())
	require.Error(t, l.Err())
	_, err := l.Append("B1", 5, wall, []byte{5})
	require.NoError(t, err, "frames are still taken while the disk is full")

	db.InjectWriteFault(nil)
	require.NoError(t, db.AppendMove(&m2))
	assert.NoError(t, db.WriteError())
	require.NoError(t, l.Flush())
	assert.NoError(t, l.Err())
	fs, err := db.RawFrames("B1", 0, 0)
	require.NoError(t, err)
	require.Len(t, fs, 6)
	for i, f := range fs {
		assert.Equal(t, uint64(i+1), f.Seq)
	}
	ms, err := db.Moves(g.ID)
	require.NoError(t, err)
	assert.Len(t, ms, 2)
	assert.NoError(t, db.Check())
}

// The same on a real full disk: a 1 MB tmpfs, where the machine lets the
// test mount one (root); skipped elsewhere.
func TestFullDiskOnTmpfs(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	path := filepath.Join(dir, "event.db")
	db, err := store.Open(path, nil)
	require.NoError(t, err)
	defer db.Close()
	g := newGame(t, db)
	filler := filepath.Join(dir, "filler")
	require.NoError(t, os.WriteFile(filler, make([]byte, 600<<10), 0o600))

	var failed error
	ply := 1
	for ; ply < 10000; ply++ {
		m := move(g.ID, ply)
		m.Position = strings.Repeat("p", 2000)
		if err := db.AppendMove(&m); err != nil {
			failed = err
			break
		}
	}
	require.Error(t, failed, "the disk never filled")
	require.Error(t, db.WriteError())
	t.Logf("full after %d moves: %v", ply-1, failed)

	require.NoError(t, os.Remove(filler)) // space returns
	m := move(g.ID, ply)
	m.Position = strings.Repeat("p", 2000)
	require.NoError(t, db.AppendMove(&m))
	assert.NoError(t, db.WriteError())
	ms, err := db.Moves(g.ID)
	require.NoError(t, err)
	assert.Len(t, ms, ply)
	assert.NoError(t, db.Check())
	assert.False(t, errors.Is(db.WriteError(), syscall.ENOSPC))
}
