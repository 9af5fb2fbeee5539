package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"arbiter/board"
	"arbiter/hardware/sensorboard"
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
