package certabo

import "time"

// Filter is what the host believes each square holds, from frames that
// may misread. Each reading is first made a vote: a chip the host knows,
// the chip the square holds, or the same chip as the frame before read
// there stands for itself; an unknown id that differs from the square's
// chip in no more than two bytes is that chip misread; any other unknown
// id is junk read on an empty square. A square then takes a value once
// two of the last three frames voted for it, as the maker's software and
// the hosts after it decide: junk and a misread once never get through.
type Filter struct {
	hist  [3]Frame // votes
	at    [3]time.Duration
	prior time.Duration // the instant of the frame before the oldest kept
	last  Frame         // the last frame as read
	n     int           // frames taken since the last reset
	state Frame
	ready bool
}

// Reset forgets the frames (the port was opened again); the state stands
// until two new frames agree.
func (f *Filter) Reset() { f.n = 0 }

// Ready reports whether two frames have agreed on every square since the
// filter began.
func (f *Filter) Ready() bool { return f.ready }

// Fresh reports whether two frames have come since the last reset: the
// state then shows the board as it is now.
func (f *Filter) Fresh() bool { return f.ready && f.n >= 2 }

// State returns what the squares hold.
func (f *Filter) State() *Frame { return &f.state }

// Pending reports whether the last frame voted for something the state
// does not show yet: a change under way.
func (f *Filter) Pending() bool {
	if f.n == 0 {
		return false
	}
	return f.hist[(f.n-1)%3] != f.state
}

// vote returns what reading r of square sq stands for.
func (f *Filter) vote(sq int, r ID, known func(ID) bool) ID {
	if r.Empty() {
		return ID{}
	}
	st := f.state[sq]
	if r == st || f.n > 0 && r == f.last[sq] || known != nil && known(r) {
		return r
	}
	if st != (ID{}) && near(r, st) {
		return st
	}
	return ID{}
}

// near reports whether two ids differ in no more than two bytes.
func near(a, b ID) bool {
	d := 0
	for i := range a {
		if a[i] != b[i] {
			d++
		}
	}
	return d <= 2
}

// Add takes a frame read at now; known tells the chips the host has
// learnt (nil: none). It returns whether a square changed, and then the
// best estimate of when the squares that changed took their new values:
// halfway between the last frame that still showed the old value and the
// first that showed the new one (the latest of these over the squares).
// Changes are dated so, not by when the filter took them, so that two
// lifts a frame apart (a rook, then the king) stay as close as they were,
// and a move stays apart from the one before.
func (f *Filter) Add(fr *Frame, now time.Duration, known func(ID) bool) (changed bool, since time.Duration) {
	i := f.n % 3
	if f.n >= 3 {
		f.prior = f.at[i]
	}
	var votes Frame
	for sq, r := range fr {
		votes[sq] = f.vote(sq, r, known)
	}
	f.hist[i], f.at[i], f.last = votes, now, *fr
	f.n++
	k := min(f.n, 3)
	if k < 2 {
		return false, now
	}
	agreed := true
	for sq := range fr {
		v, first, ok := f.majority(sq, k)
		if !ok {
			agreed = false
			continue
		}
		if v != f.state[sq] {
			changed = true
			since = max(since, first)
			f.state[sq] = v
		}
	}
	if !f.ready && agreed {
		f.ready, changed, since = true, true, now
	}
	return changed && f.ready, since
}

// majority returns the value that at least two of the last k frames voted
// for on square sq, and the instant halfway between the first of them and
// the frame before it.
func (f *Filter) majority(sq, k int) (ID, time.Duration, bool) {
	last := (f.n - 1) % 3
	age := func(a int) int { return (last - a + 3) % 3 }
	for a := range k {
		for b := a + 1; b < k; b++ {
			v := f.hist[age(a)][sq]
			if v != f.hist[age(b)][sq] {
				continue
			}
			// b is the older of the two; the oldest agreeing frame is the
			// first that showed the value, and the frame before it the
			// last that did not.
			first := b
			for c := b + 1; c < k; c++ {
				if f.hist[age(c)][sq] == v {
					first = c
				}
			}
			seen := f.at[age(first)]
			switch {
			case first+1 < k:
				return v, (f.at[age(first+1)] + seen) / 2, true
			case f.n > 3:
				return v, (f.prior + seen) / 2, true
			}
			// No frame before it since the port opened.
			return v, seen, true
		}
	}
	return ID{}, 0, false
}
