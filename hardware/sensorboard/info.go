package sensorboard

import (
	"arbiter/board"
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
