package millennium_test

import (
	"errors"
	"testing"

	"arbiter/hardware/millennium"
)

// FuzzDecoder feeds the reply decoder any bytes: it never panics, always
// moves on, and every message it returns has the length and the data of
// its letter and survives encoding again.
func FuzzDecoder(f *testing.F) {
	f.Add(millennium.Append(nil, 'v', "0103"))
	f.Add(millennium.Append(nil, 's', "rnbqkbnrpppppppp................................PPPPPPPPRNBQKBNR"))
	f.Add(append(millennium.Append(nil, 'r', "0214"), millennium.Append(nil, 'w', "0203")...))
	f.Add([]byte{0xff, 's', 'r', 0x00})
	f.Fuzz(func(t *testing.T, wire []byte) {
		for _, lengths := range []*millennium.Lengths{&millennium.ReplyLengths, &millennium.CommandLengths} {
			d := millennium.Decoder{Lengths: lengths}
			buf := wire
			for len(buf) > 0 {
				n, m, err := d.Decode(buf)
				if errors.Is(err, millennium.ErrIncomplete) {
					break
				}
				if n <= 0 || n > len(buf) {
					t.Fatalf("decoded %d of %d bytes", n, len(buf))
				}
				if err == nil {
					if int(lengths[m.Letter]) != n {
						t.Fatalf("%q: %d bytes, its letter's length is %d", m, n, lengths[m.Letter])
					}
					again := millennium.Append(nil, m.Letter, m.Data)
					for i := range again {
						if again[i]&0x7f != buf[i]&0x7f {
							t.Fatalf("%q encodes to % x, decoded from % x", m, again, buf[:n])
						}
					}
					if m.Letter == 's' {
						if _, ok := millennium.ParseStatus(m.Data); !ok {
							t.Fatalf("status %q does not parse", m.Data)
						}
					}
				}
				buf = buf[n:]
			}
		}
	})
}
