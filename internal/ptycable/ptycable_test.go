package ptycable

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Bytes go through raw (no echo, no newline wait, 0x03 not an interrupt),
// the link names the device, and closing the master ends a blocked Read.
func TestOpen(t *testing.T) {
	link := filepath.Join(t.TempDir(), "board")
	master, slave, err := Open(link)
	require.NoError(t, err)
	defer slave.Close()
	target, err := os.Readlink(link)
	require.NoError(t, err)
	require.Equal(t, slave.Name(), target)

	host, err := os.OpenFile(link, os.O_RDWR, 0)
	require.NoError(t, err)
	defer host.Close()
	_, err = host.Write([]byte{0x03, 0x7f, 0x00})
	require.NoError(t, err)
	buf := make([]byte, 8)
	n, err := master.Read(buf)
	require.NoError(t, err)
	require.Equal(t, []byte{0x03, 0x7f, 0x00}, buf[:n])

	done := make(chan error, 1)
	go func() { _, err := master.Read(buf); done <- err }()
	time.Sleep(20 * time.Millisecond)
	require.NoError(t, master.Close())
	select {
	case err := <-done:
		require.Error(t, err)
	case <-time.After(2 * time.Second):
		t.Fatal("closing the master did not end a blocked Read")
	}
}
