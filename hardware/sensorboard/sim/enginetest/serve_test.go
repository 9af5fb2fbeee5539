package enginetest

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	sb "arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
)

// Serve plays a short game in real time; the driver sees its clock
// presses with board times mapped onto the host's clock.
func TestServeRealTime(t *testing.T) {
	g, err := rules.New("chess", nil)
	require.NoError(t, err)
	dir := t.TempDir()
	link := filepath.Join(dir, "demo")
	var mu sync.Mutex
	var presses []sb.Event
	d, err := sb.New(sb.Config{
		Ports:  []sb.PortSpec{{Path: link}},
		Scan:   20 * time.Millisecond,
		Logger: slog.New(slog.DiscardHandler),
		Handler: func(e sb.Event) {
			if e.Kind == sb.EventButton && e.Button == sb.ButtonClock && e.Pressed {
				mu.Lock()
				presses = append(presses, e)
				mu.Unlock()
			}
		},
	})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go func() { _ = d.Run(ctx) }()
	fast := sim.Human{
		Think: [2]time.Duration{20 * time.Millisecond, 40 * time.Millisecond},
		Hand:  [2]time.Duration{10 * time.Millisecond, 20 * time.Millisecond},
		Press: [2]time.Duration{10 * time.Millisecond, 20 * time.Millisecond},
	}
	err = sim.Serve(ctx, sim.Spec{
		Config: sim.Config{ID: "DEMO", Caps: sb.CapHeight, Seed: 3, Heartbeat: 50 * time.Millisecond},
		Link:   link, Game: g, MaxMoves: 8, Human: fast, Pause: 300 * time.Millisecond,
	})
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, presses, 8)
	for i, e := range presses {
		assert.Equal(t, sb.Side(i%2), e.Side, "press %d by the mover", i)
		assert.LessOrEqual(t, e.At, e.Host, "an event is not received before it happens")
		assert.Less(t, e.Host-e.At, time.Second, "mapped time close to the receive time (a loaded machine delays reads)")
	}
}
