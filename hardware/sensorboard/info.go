package sensorboard

import (
	"arbiter/board"
	"arbiter/rules"
)

// Protocol is the name of this package's protocol in configurations and
// in the raw log (board.Info.Protocol).
const Protocol = board.ProtocolSensorboard

// Info returns what the handshake says of the board, without the wire's
// own facts (version, heartbeat interval).
func (h *Hello) Info() *board.Info {
	return &board.Info{
		ID: h.ID, Firmware: h.Firmware, Protocol: Protocol, Caps: h.Caps, MaxHeight: h.MaxHeight,
		Width: h.Width, Height: h.Height, Cells: h.Cells,
		Zones: h.Zones, Buttons: h.Buttons, Graph: h.Graph, Boot: h.Boot,
	}
}

// Fits reports whether a board with this handshake can play on geometry
// g ([board.Info.Fits]).
func (h *Hello) Fits(g *rules.Geometry) error { return h.Info().Fits(g) }
