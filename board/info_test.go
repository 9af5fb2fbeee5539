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
	kvaa := rules.NewGrid(3, 3, [][2]int{{1, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 2}},
		rules.Zone{Name: "r1", Kind: rules.Reserve, Owner: rules.First}, rules.Zone{Name: "r2", Kind: rules.Reserve, Owner: rules.Second},
		rules.Zone{Name: "c1", Kind: rules.Captured, Owner: rules.First}, rules.Zone{Name: "c2", Kind: rules.Captured, Owner: rules.Second})
	reserves := []ZoneInfo{{rules.Reserve, rules.First}, {rules.Reserve, rules.Second}}
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
		// A board may sense some of the game's zones only (PROTOCOL
		// hello-kvaa: the reserve trays), in the game's order.
		{"reserve trays only", Info{ID: "b", Width: 3, Height: 3, Cells: 5, Graph: "plus", Zones: reserves}, kvaa, true},
		{"captured trays only", Info{ID: "b", Width: 3, Height: 3, Cells: 5, Graph: "plus", Zones: []ZoneInfo{{rules.Captured, rules.First}, {rules.Captured, rules.Second}}}, kvaa, true},
		{"reserves swapped", Info{ID: "b", Width: 3, Height: 3, Cells: 5, Graph: "plus", Zones: []ZoneInfo{reserves[1], reserves[0]}}, kvaa, false},
		{"a zone twice", Info{ID: "b", Width: 3, Height: 3, Cells: 5, Graph: "plus", Zones: []ZoneInfo{reserves[0], reserves[0]}}, kvaa, false},
		{"a hand on a Kvaa board", Info{ID: "b", Width: 3, Height: 3, Cells: 5, Graph: "plus", Zones: hands[:1]}, kvaa, false},
	}
	for _, tc := range tests {
		err := tc.h.Fits(tc.g)
		assert.Equal(t, tc.ok, err == nil, "%s: %v", tc.name, err)
	}
}

func TestInfoZoneMap(t *testing.T) {
	kvaa := rules.NewGrid(3, 3, [][2]int{{1, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 2}},
		rules.Zone{Name: "r1", Kind: rules.Reserve, Owner: rules.First}, rules.Zone{Name: "r2", Kind: rules.Reserve, Owner: rules.Second},
		rules.Zone{Name: "c1", Kind: rules.Captured, Owner: rules.First}, rules.Zone{Name: "c2", Kind: rules.Captured, Owner: rules.Second})
	h := Info{ID: "b", Zones: []ZoneInfo{{rules.Reserve, rules.Second}, {rules.Captured, rules.First}}}
	m, err := h.ZoneMap(kvaa)
	assert.NoError(t, err)
	assert.Equal(t, []int{1, 2}, m)
	m, err = (&Info{ID: "b"}).ZoneMap(kvaa)
	assert.NoError(t, err)
	assert.Empty(t, m)
}

// Fit picks the first text that fits a display, written shorter rather
// than cut.
func TestFit(t *testing.T) {
	long := "illegal move 1 by White: 3 pieces missing from e4 (a white knight), d5, f6"
	assert.Equal(t, "illegal move 1 by White: restore the lit squares", Fit(long, "illegal move 1 by White: restore the lit squares"))
	assert.Equal(t, "short", Fit("short", "shorter"))
	assert.Equal(t, "", Fit())
}
