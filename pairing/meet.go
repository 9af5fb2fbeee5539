package pairing

// meetings records who may meet whom this round, by places in d.sorted,
// one bit set per row: every pair but those compatible rules out, which
// are few (rematches, clashes of absolute colour preferences). The
// cardinality matching walks the rows, and the weights of millions of
// pairs look a bit up instead of scanning a list.
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
	place := make(map[int]int, n)
	for i, p := range d.sorted {
		p.place = i
		place[p.index] = i
	}
	var absolute []*player
	for i, p := range d.sorted {
		for _, o := range p.forbidden {
			if j, ok := place[o]; ok {
				m.forbid(i, j)
			}
		}
		if p.absolutePref() {
			absolute = append(absolute, p)
		}
	}
	// The colour rules can part only two players with absolute
	// preferences: compatible decides for those pairs.
	for k, p := range absolute {
		for _, o := range absolute[:k] {
			if !d.s.compatible(p, o) {
				m.forbid(p.place, o.place)
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
