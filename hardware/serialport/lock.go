package serialport

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// DefaultLockDirs are the folders [Open] looks for lock files in, and
// writes its own in (the first writable one): the FHS's /var/lock, the
// /run/lock it usually leads to, and the temporary folder as a last
// resort, where other daemons of ours look too.
func DefaultLockDirs() []string { return []string{"/var/lock", "/run/lock", os.TempDir()} }

// ErrHeld is the error a port held by another process (or another part of
// this one) matches: errors.Is(err, ErrHeld). The error itself is a
// *[HeldError].
var ErrHeld = errors.New("serial port held by another process")

// HeldError says that a port is held, and by whom.
type HeldError struct {
	// Path is the port as it was asked for; Device is the device it leads
	// to (the by-id links of udev lead to /dev/ttyACM0 and the like).
	Path, Device string
	// PID is the holder's process id, 0 when it could not be found
	// (exclusive mode held by a process we may not look into).
	PID int
	// Program is the holder's program name where it can be read.
	Program string
	// Lock is the lock file that names the holder, "" when the holder
	// was found otherwise.
	Lock string
	// Self: the holder is this process (another of its drivers).
	Self bool
}

// Error names the port and its holder.
func (e *HeldError) Error() string {
	port := e.Path
	if e.Device != "" && e.Device != e.Path {
		port += " (" + e.Device + ")"
	}
	who := "another process"
	switch {
	case e.Self:
		who = fmt.Sprintf("this process (pid %d) already", e.PID)
	case e.PID != 0 && e.Program != "":
		who = fmt.Sprintf("process %d (%s)", e.PID, e.Program)
	case e.PID != 0:
		who = fmt.Sprintf("process %d", e.PID)
	}
	s := fmt.Sprintf("serial port %s is held by %s", port, who)
	if e.Lock != "" {
		s += ", lock file " + e.Lock
	}
	return s
}

// Is makes a HeldError match [ErrHeld].
func (e *HeldError) Is(target error) bool { return target == ErrHeld }

// held is the devices this process holds, by device path.
var held = struct {
	sync.Mutex
	m map[string]bool
}{m: map[string]bool{}}

// lock is a port taken: the device in this process, and its lock file
// ("" when no lock folder was writable).
type lock struct {
	device string
	file   string
}

// LockName is the UUCP lock file name of a device: its name under /dev,
// a slash becoming an underscore (LCK..ttyUSB0, LCK..pts_3).
func LockName(device string) string {
	name := strings.TrimPrefix(device, "/dev/")
	name = strings.TrimPrefix(name, "/")
	return "LCK.." + strings.ReplaceAll(name, "/", "_")
}

// take takes device for this process: refused if this process or a live
// process named by a lock file in dirs holds it; a stale lock is removed.
// The lock is written in the first writable folder of dirs.
func take(path, device string, dirs []string) (*lock, error) {
	held.Lock()
	defer held.Unlock()
	pid := os.Getpid()
	if held.m[device] {
		return nil, &HeldError{Path: path, Device: device, PID: pid, Program: program(pid), Self: true}
	}
	dirs = distinct(dirs)
	name := LockName(device)
	for range 3 {
		for _, dir := range dirs {
			if err := clearStale(filepath.Join(dir, name)); err != nil {
				var he *HeldError
				if errors.As(err, &he) {
					he.Path, he.Device = path, device
				}
				return nil, err
			}
		}
		l := &lock{device: device}
		created := false
		for _, dir := range dirs {
			file := filepath.Join(dir, name)
			err := create(file, pid)
			if err == nil {
				l.file, created = file, true
				break
			}
			if errors.Is(err, os.ErrExist) {
				break // taken meanwhile: look again
			}
			// Not writable here (read-only, missing, not ours): the next.
		}
		if created || !anyExists(dirs, name) {
			held.m[device] = true
			return l, nil
		}
	}
	return nil, &HeldError{Path: path, Device: device}
}

