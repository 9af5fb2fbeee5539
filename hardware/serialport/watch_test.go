package serialport_test

import (
	"bytes"
	"context"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/hardware/serialport"
)

func TestWatchServesEachPortOnce(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ttyUSB0"), nil, 0o600))
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		served := map[string]int{}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			serialport.Watch(ctx, []string{"/dev/ttyS9"}, []string{filepath.Join(dir, "ttyUSB*"), "[bad"}, time.Second, log,
				func(ctx context.Context, path string) {
					mu.Lock()
					served[path]++
					mu.Unlock()
					<-ctx.Done() // a port is kept until the end
				})
		}()
		count := func() map[string]int {
			mu.Lock()
			defer mu.Unlock()
			return maps.Clone(served)
		}
		synctest.Wait()
		assert.Equal(t, map[string]int{"/dev/ttyS9": 1, filepath.Join(dir, "ttyUSB0"): 1}, count(),
			"a configured path is served even before it exists; a pattern's, when it matches")

		// A board plugged in later is found at the next look; the others
		// are not served twice.
		require.NoError(t, os.WriteFile(filepath.Join(dir, "ttyUSB1"), nil, 0o600))
		time.Sleep(1500 * time.Millisecond)
		synctest.Wait()
		assert.Equal(t, map[string]int{"/dev/ttyS9": 1, filepath.Join(dir, "ttyUSB0"): 1, filepath.Join(dir, "ttyUSB1"): 1}, count())

		cancel()
		<-done // Watch waits for every serve
	})
	assert.Contains(t, logs.String(), "glob=[bad", "a bad pattern is told")
}
