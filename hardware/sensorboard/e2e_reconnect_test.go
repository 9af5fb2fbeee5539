package sensorboard_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	sb "arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
)

// A board that comes back with the same id is picked up again, whether its
// old port was closed or is still open but silent, and whether it comes
// back behind the same path (a symbolic link moved to a new device, as
// udev's by-id names and "arbiter simulate --link" do) or under another
// one. Its link health tells the truth all along: lost, then back.
func TestBoardComesBack(t *testing.T) {
	tests := []struct {
		name string
		// oldOpen: the old port stays open but the board on it falls
		// silent, instead of being unplugged.
		oldOpen bool
		// samePath: the board comes back behind the same link name.
		samePath bool
	}{
		{"old port closed, same path", false, true},
		{"old port closed, another path", false, false},
		{"old port silent, same path now leads elsewhere", true, true},
		{"old port silent, another path", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			g := rules.NewRect(8, 8)
			start := chessLike(g)
			old, oldPTY := newBoard(t, dir, "BACK", g, board.CapHeight, sim.Faults{}, &sim.Virtual{}, start)
			r := startDriver(t, dir, sb.Config{Backoff: 100 * time.Millisecond})
			waitFor(t, "the first handshake", func() bool { return r.col.count("BACK", board.EventSnapshot) > 0 })

			if tt.oldOpen {
				old.SetOutput(nil) // the board still holds the port, and says nothing
			} else {
				oldPTY.Close()
				waitFor(t, "the loss", func() bool { return r.driver.Boards()[0].Health == board.Disconnected })
			}
			// The same board (same id, same pieces) on a new device.
			back, err := sim.NewBoard(sim.Config{ID: "BACK", Geometry: g, Caps: board.CapHeight, Heartbeat: 100 * time.Millisecond}, &sim.Virtual{})
			require.NoError(t, err)
			back.Load(old.View())
			link := oldPTY.Path()
			if !tt.samePath {
				link = filepath.Join(dir, "board-BACK-2")
			}
			p, err := sim.Attach(back, link)
			require.NoError(t, err)
			t.Cleanup(func() { p.Close() })

			deadline := time.Now().Add(10 * time.Second)
			for {
				st := r.driver.Boards()
				require.Len(t, st, 1)
				if st[0].Health == board.Active && st[0].Port == link {
					// The host talks to the new device, not the old one.
					msg := sb.ClockMsg{First: 1000, Second: 2000, Running: board.SideFirst}
					if r.driver.Send("BACK", &msg) == nil {
						c, _, _, _ := back.HostState()
						if c == msg {
							break
						}
					}
				}
				require.True(t, time.Now().Before(deadline), "the board was never picked up again: %+v", st)
				time.Sleep(20 * time.Millisecond)
			}
			events, _ := r.col.snapshot("BACK")
			var health []board.Health
			for _, e := range events {
				if e.Kind == board.EventHealth {
					health = append(health, e.Health)
				}
			}
			assert.Contains(t, health, board.Disconnected, "the loss was reported")
			assert.Equal(t, board.Active, health[len(health)-1], "and the return")
			if tt.oldOpen && !tt.samePath {
				// Nothing but its silence frees the id.
				assert.Contains(t, health, board.NotResponding, "the silent board was reported first")
			}
		})
	}
}

// A dump asked for from outside (a game starts on the board) is asked of
// the board at once, not after the port's read timeout: a move made in
// between would be taken for the set-up (issue 18 §4).
func TestResyncIsAskedAtOnce(t *testing.T) {
	dir := t.TempDir()
	g := rules.NewRect(8, 8)
	newBoard(t, dir, "QUICK", g, board.CapHeight, sim.Faults{}, &sim.Virtual{}, chessLike(g))
	// The board sends nothing unasked (no runner, no heartbeats), so a
	// read lasts its whole timeout.
	r := startDriver(t, dir, sb.Config{ReadTimeout: 3 * time.Second})
	waitFor(t, "the first dump", func() bool { return r.col.count("QUICK", board.EventSnapshot) == 1 })
	for i := range 3 {
		time.Sleep(100 * time.Millisecond)
		asked := time.Now()
		require.NoError(t, r.driver.Resync("QUICK"))
		for r.col.count("QUICK", board.EventSnapshot) < 2+i {
			require.Less(t, time.Since(asked), time.Second, "the dump was asked for only after the read timeout")
			time.Sleep(5 * time.Millisecond)
		}
	}
}
