// Package plug puts our own sensor boards on the daemon: it registers
// protocol sensorboard with the board registry (board.Register), so that
// a program that imports it reads, replays, probes and simulates our
// boards. The wire protocol, the driver and the replayer are package
// sensorboard's, the simulator package sim's; this package only wires
// them to the registry.
//
// Its settings are keys of boards itself: boards.baud, the serial speed
// (115200 by default). A boards.ports[] entry of the protocol finds its
// boards by path, glob or USB identity.
package plug

import (
	"context"
	"fmt"

	"arbiter/board"
	"arbiter/hardware/sensorboard"
)

func init() {
	board.Register(board.Protocol{
		Name:     sensorboard.Protocol,
		Title:    "our sensor boards",
		Settings: func() board.Settings { return &Settings{Baud: DefaultBaud} },
		Start:    start,
		Replayer: func(cfg board.ReplayConfig) board.Replayer { return sensorboard.NewReplayer(cfg) },
		Probe:    probe,
		Simulate: simulate,
	})
}

// DefaultBaud is the serial speed of our boards unless boards.baud says
// otherwise.
const DefaultBaud = 115200

// Settings are the protocol's settings: keys of boards itself.
type Settings struct {
	// Baud is the serial speed of the ports (boards.baud).
	Baud int `mapstructure:"baud"`
}

// Check implements [board.Settings].
func (s *Settings) Check() []board.KeyProblem {
	if s.Baud <= 0 {
		return []board.KeyProblem{{Key: "baud", Value: fmt.Sprint(s.Baud), Why: "must be positive"}}
	}
	return nil
}

// baud returns the serial speed of settings s (the default without).
func baud(s board.Settings) int {
	if s, ok := s.(*Settings); ok && s.Baud > 0 {
		return s.Baud
	}
	return DefaultBaud
}

// start makes the driver of our boards on the ports of s.
func start(s board.Setup) (board.Driver, error) {
	specs := make([]sensorboard.PortSpec, len(s.Ports))
	for i, p := range s.Ports {
		specs[i] = sensorboard.PortSpec{Path: p.Path, Glob: p.Glob, VID: p.USB.VID, PID: p.USB.PID, SerialNumber: p.USB.Serial}
	}
	cfg := sensorboard.Config{Ports: specs, Baud: baud(s.Settings), Scan: s.Scan, Now: s.Now,
		Handler: s.Handler, Logger: s.Logger}
	if s.Raw != nil {
		cfg.Raw = func(f sensorboard.RawFrame) uint64 {
			if f.Board == "" {
				return 0 // before the handshake: no board to log it under
			}
			return s.Raw(f.Board, board.Record{Host: f.Host, Sent: f.Sent, Data: f.Wire})
		}
	}
	d, err := sensorboard.New(cfg)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// probe asks the port at path for our handshake.
func probe(ctx context.Context, path string, cfg board.ProbeConfig) ([]board.Info, error) {
	h, err := sensorboard.Probe(ctx, path, baud(cfg.Settings), cfg.Timeout)
	if err != nil {
		return nil, err
	}
	return []board.Info{*h.Info()}, nil
}
