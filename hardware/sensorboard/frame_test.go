package sensorboard

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func cobs(p []byte) []byte {
	var e cobsEncoder
	dst := e.start(nil)
	dst = e.write(dst, p)
	return e.finish(dst)
}

func seq(from, to int) []byte {
	var b []byte
	for i := from; i <= to; i++ {
		b = append(b, byte(i))
	}
	return b
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// The COBS vectors of the paper and of Wikipedia's article, all with the
// trailing delimiter.
func TestCOBSVectors(t *testing.T) {
	tests := []struct{ in, out []byte }{
		{[]byte{0x00}, []byte{0x01, 0x01, 0x00}},
		{[]byte{0x00, 0x00}, []byte{0x01, 0x01, 0x01, 0x00}},
		{[]byte{0x00, 0x11, 0x00}, []byte{0x01, 0x02, 0x11, 0x01, 0x00}},
		{[]byte{0x11, 0x22, 0x00, 0x33}, []byte{0x03, 0x11, 0x22, 0x02, 0x33, 0x00}},
		{[]byte{0x11, 0x22, 0x33, 0x44}, []byte{0x05, 0x11, 0x22, 0x33, 0x44, 0x00}},
		{[]byte{0x11, 0x00, 0x00, 0x00}, []byte{0x02, 0x11, 0x01, 0x01, 0x01, 0x00}},
		{seq(1, 254), cat([]byte{0xFF}, seq(1, 254), []byte{0x00})},
		{seq(0, 254), cat([]byte{0x01, 0xFF}, seq(1, 254), []byte{0x00})},
		{seq(1, 255), cat([]byte{0xFF}, seq(1, 254), []byte{0x02, 0xFF, 0x00})},
		{cat(seq(2, 255), []byte{0x00}), cat([]byte{0xFF}, seq(2, 255), []byte{0x01, 0x01, 0x00})},
		{cat(seq(3, 255), []byte{0x00, 0x01}), cat([]byte{0xFE}, seq(3, 255), []byte{0x02, 0x01, 0x00})},
	}
	for i, tc := range tests {
		got := cobs(tc.in)
		assert.Equal(t, tc.out, got, "vector %d", i)
		dst := make([]byte, len(tc.in)+10)
		n, ok := cobsDecode(dst, got[:len(got)-1])
		require.True(t, ok, "vector %d", i)
		assert.Equal(t, tc.in, dst[:n], "vector %d decoded", i)
	}
}

// crcRef is the bitwise CRC-32/ISO-HDLC, written from its definition.
func crcRef(b []byte) uint32 {
	crc := uint32(0xFFFFFFFF)
	for _, c := range b {
		crc ^= uint32(c)
		for range 8 {
			if crc&1 != 0 {
				crc = crc>>1 ^ 0xEDB88320
			} else {
				crc >>= 1
			}
		}
	}
	return ^crc
}

func TestCRC(t *testing.T) {
	require.Equal(t, uint32(0xCBF43926), crcRef([]byte("123456789")), "reference implementation")
	rng := rand.New(rand.NewPCG(1, 1))
	for range 200 {
		payload := make([]byte, rng.IntN(300))
		for i := range payload {
			payload[i] = byte(rng.IntN(4)) // many zeros
		}
		h := Header{Type: Type(rng.IntN(256)), Seq: uint16(rng.Uint32()), Time: rng.Uint32()}
		w := AppendFrame(nil, h, payload)
		require.Equal(t, -1, bytes.IndexByte(w[:len(w)-1], 0), "zero inside a frame")
		body := make([]byte, MaxBody)
		n, ok := cobsDecode(body, w[:len(w)-1])
		require.True(t, ok)
		got := binary.BigEndian.Uint32(body[n-4 : n])
		require.Equal(t, crcRef(body[:n-4]), got)
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	var stream []byte
	var want []Frame
	for range 500 {
		p := make([]byte, rng.IntN(MaxPayload+1))
		for i := range p {
			p[i] = byte(rng.IntN(3))
		}
		h := Header{Type: Type(rng.IntN(256)), Seq: uint16(rng.Uint32()), Time: rng.Uint32()}
		stream = AppendFrame(stream, h, p)
		want = append(want, Frame{Header: h, Payload: p})
	}
	// Feed in random chunks, as reads deliver them.
	d := NewDecoder()
	var got []Frame
	for len(stream) > 0 {
		chunk := stream[:min(len(stream), 1+rng.IntN(700))]
		stream = stream[len(chunk):]
		for len(chunk) > 0 {
			n, f, err := d.Decode(chunk)
			chunk = chunk[n:]
			if errors.Is(err, ErrIncomplete) {
				break
			}
			require.NoError(t, err)
			f.Payload = bytes.Clone(f.Payload)
			got = append(got, f)
		}
	}
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, want[i].Header, got[i].Header, "frame %d", i)
		assert.True(t, bytes.Equal(want[i].Payload, got[i].Payload), "frame %d payload", i)
	}
	assert.Equal(t, uint64(len(want)), d.Stats.Frames)
}

