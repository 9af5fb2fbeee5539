package millennium

import (
	"strings"
)

// LEDs are the patterns of a board's 81 LEDs, which sit on the corners of
// the squares (a 9x9 grid): index k + 9c is the LED on vertical grid line
// c (0 at the a-file edge) and horizontal line k (0 at the rank-8 edge),
// in the board's own frame, so LED 1 of the protocol document (index 0)
// is at the a8 corner and LED 81 at the h1 corner. A pattern is shown bit
// 7 first, one bit per slot, over and over: 0xFF steady, 0x00 off, 0xF0
// and 0x0F blinking in opposite phase.
type LEDs [81]byte

// Light ORs pattern into the four corners of field f (0 = a8 in the
// board's frame, as in a [Status]); neighbouring squares share corners.
func (l *LEDs) Light(f int, pattern byte) {
	row, col := f/8, f%8
	for c := col; c <= col+1; c++ {
		for k := row; k <= row+1; k++ {
			l[9*c+k] |= pattern
		}
	}
}

// Dark reports whether every LED is off.
func (l *LEDs) Dark() bool { return *l == LEDs{} }

// LEDCommand returns the 'L' command that shows l with a slot time of
// slot × 4.096 ms, or the 'X' command (all off) when l is dark.
func LEDCommand(slot byte, l *LEDs) []byte {
	if l.Dark() {
		return Append(nil, 'X', "")
	}
	var b strings.Builder
	b.Grow(2 + 2*len(l))
	b.WriteString(HexByte(slot))
	for _, p := range l {
		b.WriteString(HexByte(p))
	}
	return Append(nil, 'L', b.String())
}

// ParseLEDs reads the data of an 'L' command: its slot time and patterns.
func ParseLEDs(data string) (slot byte, l LEDs, ok bool) {
	if len(data) != 2+2*len(l) {
		return 0, l, false
	}
	for i := range len(data) {
		if hexValue(data[i]) < 0 {
			return 0, l, false
		}
	}
	slot = Hex(data, 0)
	for i := range l {
		l[i] = Hex(data, 2+2*i)
	}
	return slot, l, true
}
