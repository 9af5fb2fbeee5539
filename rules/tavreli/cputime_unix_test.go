//go:build unix

package tavreli

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user plus system CPU time, so that
// benchmarks on a shared machine can report speed per CPU second.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
