package sensorboard

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
)

// Protocol version spoken by this package. Boards and hosts must agree on
// the major version; a higher minor version only adds message types and
// trailing payload fields, which older peers ignore.
const (
	VersionMajor = 1
	VersionMinor = 2
)

// Frame geometry. A frame body is a 7-byte header, a payload of at most
// MaxPayload bytes and a 4-byte CRC; on the wire the body is COBS-encoded
// and followed by a single zero byte.
const (
	HeaderLen  = 7
	CRCLen     = 4
	MaxPayload = 1024
	MaxBody    = HeaderLen + MaxPayload + CRCLen
	// MaxWire is the longest encoded frame, delimiter included.
	MaxWire = MaxBody + (MaxBody+253)/254 + 1
)

// Type is a frame's message type. Board-to-host types are below 0x80,
// host-to-board types are 0x80 and above.
type Type uint8

// Board-to-host message types.
const (
	TypeHello       Type = 0x01
	TypeSquare      Type = 0x02
	TypeZone        Type = 0x03
	TypeButton      Type = 0x04
	TypeHeartbeat   Type = 0x05
	TypePong        Type = 0x06
	TypeNak         Type = 0x07
	TypeDumpSquares Type = 0x11
	TypeDumpZone    Type = 0x12
	TypeDumpEnd     Type = 0x13
)

// Host-to-board message types.
const (
	TypeHelloReq Type = 0x81
	TypeDumpReq  Type = 0x82
	TypePing     Type = 0x83
	TypeClock    Type = 0x84
	TypeLight    Type = 0x85
	TypeAlert    Type = 0x86
	TypeAckMove  Type = 0x87
	TypeQuestion Type = 0x88
)

var typeNames = map[Type]string{
	TypeHello: "HELLO", TypeSquare: "SQUARE", TypeZone: "ZONE", TypeButton: "BUTTON",
	TypeHeartbeat: "HEARTBEAT", TypePong: "PONG", TypeNak: "NAK",
	TypeDumpSquares: "DUMP_SQUARES", TypeDumpZone: "DUMP_ZONE", TypeDumpEnd: "DUMP_END",
	TypeHelloReq: "HELLO_REQ", TypeDumpReq: "DUMP_REQ", TypePing: "PING", TypeClock: "CLOCK",
	TypeLight: "LIGHT", TypeAlert: "ALERT", TypeAckMove: "ACK_MOVE",
	TypeQuestion: "QUESTION",
}

// String returns the type's protocol name ("SQUARE"), or "TYPE(0x..)".
func (t Type) String() string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return "TYPE(0x" + strconv.FormatUint(uint64(t), 16) + ")"
}

// FromBoard reports whether t is a board-to-host type.
func (t Type) FromBoard() bool { return t < 0x80 }

// Header is the fixed start of every frame.
type Header struct {
	Type Type
	// Seq counts the frames its sender has sent since power-up, from 0,
	// wrapping at 65535. Each direction has its own count.
	Seq uint16
	// Time is the sender's clock in milliseconds since power-up, wrapping
	// at 2^32.
	Time uint32
}

// Frame is one decoded frame. Payload aliases the decoder's buffer and is
// valid only until the next call to the decoder.
type Frame struct {
	Header
	Payload []byte
}

var crcTable = crc32.IEEETable

// AppendFrame appends the wire form of a frame (COBS-encoded body and the
// zero delimiter) to dst. It panics if payload is longer than MaxPayload:
// that is a programming error, as message sizes are bounded by design.
func AppendFrame(dst []byte, h Header, payload []byte) []byte {
	if len(payload) > MaxPayload {
		panic(fmt.Sprintf("sensorboard: %s payload of %d bytes exceeds %d", h.Type, len(payload), MaxPayload))
	}
	var hdr [HeaderLen]byte
	hdr[0] = byte(h.Type)
	binary.BigEndian.PutUint16(hdr[1:], h.Seq)
	binary.BigEndian.PutUint32(hdr[3:], h.Time)
	crc := crc32.Update(0, crcTable, hdr[:])
	crc = crc32.Update(crc, crcTable, payload)
	var tail [CRCLen]byte
	binary.BigEndian.PutUint32(tail[:], crc)

	var e cobsEncoder
	dst = e.start(dst)
	dst = e.write(dst, hdr[:])
	dst = e.write(dst, payload)
	dst = e.write(dst, tail[:])
	return e.finish(dst)
}

// cobsEncoder writes Consistent Overhead Byte Stuffing incrementally, so a
// frame is encoded from its parts without copying them together first. A
// block of 254 non-zero bytes is closed with code 0xFF, and the next block
// opens only if more bytes follow, as in the original paper.
type cobsEncoder struct {
	code int  // index in dst of the open block's code byte
	full bool // the last block was closed at 254 bytes; none is open
}

func (e *cobsEncoder) start(dst []byte) []byte {
	e.code, e.full = len(dst), false
	return append(dst, 0)
}

func (e *cobsEncoder) write(dst, p []byte) []byte {
	for _, c := range p {
		if e.full {
			dst = e.start(dst)
		}
		if c == 0 {
			dst[e.code] = byte(len(dst) - e.code)
			dst = e.start(dst)
			continue
		}
		dst = append(dst, c)
		if len(dst)-e.code == 0xFF {
			dst[e.code] = 0xFF
			e.full = true
		}
	}
	return dst
}

func (e *cobsEncoder) finish(dst []byte) []byte {
	if !e.full {
		dst[e.code] = byte(len(dst) - e.code)
	}
	return append(dst, 0)
}

