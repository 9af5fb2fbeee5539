package pairing

import "slices"

// meetings records who may meet whom this round under the absolute
// criteria, by places in d.sorted, one bit set per row: every pair but a
// few, those who met before (NoRematch) and those whose absolute colour
// preferences clash (AbsoluteColours; not in the last round when either is a
// topscorer). The cardinality matching walks the rows, and the weights of
// millions of pairs look a bit up instead of scanning a list.
type meetings struct {
	rows int
	bits []uint64
}

// setMeetings records who may meet whom among d.sorted.
func (d *dutch) setMeetings() {
	n := len(d.sorted)
	m := meetings{rows: (n + 63) / 64}
	m.bits = make([]uint64, n*m.rows)
	for i := range n {
		row := m.bits[i*m.rows : (i+1)*m.rows]
		for j := range row {
			row[j] = ^uint64(0)
		}
		if r := n % 64; r != 0 {
			row[m.rows-1] = 1<<uint(r) - 1
		}
		row[i/64] &^= 1 << uint(i%64)
	}
	// place[index] is the place of the player with that index, or -1
	// for one not paired this round.
	place := make([]int, len(d.s.players))
	for i := range place {
		place[i] = -1
	}
	for i, p := range d.sorted {
		p.place = i
		place[p.index] = i
	}
	// Players with the same absolute colour preference may not meet,
	// unless one is a topscorer in the last round (clashProne).
	var prone [3][]int // by colour preference
	for i, p := range d.sorted {
		for _, o := range p.forbidden {
			if j := place[o]; j >= 0 {
				m.forbid(i, j)
			}
		}
		if d.s.clashProne(p) {
			prone[p.colourPref] = append(prone[p.colourPref], i)
		}
	}
	for _, group := range prone {
		for k, i := range group {
			for _, j := range group[:k] {
				m.forbid(i, j)
			}
		}
	}
	d.meet = m
}

func (m meetings) forbid(i, j int) {
	m.bits[i*m.rows+j/64] &^= 1 << uint(j%64)
	m.bits[j*m.rows+i/64] &^= 1 << uint(i%64)
}

// may reports whether the players at places i and j may meet.
func (m meetings) may(i, j int) bool {
	return m.bits[i*m.rows+j/64]&(1<<uint(j%64)) != 0
}

// withoutEdgesAcross returns a copy of the bits of the n players without
// the edges between the places before k and the places from k on.
func (m meetings) withoutEdgesAcross(n, k int) []uint64 {
	split := slices.Clone(m.bits)
	for i := range n {
		row := split[i*m.rows : (i+1)*m.rows]
		for j := range n {
			if (i < k) != (j < k) {
				row[j/64] &^= 1 << uint(j%64)
			}
		}
	}
	return split
}
