package sensorboard

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

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

// Caps are a board's capabilities, announced in its [Hello].
type Caps uint16

// Capability bits.
const (
	// CapHeight: the board counts stacked pieces (else it reports 0 or 1).
	CapHeight Caps = 1 << 0
	// CapIdentity: the board identifies the kind and mark of the top piece.
	CapIdentity Caps = 1 << 1
	// CapColor: the board senses the colour of the top piece.
	CapColor Caps = 1 << 2
	// CapFace: the board senses which face of the top piece is up.
	CapFace Caps = 1 << 3
	// CapZoneCount: the board counts the pieces in its zones (trays).
	CapZoneCount Caps = 1 << 4
	// CapZoneIdentity: the board identifies the pieces in its zones.
	CapZoneIdentity Caps = 1 << 5
	// CapClockDisplay: the board shows clock times sent by the host.
	CapClockDisplay Caps = 1 << 6
	// CapLights: the board can light squares.
	CapLights Caps = 1 << 7
	// CapText: the board shows alert and move texts.
	CapText Caps = 1 << 8
)

// Has reports whether all capabilities of c are in cs.
func (cs Caps) Has(c Caps) bool { return cs&c == c }

// Side names a player on the wire. The arbiter button belongs to nobody.
type Side uint8

// Sides.
const (
	SideFirst  Side = 0
	SideSecond Side = 1
	SideNone   Side = 0xFF
)

// Color returns the side as a rules colour, and false for SideNone.
func (s Side) Color() (rules.Color, bool) {
	switch s {
	case SideFirst:
		return rules.First, true
	case SideSecond:
		return rules.Second, true
	}
	return 0, false
}

// SideOf returns the wire side of c.
func SideOf(c rules.Color) Side { return Side(c) }

// ButtonKind says what a button is for.
type ButtonKind uint8

// Buttons.
const (
	// ButtonClock ends the player's turn.
	ButtonClock ButtonKind = 1
	// ButtonAdjust announces "j'adoube": touches until the next press are
	// adjustments, not moves.
	ButtonAdjust ButtonKind = 2
	// ButtonArbiter calls the human arbiter.
	ButtonArbiter ButtonKind = 3
	// ButtonAnswer answers a question shown to the player (promote or not,
	// which piece to drop); the event's value says which answer.
	ButtonAnswer ButtonKind = 4
	// ButtonOffer offers a draw (jishogi in shogi, which has no draw by
	// agreement); pressed by the opponent while the offer stands, it
	// accepts it (since 1.2).
	ButtonOffer ButtonKind = 5
	// ButtonResign resigns the game once confirmed: a second press of the
	// same button within [ResignConfirm] of the first (since 1.2).
	ButtonResign ButtonKind = 6
	// ButtonClaim claims a draw by the player to move (threefold
	// repetition, the move-count rule), or in shogi declares an entering
	// king (since 1.2).
	ButtonClaim ButtonKind = 7
)

// ResignConfirm is how long after a first press of [ButtonResign] the
// second press that confirms the resignation may come (board time).
const ResignConfirm = 5 * time.Second

// String returns the button's name.
func (b ButtonKind) String() string {
	switch b {
	case ButtonClock:
		return "clock"
	case ButtonAdjust:
		return "adjust"
	case ButtonArbiter:
		return "arbiter"
	case ButtonAnswer:
		return "answer"
	case ButtonOffer:
		return "offer"
	case ButtonResign:
		return "resign"
	case ButtonClaim:
		return "claim"
	}
	return fmt.Sprintf("button(%d)", uint8(b))
}

// Answer values carried by ButtonAnswer presses. Choices of a list are
// AnswerChoice+n for n from 0 to 14.
const (
	AnswerYes    uint8 = 0x01
	AnswerNo     uint8 = 0x02
	AnswerChoice uint8 = 0x10
)

// Ident is the identity of a piece as a board senses it. Known is false
// when the board cannot identify pieces or the square is empty; Piece then
// is zero. Which fields of Piece are meaningful depends on the board's
// capabilities (a board may sense kind but not colour).
type Ident struct {
	Known bool
	Piece rules.Piece
}

// String returns the piece, or "?" when unknown.
func (id Ident) String() string {
	if !id.Known {
		return "?"
	}
	return id.Piece.String()
}

const (
	identKnown  = 0x80
	identSecond = 0x01
	identBack   = 0x02
)

func appendIdent(dst []byte, id Ident) []byte {
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

func readIdent(b []byte) (Ident, error) {
	flags, kind, mark := b[0], b[1], b[2]
	if flags&identKnown == 0 {
		return Ident{}, nil
	}
	if kind < 'A' || kind > 'Z' {
		return Ident{}, fmt.Errorf("piece kind byte 0x%02x is not an upper-case letter", kind)
	}
	if mark != 0 && (mark < 'A' || mark > 'Z') {
		return Ident{}, fmt.Errorf("piece mark byte 0x%02x is not an upper-case letter", mark)
	}
	p := rules.Piece{Kind: rules.Kind(kind), Mark: rules.Kind(mark)}
	if flags&identSecond != 0 {
		p.Color = rules.Second
	}
	if flags&identBack != 0 {
		p.Face = rules.Back
	}
	return Ident{Known: true, Piece: p}, nil
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

func (r *reader) ident(field string) Ident {
	if !r.need(field, 3) {
		return Ident{}
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
