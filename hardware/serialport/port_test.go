package serialport

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/ptycable"
)

// pty opens a pseudo-terminal and returns the device a host opens, and
// the board's side.
func pty(t *testing.T) (device string, board *os.File) {
	t.Helper()
	master, slave, err := ptycable.Open("")
	require.NoError(t, err)
	t.Cleanup(func() { master.Close(); slave.Close() })
	return slave.Name(), master
}

func lockOf(t *testing.T, dir, device string) string {
	t.Helper()
	return filepath.Join(dir, LockName(device))
}

// A port opened is read and written, and locked in the UUCP way: the
// lock file names this process in ten characters and a newline, and is
// gone once the port is closed.
func TestOpenLocksAndReleases(t *testing.T) {
	dev, board := pty(t)
	dir := t.TempDir()
	p, err := Open(dev, Config{LockDirs: []string{dir}})
	require.NoError(t, err)
	lock := lockOf(t, dir, dev)
	assert.Equal(t, lock, p.LockFile())
	assert.Regexp(t, `^LCK\.\.pts_\d+$`, filepath.Base(lock))
	b, err := os.ReadFile(lock)
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("%10d\n", os.Getpid()), string(b))

	_, err = board.Write([]byte("hello"))
	require.NoError(t, err)
	buf := make([]byte, 16)
	require.NoError(t, p.SetReadDeadline(time.Now().Add(10*time.Second)))
	n, err := p.Read(buf)
	require.NoError(t, err)
	assert.Equal(t, "hello", string(buf[:n]))
	_, err = p.Write([]byte("ok"))
	require.NoError(t, err)
	n, err = board.Read(buf)
	require.NoError(t, err)
	assert.Equal(t, "ok", string(buf[:n]))

	require.NoError(t, p.Close())
	require.NoError(t, p.Close(), "closed twice")
	assert.NoFileExists(t, lock)
	p, err = Open(dev, Config{LockDirs: []string{dir}})
	require.NoError(t, err, "open again once closed")
	require.NoError(t, p.Close())
}

// Close ends a read in course at once.
func TestCloseEndsARead(t *testing.T) {
	dev, _ := pty(t)
	p, err := Open(dev, Config{LockDirs: []string{t.TempDir()}})
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() {
		_, err := p.Read(make([]byte, 8))
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	require.NoError(t, p.Close())
	select {
	case err := <-done:
		require.Error(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("the read goes on after Close")
	}
}

// Within one process a port is held once, by whatever path it is asked
// for (a udev by-id link leads to the same device).
func TestOpenTwiceInOneProcess(t *testing.T) {
	dev, _ := pty(t)
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "usb-DGT_board")
	require.NoError(t, os.Symlink(dev, link))
	p, err := Open(dev, Config{LockDirs: []string{dir}})
	require.NoError(t, err)
	defer p.Close()
	_, err = Open(link, Config{LockDirs: []string{dir}})
	require.ErrorIs(t, err, ErrHeld)
	var he *HeldError
	require.ErrorAs(t, err, &he)
	assert.True(t, he.Self)
	assert.Equal(t, os.Getpid(), he.PID)
	assert.Equal(t, link, he.Path)
	assert.Equal(t, dev, he.Device)
	assert.Contains(t, err.Error(), link+" ("+dev+") is held by this process")
}

// TestHelperOpen is the second process of TestSecondProcessIsRefused: it
// opens the port its parent holds and tells what happened.
func TestHelperOpen(t *testing.T) {
	dev := os.Getenv("SERIALPORT_HELPER_DEVICE")
	if dev == "" {
		t.Skip("runs only as the child of TestSecondProcessIsRefused")
	}
	p, err := Open(dev, Config{LockDirs: []string{os.Getenv("SERIALPORT_HELPER_LOCKS")}})
	if err != nil {
		var he *HeldError
		fmt.Printf("refused: held=%t pid=%d: %v\n", errors.As(err, &he), pidOf(he), err)
		return
	}
	fmt.Println("opened")
	p.Close()
}

func pidOf(e *HeldError) int {
	if e == nil {
		return 0
	}
	return e.PID
}

// A second process that opens a port held by this one is refused and told
// who holds it: the holder's process id and program name, from the lock
// file. (Exclusive mode alone would not keep it out when it runs as root,
// as this test may.) Once the port is closed, the second process gets it.
func TestSecondProcessIsRefused(t *testing.T) {
	dev, _ := pty(t)
	dir := t.TempDir()
	second := func() string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperOpen$", "-test.v")
		cmd.Env = append(os.Environ(), "SERIALPORT_HELPER_DEVICE="+dev, "SERIALPORT_HELPER_LOCKS="+dir)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	p, err := Open(dev, Config{LockDirs: []string{dir}})
	require.NoError(t, err)
	out := second()
	assert.Contains(t, out, fmt.Sprintf("refused: held=true pid=%d", os.Getpid()))
	assert.Contains(t, out, fmt.Sprintf("is held by process %d (%s), lock file %s", os.Getpid(), program(os.Getpid()), lockOf(t, dir, dev)))
	assert.NotEmpty(t, program(os.Getpid()))
	require.NoError(t, p.Close())
	assert.Contains(t, second(), "opened")
}

// deadPID returns the id of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	require.NoError(t, cmd.Run())
	return cmd.Process.Pid
}