func TestDecodeErrors(t *testing.T) {
	good := AppendFrame(nil, Header{Type: TypeSquare, Seq: 1, Time: 2}, []byte{0, 12, 1, 0, 0, 0})
	corrupt := bytes.Clone(good)
	corrupt[len(corrupt)-3] ^= 0x40 // a CRC byte, not a COBS code
	short := cobs([]byte{1, 2, 3})
	badCOBS := []byte{0x05, 0x11, 0x00} // code runs past the end
	long := append(bytes.Repeat([]byte{0x55}, MaxWire+10), 0)
	tests := []struct {
		name string
		in   []byte
		want error
	}{
		{"crc", corrupt, ErrCRC},
		{"short", short, ErrShort},
		{"cobs", badCOBS, ErrCOBS},
		{"overlong", long, ErrOverlong},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDecoder()
			// The bad frame, then a good one: the decoder must resync.
			in := append(bytes.Clone(tc.in), good...)
			n, _, err := d.Decode(in)
			require.ErrorIs(t, err, tc.want)
			_, f, err := d.Decode(in[n:])
			require.NoError(t, err)
			assert.Equal(t, TypeSquare, f.Type)
			assert.Equal(t, uint64(1), d.Stats.Bad)
		})
	}
}

func TestDecodeSkipsEmptyFrames(t *testing.T) {
	good := AppendFrame(nil, Header{Type: TypeHeartbeat, Seq: 9}, make([]byte, 7))
	in := append([]byte{0, 0, 0}, good...)
	d := NewDecoder()
	n, f, err := d.Decode(in)
	require.NoError(t, err)
	assert.Equal(t, len(in), n)
	assert.Equal(t, uint16(9), f.Seq)
	assert.Equal(t, good, d.Wire())
}

func FuzzDecode(f *testing.F) {
	for _, ex := range docExamples {
		f.Add(AppendFrame(nil, ex.h, ex.m.AppendPayload(nil)))
	}
	f.Add([]byte{0, 0, 1, 2, 0xFF, 0})
	f.Add(bytes.Repeat([]byte{0xFF}, 2000))
	f.Fuzz(func(t *testing.T, in []byte) {
		d := NewDecoder()
		p := in
		for len(p) > 0 {
			n, fr, err := d.Decode(p)
			if n <= 0 || n > len(p) {
				t.Fatalf("Decode consumed %d of %d bytes", n, len(p))
			}
			p = p[n:]
			if err != nil {
				continue
			}
			// Every accepted frame re-encodes to exactly its wire bytes.
			if w := AppendFrame(nil, fr.Header, fr.Payload); !bytes.Equal(w, d.Wire()) {
				t.Fatalf("frame re-encodes to %x, read as %x", w, d.Wire())
			}
			if m := NewMessage(fr.Type); m != nil {
				_ = m.UnmarshalPayload(fr.Payload)
			}
		}
	})
}

func FuzzMessages(f *testing.F) {
	for _, ex := range docExamples {
		f.Add(byte(ex.h.Type), ex.m.AppendPayload(nil))
	}
	f.Fuzz(func(t *testing.T, typ byte, payload []byte) {
		m := NewMessage(Type(typ))
		if m == nil {
			return
		}
		if err := m.UnmarshalPayload(payload); err != nil {
			return
		}
		// What decodes re-encodes to a prefix-compatible payload that
		// decodes to the same value.
		again := NewMessage(Type(typ))
		require.NoError(t, again.UnmarshalPayload(m.AppendPayload(nil)))
		require.Equal(t, m, again)
	})
}
