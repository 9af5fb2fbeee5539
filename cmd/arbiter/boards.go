package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"arbiter/board"
	"arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
)

func newPortsCmd() *cobra.Command {
	var (
		paths, globs []string
		baud         int
		timeout      time.Duration
		protocol     string
	)
	cmd := &cobra.Command{
		Use:   "ports [--path DEV]... [--glob PATTERN]... [--protocol NAME]",
		Short: "List serial ports and the sensor boards that answer the handshake",
		Long: `ports lists the machine's serial ports, and any named with --path or --glob
(pseudo-terminals, such as simulated boards, are not listed by the system),
and asks each for the board handshake. Do not run it while the daemon runs:
it would talk to the daemon's boards. With --protocol, the ports named with
--path or --glob are asked for that protocol's handshake instead (a DGT,
Millennium or Certabo board).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if protocol != "" && protocol != board.ProtocolSensorboard {
				return probePorts(cmd, protocol, paths, globs, timeout)
			}
			var specs []sensorboard.PortSpec
			for _, p := range paths {
				specs = append(specs, sensorboard.PortSpec{Path: p})
			}
			for _, g := range globs {
				specs = append(specs, sensorboard.PortSpec{Glob: g})
			}
			infos, err := sensorboard.ListPorts(cmd.Context(), specs, baud, timeout)
			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 2, 4, 2, ' ', 0)
			fmt.Fprintln(w, "PORT\tUSB\tBOARD\tFIRMWARE\tGEOMETRY\tSTATUS")
			for _, p := range infos {
				usb := "-"
				if p.IsUSB {
					usb = p.VID + ":" + p.PID + " " + p.SerialNumber
				}
				if p.Hello == nil {
					status := "no board"
					if p.Err != nil {
						status = p.Err.Error()
					}
					fmt.Fprintf(w, "%s\t%s\t-\t-\t-\t%s\n", p.Path, usb, status)
					continue
				}
				h := p.Hello
				geo := fmt.Sprintf("%dx%d", h.Width, h.Height)
				if h.Graph != "" {
					geo = h.Graph
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\tprotocol %d.%d\n", p.Path, usb, h.ID, h.Firmware, geo, h.Major, h.Minor)
			}
			return w.Flush()
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&paths, "path", nil, "also probe this device")
	f.StringArrayVar(&globs, "glob", nil, "also probe the devices matching this pattern")
	f.IntVar(&baud, "baud", 115200, "serial speed")
	f.DurationVar(&timeout, "timeout", 2*time.Second, "how long to wait for each handshake")
	f.StringVar(&protocol, "protocol", "", "ask the --path and --glob ports for this protocol's handshake (dgt, millennium, certabo, ...)")
	return cmd
}

// probePorts asks the ports named by paths and globs for the handshake of
// a registered protocol, through its probe, and lists who answered.
func probePorts(cmd *cobra.Command, protocol string, paths, globs []string, timeout time.Duration) error {
	p, ok := board.Lookup(protocol)
	if !ok {
		return withCode(exitUsage, fmt.Errorf("--protocol %q: unknown protocol; known: %s", protocol, strings.Join(board.ProtocolNames(), ", ")))
	}
	if p.Probe == nil {
		return withCode(exitUsage, fmt.Errorf("--protocol %q: the protocol cannot be probed", protocol))
	}
	ports := append([]string(nil), paths...)
	for _, g := range globs {
		m, err := filepath.Glob(g)
		if err != nil {
			return withCode(exitUsage, fmt.Errorf("--glob %q: %w", g, err))
		}
		ports = append(ports, m...)
	}
	if len(ports) == 0 {
		return withCode(exitUsage, errors.New("--protocol needs the ports to ask: give --path or --glob"))
	}
	w := tabwriter.NewWriter(cmd.OutOrStdout(), 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "PORT\tBOARD\tFIRMWARE\tGEOMETRY\tSTATUS")
	for _, path := range ports {
		infos, err := p.Probe(cmd.Context(), path, board.ProbeConfig{Timeout: timeout})
		if err != nil {
			fmt.Fprintf(w, "%s\t-\t-\t-\t%v\n", path, err)
			continue
		}
		for _, i := range infos {
			fmt.Fprintf(w, "%s\t%s\t%s\t%dx%d\t%s\n", path, i.ID, i.Firmware, i.Width, i.Height, p.Title)
		}
	}
	return w.Flush()
}

func newSimulateCmd() *cobra.Command {
	var (
		game, options, id, link, capsText string
		games, plies                      int
		speed, faults                     float64
		seed                              uint64
	)
	cmd := &cobra.Command{
		Use:   "simulate --game NAME [--link PATH]",
		Short: "Run a simulated sensor board on a pseudo-terminal, playing random games",
		Long: `simulate creates a pseudo-terminal that speaks the sensor-board protocol
exactly as hardware does, and plays random legal games on it with human
timing: lifts and places, slides, touches, towers split, captures in either
order, drops, clock presses, and the faults asked for. Point a daemon at the
printed path (boards.ports: [{path: ...}]) to test it without hardware.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			g, err := gameFromFlags(game, options)
			if err != nil {
				return err
			}
			caps := board.CapHeight | board.CapClockDisplay | board.CapText
			for _, c := range strings.Split(capsText, "+") {
				switch c {
				case "heights", "":
				case "identity":
					caps |= board.CapIdentity | board.CapFace | board.CapColor
				case "zones":
					caps |= board.CapZoneCount
				default:
					return fmt.Errorf("%w: --caps %q: want heights, identity and/or zones joined by +", errUsage, c)
				}
			}
			if speed <= 0 {
				return fmt.Errorf("%w: --speed must be positive", errUsage)
			}
			b, err := sim.NewBoard(sim.Config{ID: id, Geometry: g.Geometry(), Graph: sim.GraphName(g), Caps: caps, Seed: seed,
				Faults: sim.LinkFaults(faults)}, sim.NewReal())
			if err != nil {
				return err
			}
			p, err := sim.Attach(b, link)
			if err != nil {
				return err
			}
			defer p.Close()
			fmt.Fprintf(cmd.OutOrStdout(), "board %s (%s) on %s\n", id, game, p.Path())
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			clk := sim.NewReal()
			r := sim.NewRunner(b, clk)
			r.Plug = p
			r.Human = sim.DefaultHuman.Scaled(speed)
			rng := rand.New(rand.NewPCG(seed, 1))
			for n := 0; games == 0 || n < games; n++ {
				start := g.Start()
				if n == 0 {
					b.Load(start.View()) // set up before it is switched on
				} else {
					// The pieces are set up again square by square, as
					// the board reports: a board re-set without a word
					// would show the host the last game's end (issue 18
					// §4).
					b.Arrange(start.View())
				}
				turns, err := sim.RandomGame(start, plies, rng)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "game %d: %d moves\n", n+1, len(turns))
				if err := r.Play(ctx, turns); err != nil {
					if ctx.Err() != nil {
						return nil
					}
					return err
				}
				// The players sit a moment after the game (and the host
				// reads its last frames before the board is unplugged).
				if err := rest(ctx, b, clk, time.Duration(float64(5*time.Second)/speed)); err != nil {
					return nil
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&game, "game", "tavreli", "game: "+strings.Join(rules.Games(), ", "))
	f.StringVar(&options, "options", "", "rule options, key=value,...")
	f.StringVar(&id, "id", "SIM-1", "the board id its handshake gives")
	f.StringVar(&link, "link", "", "also make this symbolic link to the pseudo-terminal")
	f.StringVar(&capsText, "caps", "heights", "what the board senses: heights, identity, zones (joined by +)")
	f.IntVar(&games, "games", 0, "games to play (0: until interrupted)")
	f.IntVar(&plies, "plies", 80, "moves per game at most")
	f.Float64Var(&speed, "speed", 1, "how much faster than a person to play")
	f.Float64Var(&faults, "faults", 0, "fault rate (0 to 1): dropped, corrupted and duplicated frames, bouncing sensors")
	f.Uint64Var(&seed, "seed", 1, "random seed")
	return cmd
}

// rest lets the players of a simulated board sit for d, the board sending
// its heartbeats meanwhile.
func rest(ctx context.Context, b *sim.Board, clk sim.Clock, d time.Duration) error {
	end := clk.Now() + d
	for now := clk.Now(); now < end; now = clk.Now() {
		if err := clk.SleepUntil(ctx, min(end, now+100*time.Millisecond)); err != nil {
			return err
		}
		b.Idle()
	}
	return nil
}
