package store_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/store"
)

// A database written before raw frames named their protocol (the fixture
// was made by that code: three frames of board TB-0001) still opens, its
// frames read back as our protocol and unchanged, and frames of another
// protocol go on after them with theirs.
func TestRawLogBeforeProtocol(t *testing.T) {
	fixture, err := os.ReadFile(filepath.Join("testdata", "rawlog-before-protocol.db"))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "old.db")
	require.NoError(t, os.WriteFile(path, fixture, 0o600))
	db, err := store.Open(path, nil)
	require.NoError(t, err)
	defer db.Close()

	old, err := db.RawFrames("TB-0001", 0, 0)
	require.NoError(t, err)
	require.Len(t, old, 3)
	for i, f := range old {
		assert.Equal(t, board.ProtocolSensorboard, f.Protocol, "frame %d", i+1)
		assert.False(t, f.Sent, "frame %d", i+1)
		assert.Equal(t, uint64(i+1), f.Seq)
		assert.Equal(t, int64(i)*int64(time.Millisecond), f.HostNs)
		assert.Equal(t, []byte{0x02, byte(i), 0x01, 0x00}, f.Data)
	}

	l := db.NewRawLog(0)
	seq, err := l.AppendFrame(store.Frame{BoardID: "TB-0001", Protocol: "dgt", Sent: true, HostNs: 5, Wall: wall, Data: []byte("S")})
	require.NoError(t, err)
	assert.Equal(t, uint64(4), seq, "numbers go on after the old frames")
	_, err = l.Append("TB-0001", 6, wall, []byte{0})
	require.NoError(t, err)
	require.NoError(t, l.Flush())
	fs, err := db.RawFrames("TB-0001", 4, 0)
	require.NoError(t, err)
	require.Len(t, fs, 2)
	assert.Equal(t, store.Frame{BoardID: "TB-0001", Seq: 4, HostNs: 5, Wall: wall, Data: []byte("S"), Protocol: "dgt", Sent: true}, fs[0])
	assert.Equal(t, board.ProtocolSensorboard, fs[1].Protocol, "Append writes our protocol")
}

// An empty record (a DGT driver's mark of a port failure) is stored and
// read back as one, between the frames around it.
func TestRawLogKeepsAnEmptyRecord(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "e.db"), nil)
	require.NoError(t, err)
	defer db.Close()
	l := db.NewRawLog(0)
	for i, data := range [][]byte{[]byte("a"), nil, []byte("b")} {
		_, err := l.AppendFrame(store.Frame{BoardID: "DGT-1", Protocol: "dgt", HostNs: int64(i), Wall: wall, Data: data})
		require.NoError(t, err)
	}
	require.NoError(t, l.Flush())
	fs, err := db.RawFrames("DGT-1", 0, 0)
	require.NoError(t, err)
	require.Len(t, fs, 3)
	assert.Equal(t, []byte("a"), fs[0].Data)
	assert.Empty(t, fs[1].Data)
	assert.Equal(t, int64(1), fs[1].HostNs)
	assert.Equal(t, []byte("b"), fs[2].Data)
}
