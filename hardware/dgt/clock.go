package dgt

import (
	"fmt"
	"time"
)

// Clock commands, wrapped by [ClockCommand].
const (
	ClockDisplay byte = 0x01 // six 7-segment characters
	ClockIcons   byte = 0x02
	ClockEnd     byte = 0x03 // back to the time display
	ClockButton  byte = 0x08
	ClockVersion byte = 0x09
	ClockSetNRun byte = 0x0a // set times and run (clock mode 23 only)
	ClockBeep    byte = 0x0b // 64 ms units
	ClockASCII   byte = 0x0c // DGT 3000: 8 characters and a beep
)

// SetNRun flags.
const (
	RunLeft   byte = 0x01 // left counts down
	RunRight  byte = 0x02 // right counts down
	RunPause  byte = 0x04
	RunToggle byte = 0x08 // switch sides at the lever
)

// Clock keys reported by an unsolicited acknowledgement (ack1 0x88).
const (
	KeyBack  byte = 0x31
	KeyPlus  byte = 0x32
	KeyRun   byte = 0x33
	KeyMinus byte = 0x34
	KeyOK    byte = 0x35
)

// ClockTimes is a BWTIME message that reports the clock. Left and right
// are physical, seen from the clock's front; they do not swap when the
// board is rotated.
type ClockTimes struct {
	Left, Right time.Duration
	// Flag: the side's flag fell (D4 flag fallen and blocked, or D6 flag
	// indicated). PerMove: a Fischer or Bronstein indicator is on.
	LeftFlag, RightFlag       bool
	LeftPerMove, RightPerMove bool
	Running                   bool
	// Lever is the tumbler bit (D1): which way it is set. Its meaning is
	// disputed between DGT's notes, so a host takes a change of it as a
	// press and nothing more.
	Lever      bool
	BatteryLow bool
	LeftTurn   bool
	RightTurn  bool
	// NoClock: no clock is connected and the reading is invalid.
	NoClock bool
}

// ClockAck is a BWTIME message that acknowledges a clock command, or
// reports a clock event by itself (Ack[1] with bit 7 set).
type ClockAck struct{ Ack [4]byte }

// Command returns the acknowledged clock command, and false for an
// unsolicited event.
func (a ClockAck) Command() (byte, bool) { return a.Ack[1], a.Ack[1]&0x80 == 0 }

// Failed reports an acknowledgement of a command the clock refused (a
// SETNRUN outside mode 23).
func (a ClockAck) Failed() bool { return a.Ack[0] == 0x40 }

// Key returns the clock key of a button event, and false for anything else.
func (a ClockAck) Key() (byte, bool) { return a.Ack[3], a.Ack[1] == 0x88 }

func bcd(b byte) (int, bool) {
	hi, lo := int(b>>4), int(b&0x0f)
	return hi*10 + lo, hi <= 5 && lo <= 9
}

func toBCD(n int) byte { return byte(n/10)<<4 | byte(n%10) }

func parseBWTime(m Message) (any, error) {
	p := m.Payload
	if len(p) != 7 {
		return nil, parseErr(m, "clock message of %d bytes, want 7", len(p))
	}
	if p[0]&0x0f == 0x0a || p[3]&0x0f == 0x0a {
		var a ClockAck
		a.Ack[0] = p[1]&0x7f | (p[3]<<3)&0x80
		a.Ack[1] = p[2]&0x7f | (p[3]<<2)&0x80
		a.Ack[2] = p[4]&0x7f | (p[0]<<3)&0x80
		a.Ack[3] = p[5]&0x7f | (p[0]<<2)&0x80
		return &a, nil
	}
	side := func(b []byte, name string) (d time.Duration, flag, perMove bool, err error) {
		h := int(b[0] & 0x0f)
		mi, ok1 := bcd(b[1])
		s, ok2 := bcd(b[2])
		if h > 9 || !ok1 || !ok2 {
			return 0, false, false, parseErr(m, "%s time %x:%02x:%02x is not hours and BCD minutes and seconds", name, b[0]&0x0f, b[1], b[2])
		}
		d = time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute + time.Duration(s)*time.Second
		return d, b[0]&0x50 != 0, b[0]&0x20 != 0, nil
	}
	var t ClockTimes
	var err error
	if t.Right, t.RightFlag, t.RightPerMove, err = side(p[0:3], "right"); err != nil {
		return nil, err
	}
	if t.Left, t.LeftFlag, t.LeftPerMove, err = side(p[3:6], "left"); err != nil {
		return nil, err
	}
	st := p[6]
	t.Running = st&0x01 != 0
	t.Lever = st&0x02 != 0
	t.BatteryLow = st&0x04 != 0
	t.RightTurn = st&0x08 != 0
	t.LeftTurn = st&0x10 != 0
	t.NoClock = st&0x20 != 0
	return &t, nil
}

