package pairing

import "unsafe"

// weightPool stores distinct weights once and hands out small ids for
// them, counting references. A round's edge weights are made of a few
// hundred bit fields but take few distinct values (they depend on score
// groups, colour and float classes, and a nudge per player), so an id per
// edge is far smaller than a weight per edge: the dense matrix of a
// 2,000-player round would otherwise take hundreds of megabytes. Id 0 is
// the zero weight, which is not counted.
type weightPool struct {
	words  int
	chunks [][]uint64 // fixed-size slabs: entries never move, so map keys can alias them
	refs   []int32
	free   []uint32
	index  map[string]uint32
}

// poolChunk is the number of entries per slab.
const poolChunk = 1024

func newWeightPool(words int) *weightPool {
	p := &weightPool{words: words, index: map[string]uint32{}}
	p.refs = append(p.refs, 0) // id 0: the zero weight
	p.chunks = append(p.chunks, make([]uint64, poolChunk*words))
	return p
}

// get returns the weight with the given id; the caller must not modify it.
func (p *weightPool) get(id uint32) weight {
	c, o := int(id)/poolChunk, int(id)%poolChunk*p.words
	return p.chunks[c][o : o+p.words : o+p.words]
}

// key views w's words as a string for the index, without copying.
func key(w weight) string {
	return unsafe.String((*byte)(unsafe.Pointer(unsafe.SliceData(w))), len(w)*8)
}

// acquire returns the id of x, adding it if needed, and counts a
// reference to it.
func (p *weightPool) acquire(x weight) uint32 {
	if x.isZero() {
		return 0
	}
	if id, ok := p.index[key(x)]; ok {
		p.refs[id]++
		return id
	}
	var id uint32
	if n := len(p.free); n > 0 {
		id = p.free[n-1]
		p.free = p.free[:n-1]
	} else {
		id = uint32(len(p.refs))
		p.refs = append(p.refs, 0)
		if int(id)/poolChunk == len(p.chunks) {
			p.chunks = append(p.chunks, make([]uint64, poolChunk*p.words))
		}
	}
	w := p.get(id)
	copy(w, x)
	p.refs[id] = 1
	p.index[key(w)] = id
	return id
}

// release drops a reference to id, forgetting the weight when it was the
// last one.
func (p *weightPool) release(id uint32) {
	if id == 0 {
		return
	}
	p.refs[id]--
	if p.refs[id] == 0 {
		delete(p.index, key(p.get(id)))
		p.free = append(p.free, id)
	}
}
