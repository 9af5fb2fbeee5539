package main

import (
	"fmt"
	"log/slog"
	"time"

	"arbiter/board"
	"arbiter/internal/config"
	"arbiter/replay"
	"arbiter/store"
)

// configuredPorts returns the configuration's boards.ports by protocol,
// each protocol's in the file's order.
func configuredPorts(cfg *config.Config) map[string][]board.Port {
	out := map[string][]board.Port{}
	for _, p := range cfg.Boards.Ports {
		name := p.Protocol
		if proto, ok := board.Lookup(name); ok {
			name = proto.Name // "" is our boards'
		}
		out[name] = append(out[name], p.Board())
	}
	return out
}

// startDrivers starts, through its registration, the driver of every
// protocol with ports, in the registry's order: each feeds the director,
// writes its boards' bytes to the raw log under its protocol's name and
// keeps how it reads its boards with the event, so that "arbiter replay"
// reads their logs alike. With run, the drivers run and the director
// shows its messages through them.
func (s *daemon) startDrivers(ports map[string][]board.Port, run bool) error {
	for name := range ports {
		if _, ok := board.Lookup(name); !ok {
			return withCode(exitConfig, fmt.Errorf("boards.ports: no driver for board protocol %q (known: %v)", name, board.ProtocolNames()))
		}
	}
	var drivers board.Drivers
	for _, p := range board.Protocols() {
		if len(ports[p.Name]) == 0 {
			continue
		}
		drv, err := p.Start(board.Setup{Ports: ports[p.Name], Settings: s.cfg.Boards.SettingsOf(p.Name),
			Scan: s.cfg.Boards.Scan, Now: s.d.Now, Handler: func(e board.Event) { s.d.BoardEvent(s.dctx, e) },
			Raw: rawRecords(s.raw, p.Name, s.log), Logger: s.log.With("part", p.Name)})
		if err != nil {
			return withCode(exitConfig, err)
		}
		if v := drv.ReplaySetting(); v != nil {
			if err := s.db.PutSetting(replay.SettingKey(p.Name), v); err != nil {
				return fmt.Errorf("keep how %s boards are read: %w", p.Name, err)
			}
		}
		drivers = append(drivers, drv)
	}
	if !run {
		return nil
	}
	s.d.SetSender(drivers)
	for _, drv := range drivers {
		s.boards.Add(1)
		s.wg.Go(func() {
			defer s.boards.Done()
			_ = drv.Run(s.ctx)
		})
	}
	return nil
}

// rawRecords returns a driver's raw-log callback: each record goes to raw
// as a frame of protocol, and its number comes back.
func rawRecords(raw *store.RawLog, protocol string, log *slog.Logger) func(string, board.Record) uint64 {
	return func(id string, r board.Record) uint64 {
		seq, err := raw.AppendFrame(store.Frame{BoardID: id, HostNs: int64(r.Host), Wall: time.Now(), Data: r.Data,
			Protocol: protocol, Sent: r.Sent})
		if err != nil {
			log.Error("raw log", "board", id, "err", err)
			return 0
		}
		return seq
	}
}
