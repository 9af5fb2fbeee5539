package kvaa

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

func TestCells(t *testing.T) {
	// 2.3: index order and regions.
	names := "a1 c1 e1 b2 d2 a3 c3 e3 b4 d4 a5 c5 e5"
	border := "a1 c1 e1 a3 e3 a5 c5 e5"
	var gotNames, gotBorder []string
	for c := range Cell(NumCells) {
		gotNames = append(gotNames, c.String())
		if c.Border() {
			gotBorder = append(gotBorder, c.String())
		}
		p, err := ParseCell(c.String())
		require.NoError(t, err)
		assert.Equal(t, c, p)
		f, r := c.Coords()
		assert.Equal(t, c, cellAt(f, r))
		assert.Equal(t, refCells[c].name, c.String())
	}
	assert.Equal(t, names, strings.Join(gotNames, " "))
	assert.Equal(t, border, strings.Join(gotBorder, " "))
	assert.Equal(t, "-", NoCell.String())
	for _, bad := range []string{"b1", "a2", "f1", "a6", "", "A1", "c33"} {
		_, err := ParseCell(bad)
		assert.Error(t, err, bad)
	}
	g := Geometry()
	assert.Equal(t, NumCells, g.Len())
	assert.Equal(t, 5, g.Width())
	assert.False(t, g.Rectangular())
	assert.Equal(t, ZoneReserveSouth, g.Zone(rules.Reserve, rules.First))
	assert.Equal(t, ZoneReserveNorth, g.Zone(rules.Reserve, rules.Second))
	assert.Equal(t, ZoneCapturedSouth, g.Zone(rules.Captured, rules.First))
	assert.Equal(t, ZoneCapturedNorth, g.Zone(rules.Captured, rules.Second))
}

func TestLinkTable(t *testing.T) {
	// Every link of the table has the class the coordinates give it, and
	// every neighbouring pair is in the table once (2.7).
	counts := map[Class]int{}
	seen := map[[2]Cell]bool{}
	for _, l := range links {
		assert.Equal(t, l.class.String(), refClass(int(l.a), int(l.b)), "%s-%s", l.a, l.b)
		k := [2]Cell{min(l.a, l.b), max(l.a, l.b)}
		assert.False(t, seen[k], "link %s-%s twice", l.a, l.b)
		seen[k] = true
		counts[l.class]++
	}
	for a := range Cell(NumCells) {
		for b := a + 1; b < NumCells; b++ {
			assert.Equal(t, refClass(int(a), int(b)) != "", seen[[2]Cell{a, b}], "%s-%s", a, b)
		}
	}
	assert.Equal(t, map[Class]int{Diagonal: 16, Ring: 8, Spoke: 4, Inner: 4}, counts)
}

func TestNeighbourTables(t *testing.T) {
	// The neighbour lists of 2.8, cells in index order.
	spec := map[Scheme]string{
		R2: "b2|b2 d2|d2|a1 c1 a3 c3|c1 e1 c3 e3|b2 b4|b2 d2 b4 d4|d2 d4|a3 c3 a5 c5|c3 e3 c5 e5|b4|b4 d4|d4",
		R3: "b2|b2 d2|d2|a1 c1 d2 a3 c3 b4|c1 e1 b2 c3 e3 d4|b2 b4|b2 d2 b4 d4|d2 d4|b2 a3 c3 d4 a5 c5|d2 c3 e3 b4 c5 e5|b4|b4 d4|d4",
		R7: "c1 b2 a3|a1 e1 b2 d2|c1 d2 e3|a1 c1 a3 c3|c1 e1 c3 e3|a1 b2 b4 a5|b2 d2 b4 d4|e1 d2 d4 e5|a3 c3 a5 c5|c3 e3 c5 e5|a3 b4 c5|b4 d4 a5 e5|e3 d4 c5",
		R4: "c1 b2 a3|a1 e1 b2 d2 c3|c1 d2 e3|a1 c1 a3 c3|c1 e1 c3 e3|a1 b2 c3 b4 a5|c1 b2 d2 a3 e3 b4 d4 c5|e1 d2 c3 d4 e5|a3 c3 a5 c5|c3 e3 c5 e5|a3 b4 c5|c3 b4 d4 a5 e5|e3 d4 c5",
		R5: "c1 b2 a3|a1 e1 b2 d2 c3|c1 d2 e3|a1 c1 d2 a3 c3 b4|c1 e1 b2 c3 e3 d4|a1 b2 c3 b4 a5|c1 b2 d2 a3 e3 b4 d4 c5|e1 d2 c3 d4 e5|b2 a3 c3 d4 a5 c5|d2 c3 e3 b4 c5 e5|a3 b4 c5|c3 b4 d4 a5 e5|e3 d4 c5",
	}
	wantLinks := map[Scheme]int{R2: 16, R3: 20, R7: 24, R4: 28, R5: 32}
	for s, table := range spec {
		t.Run(s.String(), func(t *testing.T) {
			rows := strings.Split(table, "|")
			require.Len(t, rows, NumCells)
			n := 0
			for c := range Cell(NumCells) {
				var got []string
				for _, x := range s.Neighbours(c) {
					got = append(got, x.String())
				}
				assert.Equal(t, sorted(strings.Fields(rows[c])), sorted(got), "cell %s", c)
				n += len(got)
			}
			assert.Equal(t, wantLinks[s], n/2)
		})
	}
}

