package serialport

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// proc is where the processes are read from (a variable for tests).
var proc = "/proc"

// program returns the program name of process pid, "" where it cannot be
// read.
func program(pid int) string {
	b, err := os.ReadFile(filepath.Join(proc, strconv.Itoa(pid), "comm"))
	if err == nil {
		return strings.TrimSpace(string(b))
	}
	if exe, err := os.Readlink(filepath.Join(proc, strconv.Itoa(pid), "exe")); err == nil {
		return filepath.Base(exe)
	}
	return ""
}

// holder looks among the processes' open files for one that has device
// open, other than this process, and returns its pid, or 0 where none can
// be seen (the processes of other users are not ours to look into).
func holder(device string) int {
	entries, err := os.ReadDir(proc)
	if err != nil {
		return 0
	}
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		fds := filepath.Join(proc, e.Name(), "fd")
		links, err := os.ReadDir(fds)
		if err != nil {
			continue
		}
		for _, l := range links {
			if target, err := os.Readlink(filepath.Join(fds, l.Name())); err == nil && target == device {
				return pid
			}
		}
	}
	return 0
}