// release gives the device up, and its lock file if it still names this
// process.
func (l *lock) release() error {
	held.Lock()
	delete(held.m, l.device)
	held.Unlock()
	if l.file == "" {
		return nil
	}
	if pid, err := readLock(l.file); err != nil || pid != os.Getpid() {
		return nil // taken over, or gone
	}
	if err := os.Remove(l.file); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("serialport: remove lock %s: %w", l.file, err)
	}
	return nil
}

// clearStale removes the lock file if the process it names is gone (or is
// this process, which does not hold the device: a pid reused after a
// restart, as a container's first process is), and returns a *HeldError
// if a live process holds it.
func clearStale(file string) error {
	pid, err := readLock(file)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case errors.Is(err, os.ErrPermission):
		return &HeldError{Lock: file} // not ours to read: respected
	case err != nil:
		// Damaged: a lock is written whole at once, except by a program
		// that creates it empty and then writes it, for a moment; one
		// left so for longer was left by a crash.
		if fi, serr := os.Stat(file); serr == nil && time.Since(fi.ModTime()) < time.Second {
			return &HeldError{Lock: file}
		}
		return removeStale(file)
	case pid == os.Getpid() || !alive(pid) || reused(pid, file):
		return removeStale(file)
	}
	return &HeldError{PID: pid, Program: program(pid), Lock: file}
}

// reused reports whether process pid started after the lock file was
// written: the process that wrote it is gone, and its id was given to
// another (process ids wrap around at a few tens of thousands). Where
// the start cannot be read, the lock is respected.
func reused(pid int, file string) bool {
	fi, err := os.Stat(file)
	if err != nil {
		return false
	}
	start, ok := started(pid)
	// A second's slack: the file's time and the process's start are
	// counted in different units.
	return ok && start.After(fi.ModTime().Add(time.Second))
}

func removeStale(file string) error {
	if err := os.Remove(file); err != nil && !errors.Is(err, os.ErrNotExist) {
		// Someone else's stale lock in a folder we may not write: the
		// device is free all the same.
		if errors.Is(err, os.ErrPermission) || errors.Is(err, unix.EROFS) {
			return nil
		}
		return fmt.Errorf("serialport: remove stale lock %s: %w", file, err)
	}
	return nil
}

// readLock reads the process id a lock file holds: ten ASCII characters
// and a newline (HDB UUCP), or a binary 32-bit integer (old UUCP).
func readLock(file string) (int, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	if s := string(bytes.TrimSpace(b)); s != "" {
		if pid, err := strconv.Atoi(s); err == nil && pid > 0 {
			return pid, nil
		}
	}
	if len(b) == 4 {
		if pid := int(int32(binary.NativeEndian.Uint32(b))); pid > 0 {
			return pid, nil
		}
	}
	return 0, fmt.Errorf("serialport: lock %s holds no process id: %q", file, b)
}

// create writes a lock file naming pid, atomically: it is written aside
// and linked into place, so that no one reads it half written, and the
// link fails (os.ErrExist) if another process took the port meanwhile.
func create(file string, pid int) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), "LTMP.")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, werr := fmt.Fprintf(tmp, "%10d\n", pid)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o644)); err != nil {
		return err
	}
	return os.Link(tmp.Name(), file)
}

// alive reports whether process pid runs (one we may not signal runs too).
func alive(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}

// distinct returns the folders that exist, each once (/var/lock usually
// leads to /run/lock).
func distinct(dirs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range dirs {
		real, err := filepath.EvalSymlinks(d)
		if err != nil || seen[real] {
			continue
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
			continue
		}
		seen[real] = true
		out = append(out, d)
	}
	return out
}

func anyExists(dirs []string, name string) bool {
	for _, d := range dirs {
		if _, err := os.Lstat(filepath.Join(d, name)); err == nil {
			return true
		}
	}
	return false
}