func TestJumpTables(t *testing.T) {
	want := map[Scheme]int{R2: 20, R3: 20, R7: 28, R4: 32, R5: 32}
	for s := range Scheme(allSchemes) {
		t.Run(s.String(), func(t *testing.T) {
			if n, ok := want[s]; ok {
				assert.Equal(t, n, s.Jumps())
			}
			// D-5: a jump exists iff both halves are allowed links on one
			// straight line; derived here from the coordinates.
			rr := refRulesOf(Config{Scheme: s})
			var ref, got []string
			for a := range NumCells {
				for m := range NumCells {
					if !rr.allowed(a, m) {
						continue
					}
					b := refIndex(2*refCells[m].f-refCells[a].f, 2*refCells[m].r-refCells[a].r)
					if b >= 0 && rr.allowed(m, b) {
						ref = append(ref, fmt.Sprintf("%s %s %s", refCells[a].name, refCells[m].name, refCells[b].name))
					}
				}
			}
			for a, js := range s.tables().jumps {
				for _, j := range js {
					got = append(got, fmt.Sprintf("%s %s %s", Cell(a), j.mid, j.to))
				}
			}
			slices.Sort(ref)
			slices.Sort(got)
			assert.Equal(t, ref, got)
		})
	}
}

func TestParseScheme(t *testing.T) {
	tests := []struct {
		in   string
		want Scheme
		out  string
	}{
		{"R2", R2, "R2"},
		{"R3", R3, "R3"},
		{"R4", R4, "R4"},
		{"R5", R5, "R5"},
		{"R7", R7, "R7"},
		{"r.5", R5, "R5"},
		{"R3+R7", classBit(Inner) | classBit(Ring), "D+RING+INNER"},
		{"R4+R3", R5, "R5"},
		{"R2+R7", R7, "R7"},
		{"D", R2, "R2"},
		{"D+RING+INNER", classBit(Ring) | classBit(Inner), "D+RING+INNER"},
		{"D+SPOKE", classBit(Spoke), "D+SPOKE"},
		{"D+SPOKE+INNER", classBit(Spoke) | classBit(Inner), "D+SPOKE+INNER"},
		{"RING+SPOKE", R4, "R4"},
		{" R7 ", R7, "R7"},
	}
	for _, tc := range tests {
		got, err := ParseScheme(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		assert.Equal(t, tc.out, got.String(), tc.in)
	}
	for s := range Scheme(allSchemes) {
		back, err := ParseScheme(s.String())
		require.NoError(t, err)
		assert.Equal(t, s, back)
	}
	for _, bad := range []string{"", "R6", "R2+", "+R2", "DIAG", "R2,R3"} {
		_, err := ParseScheme(bad)
		assert.Error(t, err, bad)
	}
}
