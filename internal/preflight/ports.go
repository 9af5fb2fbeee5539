package preflight

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"

	"go.bug.st/serial/enumerator"
	"golang.org/x/sys/unix"

	"arbiter/board"
	"arbiter/hardware/serialport"
	"arbiter/internal/config"
	"arbiter/rules"
)

// What to do about a port, by what is wrong with it.
const (
	// AdviceMissing: the device is not there.
	AdviceMissing = "Plug the board in and switch it on, and check the path: ls -l /dev/serial/by-id/ lists the USB serial " +
		"devices by name (a name there stays the same whatever the USB socket); a Bluetooth board is its /dev/rfcomm device, bound with rfcomm bind."
	// AdvicePermission: this user may not open the device.
	AdvicePermission = "Add the daemon's user to the dialout group (sudo usermod -aG dialout USER, then log in again) and install " +
		"the udev rule configs/70-arbiter-boards.rules (sudo cp configs/70-arbiter-boards.rules /etc/udev/rules.d/, then " +
		"sudo udevadm control --reload and sudo udevadm trigger); configs/arbiter.service runs the daemon in dialout."
	// AdviceSilent: the port opens and nothing answers.
	AdviceSilent = "Switch the board on and check its cable; check that the port's protocol (boards.ports[].protocol) is the " +
		"board's, and for our boards the speed (boards.baud)."
	// AdviceHeld: another program holds the port.
	AdviceHeld = "Stop the program named (a terminal program, ModemManager, another daemon of arbiter), or take the port " +
		"out of boards.ports; configs/70-arbiter-boards.rules keeps ModemManager off the boards."
)

// Device says what keeps this process from the serial device at path,
// or returns "" when nothing does: it does not exist (a link of
// /dev/serial/by-id whose board is unplugged), it is no device (a file
// by mistake), or this user may not read and write it. It opens nothing:
// a running driver may hold the port.
func Device(path string) (problem, advice string) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "does not exist", AdviceMissing
		}
		return fmt.Sprintf("cannot be looked at: %v", err), AdviceMissing
	}
	if st.Mode()&fs.ModeCharDevice == 0 {
		return fmt.Sprintf("cannot be opened as a serial port: it is a %s, not a device", kindOf(st.Mode())),
			"Give the board's device: ls -l /dev/serial/by-id/ lists the USB serial devices by name."
	}
	if err := unix.Access(path, unix.R_OK|unix.W_OK); err != nil {
		who := "this user"
		if u, uerr := user.Current(); uerr == nil {
			who = "user " + u.Username
		}
		return fmt.Sprintf("cannot be opened: %s may not read and write it (%v)", who, err), AdvicePermission
	}
	return "", ""
}

// kindOf names what a file that is no device is.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "folder"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "block device"
	}
	return "regular file"
}

// PortName names a boards.ports entry: its path, its pattern, or its
// USB identity ("usb 2341:8036 serial 123").
func PortName(p config.Port) string {
	switch {
	case p.Path != "":
		return p.Path
	case p.Glob != "":
		return p.Glob
	}
	id := "usb " + orAny(p.USB.VID) + ":" + orAny(p.USB.PID)
	if p.USB.Serial != "" {
		id += " serial " + p.USB.Serial
	}
	return id
}

func orAny(s string) string {
	if s == "" {
		return "*"
	}
	return s
}

// Devices returns the devices a boards.ports entry finds now: its path,
// the paths its pattern matches, or the USB serial devices of its
// identity.
func Devices(p config.Port) ([]string, error) {
	switch {
	case p.Path != "":
		return []string{p.Path}, nil
	case p.Glob != "":
		return filepath.Glob(p.Glob)
	}
	details, err := enumerator.GetDetailedPortsList()
	if err != nil {
		return nil, fmt.Errorf("list the USB serial devices: %w", err)
	}
	var out []string
	for _, d := range details {
		if d.IsUSB && (p.USB.VID == "" || strings.EqualFold(p.USB.VID, d.VID)) &&
			(p.USB.PID == "" || strings.EqualFold(p.USB.PID, d.PID)) &&
			(p.USB.Serial == "" || p.USB.Serial == d.SerialNumber) {
			out = append(out, d.Name)
		}
	}
	slices.Sort(out)
	return out, nil
}

