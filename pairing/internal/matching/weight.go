package matching

import "math/bits"

// Weight is a fixed-width unsigned integer, little-endian in 64-bit words.
// Edge weights that carry one bit field per priority of the caller can be
// several hundred bits wide, so they do not fit a machine word. All weights
// of one matching share the same width.
type Weight []uint64

// NewWeight returns a zero weight of the given number of words.
func NewWeight(words int) Weight { return make(Weight, words) }

// IsZero reports whether w is zero.
func (w Weight) IsZero() bool {
	for _, x := range w {
		if x != 0 {
			return false
		}
	}
	return true
}

// SetZero sets w to zero.
func (w Weight) SetZero() {
	clear(w)
}

// Shl shifts w left by n bits in place; bits shifted out are lost.
func (w Weight) Shl(n int) {
	if n <= 0 {
		return
	}
	words, rem := n/64, uint(n%64)
	for i := len(w) - 1; i >= 0; i-- {
		var v uint64
		if j := i - words; j >= 0 {
			v = w[j] << rem
			if rem != 0 && j-1 >= 0 {
				v |= w[j-1] >> (64 - rem)
			}
		}
		w[i] = v
	}
}

// AddSmall adds a word-sized value.
func (w Weight) AddSmall(x uint64) {
	var c uint64
	w[0], c = bits.Add64(w[0], x, 0)
	for i := 1; c != 0 && i < len(w); i++ {
		w[i], c = bits.Add64(w[i], 0, c)
	}
}

// SubSmall subtracts a word-sized value; the caller guarantees no underflow.
func (w Weight) SubSmall(x uint64) {
	var b uint64
	w[0], b = bits.Sub64(w[0], x, 0)
	for i := 1; b != 0 && i < len(w); i++ {
		w[i], b = bits.Sub64(w[i], 0, b)
	}
}

// OrSmall sets the low bits of x.
func (w Weight) OrSmall(x uint64) { w[0] |= x }

// AddAt adds x<<n; bits shifted past the top are lost.
func (w Weight) AddAt(x uint64, n int) {
	i, r := n/64, uint(n%64)
	if i >= len(w) {
		return
	}
	var c uint64
	w[i], c = bits.Add64(w[i], x<<r, 0)
	i++
	if i < len(w) {
		var hi uint64
		if r != 0 {
			hi = x >> (64 - r)
		}
		w[i], c = bits.Add64(w[i], hi, c)
		for i++; c != 0 && i < len(w); i++ {
			w[i], c = bits.Add64(w[i], 0, c)
		}
	}
}

// add sets z = x + y.
func add(z, x, y Weight) {
	var c uint64
	for i := range z {
		z[i], c = bits.Add64(x[i], y[i], c)
	}
}

// sub sets z = x - y; the caller guarantees x >= y.
func sub(z, x, y Weight) {
	var b uint64
	for i := range z {
		z[i], b = bits.Sub64(x[i], y[i], b)
	}
}

// cmpWeight returns -1, 0 or 1 as x <, = or > y.
func cmpWeight(x, y Weight) int {
	for i := len(x) - 1; i >= 0; i-- {
		if x[i] != y[i] {
			if x[i] < y[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// half sets z = x / 2.
func half(z, x Weight) {
	for i := range z {
		v := x[i] >> 1
		if i+1 < len(x) {
			v |= x[i+1] << 63
		}
		z[i] = v
	}
}

// double sets z = 2x.
func double(z, x Weight) {
	var c uint64
	for i := range z {
		v := x[i]
		z[i] = v<<1 | c
		c = v >> 63
	}
}

// BitLen returns the number of bits needed to represent n (0 for 0), like
// bbpPairings' bitsToRepresent.
func BitLen(n int) int { return bits.Len(uint(n)) }
