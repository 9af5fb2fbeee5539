// Package serialtest helps tests of the drivers that open serial ports
// through hardware/serialport: another program holding a port.
package serialtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"arbiter/hardware/serialport"
)

// Hold makes another program (a live process, "sleep") the holder of the
// device behind path, by its lock file in dir (one of the folders
// serialport looks in), as minicom would, and returns that process:
// killing it leaves the lock stale, and the port free. The process is
// killed, and the lock file removed, when the test ends.
func Hold(t testing.TB, path, dir string) *exec.Cmd {
	t.Helper()
	dev, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatalf("hold %s: %v", path, err)
	}
	other := exec.Command("sleep", "60")
	if err := other.Start(); err != nil {
		t.Fatalf("hold %s: %v", path, err)
	}
	lock := filepath.Join(dir, serialport.LockName(dev))
	t.Cleanup(func() {
		_ = other.Process.Kill()
		_ = other.Wait()
		_ = os.Remove(lock)
	})
	if err := os.WriteFile(lock, fmt.Appendf(nil, "%10d\n", other.Process.Pid), 0o644); err != nil {
		t.Fatalf("hold %s: %v", path, err)
	}
	return other
}
