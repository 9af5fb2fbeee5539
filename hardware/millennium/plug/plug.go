package plug

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"time"

	"arbiter/board"
	"arbiter/hardware/eboard"
	"arbiter/hardware/eboard/emu"
	"arbiter/hardware/millennium"
	"arbiter/hardware/millennium/sim"
)

// The package registers the ChessLink protocol with the board registry:
// its settings are the section boards.millennium ([Settings]); a port is
// found by path or glob.
func init() {
	board.Register(board.Protocol{
		Name:      millennium.Protocol,
		Title:     "a Millennium ChessLink board (eONE, Exclusive, Performance)",
		Section:   "millennium",
		Settings:  func() board.Settings { return &Settings{} },
		CheckPort: eboard.CheckPort,
		Start:     start,
		Replayer:  func(cfg board.ReplayConfig) board.Replayer { return millennium.NewReplayer(cfg) },
		Probe: func(ctx context.Context, path string, cfg board.ProbeConfig) ([]board.Info, error) {
			return eboard.ProbeOne(millennium.Probe(ctx, path, cfg.Timeout))
		},
		Simulate: simulate,
	})
}

// Settings are the section boards.millennium.
type Settings struct {
	// ScanTime is the boards' scan time, in 2.048 ms units (0: 20,
	// 41 ms, the board's own default; at least 15).
	ScanTime int `mapstructure:"scan_time"`
}

// Check implements [board.Settings].
func (s *Settings) Check() []board.KeyProblem {
	if s.ScanTime != 0 && (s.ScanTime < 15 || s.ScanTime > 255) {
		return []board.KeyProblem{{Key: "scan_time", Value: strconv.Itoa(s.ScanTime),
			Why: "must be 0 (20: 41 ms) or between 15 and 255, in 2.048 ms units"}}
	}
	return nil
}

func settingsOf(s board.Settings) Settings {
	if s, ok := s.(*Settings); ok {
		return *s
	}
	return Settings{}
}

// start makes the driver of the ChessLink boards on the ports of s.
func start(s board.Setup) (board.Driver, error) {
	cfg := millennium.DriverConfig{Session: millennium.Config{ScanTime: byte(settingsOf(s.Settings).ScanTime)},
		Config: eboard.Config{Scan: s.Scan, Now: s.Now, Handler: s.Handler, Raw: s.Raw, Logger: s.Logger}}
	cfg.Paths, cfg.Globs = eboard.PortsOf(s.Ports)
	return millennium.New(cfg)
}

// simulate makes a ChessLink board on a pseudo-terminal, its id in its
// memory made of c.Index, its link Dir/millennium-<index>, and its people.
func simulate(c board.SimConfig) (board.Simulated, error) {
	if err := eboard.FitsChess(c.Game, "a Millennium board"); err != nil {
		return nil, err
	}
	id := [4]byte{0x51, 0x4d, byte(c.Index >> 8), byte(c.Index)}
	b := sim.NewBoard(sim.Config{ID: id, Seed: c.Seed*1000 + c.Number, Faults: sim.Faults{
		Drop: c.Faults / 2, Duplicate: c.Faults / 2, Corrupt: c.Faults / 4}})
	line, err := emu.Attach(filepath.Join(c.Dir, fmt.Sprintf("millennium-%d", c.Index)), b)
	if err != nil {
		return nil, fmt.Errorf("simulated Millennium board %d: %w", c.Index, err)
	}
	speed := max(c.Speed, 1)
	return emu.NewSeat(emu.SeatConfig{
		ID: fmt.Sprintf("%s%02X%02X%02X%02X", millennium.IDPrefix, id[0], id[1], id[2], id[3]), Line: line, Board: b,
		Player: &emu.Player{Board: b, Rng: rand.New(rand.NewPCG(c.Seed, c.Number+1)), Carry: true, Slide: 0.2,
			Step: max(time.Duration(float64(200*time.Millisecond)/speed), time.Millisecond)},
		Think: [2]time.Duration{time.Duration(float64(2*time.Second) / speed), time.Duration(float64(20*time.Second) / speed)},
	}), nil
}
