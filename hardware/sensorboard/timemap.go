package sensorboard

import (
	"math"
	"time"
)

// TimeMap maps a board's millisecond clock onto the host's monotonic
// timeline (durations since the host's epoch), as clocks.md §2 asks.
//
// Each observation is a pair (board ms when the board sent a frame, host
// instant when the frame's last byte was read). host − board is the clock
// offset plus the transport delay, which is never negative and usually
// near its minimum; the minimum over a window therefore estimates the
// offset while rejecting queueing delays (the NTP minimum filter). Board
// crystals drift tens of ppm, so the map keeps the minimum per bin of board
// time and fits a line through the bins' minima, lowered until it supports
// them all from below: offset(b) = a + s·b.
//
// TimeMap is a pure value: it does no I/O and reads no clock. The zero
// value is ready to use with default bins.
type TimeMap struct {
	// BinMs is the width of a bin in board milliseconds (default 10 s).
	BinMs int64
	// Bins is how many bins the window keeps (default 30: 5 minutes).
	Bins int
	// MaxDriftPPM bounds a plausible drift (default 1000 ppm); a fit
	// beyond it means the clocks do not run at one rate, and the map
	// reports itself unhealthy.
	MaxDriftPPM float64

	bins    []tmBin
	samples uint64

	dirty   bool
	a       float64 // offset in ns at board time ref
	s       float64 // slope, ns of offset per ms of board time
	ref     int64   // board ms the fit is centred on
	healthy bool
}

type tmBin struct {
	idx   int64 // bin number (board ms / BinMs); -1 when unused
	board int64 // board ms of the minimum sample
	off   int64 // minimum host−board offset in ns
}

func (m *TimeMap) init() {
	if m.BinMs <= 0 {
		m.BinMs = 10_000
	}
	if m.Bins <= 0 {
		m.Bins = 30
	}
	if m.MaxDriftPPM <= 0 {
		m.MaxDriftPPM = 1000
	}
	m.bins = make([]tmBin, m.Bins)
	for i := range m.bins {
		m.bins[i].idx = -1
	}
}

// Reset forgets every observation, as after a board restart.
func (m *TimeMap) Reset() {
	if m.bins == nil {
		return
	}
	for i := range m.bins {
		m.bins[i].idx = -1
	}
	m.samples = 0
	m.dirty = false
	m.healthy = false
}

// Samples returns the number of observations since the last reset.
func (m *TimeMap) Samples() uint64 { return m.samples }

// Observe records that a frame the board stamped at boardMs was fully read
// at host. boardMs must be the board's unwrapped clock (non-negative).
func (m *TimeMap) Observe(boardMs int64, host time.Duration) {
	if m.bins == nil {
		m.init()
	}
	if boardMs < 0 {
		return
	}
	idx := boardMs / m.BinMs
	b := &m.bins[int(idx%int64(len(m.bins)))]
	off := int64(host) - boardMs*int64(time.Millisecond)
	m.samples++
	if b.idx != idx {
		*b = tmBin{idx: idx, board: boardMs, off: off}
		m.dirty = true
		return
	}
	if off < b.off {
		b.board, b.off = boardMs, off
		m.dirty = true
	}
}

// Map returns the host instant that corresponds to board time boardMs, and
// whether the mapping is healthy. An unhealthy map (no observation yet, or
// clocks that disagree on their rate) returns false and the caller should
// fall back on the receive instant.
func (m *TimeMap) Map(boardMs int64) (time.Duration, bool) {
	if m.samples == 0 {
		return 0, false
	}
	if m.dirty {
		m.fit()
	}
	off := m.a + m.s*float64(boardMs-m.ref)
	return time.Duration(boardMs*int64(time.Millisecond) + int64(math.Round(off))), m.healthy
}

// DriftPPM returns the fitted drift of the board clock against the host's
// in parts per million (positive: the board runs slow).
func (m *TimeMap) DriftPPM() float64 {
	if m.dirty {
		m.fit()
	}
	return m.s / float64(time.Millisecond) * 1e6
}

// fit computes the lower supporting line through the bins' minima.
func (m *TimeMap) fit() {
	m.dirty = false
	// Only bins within the window behind the newest count: older ones are
	// stale slots of the ring.
	newest := m.newest()
	var n, sx, sy float64
	var minOff int64 = math.MaxInt64
	var minBoard int64
	for _, b := range m.bins {
		if !m.live(b, newest) {
			continue
		}
		n++
		sx += float64(b.board)
		sy += float64(b.off)
		if b.off < minOff {
			minOff, minBoard = b.off, b.board
		}
	}
	m.healthy = true
	if n < 3 {
		// Too short a window to see drift: the plain minimum.
		m.ref, m.a, m.s = minBoard, float64(minOff), 0
		return
	}
	mx, my := sx/n, sy/n
	s := m.slope(newest, mx, my)
	maxS := m.MaxDriftPPM * 1e-6 * float64(time.Millisecond)
	if math.Abs(s) > maxS {
		m.healthy = false
		m.ref, m.a, m.s = minBoard, float64(minOff), 0
		return
	}
	// Lower the line until no bin minimum lies below it.
	ref := int64(mx)
	a := my + s*(float64(ref)-mx)
	for _, b := range m.bins {
		if !m.live(b, newest) {
			continue
		}
		if d := float64(b.off) - (a + s*float64(b.board-ref)); d < 0 {
			a += d
		}
	}
	m.ref, m.a, m.s = ref, a, s
}

// newest returns the index of the newest bin, -1 if there is none.
func (m *TimeMap) newest() int64 {
	var newest int64 = -1
	for _, b := range m.bins {
		if b.idx > newest {
			newest = b.idx
		}
	}
	return newest
}

// live reports whether bin b is within the window behind the newest bin
// (of index newest): a used slot of the ring, not a stale one.
func (m *TimeMap) live(b tmBin, newest int64) bool {
	return b.idx >= 0 && newest-b.idx < int64(len(m.bins))
}

// slope returns the least-squares slope of the live bins' minima, whose
// means are mx (board time) and my (offset); newest is the index of the
// newest bin.
func (m *TimeMap) slope(newest int64, mx, my float64) float64 {
	var sxx, sxy float64
	for _, b := range m.bins {
		if !m.live(b, newest) {
			continue
		}
		dx := float64(b.board) - mx
		sxx += dx * dx
		sxy += dx * (float64(b.off) - my)
	}
	if sxx > 0 {
		return sxy / sxx
	}
	return 0
}
