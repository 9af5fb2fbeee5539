package dgt

import (
	"fmt"
	"time"
)

// One-byte EEPROM log markers.
const (
	EEPowerUp     byte = 0x6a
	EEEOF         byte = 0x6b
	EEFourRows    byte = 0x6c // sixteen pieces on the a, b, g and h rows (Chess960 set-up)
	EEEmptyBoard  byte = 0x6d
	EEDownloaded  byte = 0x6e
	EEBeginPos    byte = 0x6f // the start position, connector on White's left
	EEBeginPosRot byte = 0x7a // the start position, connector on White's right
	EEStartTag    byte = 0x7b // the bus host's start-of-game tag
	EEWatchdog    byte = 0x7c
	EEFuture1     byte = 0x7d
	EEFuture2     byte = 0x7e
	EENop         byte = 0x7f
	EENop2        byte = 0x00
)

// LogSize is the size of the board's cyclic EEPROM buffer.
const LogSize = 0x1f00

// LogTagKind says what a [LogTag] records.
type LogTagKind uint8

// Log tag kinds.
const (
	// TagField: a field's piece changed (Field, Piece; Quick when less
	// than about 250 ms passed since the previous field tag).
	TagField LogTagKind = iota + 1
	// TagTime: the clock lever was pressed; the halted side's time
	// (Left says which display) is Time.
	TagTime
	// TagMarker: a one-byte marker (Marker).
	TagMarker
)

// LogTag is one entry of the EEPROM log.
type LogTag struct {
	Kind   LogTagKind
	Offset int // byte offset in the log
	Field  byte
	Piece  Piece
	Quick  bool
	Left   bool
	Time   time.Duration
	Marker byte
}

// String writes the tag for tests and logs.
func (t LogTag) String() string {
	switch t.Kind {
	case TagField:
		return fmt.Sprintf("field %d=%s", t.Field, t.Piece)
	case TagTime:
		side := "right"
		if t.Left {
			side = "left"
		}
		return fmt.Sprintf("time %s %v", side, t.Time)
	}
	return fmt.Sprintf("marker 0x%02x", t.Marker)
}

// AppendLogTag appends t in the EEPROM's format (for emulators).
func AppendLogTag(dst []byte, t LogTag) []byte {
	switch t.Kind {
	case TagField:
		b := 0x40 | byte(t.Piece)&0x0f
		if t.Quick {
			b |= 0x10
		}
		return append(dst, b, t.Field&0x3f)
	case TagTime:
		s := sideBytes(t.Time, false, false)
		b := 0x60 | s[0]&0x0f
		if t.Left {
			b |= 0x10
		}
		return append(dst, b, s[1], s[2])
	}
	return append(dst, t.Marker)
}

// Log is DGT_MSG_EE_MOVES: the board's log from its oldest byte to its
// EE_EOF, parsed. Errors lists the bytes that made no tag; parsing went on
// after each.
type Log struct {
	Tags   []LogTag
	Errors []error
	// EOF: the log ended with EE_EOF, as a complete download does.
	EOF bool
}

func parseLogMessage(m Message) (any, error) {
	l := ParseLog(m.Payload)
	return l, nil
}

// ParseLog parses an EEPROM log (the payload of DGT_MSG_EE_MOVES, or the
// data of the bus replies that carry changes). A byte that starts no tag,
// or a tag cut short, is recorded in Errors with its offset, and parsing
// resumes at the next byte.
func ParseLog(p []byte) *Log {
	l := new(Log)
	for i := 0; i < len(p); {
		b := p[i]
		switch {
		case isFieldTag(b):
			i += l.fieldTag(p, i)
		case isTimeTag(b):
			i += l.timeTag(p, i)
		case b == EENop || b == EENop2:
			i++
		case b == EEEOF:
			l.EOF = true
			return l
		case isMarker(b):
			l.Tags = append(l.Tags, LogTag{Kind: TagMarker, Offset: i, Marker: b})
			i++
		default:
			l.Errors = append(l.Errors, fmt.Errorf("dgt: log byte %d: 0x%02x starts no tag", i, b))
			i++
		}
	}
	return l
}

// isFieldTag reports whether b starts a field tag: a piece and a field.
func isFieldTag(b byte) bool { return b >= 0x40 && b <= 0x5f }

// isTimeTag reports whether b starts a time tag: a clock's time.
func isTimeTag(b byte) bool { return (b >= 0x60 && b <= 0x69) || (b >= 0x70 && b <= 0x79) }

// isMarker reports whether b is a one-byte marker (EE_EOF among them).
func isMarker(b byte) bool { return (b >= 0x6a && b <= 0x6f) || (b >= 0x7a && b <= 0x7e) }

// fieldTag parses the field tag at p[i], or records what is wrong with
// it, and returns how many bytes to go on after (1 after an error).
func (l *Log) fieldTag(p []byte, i int) int {
	b := p[i]
	if i+1 >= len(p) {
		l.Errors = append(l.Errors, fmt.Errorf("dgt: log byte %d: field tag 0x%02x cut short", i, b))
		return 1
	}
	f := p[i+1]
	if f > 63 {
		l.Errors = append(l.Errors, fmt.Errorf("dgt: log byte %d: field tag 0x%02x names field %d", i, b, f))
		return 1
	}
	l.Tags = append(l.Tags, LogTag{Kind: TagField, Offset: i, Piece: Piece(b & 0x0f), Quick: b&0x10 != 0, Field: f})
	return 2
}

// timeTag parses the time tag at p[i], or records what is wrong with it,
// and returns how many bytes to go on after (1 after an error).
func (l *Log) timeTag(p []byte, i int) int {
	b := p[i]
	if i+2 >= len(p) {
		l.Errors = append(l.Errors, fmt.Errorf("dgt: log byte %d: time tag 0x%02x cut short", i, b))
		return 1
	}
	mi, ok1 := bcd(p[i+1])
	s, ok2 := bcd(p[i+2])
	if !ok1 || !ok2 {
		l.Errors = append(l.Errors, fmt.Errorf("dgt: log byte %d: time tag %02x %02x %02x is not BCD", i, b, p[i+1], p[i+2]))
		return 1
	}
	d := time.Duration(b&0x0f)*time.Hour + time.Duration(mi)*time.Minute + time.Duration(s)*time.Second
	l.Tags = append(l.Tags, LogTag{Kind: TagTime, Offset: i, Left: b&0x10 != 0, Time: d})
	return 3
}
