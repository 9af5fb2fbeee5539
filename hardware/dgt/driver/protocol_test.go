package driver_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/dgt/driver"
	"arbiter/rules"
	_ "arbiter/rules/chess"
	_ "arbiter/rules/shogi"
)

func lookup(t *testing.T, name string) board.Protocol {
	t.Helper()
	p, ok := board.Lookup(name)
	require.True(t, ok, "the package registers %s", name)
	return p
}

// Both DGT protocols share boards.dgt, check its values, refuse a port
// found by USB identity, and only a bus line has bus addresses.
func TestProtocolKeys(t *testing.T) {
	single, bus := lookup(t, driver.Protocol), lookup(t, driver.BusProtocol)
	assert.Equal(t, "dgt", single.Section)
	assert.Equal(t, single.Section, bus.Section)
	assert.Equal(t, &driver.Settings{}, single.Settings(), "the defaults")
	assert.Nil(t, single.PortKeys, "a single board's entry has no keys of its own")

	bad := &driver.Settings{Settle: 6 * time.Second, BusPoll: time.Millisecond}
	assert.Equal(t, []board.KeyProblem{
		{Key: "settle", Value: "6s", Why: "must be between 0 and 5s"},
		{Key: "bus_poll", Value: "1ms", Why: "must be 0 (2s) or between 50ms and 30s"},
	}, bad.Check())
	assert.Empty(t, (&driver.Settings{Settle: 500 * time.Millisecond, BusPoll: time.Second}).Check())

	for _, p := range []board.Protocol{single, bus} {
		assert.Equal(t, []board.KeyProblem{{Key: "usb", Value: "{VID:2341 PID: Serial:}", Why: "a DGT board is found by path or glob"}},
			p.CheckPort(board.Port{USB: board.USB{VID: "2341"}}), p.Name)
		assert.Empty(t, p.CheckPort(board.Port{Glob: "/dev/rfcomm*"}), p.Name)
	}
	keys := bus.PortKeys().(*driver.BusPort)
	keys.Addresses = []int{5, 0, 5}
	assert.Equal(t, []board.KeyProblem{
		{Key: "addresses", Value: "[5 0 5]", Why: "only a line of DGT boards in bus mode (protocol: dgt-bus) has bus addresses"},
	}, keys.Check(driver.Protocol))
	assert.Equal(t, []board.KeyProblem{
		{Key: "addresses[1]", Value: "0", Why: "a bus address is between 1 and 16383"},
		{Key: "addresses[2]", Value: "5", Why: "given twice (addresses[0] and [2])"},
	}, keys.Check(driver.BusProtocol))
}

// A simulated DGT board, single or on a bus line, answers its
// protocol's probe with its id and firmware; a game a DGT board cannot
// show is refused.
func TestSimulateAndProbe(t *testing.T) {
	chess, err := rules.New("chess", nil)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, tc := range []struct {
		protocol, id string
		caps         board.Caps
	}{
		{driver.Protocol, "DGT-00002", driver.Caps},
		{driver.BusProtocol, "DGT-03002", driver.BusCaps},
	} {
		t.Run(tc.protocol, func(t *testing.T) {
			p := lookup(t, tc.protocol)
			sim, err := p.Simulate(board.SimConfig{Dir: t.TempDir(), Index: 2, Game: chess, Seed: 1, Number: 3, Speed: 20})
			require.NoError(t, err)
			t.Cleanup(func() { sim.Close() })
			assert.Equal(t, tc.id, sim.ID())
			infos, err := p.Probe(ctx, sim.Port().Path, board.ProbeConfig{Timeout: 20 * time.Second})
			require.NoError(t, err)
			require.Len(t, infos, 1)
			assert.Equal(t, tc.id, infos[0].ID)
			assert.Equal(t, tc.protocol, infos[0].Protocol)
			assert.Equal(t, tc.caps, infos[0].Caps)
			assert.Regexp(t, `^DGT \d+\.\d+$`, infos[0].Firmware)
		})
	}
	shogi, err := rules.New("shogi", nil)
	require.NoError(t, err)
	_, err = lookup(t, driver.Protocol).Simulate(board.SimConfig{Dir: t.TempDir(), Index: 1, Game: shogi})
	assert.ErrorContains(t, err, "shogi cannot be played on a DGT board")
	_, err = lookup(t, driver.Protocol).Probe(ctx, "/nonexistent/dgt", board.ProbeConfig{Timeout: time.Second})
	assert.ErrorContains(t, err, "/nonexistent/dgt")
}

// The registration starts the DGT driver from its ports and settings: it
// reads the board on the port, and keeps the settings it reads with for
// the replay.
func TestStartFromSetup(t *testing.T) {
	chess, err := rules.New("chess", nil)
	require.NoError(t, err)
	p := lookup(t, driver.Protocol)
	sim, err := p.Simulate(board.SimConfig{Dir: t.TempDir(), Index: 7, Game: chess, Speed: 20})
	require.NoError(t, err)
	t.Cleanup(func() { sim.Close() })
	settings := &driver.Settings{Settle: 120 * time.Millisecond, WhiteRight: true}
	var mu sync.Mutex
	var hello *board.Info
	var logged []string
	epoch := time.Now()
	drv, err := p.Start(board.Setup{Ports: []board.Port{sim.Port()}, Settings: settings, Scan: 50 * time.Millisecond,
		Now: func() time.Duration { return time.Since(epoch) },
		Handler: func(e board.Event) {
			mu.Lock()
			defer mu.Unlock()
			if e.Kind == board.EventHello {
				hello = e.Info
			}
		},
		Raw: func(id string, _ board.Record) uint64 { mu.Lock(); logged = append(logged, id); mu.Unlock(); return 0 }})
	require.NoError(t, err)
	var kept struct {
		Settle     time.Duration `json:"settle"`
		WhiteRight bool          `json:"white_right"`
	}
	require.NoError(t, json.Unmarshal(drv.ReplaySetting(), &kept))
	assert.Equal(t, settings.Settle, kept.Settle)
	assert.True(t, kept.WhiteRight)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- drv.Run(ctx) }()
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return hello != nil }, 30*time.Second, 10*time.Millisecond)
	assert.Equal(t, "DGT-00007", hello.ID)
	assert.True(t, drv.Owns("DGT-00007"))
	mu.Lock()
	assert.Contains(t, logged, "DGT-00007", "the board's bytes go to the raw log under its id")
	mu.Unlock()
	cancel()
	<-done
}