// Ports checks each configured port: that it exists and may be opened,
// and, unless the daemon serves the event (its drivers hold the ports),
// that no other program holds it and a board answers the handshake of
// the port's protocol; then who answered and where boards.assign (or the
// first tournament whose game it fits) sends it.
func Ports(ctx context.Context, in Input) []Finding {
	cfg := in.Config
	if in.Serving {
		return nil // the drivers' ports: Watch looks at them
	}
	if len(cfg.Boards.Ports) == 0 {
		f := Finding{Item: "boards.ports", Level: OK, Text: "no port configured: every game waits for its result (or its moves from the scoresheet) in the console"}
		if cfg.Demo.Enabled {
			f.Text = "no port configured: the demo's simulated boards play (demo.enabled)"
		}
		return []Finding{f}
	}
	var out []Finding
	for _, p := range cfg.Boards.Ports {
		proto, ok := board.Lookup(p.Protocol)
		if !ok {
			out = append(out, Finding{Item: PortName(p), Level: Error, Text: fmt.Sprintf("no driver for protocol %q", p.Protocol)})
			continue
		}
		paths, err := Devices(p)
		switch {
		case err != nil:
			out = append(out, Finding{Item: PortName(p), Level: Error, Text: err.Error()})
			continue
		case len(paths) == 0 && p.Glob != "":
			out = append(out, Finding{Item: PortName(p), Level: Warning, Text: "no device matches the pattern now", Advice: AdviceMissing})
			continue
		case len(paths) == 0:
			out = append(out, Finding{Item: PortName(p), Level: Warning, Text: "no USB serial device of this identity is plugged in now", Advice: AdviceMissing})
			continue
		}
		for _, path := range paths {
			out = append(out, probePort(ctx, in, proto, path)...)
		}
	}
	return out
}

// probePort checks one device of protocol proto.
func probePort(ctx context.Context, in Input, proto board.Protocol, path string) []Finding {
	if problem, advice := Device(path); problem != "" {
		return []Finding{{Item: path, Level: Error, Text: problem, Advice: advice}}
	}
	if proto.Probe == nil {
		return []Finding{{Item: path, Level: Warning, Text: fmt.Sprintf("%s: the protocol cannot be asked who answers; the device may be opened", proto.Name)}}
	}
	infos, err := proto.Probe(ctx, path, board.ProbeConfig{Timeout: in.timeout(), Settings: in.Config.Boards.SettingsOf(proto.Name)})
	var out []Finding
	for _, info := range infos {
		out = append(out, answered(in.Config, proto, path, info))
	}
	if err != nil {
		f := Finding{Item: path, Level: Error, Text: fmt.Sprintf("%s: %v", proto.Name, err), Advice: AdviceSilent}
		switch {
		case errors.Is(err, fs.ErrPermission):
			f.Advice = AdvicePermission
		case errors.Is(err, serialport.ErrHeld):
			f.Text, f.Advice = err.Error(), AdviceHeld
		case len(infos) == 0:
			f.Text = fmt.Sprintf("no board answered the %s handshake: %v", proto.Name, err)
		}
		out = append(out, f)
	}
	return out
}

// answered is the finding of a board that answered on path: who it is,
// what it senses, and where it goes.
func answered(cfg *config.Config, proto board.Protocol, path string, info board.Info) Finding {
	f := Finding{Item: path, Level: OK}
	f.Text = fmt.Sprintf("%s: board %s, firmware %s, %s", proto.Name, info.ID, info.Firmware, capsText(info))
	where, err := destination(cfg, info)
	if err != nil {
		f.Level, f.Advice = Warning, "Give it a tournament in boards.assign, or use it for another event."
		f.Text += "; " + err.Error()
		return f
	}
	f.Text += "; " + where
	return f
}

// destination says where the board goes: its table of boards.assign, or
// the first tournament whose game it fits, as the daemon adopts a board.
func destination(cfg *config.Config, info board.Info) (string, error) {
	for _, a := range cfg.Boards.Assign {
		if a.Board == info.ID {
			if a.Table > 0 {
				return fmt.Sprintf("boards.assign: %s, table %d", a.Tournament, a.Table), nil
			}
			return "boards.assign: " + a.Tournament, nil
		}
	}
	var why []string
	for _, t := range cfg.Tournaments {
		g, err := rules.NewFromText(t.Game, t.Options)
		if err != nil {
			continue
		}
		if info.Cells == 0 {
			return "not in boards.assign: takes a free table of " + t.Name, nil
		}
		if err := info.Fits(g.Geometry()); err != nil {
			why = append(why, fmt.Sprintf("%s (%s): %v", t.Name, t.Game, err))
			continue
		}
		return fmt.Sprintf("not in boards.assign: takes a free table of %s, the first tournament whose game it fits", t.Name), nil
	}
	if len(why) == 0 {
		return "", errors.New("no tournament to play on it")
	}
	return "", fmt.Errorf("fits no tournament's game: %s", strings.Join(why, "; "))
}

// capsText says what a board senses and shows.
func capsText(info board.Info) string {
	names := []struct {
		c    board.Caps
		name string
	}{
		{board.CapHeight, "stack heights"}, {board.CapIdentity, "piece identities"}, {board.CapColor, "colours"},
		{board.CapFace, "faces"}, {board.CapZoneCount, "tray counts"}, {board.CapZoneIdentity, "tray pieces"},
		{board.CapClockDisplay, "a clock display"}, {board.CapLights, "square lights"}, {board.CapText, "a text display"},
		{board.CapLog, "its own game log"},
	}
	var senses []string
	for _, n := range names {
		if info.Caps.Has(n.c) {
			senses = append(senses, n.name)
		}
	}
	geo := fmt.Sprintf("%dx%d", info.Width, info.Height)
	if info.Graph != "" {
		geo = info.Graph
	}
	if len(senses) == 0 {
		return geo + ", occupancy only"
	}
	return geo + ", " + strings.Join(senses, ", ")
}
