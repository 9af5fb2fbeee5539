package plug_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/plug"
	"arbiter/rules"
	_ "arbiter/rules/tavreli"
)

func protocol(t *testing.T) board.Protocol {
	t.Helper()
	p, ok := board.Lookup(sensorboard.Protocol)
	require.True(t, ok, "the package registers our protocol")
	return p
}

func TestSettingsCheck(t *testing.T) {
	p := protocol(t)
	s := p.Settings()
	assert.Equal(t, &plug.Settings{Baud: plug.DefaultBaud}, s, "the default speed")
	assert.Empty(t, s.Check())
	assert.Equal(t, []board.KeyProblem{{Key: "baud", Value: "0", Why: "must be positive"}}, (&plug.Settings{}).Check())
	assert.Empty(t, p.Section, "its keys are keys of boards itself")
}

// A simulated board of ours answers the probe and is read by the driver
// the registration starts: its handshake and a move reach the handler,
// each record goes to the raw log under the board's id, and the driver
// owns the board.
func TestSimulateProbeStart(t *testing.T) {
	p := protocol(t)
	g, err := rules.New("tavreli", nil)
	require.NoError(t, err)
	sim, err := p.Simulate(board.SimConfig{Dir: t.TempDir(), ID: "SIM-T-1", Index: 1, Game: g, Seed: 1, Number: 2, Speed: 50})
	require.NoError(t, err)
	t.Cleanup(func() { sim.Close() })
	assert.Equal(t, "SIM-T-1", sim.ID())

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	infos, err := p.Probe(ctx, sim.Port().Path, board.ProbeConfig{Timeout: 10 * time.Second})
	require.NoError(t, err)
	require.Len(t, infos, 1)
	assert.Equal(t, "SIM-T-1", infos[0].ID)
	assert.True(t, infos[0].Caps.Has(board.CapIdentity), "an even Number senses identities")

	var mu sync.Mutex
	var events []board.Event
	var raw []string
	epoch := time.Now()
	drv, err := p.Start(board.Setup{Ports: []board.Port{sim.Port()}, Settings: p.Settings(), Scan: 50 * time.Millisecond,
		Now:     func() time.Duration { return time.Since(epoch) },
		Handler: func(e board.Event) { mu.Lock(); events = append(events, e); mu.Unlock() },
		Raw: func(id string, r board.Record) uint64 {
			mu.Lock()
			defer mu.Unlock()
			raw = append(raw, id)
			return uint64(len(raw))
		}})
	require.NoError(t, err)
	assert.Nil(t, drv.ReplaySetting(), "our replayer reads as the driver does")
	done := make(chan error, 1)
	go func() { done <- drv.Run(ctx) }()
	require.NoError(t, sim.WaitHost(ctx))
	pos := g.Start()
	require.NoError(t, sim.Restore(ctx, pos.View()))
	m := pos.Legal()[0]
	next, err := pos.Play(m)
	require.NoError(t, err)
	require.NoError(t, sim.Move(ctx, pos, next, m, rand.New(rand.NewPCG(1, 2))))
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		hello, press := false, false
		for _, e := range events {
			hello = hello || e.Kind == board.EventHello && e.Info.ID == "SIM-T-1"
			press = press || e.Kind == board.EventButton && e.Button == board.ButtonClock && e.Pressed
		}
		return hello && press
	}, 30*time.Second, 10*time.Millisecond, "no handshake and clock press from the simulated board")
	assert.True(t, drv.Owns("SIM-T-1"))
	assert.False(t, drv.Owns("SIM-T-2"))
	mu.Lock()
	assert.NotEmpty(t, raw)
	for _, id := range raw {
		assert.Equal(t, "SIM-T-1", id)
	}
	mu.Unlock()
	cancel()
	<-done
}
