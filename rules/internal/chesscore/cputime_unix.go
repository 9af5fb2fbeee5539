//go:build unix

package chesscore

import (
	"syscall"
	"time"
)

// CPUTime returns the CPU time (user and system) the process has used. The
// perft benchmarks divide nodes by it, so that their speed figure is per
// core-second even when other work shares the machine.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
