package sensorboard

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"go.bug.st/serial"
	"go.bug.st/serial/enumerator"

	"arbiter/hardware/serialport"
)

// PortInfo is one port found by [ListPorts].
type PortInfo struct {
	Path         string
	IsUSB        bool
	VID, PID     string
	SerialNumber string
	// Hello is the board's handshake, or nil if the port did not answer.
	Hello *Hello
	// Err says why the port could not be probed or did not answer.
	Err error
}

// ErrNoHandshake means a port opened but sent no HELLO in time.
var ErrNoHandshake = errors.New("no handshake")

// ListPorts lists the system's serial ports and the ports the specs select
// (pseudo-terminals are never enumerated by the system, so simulated boards
// must be named in specs), and probes each in parallel: open, send
// HELLO_REQ, wait up to timeout for a HELLO. Ports held by a running
// daemon (or any other program) are not probed: their Err names the
// holder (a *serialport.HeldError).
func ListPorts(ctx context.Context, specs []PortSpec, baud int, timeout time.Duration) ([]PortInfo, error) {
	if baud == 0 {
		baud = 115200
	}
	details, err := enumerator.GetDetailedPortsList()
	if err != nil {
		return nil, fmt.Errorf("list serial ports: %w", err)
	}
	infos := map[string]*PortInfo{}
	for _, p := range details {
		infos[p.Name] = &PortInfo{Path: p.Name, IsUSB: p.IsUSB, VID: p.VID, PID: p.PID, SerialNumber: p.SerialNumber}
	}
	for _, p := range candidates(specs, slog.Default()) {
		if infos[p] == nil {
			infos[p] = &PortInfo{Path: p}
		}
	}
	var wg sync.WaitGroup
	for _, info := range infos {
		wg.Add(1)
		go func() {
			defer wg.Done()
			info.Hello, info.Err = Probe(ctx, info.Path, baud, timeout)
		}()
	}
	wg.Wait()
	out := make([]PortInfo, 0, len(infos))
	for _, info := range infos {
		out = append(out, *info)
	}
	slices.SortFunc(out, func(a, b PortInfo) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// Probe opens one port, asks for the handshake and returns it. A port
// another process holds (the daemon playing on it) is not touched: the
// error is a *serialport.HeldError naming the holder.
func Probe(ctx context.Context, path string, baud int, timeout time.Duration) (*Hello, error) {
	port, err := serialport.Open(path, serialport.Config{Mode: serial.Mode{BaudRate: baud}})
	if err != nil {
		return nil, err
	}
	defer port.Close()
	stop := context.AfterFunc(ctx, func() { port.Close() })
	defer stop()
	var enc Encoder
	dec := NewDecoder()
	buf := make([]byte, 1024)
	deadline := time.Now().Add(timeout)
	var asked time.Time
	for time.Now().Before(deadline) {
		if time.Since(asked) >= 300*time.Millisecond {
			if _, err := port.Write(enc.Append(nil, &HelloReqMsg{Major: VersionMajor, Minor: VersionMinor}, 0)); err != nil {
				return nil, fmt.Errorf("write to %s: %w", path, err)
			}
			asked = time.Now()
		}
		if err := port.SetReadDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
			return nil, fmt.Errorf("set read timeout on %s: %w", path, err)
		}
		n, err := port.Read(buf)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			continue // no data yet
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		p := buf[:n]
		for len(p) > 0 {
			k, f, err := dec.Decode(p)
			p = p[k:]
			if err != nil || f.Type != TypeHello {
				continue
			}
			h := new(Hello)
			if err := h.UnmarshalPayload(f.Payload); err != nil {
				return nil, fmt.Errorf("handshake on %s: %w", path, err)
			}
			return h, nil
		}
	}
	return nil, fmt.Errorf("%s: %w within %v", path, ErrNoHandshake, timeout)
}
