package certabo_test

import (
	"testing"

	"arbiter/hardware/certabo"
)

// FuzzParseLine feeds the line splitter and the frame parser any bytes:
// they never panic, and every frame parsed is written back to the same
// frame.
func FuzzParseLine(f *testing.F) {
	f.Add(certabo.AppendFrame(nil, &certabo.Frame{{3, 0, 83, 12, 200}}))
	f.Add([]byte("L\r\nD\r\n:1 2 3\r\n"))
	f.Add([]byte(":255 255 0 0 1 \r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var l certabo.Lines
		l.Feed(data, func(line []byte) {
			kind, fr, err := certabo.ParseLine(line)
			if err != nil || kind != certabo.LineFrame {
				return
			}
			back := certabo.AppendFrame(nil, &fr)
			k2, fr2, err := certabo.ParseLine(back)
			if err != nil || k2 != certabo.LineFrame || fr2 != fr {
				t.Fatalf("a frame does not survive writing: %v", err)
			}
		})
	})
}
