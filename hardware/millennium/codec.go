package millennium

import (
	"errors"
	"fmt"
)

// Parity returns c (7 bits) with bit 7 set as its odd-parity bit: set when
// bits 0 to 6 hold an even number of ones, so that the byte's ones are
// odd. On the wire this is 7 data bits, odd parity ("7O1") sent as 8N1.
func Parity(c byte) byte {
	c &= 0x7f
	ones := 0
	for v := c; v != 0; v &= v - 1 {
		ones++
	}
	if ones%2 == 0 {
		return c | 0x80
	}
	return c
}

// ParityOK reports whether b's bit 7 is the odd-parity bit of its bits 0
// to 6.
func ParityOK(b byte) bool { return Parity(b) == b }

// Checksum returns the block checksum of a message's characters: the XOR
// of their 7-bit values.
func Checksum(text []byte) byte {
	var x byte
	for _, c := range text {
		x ^= c & 0x7f
	}
	return x
}

const hexDigits = "0123456789ABCDEF"

// Append appends the message letter+data, its checksum as two upper-case
// hex digits, every byte with its parity bit, to dst.
func Append(dst []byte, letter byte, data string) []byte {
	start := len(dst)
	dst = append(dst, letter)
	dst = append(dst, data...)
	x := Checksum(dst[start:])
	dst = append(dst, hexDigits[x>>4], hexDigits[x&0xf])
	for i := start; i < len(dst); i++ {
		dst[i] = Parity(dst[i])
	}
	return dst
}

// Message is one decoded message: its letter (upper case from the host,
// lower case from the board) and its data, the checksum and the parity
// bits taken off.
type Message struct {
	Letter byte
	Data   string
}

// String writes the message as its text, without the checksum.
func (m Message) String() string { return string(m.Letter) + m.Data }

// The lengths of the messages, letter and checksum included: the board's
// replies, and the host's commands.
var (
	// ReplyLengths are the board's messages.
	ReplyLengths = Lengths{'v': 7, 's': 67, 'l': 3, 'x': 3, 'w': 7, 'r': 7}
	// CommandLengths are the host's commands.
	CommandLengths = Lengths{'V': 3, 'S': 3, 'L': 167, 'X': 3, 'T': 3, 'W': 7, 'R': 5}
)

// Lengths gives the fixed length of each message letter (0: not a
// message).
type Lengths [128]uint8

// ErrIncomplete says that the buffer ends inside a message: more bytes
// are needed.
var ErrIncomplete = errors.New("millennium: incomplete message")

// DecodeError says what was wrong with the bytes a [Decoder] skipped.
type DecodeError struct {
	Offset int    // where the skipped bytes began, in the decoder's stream
	Bytes  []byte // the bytes skipped
	Reason string
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("millennium: %d byte(s) at offset %d skipped (% x): %s", len(e.Bytes), e.Offset, e.Bytes, e.Reason)
}

// Decoder cuts a byte stream into messages of fixed lengths: it hunts a
// known letter, takes the letter's length, and checks the data and the
// checksum; on a failure it skips one byte and hunts again, so that a
// letter inside a message (a piece letter 'r' in a board status) is never
// taken for the start of one unless its checksum says so. Parity bits are
// taken off, not checked: the checksum is the test, as the protocol
// advises (an eONE is known to send other parity). The zero value is not
// usable: set Lengths.
type Decoder struct {
	Lengths *Lengths
	off     int // the stream offset of the next byte to decode
}

// Decode decodes the message at the start of buf. It returns how many
// bytes it used: a message's length, or the bytes it skipped with a
// *DecodeError, or 0 with [ErrIncomplete] when buf ends inside a message.
func (d *Decoder) Decode(buf []byte) (int, Message, error) {
	i := 0
	for i < len(buf) && d.Lengths[buf[i]&0x7f] == 0 {
		i++
	}
	if i > 0 {
		return d.skip(buf[:i], "no message begins with them")
	}
	if len(buf) == 0 {
		return 0, Message{}, ErrIncomplete
	}
	letter := buf[0] & 0x7f
	n := int(d.Lengths[letter])
	if len(buf) < n {
		return 0, Message{}, ErrIncomplete
	}
	text := make([]byte, n)
	for j, b := range buf[:n] {
		text[j] = b & 0x7f
	}
	sum := Checksum(text[:n-2])
	if text[n-2] != hexDigits[sum>>4] || text[n-1] != hexDigits[sum&0xf] {
		return d.skip(buf[:1], fmt.Sprintf("%q is no %q message: checksum %s, want %02X", text, letter, text[n-2:], sum))
	}
	m := Message{Letter: letter, Data: string(text[1 : n-2])}
	if err := checkData(m); err != nil {
		return d.skip(buf[:1], err.Error())
	}
	d.off += n
	return n, m, nil
}

func (d *Decoder) skip(b []byte, reason string) (int, Message, error) {
	err := &DecodeError{Offset: d.off, Bytes: append([]byte(nil), b...), Reason: reason}
	d.off += len(b)
	return len(b), Message{}, err
}

// checkData checks a message's data for its letter: hex digits, or piece
// letters in a status.
func checkData(m Message) error {
	switch m.Letter {
	case 's':
		for i := range len(m.Data) {
			if _, ok := pieceOf(m.Data[i]); !ok {
				return fmt.Errorf("status: %q at square %d is no piece letter", m.Data[i], i)
			}
		}
		return nil
	case 'L', 'v', 'w', 'r', 'W', 'R':
		for i := range len(m.Data) {
			if hexValue(m.Data[i]) < 0 {
				return fmt.Errorf("%q: %q is no hex digit", m.String(), m.Data[i])
			}
		}
	}
	return nil
}

func hexValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// Hex returns the byte written as two hex digits at s[i:].
func Hex(s string, i int) byte { return byte(hexValue(s[i])<<4 | hexValue(s[i+1])) }

// HexByte writes b as two upper-case hex digits.
func HexByte(b byte) string { return string([]byte{hexDigits[b>>4], hexDigits[b&0xf]}) }
