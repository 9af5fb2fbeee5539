package sensorboard

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"arbiter/board"
	"arbiter/rules"
)

// Message is a typed frame payload. Every message type of the protocol has
// a Go type with these methods; the payload layouts are in PROTOCOL.md.
type Message interface {
	// Type returns the frame type that carries the message.
	Type() Type
	// AppendPayload appends the payload bytes to dst.
	AppendPayload(dst []byte) []byte
	// UnmarshalPayload reads the payload. Bytes after the fields known to
	// this version are ignored, as the versioning rules require.
	UnmarshalPayload(p []byte) error
}

const (
	identKnown  = 0x80
	identSecond = 0x01
	identBack   = 0x02
)

func appendIdent(dst []byte, id board.Ident) []byte {
	if !id.Known {
		return append(dst, 0, 0, 0)
	}
	flags := byte(identKnown)
	if id.Piece.Color == rules.Second {
		flags |= identSecond
	}
	if id.Piece.Face == rules.Back {
		flags |= identBack
	}
	return append(dst, flags, byte(id.Piece.Kind), byte(id.Piece.Mark))
}

func readIdent(b []byte) (board.Ident, error) {
	flags, kind, mark := b[0], b[1], b[2]
	if flags&identKnown == 0 {
		return board.Ident{}, nil
	}
	if kind < 'A' || kind > 'Z' {
		return board.Ident{}, fmt.Errorf("piece kind byte 0x%02x is not an upper-case letter", kind)
	}
	if mark != 0 && (mark < 'A' || mark > 'Z') {
		return board.Ident{}, fmt.Errorf("piece mark byte 0x%02x is not an upper-case letter", mark)
	}
	p := rules.Piece{Kind: rules.Kind(kind), Mark: rules.Kind(mark)}
	if flags&identSecond != 0 {
		p.Color = rules.Second
	}
	if flags&identBack != 0 {
		p.Face = rules.Back
	}
	return board.Ident{Known: true, Piece: p}, nil
}

// reader reads a payload field by field and remembers the first error,
// naming the field that was short or bad.
type reader struct {
	msg string
	b   []byte
	off int
	i   int // index of the list item being read: replaces '#' in names
	err error
}

// name returns a field's name with the item index in place of '#'. Names
// are built only for errors, so that reading does not allocate.
func (r *reader) name(field string) string {
	return strings.Replace(field, "#", strconv.Itoa(r.i), 1)
}

func (r *reader) need(field string, n int) bool {
	if r.err != nil {
		return false
	}
	if len(r.b)-r.off < n {
		r.err = fmt.Errorf("%s payload: field %s at byte %d: need %d bytes, have %d", r.msg, r.name(field), r.off, n, len(r.b)-r.off)
		return false
	}
	return true
}

func (r *reader) u8(field string) uint8 {
	if !r.need(field, 1) {
		return 0
	}
	v := r.b[r.off]
	r.off++
	return v
}

func (r *reader) u16(field string) uint16 {
	if !r.need(field, 2) {
		return 0
	}
	v := binary.BigEndian.Uint16(r.b[r.off:])
	r.off += 2
	return v
}

func (r *reader) u32(field string) uint32 {
	if !r.need(field, 4) {
		return 0
	}
	v := binary.BigEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v
}

func (r *reader) ident(field string) board.Ident {
	if !r.need(field, 3) {
		return board.Ident{}
	}
	id, err := readIdent(r.b[r.off:])
	if err != nil {
		r.err = fmt.Errorf("%s payload: field %s at byte %d: %w", r.msg, r.name(field), r.off, err)
	}
	r.off += 3
	return id
}

// str reads a length-prefixed UTF-8 string.
func (r *reader) str(field string) string {
	n := int(r.u8(field + " length"))
	if !r.need(field, n) {
		return ""
	}
	b := r.b[r.off : r.off+n]
	r.off += n
	if !utf8.Valid(b) {
		r.err = fmt.Errorf("%s payload: field %s: not UTF-8", r.msg, r.name(field))
		return ""
	}
	return string(b)
}

func (r *reader) fail(field string, format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%s payload: field %s: %s", r.msg, r.name(field), fmt.Sprintf(format, args...))
	}
}

func appendU16(dst []byte, v uint16) []byte { return binary.BigEndian.AppendUint16(dst, v) }
func appendU32(dst []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(dst, v) }

// appendStr appends a length-prefixed string, cut to 255 bytes at a rune
// boundary.
func appendStr(dst []byte, s string) []byte {
	if len(s) > 255 {
		s = s[:255]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	dst = append(dst, byte(len(s)))
	return append(dst, s...)
}

// HeightSaturated is the bit of a height byte that says the sensor cannot
// count this high: the true height is at least the value.
const HeightSaturated = 0x80

// MaxHeight is the highest height the protocol can carry exactly.
const MaxHeight = 0x7F
