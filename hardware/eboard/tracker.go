package eboard

// Tracker is a board as the host has settled it: it decides the
// orientation from the first full board that shows a set-up, maps fields
// onto chess squares, and turns each settled full-board read into the
// fields that changed since the previous one. It is pure.
type Tracker[P Piece] struct {
	// Fixed, if not Undecided, is the orientation to use whatever the
	// board shows (the configuration says so).
	Fixed Orientation
	// Redetect: a settled board that shows the chess start position in
	// either orientation decides it again (a board turned round between
	// two games). Without it the first decision stands.
	Redetect bool

	orient  Orientation
	settled [64]P
	have    bool
}

// Orientation returns the orientation in use (Undecided until decided).
func (t *Tracker[P]) Orientation() Orientation {
	if t.Fixed != Undecided {
		return t.Fixed
	}
	return t.orient
}

// Settled returns the last settled board in field order, and false before
// the first.
func (t *Tracker[P]) Settled() ([64]P, bool) { return t.settled, t.have }

// Forget makes the next [Tracker.Settle] report the whole board (after the
// link came back: what happened meanwhile is unknown). The orientation is
// kept.
func (t *Tracker[P]) Forget() { t.have = false }

// Settle takes a settled full-board read p in field order. The first
// read, and a read that decided the orientation (or changed it), are
// whole: whole is true and the caller delivers the board as it stands.
// Later reads append to changed the fields that differ from the previous
// read, the emptied fields first, each group in field order.
func (t *Tracker[P]) Settle(p *[64]P, changed []int) (whole bool, out []int) {
	whole = !t.have
	if t.Fixed == Undecided {
		o := Undecided
		switch {
		case t.orient == Undecided:
			o = DetectOrientation(p)
		case t.Redetect:
			o = StartOrientation(p)
		}
		if o != Undecided && o != t.orient {
			t.orient = o
			whole = true
		}
	}
	old := t.settled
	t.settled, t.have = *p, true
	if whole {
		return true, changed
	}
	var zero P
	for pass := range 2 {
		for f, q := range p {
			if q == old[f] || (pass == 0) != (q == zero) {
				continue
			}
			changed = append(changed, f)
		}
	}
	return false, changed
}