// Errors of the frame decoder. A decoder error always concerns one frame;
// the decoder has already resynchronised on the next delimiter.
var (
	// ErrIncomplete means the input ended inside a frame: feed more bytes.
	ErrIncomplete = errors.New("incomplete frame")
	ErrOverlong   = errors.New("frame longer than the maximum")
	ErrCOBS       = errors.New("bad COBS encoding")
	ErrShort      = errors.New("frame shorter than header and CRC")
	ErrCRC        = errors.New("CRC mismatch")
)

// DecodeStats counts what a decoder has seen.
type DecodeStats struct {
	Bytes    uint64 // bytes consumed
	Frames   uint64 // good frames
	Bad      uint64 // frames rejected (CRC, COBS, length)
	Overlong uint64 // of Bad: frames that exceeded MaxWire
}

// Decoder splits a byte stream into frames. It keeps at most MaxWire bytes
// and never allocates after construction. The zero value is not usable; use
// [NewDecoder].
type Decoder struct {
	enc      []byte // encoded bytes of the frame in progress
	body     []byte // decoded body of the last frame
	overflow bool   // discarding until the next delimiter
	last     []byte // wire bytes of the last completed frame
	Stats    DecodeStats
}

// NewDecoder returns a decoder ready for a fresh stream.
func NewDecoder() *Decoder {
	return &Decoder{
		enc:  make([]byte, 0, MaxWire),
		body: make([]byte, MaxBody+1),
	}
}

// Reset forgets any partial frame, as after reopening a port.
func (d *Decoder) Reset() {
	d.enc = d.enc[:0]
	d.overflow = false
	d.last = nil
}

// Wire returns the wire bytes (COBS body and delimiter) of the frame that
// the last call to Decode completed, good or bad. The slice is valid until
// the next call to Decode.
func (d *Decoder) Wire() []byte { return d.last }

// Decode consumes bytes from p until one frame ends or p is exhausted, and
// returns how many bytes it consumed. When a frame ends, Decode returns it
// with a nil error, or returns the reason it was rejected. When p ends
// inside a frame it returns ErrIncomplete. Callers loop:
//
//	for len(p) > 0 {
//		n, f, err := d.Decode(p)
//		p = p[n:]
//		...
//	}
//
// Empty frames (two delimiters in a row) are skipped silently: a sender
// may emit a lone zero byte to flush a receiver that lost sync.
func (d *Decoder) Decode(p []byte) (int, Frame, error) {
	d.last = nil
	consumed := 0
	for {
		i := bytes.IndexByte(p, 0)
		if i < 0 {
			d.collect(p)
			consumed += len(p)
			d.Stats.Bytes += uint64(consumed)
			return consumed, Frame{}, ErrIncomplete
		}
		d.collect(p[:i])
		consumed += i + 1
		p = p[i+1:]
		if len(d.enc) == 0 && !d.overflow {
			continue // an empty frame: skip it
		}
		d.Stats.Bytes += uint64(consumed)
		if d.overflow {
			d.overflow = false
			d.enc = d.enc[:0]
			d.Stats.Bad++
			d.Stats.Overlong++
			return consumed, Frame{}, ErrOverlong
		}
		d.enc = append(d.enc, 0)
		d.last = d.enc
		f, err := d.finish()
		d.enc = d.enc[:0]
		if err != nil {
			d.Stats.Bad++
			return consumed, Frame{}, err
		}
		d.Stats.Frames++
		return consumed, f, nil
	}
}

// collect adds the bytes of a frame in progress, dropping the frame once
// it grows past MaxWire.
func (d *Decoder) collect(p []byte) {
	if d.overflow {
		return
	}
	if len(d.enc)+len(p) > MaxWire-1 {
		d.overflow = true
		d.enc = d.enc[:0]
		return
	}
	d.enc = append(d.enc, p...)
}

// finish decodes the COBS bytes in d.enc (delimiter excluded) and checks
// the frame.
func (d *Decoder) finish() (Frame, error) {
	src := d.enc[:len(d.enc)-1]
	n, ok := cobsDecode(d.body, src)
	if !ok {
		return Frame{}, ErrCOBS
	}
	b := d.body[:n]
	if n < HeaderLen+CRCLen {
		return Frame{}, ErrShort
	}
	want := binary.BigEndian.Uint32(b[n-CRCLen:])
	if crc32.Checksum(b[:n-CRCLen], crcTable) != want {
		return Frame{}, ErrCRC
	}
	return Frame{
		Header: Header{
			Type: Type(b[0]),
			Seq:  binary.BigEndian.Uint16(b[1:]),
			Time: binary.BigEndian.Uint32(b[3:]),
		},
		Payload: b[HeaderLen : n-CRCLen],
	}, nil
}

// cobsDecode decodes src (without delimiter) into dst and returns the
// decoded length. It reports false for a malformed encoding: a zero byte
// inside, or a code that runs past the end.
func cobsDecode(dst, src []byte) (int, bool) {
	n := 0
	for i := 0; i < len(src); {
		code := int(src[i])
		if code == 0 || i+code > len(src) {
			return 0, false
		}
		i++
		for j := 1; j < code; j++ {
			c := src[i]
			if c == 0 || n >= len(dst) {
				return 0, false
			}
			dst[n] = c
			n++
			i++
		}
		if code < 0xFF && i < len(src) {
			if n >= len(dst) {
				return 0, false
			}
			dst[n] = 0
			n++
		}
	}
	return n, true
}
