package driver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/dgt"
)

type logged struct {
	board string
	rec   board.Record
}

// The raw log gets every chunk in both directions with the instant its
// session took or sent it, under the board's id: the chunks before the
// board told its serial number follow once it has, and a driver without a
// raw log gives its Conns none.
func TestRawLog(t *testing.T) {
	var got []logged
	d, err := New(Config{Paths: []string{"/dev/x"}, Now: func() time.Duration { return 0 },
		Raw: func(id string, r board.Record) {
			r.Data = append([]byte(nil), r.Data...)
			got = append(got, logged{id, r})
		}})
	require.NoError(t, err)
	l := d.newLink("/dev/x")
	l.raw(dgt.Chunk{Host: time.Second, Sent: true, Data: []byte{0x4D, 0x55}})
	l.raw(dgt.Chunk{Host: 2 * time.Second, Data: []byte{0x91, 0x00, 0x08}})
	assert.Empty(t, got, "nothing is logged before the board has an id")

	l.take(dgt.Event{Kind: dgt.EventIdentified, Serial: "12345", At: 3 * time.Second})
	l.raw(dgt.Chunk{Host: 3 * time.Second, Sent: true, Data: []byte{0x42}})
	assert.Equal(t, []logged{
		{"DGT-12345", board.Record{Host: time.Second, Sent: true, Data: []byte{0x4D, 0x55}}},
		{"DGT-12345", board.Record{Host: 2 * time.Second, Data: []byte{0x91, 0x00, 0x08}}},
		{"DGT-12345", board.Record{Host: 3 * time.Second, Sent: true, Data: []byte{0x42}}},
	}, got)
}
