package driver

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/dgt"
)

// port is a board's line: what the board sends is read, what the host
// writes is kept.
type port struct {
	in      *bytes.Reader
	written bytes.Buffer
}

func (p *port) Read(b []byte) (int, error)  { return p.in.Read(b) }
func (p *port) Write(b []byte) (int, error) { return p.written.Write(b) }
func (p *port) Close() error                { return nil }

type logged struct {
	board string
	rec   board.Record
}

// The raw log gets every byte in both directions with its instant and
// direction, under the board's id: the bytes before the board told its
// serial number follow once it has, and a driver without a raw log does
// not wrap its ports.
func TestRawLog(t *testing.T) {
	now := time.Second
	var got []logged
	d, err := New(Config{Paths: []string{"/dev/x"}, Now: func() time.Duration { return now },
		Open: func(string) (io.ReadWriteCloser, error) {
			return &port{in: bytes.NewReader([]byte{0x91, 0x00, 0x08})}, nil
		},
		Raw: func(id string, r board.Record) {
			r.Data = append([]byte(nil), r.Data...)
			got = append(got, logged{id, r})
		}})
	require.NoError(t, err)
	l := d.newLink("/dev/x")
	rw, err := l.open()
	require.NoError(t, err)
	_, err = rw.Write([]byte{0x4D, 0x55})
	require.NoError(t, err)
	now = 2 * time.Second
	buf := make([]byte, 8)
	n, err := rw.Read(buf)
	require.NoError(t, err)
	require.Equal(t, 3, n)
	assert.Empty(t, got, "nothing is logged before the board has an id")

	now = 3 * time.Second
	l.take(dgt.Event{Kind: dgt.EventIdentified, Serial: "12345", At: now})
	_, err = rw.Write([]byte{0x42})
	require.NoError(t, err)
	assert.Equal(t, []logged{
		{"DGT-12345", board.Record{Host: time.Second, Sent: true, Data: []byte{0x4D, 0x55}}},
		{"DGT-12345", board.Record{Host: 2 * time.Second, Data: []byte{0x91, 0x00, 0x08}}},
		{"DGT-12345", board.Record{Host: 3 * time.Second, Sent: true, Data: []byte{0x42}}},
	}, got)

	d.cfg.Raw = nil
	rw, err = d.newLink("/dev/x").open()
	require.NoError(t, err)
	assert.IsType(t, &port{}, rw, "no raw log, no wrapper")
}
