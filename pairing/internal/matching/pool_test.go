package matching

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWeightPool checks that equal weights share an id, that ids are
// recycled once released, and that zero is id 0.
func TestWeightPool(t *testing.T) {
	p := newWeightPool(2)
	a := Weight{1, 2}
	require.Equal(t, uint32(0), p.acquire(NewWeight(2)))
	ida := p.acquire(a)
	require.NotZero(t, ida)
	require.Equal(t, ida, p.acquire(Weight{1, 2}))
	idb := p.acquire(Weight{3, 0})
	require.NotEqual(t, ida, idb)
	require.Equal(t, Weight{1, 2}, p.get(ida))
	p.release(ida)
	require.Equal(t, Weight{1, 2}, p.get(ida), "one reference is left")
	p.release(ida)
	idc := p.acquire(Weight{5, 5})
	require.Equal(t, ida, idc, "a released id is reused")
	require.Equal(t, Weight{5, 5}, p.get(idc))
	require.Equal(t, Weight{3, 0}, p.get(idb))
	// Many distinct weights make the storage grow several times; the
	// index must still find the early ones, and forget released ones.
	ids := map[uint32]bool{}
	byValue := map[uint64]uint32{}
	for i := range 5000 {
		id := p.acquire(Weight{uint64(i) + 100, 1})
		require.False(t, ids[id])
		ids[id] = true
		byValue[uint64(i)+100] = id
	}
	for v, id := range byValue {
		require.Equal(t, id, p.acquire(Weight{v, 1}))
		require.Equal(t, Weight{v, 1}, p.get(id))
	}
	for v, id := range byValue {
		p.release(id)
		p.release(id)
		require.Equal(t, Weight{3, 0}, p.get(idb))
		again := p.acquire(Weight{v, 2})
		require.Equal(t, id, again, "a released id is reused")
		require.Equal(t, Weight{v, 2}, p.get(again))
	}
	require.Equal(t, byValue[150], p.acquire(Weight{150, 2}))
	// A weight released and acquired again keeps its id, and is not
	// freed by a later sweep.
	x := p.acquire(Weight{7, 7})
	p.release(x)
	require.Equal(t, x, p.acquire(Weight{7, 7}))
	p.release(x)
	p.release(p.acquire(Weight{9, 9}))
	require.Equal(t, x, p.acquire(Weight{7, 7}))
	y := p.acquire(Weight{8, 8})
	require.NotEqual(t, x, y)
	require.Equal(t, Weight{7, 7}, p.get(x))
	require.Equal(t, Weight{8, 8}, p.get(y))
	require.Equal(t, x, p.acquire(Weight{7, 7}))
}
