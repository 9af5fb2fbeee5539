package certabo

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// ID is the RFID id of a piece as a board reads it on a square: five
// bytes. The zero ID is an empty square.
type ID [5]byte

// Empty reports whether the reading is an empty square: more than two of
// its five bytes are zero, as the maker's software reads it (an empty
// square often reads junk).
func (id ID) Empty() bool {
	zeros := 0
	for _, b := range id {
		if b == 0 {
			zeros++
		}
	}
	return zeros > 2
}

// String writes the id as ten hex digits.
func (id ID) String() string {
	return fmt.Sprintf("%02x%02x%02x%02x%02x", id[0], id[1], id[2], id[3], id[4])
}

// ParseID reads an id written by [ID.String].
func ParseID(s string) (ID, error) {
	var id ID
	if len(s) != 10 {
		return id, fmt.Errorf("certabo: piece id %q: want ten hex digits", s)
	}
	for i := range id {
		v, err := strconv.ParseUint(s[2*i:2*i+2], 16, 8)
		if err != nil {
			return id, fmt.Errorf("certabo: piece id %q: %w", s, err)
		}
		id[i] = byte(v)
	}
	return id, nil
}

// Frame is one reading of the whole board: the id on each square in the
// board's own order, a8 b8 ... h8, a7 ... h1 as the maker labels it.
type Frame [64]ID

// Squares is how many numbers a frame of an RFID board holds: five per
// square.
const Squares = 64 * 5

// MaxLine bounds a line: a frame of 320 numbers of up to three digits and
// their spaces, with room to spare. A longer run without a line end is
// noise.
const MaxLine = 2048

// Line kinds.
const (
	LineFrame     = iota + 1 // a frame of the whole board
	LinePlainLEDs            // "L": the board has plain LEDs (picochess's reading)
	LineRGBLEDs              // "D": the board has RGB LEDs (picochess's reading)
)

// ParseLine reads one line the board sent, without its line end: a frame
// (':' and 320 numbers from 0 to 255 separated by spaces; the ':' may be
// missing, as a Bluetooth board is said to send them), or one of the
// short lines "L" and "D". Anything else is an error naming what is wrong
// (the first line after opening the port is usually cut).
func ParseLine(line []byte) (kind int, f Frame, err error) {
	line = bytes.TrimRight(line, "\r\n ")
	switch string(line) {
	case "L":
		return LinePlainLEDs, f, nil
	case "D":
		return LineRGBLEDs, f, nil
	case "":
		return 0, f, errors.New("certabo: an empty line")
	}
	body := bytes.TrimPrefix(line, []byte(":"))
	n := 0
	for len(body) > 0 {
		tok := body
		if i := bytes.IndexByte(body, ' '); i >= 0 {
			tok, body = body[:i], body[i+1:]
		} else {
			body = nil
		}
		v, err := strconv.ParseUint(string(tok), 10, 8)
		if err != nil || len(tok) == 0 {
			return 0, f, fmt.Errorf("certabo: number %d of a frame is %q, not 0 to 255", n+1, tok)
		}
		if n == Squares {
			return 0, f, fmt.Errorf("certabo: a frame of more than %d numbers", Squares)
		}
		f[n/5][n%5] = byte(v)
		n++
	}
	if n != Squares {
		if n == 8 {
			return 0, f, errors.New("certabo: a frame of 8 numbers is a Sentio's (occupancy only), which this driver does not read")
		}
		return 0, f, fmt.Errorf("certabo: a frame of %d numbers, not %d", n, Squares)
	}
	return LineFrame, f, nil
}

// AppendFrame appends f as a board sends it: ':' and the 320 numbers, each
// followed by a space, and CR LF.
func AppendFrame(dst []byte, f *Frame) []byte {
	dst = append(dst, ':')
	for _, id := range f {
		for _, b := range id {
			dst = strconv.AppendUint(dst, uint64(b), 10)
			dst = append(dst, ' ')
		}
	}
	return append(dst, '\r', '\n')
}

// Lines cuts a byte stream into lines at LF. A run of more than MaxLine
// bytes without one is dropped.
type Lines struct {
	buf []byte
	// Dropped counts the bytes dropped as overlong lines.
	Dropped int
}

// Feed adds bytes read and calls line for every whole line, without its
// line end.
func (l *Lines) Feed(p []byte, line func([]byte)) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			l.buf = append(l.buf, p...)
			if len(l.buf) > MaxLine {
				l.Dropped += len(l.buf)
				l.buf = l.buf[:0]
			}
			return
		}
		if len(l.buf) > 0 {
			l.buf = append(l.buf, p[:i]...)
			line(l.buf)
			l.buf = l.buf[:0]
		} else {
			line(p[:i])
		}
		p = p[i+1:]
	}
}

// Reset drops a partial line (the port was opened again).
func (l *Lines) Reset() { l.buf = l.buf[:0] }

// LEDs are the LED command: one byte per rank, byte 0 rank 8 ... byte 7
// rank 1, bit 0 the a-file ... bit 7 the h-file, 1 lit; in the board's
// own frame. The board has no blinking of its own.
type LEDs [8]byte

// Light lights field f (0 = a8 in the board's frame).
func (l *LEDs) Light(f int) { l[f/8] |= 1 << (f % 8) }

// Lit reports whether field f is lit.
func (l *LEDs) Lit(f int) bool { return l[f/8]&(1<<(f%8)) != 0 }
