package matching

import (
	"slices"
	"unsafe"
)

// weightPool stores distinct weights once and hands out small ids for
// them, counting references. The caller's edge weights are made of a few
// hundred bit fields but take few distinct values (they depend on a few
// classes of the two vertices, and a nudge per vertex), so an id per edge
// is far smaller than a weight per edge: the dense matrix of a
// 2,000-vertex graph would otherwise take hundreds of megabytes. Id 0 is
// the zero weight, which is not counted.
type weightPool struct {
	words int
	// data holds entry id at words*id. It is reallocated as it grows;
	// the index's keys alias the array current when they were added,
	// which is never written again once replaced, and a live entry is
	// never written at all, so the keys stay valid.
	data []uint64
	refs []int32
	free []uint32
	// idle lists the ids whose count fell to zero but that stay indexed
	// (isIdle marks them): the engine often sets an edge back to a
	// weight it just dropped, and finding it again is cheaper than
	// forgetting and re-adding it. They are freed when an id is needed.
	idle   []uint32
	isIdle []bool
	index  map[string]uint32
}

func newWeightPool(words int) *weightPool {
	p := &weightPool{words: words, index: map[string]uint32{}}
	p.refs = append(p.refs, 0) // id 0: the zero weight
	p.isIdle = append(p.isIdle, false)
	p.data = make([]uint64, words, 1024*words)
	return p
}

// get returns the weight with the given id; the caller must not modify it.
func (p *weightPool) get(id uint32) Weight {
	o := uint(id) * uint(p.words)
	return p.data[o : o+uint(p.words) : o+uint(p.words)]
}

// key views w's words as a string for the index, without copying.
func key(w Weight) string {
	return unsafe.String((*byte)(unsafe.Pointer(unsafe.SliceData(w))), len(w)*8)
}

// acquire returns the id of x, adding it if needed, and counts a
// reference to it.
func (p *weightPool) acquire(x Weight) uint32 {
	if x.IsZero() {
		return 0
	}
	if id, ok := p.index[key(x)]; ok {
		p.refs[id]++
		return id
	}
	if len(p.free) == 0 && len(p.idle) > 0 {
		p.sweep()
	}
	var id uint32
	if n := len(p.free); n > 0 {
		id = p.free[n-1]
		p.free = p.free[:n-1]
	} else {
		id = uint32(len(p.refs))
		p.refs = append(p.refs, 0)
		p.isIdle = append(p.isIdle, false)
		p.data = slices.Grow(p.data, p.words)[:len(p.data)+p.words]
	}
	w := p.get(id)
	copy(w, x)
	p.refs[id] = 1
	p.index[key(w)] = id
	return id
}

// ref counts another reference to id, which must be referenced already
// (or be 0).
func (p *weightPool) ref(id uint32) {
	if id != 0 {
		p.refs[id]++
	}
}

// Release drops a reference to id; the weight is forgotten by a later
// sweep if nothing acquires it again before.
func (p *weightPool) release(id uint32) {
	if id == 0 {
		return
	}
	p.refs[id]--
	if p.refs[id] == 0 && !p.isIdle[id] {
		p.isIdle[id] = true
		p.idle = append(p.idle, id)
	}
}

// sweep forgets the idle weights that are still unreferenced and frees
// their ids.
func (p *weightPool) sweep() {
	for _, id := range p.idle {
		p.isIdle[id] = false
		if p.refs[id] == 0 {
			delete(p.index, key(p.get(id)))
			p.free = append(p.free, id)
		}
	}
	p.idle = p.idle[:0]
}
