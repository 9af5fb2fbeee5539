package director

import (
	"runtime"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nice is the scheduling nice value of the calling thread.
func nice(t *testing.T) int {
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	require.NoError(t, err)
	return 20 - raw
}

// A pairing runs nicer than the daemon, on a thread of its own that ends
// with it: the threads left run the boards at the daemon's priority.
func TestLowPriority(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	mine := nice(t)
	var inside int
	ran := false
	lowPriority(func() { inside, ran = nice(t), true })
	require.True(t, ran)
	if mine < 19 {
		assert.Greater(t, inside, mine, "f ran at the daemon's priority")
	}
	assert.Equal(t, mine, nice(t), "the caller's thread keeps its priority")
	for range 20 { // no thread of the pool was left nicer
		done := make(chan int)
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			done <- nice(t)
		}()
		assert.Equal(t, mine, <-done)
	}
}
