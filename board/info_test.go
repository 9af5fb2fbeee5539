package board

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"arbiter/rules"
)

func TestSensor(t *testing.T) {
	wP := rules.Piece{Color: rules.First, Kind: 'P', Mark: 'H'}
	bS := rules.Piece{Color: rules.Second, Kind: 'S', Face: rules.Back}
	tower := []rules.Piece{wP, wP, bS}
	tests := []struct {
		name string
		s    Sensor
		in   []rules.Piece
		want SquareState
	}{
		{"empty", Sensor{Caps: CapHeight | CapIdentity}, nil, SquareState{}},
		{"occupancy", Sensor{}, tower, SquareState{Height: 1}},
		{"height", Sensor{Caps: CapHeight}, tower, SquareState{Height: 3}},
		{"saturated", Sensor{Caps: CapHeight, MaxHeight: 2}, tower, SquareState{Height: 2, Saturated: true}},
		{"kind only", Sensor{Caps: CapHeight | CapIdentity}, tower, SquareState{Height: 3, Top: Ident{true, rules.Piece{Kind: 'S'}}}},
		{"kind and face", Sensor{Caps: CapIdentity | CapFace}, tower, SquareState{Height: 1, Top: Ident{true, rules.Piece{Kind: 'S', Face: rules.Back}}}},
		{"everything", Sensor{Caps: CapHeight | CapIdentity | CapColor | CapFace}, []rules.Piece{bS, wP}, SquareState{Height: 2, Top: Ident{true, wP}}},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, tc.s.Square(tc.in), tc.name)
	}
}

func TestInfoFits(t *testing.T) {
	shogi := rules.NewRect(9, 9, rules.Zone{Name: "h1", Kind: rules.Hand, Owner: rules.First}, rules.Zone{Name: "h2", Kind: rules.Hand, Owner: rules.Second})
	kvaa := rules.NewGrid(3, 3, [][2]int{{1, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 2}})
	hands := []ZoneInfo{{rules.Hand, rules.First}, {rules.Hand, rules.Second}}
	tests := []struct {
		name string
		h    Info
		g    *rules.Geometry
		ok   bool
	}{
		{"shogi, no trays", Info{ID: "b", Width: 9, Height: 9, Cells: 81}, shogi, true},
		{"shogi with hands", Info{ID: "b", Width: 9, Height: 9, Cells: 81, Zones: hands}, shogi, true},
		{"hands swapped", Info{ID: "b", Width: 9, Height: 9, Cells: 81, Zones: []ZoneInfo{hands[1], hands[0]}}, shogi, false},
		{"chess board", Info{ID: "b", Width: 8, Height: 8, Cells: 64}, shogi, false},
		{"graph", Info{ID: "b", Width: 3, Height: 3, Cells: 5, Graph: "plus"}, kvaa, true},
		{"graph on a full grid", Info{ID: "b", Width: 3, Height: 3, Cells: 9}, kvaa, false},
	}
	for _, tc := range tests {
		err := tc.h.Fits(tc.g)
		assert.Equal(t, tc.ok, err == nil, "%s: %v", tc.name, err)
	}
}
