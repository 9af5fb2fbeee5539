package plug

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"arbiter/board"
	"arbiter/hardware/certabo"
	"arbiter/hardware/certabo/sim"
	"arbiter/hardware/eboard"
	"arbiter/hardware/eboard/emu"
	"arbiter/rules/chess"
)

// The package registers the Certabo protocol with the board registry: its
// settings are the section boards.certabo ([Settings]); a port is found by
// path or glob.
func init() {
	board.Register(board.Protocol{
		Name:      certabo.Protocol,
		Title:     "a Certabo RFID board",
		Section:   "certabo",
		Settings:  func() board.Settings { return &Settings{} },
		CheckPort: eboard.CheckPort,
		Start:     start,
		Replayer:  func(cfg board.ReplayConfig) board.Replayer { return certabo.NewReplayer(cfg) },
		Probe: func(ctx context.Context, path string, cfg board.ProbeConfig) ([]board.Info, error) {
			return eboard.ProbeOne(certabo.Probe(ctx, path, cfg.Timeout))
		},
		Simulate: simulate,
	})
}

// Settings are the section boards.certabo.
type Settings struct {
	// Calibration is a file that keeps the chips learnt across the
	// daemon's runs (empty: they are learnt again at every start).
	Calibration string `mapstructure:"calibration"`
}

// Check implements [board.Settings]: the file's folder exists.
func (s *Settings) Check() []board.KeyProblem {
	if s.Calibration == "" {
		return nil
	}
	if fi, err := os.Stat(filepath.Dir(s.Calibration)); err != nil || !fi.IsDir() {
		return []board.KeyProblem{{Key: "calibration", Value: s.Calibration, Why: "its folder does not exist"}}
	}
	if fi, err := os.Stat(s.Calibration); err == nil && fi.IsDir() {
		return []board.KeyProblem{{Key: "calibration", Value: s.Calibration, Why: "is a folder, not a file"}}
	}
	return nil
}

// start makes the driver of the Certabo boards on the ports of s.
func start(s board.Setup) (board.Driver, error) {
	var file string
	if set, ok := s.Settings.(*Settings); ok {
		file = set.Calibration
	}
	cfg := certabo.DriverConfig{CalibrationFile: file,
		Config: eboard.Config{Scan: s.Scan, Now: s.Now, Handler: s.Handler, Raw: s.Raw, Logger: s.Logger}}
	cfg.Paths, cfg.Globs = eboard.PortsOf(s.Ports)
	return certabo.New(cfg)
}

// simulate makes a Certabo board on a pseudo-terminal, its link
// Dir/certabo-<index>, its set calibrated before the first game as an
// arbiter does (the start position with the spare queens on d3 and d6,
// then with the other spares), and its people.
func simulate(c board.SimConfig) (board.Simulated, error) {
	if err := eboard.FitsChess(c.Game, "a Certabo board"); err != nil {
		return nil, err
	}
	b := sim.NewBoard(sim.Config{Chip: byte(c.Index), Seed: c.Seed*1000 + c.Number, Faults: sim.Faults{
		Junk: c.Faults, Misread: c.Faults / 5, Drop: c.Faults / 2, Cut: c.Faults / 2}})
	name := fmt.Sprintf("certabo-%d", c.Index)
	line, err := emu.Attach(filepath.Join(c.Dir, name), b)
	if err != nil {
		return nil, fmt.Errorf("simulated Certabo board %d: %w", c.Index, err)
	}
	speed := max(c.Speed, 1)
	calibrate := func(ctx context.Context) error {
		// Five frames of each, and the two the filter wants first.
		b.SetUpCalibration()
		if err := emu.Sleep(ctx, 10*b.ScanPeriod()); err != nil {
			return err
		}
		b.SetUpSpares(chess.Start().View())
		return emu.Sleep(ctx, 10*b.ScanPeriod())
	}
	return emu.NewSeat(emu.SeatConfig{
		ID: certabo.IDPrefix + eboard.PortName(name), Line: line, Board: b, Prepare: calibrate,
		Player: &emu.Player{Board: b, Rng: rand.New(rand.NewPCG(c.Seed, c.Number+1)), Carry: true, Slide: 0.2,
			Step: max(time.Duration(float64(40*time.Millisecond)/speed), time.Millisecond)},
		// A board that sends three frames a second wants a second between
		// two players' moves, however fast the demo plays.
		Think: [2]time.Duration{max(time.Duration(float64(2*time.Second)/speed), 1200*time.Millisecond),
			max(time.Duration(float64(20*time.Second)/speed), 2*time.Second)},
	}), nil
}
