package serialport

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
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

// clockTicks is the unit of a process's start time in /proc (USER_HZ,
// 100 on every Linux of the last decades).
const clockTicks = 100

// started returns when process pid started, and false where it cannot be
// read.
func started(pid int) (time.Time, bool) {
	stat, err := os.ReadFile(filepath.Join(proc, strconv.Itoa(pid), "stat"))
	if err != nil {
		return time.Time{}, false
	}
	// The fields after the program's name, which may hold anything, in
	// parentheses: the start time is the twenty-second field of all.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return time.Time{}, false
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 20 {
		return time.Time{}, false
	}
	ticks, err := strconv.ParseInt(fields[19], 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	boot, ok := bootTime()
	if !ok {
		return time.Time{}, false
	}
	return boot.Add(time.Duration(ticks) * time.Second / clockTicks), true
}

// bootTime returns when the system booted (btime in /proc/stat).
func bootTime() (time.Time, bool) {
	f, err := os.Open(filepath.Join(proc, "stat"))
	if err != nil {
		return time.Time{}, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "btime "); ok {
			secs, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return time.Unix(secs, 0), err == nil
		}
	}
	return time.Time{}, false
}
