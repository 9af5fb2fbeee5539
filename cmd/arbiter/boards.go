package main

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"arbiter/hardware/sensorboard"
)

func newPortsCmd() *cobra.Command {
	var (
		paths, globs []string
		baud         int
		timeout      time.Duration
	)
	cmd := &cobra.Command{
		Use:   "ports [--path DEV]... [--glob PATTERN]...",
		Short: "List serial ports and the sensor boards that answer the handshake",
		Long: `ports lists the machine's serial ports, and any named with --path or --glob
(pseudo-terminals, such as simulated boards, are not listed by the system),
and asks each for the board handshake. Do not run it while the daemon runs:
it would talk to the daemon's boards.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
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
	return cmd
}