func sideBytes(d time.Duration, flag, perMove bool) [3]byte {
	if d < 0 {
		d = 0
	}
	s := int(d / time.Second)
	h := min(s/3600, 9)
	b := [3]byte{byte(h), toBCD(s / 60 % 60), toBCD(s % 60)}
	if flag {
		b[0] |= 0x10
	}
	if perMove {
		b[0] |= 0x20
	}
	return b
}

// AppendPayload appends the BWTIME payload of t, as a board sends it.
func (t *ClockTimes) AppendPayload(dst []byte) []byte {
	r := sideBytes(t.Right, t.RightFlag, t.RightPerMove)
	l := sideBytes(t.Left, t.LeftFlag, t.LeftPerMove)
	var st byte
	for i, b := range []bool{t.Running, t.Lever, t.BatteryLow, t.RightTurn, t.LeftTurn, t.NoClock} {
		if b {
			st |= 1 << i
		}
	}
	dst = append(dst, r[:]...)
	dst = append(dst, l[:]...)
	return append(dst, st)
}

// AppendPayload appends the BWTIME payload that carries a, as a board
// sends it (the inverse of the header's bit shuffle).
func (a *ClockAck) AppendPayload(dst []byte) []byte {
	return append(dst,
		0x0a|(a.Ack[2]>>7)<<4|(a.Ack[3]>>7)<<5,
		a.Ack[0]&0x7f,
		a.Ack[1]&0x7f,
		0x0a|(a.Ack[0]>>7)<<4|(a.Ack[1]>>7)<<5,
		a.Ack[2]&0x7f,
		a.Ack[3]&0x7f,
		0)
}

// hms returns a duration as clock hours, minutes and seconds (binary),
// refusing what the clock cannot show.
func hms(d time.Duration) (h, m, s byte, err error) {
	if d < 0 || d >= 10*time.Hour {
		return 0, 0, 0, fmt.Errorf("dgt: clock time %v outside 0..9:59:59", d)
	}
	t := int(d / time.Second)
	return byte(t / 3600), byte(t / 60 % 60), byte(t % 60), nil
}

// SetNRun returns the clock command that sets both times and how the clock
// runs (flags: [RunLeft], [RunRight], [RunPause], [RunToggle]). The clock
// honours it only in mode 23.
func SetNRun(left, right time.Duration, flags byte) ([]byte, error) {
	lh, lm, ls, err := hms(left)
	if err != nil {
		return nil, fmt.Errorf("left: %w", err)
	}
	rh, rm, rs, err := hms(right)
	if err != nil {
		return nil, fmt.Errorf("right: %w", err)
	}
	return ClockCommand(ClockSetNRun, lh, lm, ls, rh, rm, rs, flags&0x0f), nil
}

// ShowText returns the DGT 3000 command that shows up to 8 characters of
// text (longer text is cut, missing characters are blanks) with a beep of
// 0..15 (0 none).
func ShowText(text string, beep byte) []byte {
	var b [9]byte
	for i := range 8 {
		c := byte(' ')
		if i < len(text) && text[i] >= 0x20 && text[i] < 0x7f {
			c = text[i]
		}
		b[i] = c
	}
	b[8] = min(beep, 15)
	return ClockCommand(ClockASCII, b[:]...)
}

// Beep returns the clock command that beeps for d (in 64 ms units, at
// most 127 of them).
func Beep(d time.Duration) []byte {
	n := min(d/(64*time.Millisecond), 127)
	return ClockCommand(ClockBeep, byte(n))
}

// EndText returns the clock command that goes back to the time display.
func EndText() []byte { return ClockCommand(ClockEnd) }
