package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"arbiter/board"
	"arbiter/hardware/dgt"
)

// defaultProbeTimeout bounds a probe without a timeout of its own.
const defaultProbeTimeout = 2 * time.Second

// probePort opens the port at path for a probe of at most cfg.Timeout:
// the returned context ends then, and closing the port with it ends a
// blocked read.
func probePort(ctx context.Context, path string, cfg board.ProbeConfig) (io.ReadWriteCloser, context.Context, func(), error) {
	port, err := dgt.OpenSerial(path)
	if err != nil {
		return nil, nil, nil, err
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = defaultProbeTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	stop := context.AfterFunc(ctx, func() { port.Close() })
	return port, ctx, func() { stop(); cancel(); port.Close() }, nil
}

// info is what a DGT board's handshake says in board's terms, as the
// driver's hello gives it.
func info(id string, v dgt.Version, caps board.Caps) board.Info {
	return board.Info{ID: id, Firmware: fmt.Sprintf("DGT %d.%d", v.Major, v.Minor), Protocol: Protocol, Caps: caps,
		MaxHeight: 1, Width: 8, Height: 8, Cells: 64}
}

// probeSingle asks the DGT board at path for its serial number and
// version, as the host session does when it starts.
func probeSingle(ctx context.Context, path string, cfg board.ProbeConfig) ([]board.Info, error) {
	port, ctx, done, err := probePort(ctx, path, cfg)
	if err != nil {
		return nil, err
	}
	defer done()
	if _, err := port.Write([]byte{dgt.CmdReset, dgt.CmdSerialNr, dgt.CmdVersion}); err != nil {
		return nil, fmt.Errorf("dgt: write to %s: %w", path, err)
	}
	var (
		dec     dgt.Decoder
		serial  string
		version *dgt.Version
		pending []byte
		buf     = make([]byte, 256)
	)
	for serial == "" || version == nil {
		n, err := port.Read(buf)
		pending = append(pending, buf[:n]...)
		for len(pending) > 0 {
			k, m, derr := dec.Decode(pending)
			if errors.Is(derr, dgt.ErrIncomplete) {
				break
			}
			pending = pending[k:]
			if derr != nil {
				continue
			}
			switch v, _ := dgt.Parse(m); v := v.(type) {
			case *dgt.SerialNr:
				serial = v.Serial
			case *dgt.Version:
				version = v
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("%s: no DGT board told its serial number and version in time", path)
			}
			return nil, fmt.Errorf("dgt: read %s: %w", path, err)
		}
	}
	return []board.Info{info(IDPrefix+serial, *version, Caps)}, nil
}

// probeBus finds the boards of the bus line at path by DGT's ping and
// asks each for its version.
func probeBus(ctx context.Context, path string, cfg board.ProbeConfig) ([]board.Info, error) {
	port, ctx, done, err := probePort(ctx, path, cfg)
	if err != nil {
		return nil, err
	}
	defer done()
	bus, err := dgt.NewBus(port, dgt.BusConfig{})
	if err != nil {
		return nil, err
	}
	addrs, err := bus.Discover(ctx, nil)
	if err != nil && len(addrs) == 0 {
		return nil, fmt.Errorf("%s: no DGT board on the line answered the ping: %w", path, err)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("%s: no DGT board on the line answered the ping", path)
	}
	out := make([]board.Info, 0, len(addrs))
	for _, a := range addrs {
		v, err := bus.Version(ctx, a)
		if err != nil {
			return out, fmt.Errorf("%s: board at bus address %d: %w", path, a, err)
		}
		i := info(busID(a), v, BusCaps)
		i.Protocol = BusProtocol
		out = append(out, i)
	}
	return out, nil
}
