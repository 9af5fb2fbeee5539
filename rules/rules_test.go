package rules_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

func TestRectGeometry(t *testing.T) {
	tests := []struct {
		w, h   int
		f, r   int
		sq     rules.Square
		name   string
		length int
	}{
		{8, 8, 0, 0, 0, "a1", 64},
		{8, 8, 4, 3, 28, "e4", 64},
		{8, 8, 7, 7, 63, "h8", 64},
		{9, 9, 8, 8, 80, "i9", 81},
		{10, 8, 9, 0, 9, "j1", 80},
		{10, 8, 0, 1, 10, "a2", 80},
	}
	for _, tt := range tests {
		g := rules.NewRect(tt.w, tt.h)
		assert.Equal(t, tt.length, g.Len())
		assert.True(t, g.Rectangular())
		assert.Equal(t, tt.sq, g.Square(tt.f, tt.r), "%dx%d (%d,%d)", tt.w, tt.h, tt.f, tt.r)
		assert.Equal(t, tt.name, g.Name(tt.sq))
		f, r := g.Coords(tt.sq)
		assert.Equal(t, [2]int{tt.f, tt.r}, [2]int{f, r})
		sq, ok := g.Lookup(tt.name)
		assert.True(t, ok)
		assert.Equal(t, tt.sq, sq)
	}
	g := rules.NewRect(8, 8)
	assert.Equal(t, rules.NoSquare, g.Square(8, 0))
	assert.Equal(t, rules.NoSquare, g.Square(-1, 3))
	assert.Equal(t, "-", g.Name(rules.NoSquare))
	_, ok := g.Lookup("i1")
	assert.False(t, ok)
}

// The Kvaa board: the 13 cells of a 5x5 grid with f+r even, rank by rank.
func TestGraphGeometry(t *testing.T) {
	var cells [][2]int
	for r := range 5 {
		for f := range 5 {
			if (f+r)%2 == 0 {
				cells = append(cells, [2]int{f, r})
			}
		}
	}
	g := rules.NewGrid(5, 5, cells,
		rules.Zone{Name: "reserve-south", Kind: rules.Reserve, Owner: rules.First},
		rules.Zone{Name: "reserve-north", Kind: rules.Reserve, Owner: rules.Second})
	require.Equal(t, 13, g.Len())
	assert.False(t, g.Rectangular())
	names := make([]string, g.Len())
	for i := range names {
		names[i] = g.Name(rules.Square(i))
	}
	assert.Equal(t, []string{"a1", "c1", "e1", "b2", "d2", "a3", "c3", "e3", "b4", "d4", "a5", "c5", "e5"}, names)
	assert.Equal(t, rules.NoSquare, g.Square(1, 0), "b1 is not a cell")
	assert.Equal(t, rules.Square(6), g.Square(2, 2))
	assert.Equal(t, 1, g.Zone(rules.Reserve, rules.Second))
	assert.Equal(t, -1, g.Zone(rules.Hand, rules.First))
}

func TestGridPanicsOnDuplicateCell(t *testing.T) {
	assert.Panics(t, func() { rules.NewGrid(2, 2, [][2]int{{0, 0}, {0, 0}}) })
	assert.Panics(t, func() { rules.NewGrid(2, 2, [][2]int{{2, 0}}) })
}

func TestColor(t *testing.T) {
	assert.Equal(t, rules.Second, rules.First.Other())
	assert.Equal(t, rules.First, rules.Black.Other())
	assert.Equal(t, "first", rules.White.String())
	assert.False(t, rules.Color(2).Valid())
}

func TestOutcome(t *testing.T) {
	assert.False(t, rules.Outcome{}.Over())
	assert.Equal(t, "*", rules.Outcome{}.String())
	o := rules.Loss(rules.White, rules.Time)
	assert.Equal(t, "0-1 time", o.String())
	w, ok := o.Winner()
	assert.True(t, ok)
	assert.Equal(t, rules.Black, w)
	_, ok = rules.Draw(rules.Stalemate).Winner()
	assert.False(t, ok)
	for r := rules.NoReason; r <= rules.Forfeit; r++ {
		back, ok := rules.ParseReason(r.String())
		assert.True(t, ok, r.String())
		assert.Equal(t, r, back)
	}
	_, ok = rules.ParseReason("nonsense")
	assert.False(t, ok)
	for r := rules.Ongoing; r <= rules.Drawn; r++ {
		back, ok := rules.ParseResult(r.String())
		assert.True(t, ok, r.String())
		assert.Equal(t, r, back)
	}
	for _, bad := range []string{"", "1:0", "draw", "½-½"} {
		_, ok := rules.ParseResult(bad)
		assert.False(t, ok, bad)
	}
	for _, c := range []rules.Color{rules.First, rules.Second} {
		back, ok := rules.ParseColor(c.String())
		assert.True(t, ok, c.String())
		assert.Equal(t, c, back)
	}
	for _, bad := range []string{"", "white", "invalid color", "First"} {
		_, ok := rules.ParseColor(bad)
		assert.False(t, ok, bad)
	}
}