// A lock left by a process that is gone (a daemon killed) is stale: the
// port is taken over, in the HDB format or the old binary one.
func TestStaleLockIsTakenOver(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write func(pid int) []byte
	}{
		{"ascii", func(pid int) []byte { return fmt.Appendf(nil, "%10d\n", pid) }},
		{"binary", func(pid int) []byte {
			b := make([]byte, 4)
			b[0], b[1], b[2], b[3] = byte(pid), byte(pid>>8), byte(pid>>16), byte(pid>>24)
			return b
		}},
		{"damaged", func(int) []byte { return []byte("gone") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dev, _ := pty(t)
			dir := t.TempDir()
			lock := lockOf(t, dir, dev)
			require.NoError(t, os.WriteFile(lock, tc.write(deadPID(t)), 0o644))
			old := time.Now().Add(-time.Minute)
			require.NoError(t, os.Chtimes(lock, old, old))
			p, err := Open(dev, Config{LockDirs: []string{dir}})
			require.NoError(t, err)
			b, err := os.ReadFile(lock)
			require.NoError(t, err)
			assert.Equal(t, strconv.Itoa(os.Getpid()), strings.TrimSpace(string(b)), "the lock is this process's now")
			require.NoError(t, p.Close())
		})
	}
}

// A live program's lock (minicom, another daemon) is respected whatever
// folder of the list holds it, and names the program.
func TestLiveLockIsRespected(t *testing.T) {
	dev, _ := pty(t)
	first, second := t.TempDir(), t.TempDir()
	other := exec.Command("sleep", "30")
	require.NoError(t, other.Start())
	t.Cleanup(func() { other.Process.Kill(); other.Wait() })
	require.NoError(t, os.WriteFile(lockOf(t, second, dev), fmt.Appendf(nil, "%10d\n", other.Process.Pid), 0o644))
	_, err := Open(dev, Config{LockDirs: []string{first, second}})
	var he *HeldError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, other.Process.Pid, he.PID)
	assert.Equal(t, "sleep", he.Program)
	assert.False(t, he.Self)
	assert.NoFileExists(t, lockOf(t, first, dev), "nothing written for a port not taken")
	assert.Contains(t, err.Error(), fmt.Sprintf("is held by process %d (sleep)", other.Process.Pid))
}

// A lock folder that cannot be written (missing, not a folder, a
// read-only file system) is passed over for the next one.
func TestLockGoesToTheFirstWritableFolder(t *testing.T) {
	dev, _ := pty(t)
	notDir := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(notDir, nil, 0o644))
	dir := t.TempDir()
	p, err := Open(dev, Config{LockDirs: []string{filepath.Join(t.TempDir(), "missing"), notDir, dir}})
	require.NoError(t, err)
	defer p.Close()
	assert.Equal(t, lockOf(t, dir, dev), p.LockFile())

	// None writable: the port is held all the same, in this process and
	// by exclusive mode.
	dev2, _ := pty(t)
	q, err := Open(dev2, Config{LockDirs: []string{notDir}})
	require.NoError(t, err)
	assert.Empty(t, q.LockFile())
	_, err = Open(dev2, Config{LockDirs: []string{notDir}})
	require.ErrorIs(t, err, ErrHeld)
	require.NoError(t, q.Close())
}

// A missing port is an *os.PathError naming it as asked, not a held port.
func TestMissingPort(t *testing.T) {
	for _, path := range []string{filepath.Join(t.TempDir(), "ttyUSB9"), "/nonexistent/serial/by-id/usb-DGT"} {
		_, err := Open(path, Config{LockDirs: []string{t.TempDir()}})
		var pe *os.PathError
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, path, pe.Path)
		assert.ErrorIs(t, err, os.ErrNotExist)
		assert.NotErrorIs(t, err, ErrHeld)
		assert.Contains(t, err.Error(), path)
	}
}

// A device held in exclusive mode by a process that is not root cannot be
// opened at all: its holder is looked for among the processes' open
// files.
func TestHolderFoundAmongOpenFiles(t *testing.T) {
	dev, _ := pty(t)
	f, err := os.OpenFile(dev, os.O_RDWR, 0)
	require.NoError(t, err)
	other := exec.Command("sleep", "30")
	other.Stdin = f
	require.NoError(t, other.Start())
	f.Close()
	t.Cleanup(func() { other.Process.Kill(); other.Wait() })
	assert.Equal(t, other.Process.Pid, holder(dev))
	e, ok := busy("/dev/serial/by-id/usb-x", dev).(*HeldError)
	require.True(t, ok)
	assert.Equal(t, other.Process.Pid, e.PID)
	assert.Equal(t, "sleep", e.Program)
	assert.Empty(t, e.Lock)
	assert.Zero(t, holder("/dev/no-such-device"))
}

// A lock naming a live process that started after the lock was written is
// stale all the same: its writer is gone and its process id was given to
// another (ids wrap around).
func TestLockOfAReusedProcessIDIsStale(t *testing.T) {
	dev, _ := pty(t)
	dir := t.TempDir()
	other := exec.Command("sleep", "30")
	require.NoError(t, other.Start())
	t.Cleanup(func() { other.Process.Kill(); other.Wait() })
	start, ok := started(other.Process.Pid)
	require.True(t, ok)
	assert.WithinDuration(t, time.Now(), start, time.Minute)
	lock := lockOf(t, dir, dev)
	require.NoError(t, os.WriteFile(lock, fmt.Appendf(nil, "%10d\n", other.Process.Pid), 0o644))
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(lock, old, old)) // written an hour ago, by another process of that id
	p, err := Open(dev, Config{LockDirs: []string{dir}})
	require.NoError(t, err)
	require.NoError(t, p.Close())
}
