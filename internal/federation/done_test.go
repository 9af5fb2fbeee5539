package federation

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// readyAfter is ready after a number of looks.
type readyAfter struct {
	mu    sync.Mutex
	looks int
	left  int
}

func (r *readyAfter) ready(context.Context) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.looks++
	if r.left > 0 {
		r.left--
		return false, nil
	}
	return true, nil
}

func (r *readyAfter) looked() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.looks
}

// A federation's daemon is done when its tournaments are played and it is
// ready (a hall's outbox is empty, the halls have the hub's last roster),
// not before either, unless it waited its limit since played; a daemon
// stopped first is never done.
func TestFederationDone(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	never := 1 << 30
	tests := []struct {
		name   string
		played bool
		left   int
		limit  time.Duration
		done   bool
	}{
		{"played, ready", true, 0, 0, true},
		{"played, ready later", true, 3, 0, true},
		{"not played", false, 0, 0, false},
		{"played, never ready", true, never, 0, false},
		{"played, never ready, limited", true, never, 20 * time.Millisecond, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			var wg sync.WaitGroup
			played := make(chan struct{})
			if tt.played {
				close(played)
			}
			r := &readyAfter{left: tt.left}
			done := doneWhen(ctx, &wg, played, r.ready, time.Millisecond, tt.limit, "ready", log)
			if tt.done {
				select {
				case <-done:
				case <-time.After(10 * time.Second):
					t.Fatal("not done")
				}
				if tt.left < never {
					require.Equal(t, tt.left+1, r.looked(), "done at the first look that finds it ready")
				}
			} else {
				time.Sleep(50 * time.Millisecond)
				select {
				case <-done:
					t.Fatal("done too early")
				default:
				}
			}
			cancel()
			wg.Wait()
			if !tt.played {
				require.Zero(t, r.looked(), "readiness is asked once the event is played")
			}
		})
	}
}