func TestOptions(t *testing.T) {
	o, err := rules.ParseOptions(" placement=4.5.1.2 , capture=compulsory")
	require.NoError(t, err)
	assert.Equal(t, "capture=compulsory,placement=4.5.1.2", o.String())
	back, err := rules.ParseOptions(o.String())
	require.NoError(t, err)
	assert.Equal(t, o, back)

	for _, bad := range []string{"capture", "=x", "a=1,a=2"} {
		_, err := rules.ParseOptions(bad)
		assert.Error(t, err, bad)
	}
	empty, err := rules.ParseOptions("")
	require.NoError(t, err)
	assert.Empty(t, empty)
}

func TestView(t *testing.T) {
	g := rules.NewRect(2, 1, rules.Zone{Name: "hand-first", Kind: rules.Hand, Owner: rules.First})
	v := rules.NewView(g)
	p := rules.Piece{Color: rules.First, Kind: 'P', Mark: 'H'}
	q := rules.Piece{Color: rules.Second, Kind: 'S', Face: rules.Back}
	v.Stacks[0] = []rules.Piece{p, q}
	v.Zones[0] = []rules.Piece{{Kind: 'R'}, {Kind: 'B'}}
	v.SortZones()
	assert.Equal(t, rules.Kind('B'), v.Zones[0][0].Kind)
	assert.Equal(t, 2, v.Height(0))
	top, ok := v.Top(0)
	assert.True(t, ok)
	assert.Equal(t, q, top)
	_, ok = v.Top(1)
	assert.False(t, ok)
	assert.Equal(t, []int{2, 0}, v.Heights(nil))
	assert.Equal(t, 2, v.Total())
	assert.Equal(t, "a1: P(H) s+\nhand-first: B R\n", v.Format(g))

	w := v.Clone()
	assert.True(t, v.Equal(w))
	w.Stacks[0][0].Mark = 'Q'
	assert.False(t, v.Equal(w), "clone must be deep")
	assert.Equal(t, []rules.Square{0}, v.Changed(w, nil))
	w = v.Clone()
	w.Zones[0] = w.Zones[0][:1]
	assert.False(t, v.Equal(w))
	assert.Empty(t, v.Changed(w, nil), "zones are not squares")
}

type fakeMove int

func (fakeMove) From() rules.Square { return rules.NoSquare }
func (fakeMove) To() rules.Square   { return rules.NoSquare }
func (fakeMove) String() string     { return "m" }

func TestAdapters(t *testing.T) {
	ms := rules.MoveList([]fakeMove{1, 2})
	require.Len(t, ms, 2)
	assert.Equal(t, fakeMove(2), ms[1])

	var nilPos *countPos
	p, err := rules.Played(nilPos, assert.AnError)
	assert.Nil(t, p, "an error gives a nil interface, not a typed nil")
	assert.ErrorIs(t, err, assert.AnError)
	p, err = rules.Played(&countPos{}, nil)
	require.NoError(t, err)
	assert.NotNil(t, p)
}

// countPos is a minimal position for the adapter test.
type countPos struct{ counter }

func TestSensorOrder(t *testing.T) {
	g := rules.NewRect(9, 9)
	assert.Equal(t, rules.Square(5), g.SensorSquare(5), "the same by default")
	assert.Equal(t, 5, g.SensorIndex(5))
	assert.Equal(t, rules.NoSquare, g.SensorSquare(81))

	r := g.WithSensorRanksReversed()
	// Sensor 0 is the first player's near-left corner: row 8 of a game
	// whose row 0 is the far side.
	assert.Equal(t, g.Square(0, 8), r.SensorSquare(0))
	assert.Equal(t, g.Square(3, 0), r.SensorSquare(8*9+3))
	for i := range 81 {
		assert.Equal(t, i, r.SensorIndex(r.SensorSquare(i)))
	}
	assert.Equal(t, g.Name(4), r.Name(4), "names do not change")
	assert.Equal(t, 0, g.SensorIndex(0), "the original is untouched")
}
