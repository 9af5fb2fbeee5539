package sim_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/hardware/millennium"
	"arbiter/hardware/millennium/sim"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// out collects what a board sends, as messages.
type out struct {
	dec  millennium.Decoder
	buf  []byte
	msgs []string
}

func (o *out) write(p []byte) {
	o.buf = append(o.buf, p...)
	for len(o.buf) > 0 {
		n, m, err := o.dec.Decode(o.buf)
		if errors.Is(err, millennium.ErrIncomplete) {
			return
		}
		if err == nil {
			o.msgs = append(o.msgs, m.String())
		}
		o.buf = o.buf[n:]
	}
}

func (o *out) take() []string {
	m := o.msgs
	o.msgs = nil
	return m
}

func newBoard(cfg sim.Config) (*sim.Board, *out, *time.Duration) {
	now := new(time.Duration)
	cfg.Now = func() time.Duration { return *now }
	b := sim.NewBoard(cfg)
	o := &out{dec: millennium.Decoder{Lengths: &millennium.ReplyLengths}}
	b.SetOutput(o.write)
	return b, o, now
}

// The firmware answers each command of the protocol, refuses one with a
// wrong parity or checksum, keeps its registers, and goes quiet for three
// seconds after a reset.
func TestCommands(t *testing.T) {
	b, o, now := newBoard(sim.Config{Model: sim.EONE, ID: [4]byte{1, 2, 3, 4}})
	b.HandleHost(millennium.Append(nil, 'V', ""))
	assert.Equal(t, []string{"v0200"}, o.take())
	b.HandleHost(millennium.Append(nil, 'R', "12"))
	assert.Equal(t, []string{"r1203"}, o.take())
	b.HandleHost(millennium.Append(nil, 'W', "0207"))
	assert.Equal(t, []string{"w0207"}, o.take())
	assert.Equal(t, byte(7), b.Registers()[millennium.RegAutoReport])
	bad := millennium.Append(nil, 'V', "")
	bad[1] ^= 0x80 // the parity of one byte
	b.HandleHost(bad)
	bad = millennium.Append(nil, 'V', "")
	bad[2] = millennium.Parity('7') // the checksum
	b.HandleHost(bad)
	assert.Empty(t, o.take(), "no reply to a damaged command")
	assert.GreaterOrEqual(t, b.Counters().Refused, 2)
	b.HandleHost(millennium.Append(nil, 'T', ""))
	b.HandleHost(millennium.Append(nil, 'V', ""))
	assert.Empty(t, o.take(), "busy starting up")
	*now += 3 * time.Second
	b.HandleHost(millennium.Append(nil, 'V', ""))
	assert.Equal(t, []string{"v0200"}, o.take())
	assert.Equal(t, byte(7), b.Registers()[millennium.RegAutoReport], "the registers outlive a reset")
}

// The report modes of register 02: every scan, none, on a change, on a
// change held for N scans; a board reading from h1 reports its status
// reversed.
func TestReportModes(t *testing.T) {
	start := chess.Start().View()
	e2 := rules.Square(12)
	for _, tc := range []struct {
		mode byte
		want []int // reports after each of 6 scans: a change before scan 2
	}{
		{0, []int{1, 1, 1, 1, 1, 1}},
		{1, []int{0, 0, 0, 0, 0, 0}},
		{3, []int{0, 1, 0, 0, 0, 0}},
		{5, []int{0, 0, 0, 1, 0, 0}}, // three identical scans
	} {
		b, o, _ := newBoard(sim.Config{Registers: map[byte]byte{millennium.RegAutoReport: tc.mode}})
		b.SetUp(start)
		b.Scan() // the set-up seen
		o.take()
		var got []int
		for i := range 6 {
			if i == 1 {
				b.LiftSquare(e2)
			}
			b.Scan()
			got = append(got, len(o.take()))
		}
		assert.Equal(t, tc.want, got, "mode %d", tc.mode)
	}
	b, o, _ := newBoard(sim.Config{Reversed: true})
	b.SetUp(start)
	b.Scan()
	msgs := o.take()
	require.Len(t, msgs, 1)
	assert.Equal(t, "sRNBKQBNRPPPPPPPP................................pppppppprnbkqbnr", msgs[0], "h1 first")
}
