package director

import (
	"runtime"
	"syscall"
)

// niceBy is how much nicer than the daemon a long computation (a
// pairing) runs.
const niceBy = 10

// lowPriority runs f on an OS thread of its own, at a lower scheduling
// priority than the daemon's (nice +10), and returns when f does: a big
// round's pairing takes a processor for a good part of a second, and the
// boards' events must not wait for it on a machine with few cores. The
// thread ends with f (the goroutine exits locked to it), so that nothing
// else ever runs at that priority.
func lowPriority(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		tid := syscall.Gettid()
		// The system call answers 20 - nice.
		if raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid); err == nil {
			_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, min(20-raw+niceBy, 19))
		}
		f()
	}()
	<-done
}
