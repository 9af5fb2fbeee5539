package sensorboard

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/internal/scenariotest"
	"arbiter/rules"
)

// Link scenarios live in testdata/link/*.txt. Each input line is a frame
// (or a tick, or a disconnect); the lines starting with ">" after it are
// everything the link must emit and send in answer, in order:
//
//	hello seq=0 time=0 host=10 boot=1 cells=4
//	> hello restarted
//	> health active
//	> send DUMP_REQ token=1
//
// Times are in ms: time is the board's clock, host the receive instant.
// internal/scenariotest reads the files and compares the outputs; "go
// test -run TestLinkScenarios -rewrite" writes the outputs the link
// produces in place of the expected lines that differ.
func TestLinkScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "link", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) { runLinkScenario(t, file) })
	}
}

func runLinkScenario(t *testing.T, file string) {
	var out []string
	l := &Link{
		Emit: func(e board.Event) { out = append(out, renderEvent(e)) },
		Send: func(m Message) { out = append(out, renderSend(m)) },
	}
	l.SetPort("pty", 0)
	scenariotest.Run(t, file, scenariotest.Syntax{Expect: ">"}, func(c *scenariotest.Command) []scenariotest.Output {
		out = nil
		if err := linkInput(l, c.Text); err != nil {
			t.Fatalf("%s: %s: %v", c.Pos(), c.Text, err)
		}
		return scenariotest.Lines(out...)
	})
}

// linkInput performs one scenario input line.
func linkInput(l *Link, line string) error {
	fields := strings.Fields(line)
	args := map[string]string{}
	for _, f := range fields[1:] {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			v = "true"
		}
		args[k] = v
	}
	num := func(k string) int {
		n, err := strconv.ParseInt(args[k], 0, 64)
		if err != nil && args[k] != "" {
			panic(fmt.Sprintf("field %s=%q: %v", k, args[k], err))
		}
		return int(n)
	}
	host := time.Duration(num("host")) * time.Millisecond
	frame := func(m Message, seq int) {
		p := m.AppendPayload(nil)
		l.Frame(Frame{Header: Header{Type: m.Type(), Seq: uint16(seq), Time: uint32(num("time"))}, Payload: p}, host)
	}
	switch fields[0] {
	case "hello":
		cells := num("cells")
		hb := num("heartbeat")
		if hb == 0 {
			hb = 500
		}
		frame(&Hello{Major: uint8(VersionMajor + num("major")), Boot: uint32(num("boot")), Caps: board.CapHeight, MaxHeight: 31,
			Heartbeat: uint16(hb), Width: uint8(cells), Height: 1, Cells: uint16(cells), ID: "B1"}, num("seq"))
	case "square":
		m := &SquareMsg{Square: uint16(num("sq")), Height: uint8(num("h"))}
		if p := args["top"]; p != "" {
			m.Top = board.Ident{Known: true, Piece: rules.Piece{Kind: rules.Kind(p[0])}}
		}
		frame(m, num("seq"))
	case "button":
		kinds := map[string]board.ButtonKind{"clock": board.ButtonClock, "adjust": board.ButtonAdjust, "arbiter": board.ButtonArbiter, "answer": board.ButtonAnswer}
		frame(&ButtonMsg{Button: kinds[args["kind"]], Side: board.Side(num("side")), Pressed: args["release"] == "", Count: uint8(num("count"))}, num("seq"))
	case "heartbeat":
		frame(&HeartbeatMsg{TxLost: uint16(num("txlost"))}, num("seq"))
	case "unknown":
		frame(&rawMsg{t: Type(num("type"))}, num("seq"))
	case "dump":
		// DUMP_SQUARES then DUMP_END, at seq and seq+1.
		var sq []board.SquareState
		for _, h := range strings.Split(args["heights"], ",") {
			n, _ := strconv.Atoi(h)
			sq = append(sq, board.SquareState{Height: uint8(n)})
		}
		tok := uint16(num("token"))
		seq := num("seq")
		if args["skip-squares"] == "" {
			frame(&DumpSquaresMsg{Token: tok, Squares: sq}, seq)
		}
		var bs []board.ButtonState
		if c := args["clock0"]; c != "" {
			bs = append(bs, board.ButtonState{Button: board.ButtonClock, Side: board.SideFirst, Count: uint8(num("clock0"))})
		}
		frame(&DumpEndMsg{Token: tok, Squares: uint16(len(sq)), Buttons: bs}, seq+1)
	case "tick":
		l.Tick(host)
	case "disconnect":
		l.Disconnected(host)
	case "port":
		l.SetPort("pty2", host)
	default:
		return fmt.Errorf("unknown scenario input %q", fields[0])
	}
	return nil
}

// rawMsg is a message of any type with an empty payload.
type rawMsg struct{ t Type }

func (m *rawMsg) Type() Type                      { return m.t }
func (m *rawMsg) AppendPayload(dst []byte) []byte { return dst }
func (m *rawMsg) UnmarshalPayload([]byte) error   { return nil }

func renderSend(m Message) string {
	switch m := m.(type) {
	case *DumpReqMsg:
		return fmt.Sprintf("send DUMP_REQ token=%d", m.Token)
	}
	return "send " + m.Type().String()
}

func renderEvent(e board.Event) string {
	switch e.Kind {
	case board.EventHello:
		if e.Restarted {
			return "hello restarted"
		}
		return "hello"
	case board.EventHealth:
		return "health " + e.Health.String()
	case board.EventSquare:
		s := fmt.Sprintf("square sq=%d h=%d", e.Square, e.Height)
		if e.Top.Known {
			s += " top=" + e.Top.String()
		}
		return s
	case board.EventGap:
		return fmt.Sprintf("gap lost=%d", e.Lost)
	case board.EventButton:
		s := fmt.Sprintf("button %s side=%d n=%d", e.Button, e.Side, e.Presses)
		if !e.Pressed {
			s += " released"
		}
		if e.Missed != 0 {
			s += fmt.Sprintf(" missed=%d", e.Missed)
		}
		if e.Recovered {
			s += " recovered"
		}
		return s
	case board.EventSnapshot:
		h := e.Snapshot.Heights()
		parts := make([]string, len(h))
		for i, x := range h {
			parts[i] = strconv.Itoa(x)
		}
		return "snapshot heights=" + strings.Join(parts, ",")
	case board.EventError:
		return "error"
	}
	return e.Kind.String()
}

func TestLinkTimes(t *testing.T) {
	var evs []board.Event
	l := &Link{Emit: func(e board.Event) { evs = append(evs, e) }, Send: func(Message) {}}
	l.SetPort("p", 0)
	h := (&Hello{Major: 1, Boot: 1, Caps: board.CapHeight, Heartbeat: 500, Width: 2, Height: 1, Cells: 2, ID: "T"}).AppendPayload(nil)
	l.Frame(Frame{Header: Header{Type: TypeHello, Seq: 0, Time: 0xFFFFFF00}, Payload: h}, 10*time.Second)
	sq := (&SquareMsg{Square: 1, Height: 1}).AppendPayload(nil)
	// The board clock wraps between the two frames; the second frame
	// arrives 40 ms late but maps to when it happened.
	l.Frame(Frame{Header: Header{Type: TypeSquare, Seq: 1, Time: 0x00000064}, Payload: sq}, 10*time.Second+356*time.Millisecond+40*time.Millisecond)
	var last board.Event
	for _, e := range evs {
		if e.Kind == board.EventSquare {
			last = e
		}
	}
	require.Equal(t, board.EventSquare, last.Kind)
	assert.Equal(t, int64(0xFFFFFF00)+0x164, last.BoardMs, "unwrapped board time")
	assert.True(t, last.Mapped)
	assert.Equal(t, 10*time.Second+356*time.Millisecond, last.At)
	assert.Equal(t, 10*time.Second+396*time.Millisecond, last.Host)
}

// A board that restarts while its HELLO is lost: its new frames look old
// until too many come in a row; then the link resynchronises, asks for the
// HELLO and a dump, and the new boot resets what it knew.
func TestLinkUnseenRestart(t *testing.T) {
	var out []string
	l := &Link{Emit: func(e board.Event) { out = append(out, renderEvent(e)) }, Send: func(m Message) { out = append(out, renderSend(m)) }}
	l.SetPort("p", 0)
	hello := func(boot uint32, seq uint16, host time.Duration) {
		p := (&Hello{Major: 1, Boot: boot, Caps: board.CapHeight, Heartbeat: 500, Width: 1, Height: 1, Cells: 1, ID: "R"}).AppendPayload(nil)
		l.Frame(Frame{Header: Header{Type: TypeHello, Seq: seq, Time: uint32(host / time.Millisecond)}, Payload: p}, host)
	}
	square := func(seq uint16, ms uint32, host time.Duration) {
		p := (&SquareMsg{Square: 0, Height: uint8(seq % 2)}).AppendPayload(nil)
		l.Frame(Frame{Header: Header{Type: TypeSquare, Seq: seq, Time: ms}, Payload: p}, host)
	}
	hello(1, 0, 0)
	for i := uint16(1); i <= 40; i++ {
		square(i, 100_000+uint32(i), time.Duration(i)*time.Millisecond)
	}
	out = nil
	// The board restarts; HELLO #0 is lost; frames #1.. arrive.
	for i := uint16(1); i <= maxOldRun+1; i++ {
		square(i, uint32(i), time.Second+time.Duration(i)*time.Millisecond)
	}
	// The first dump (token 1) is still pending, so no new one is asked
	// for; the clock going back asks for the HELLO a second time.
	assert.Equal(t, []string{"send HELLO_REQ", "gap lost=0", "send HELLO_REQ", "square sq=0 h=1"}, out)
	out = nil
	hello(2, maxOldRun+2, 2*time.Second)
	assert.Equal(t, []string{"hello restarted", "send DUMP_REQ token=2"}, out)
}

// FuzzLink feeds arbitrary frames to a link after a handshake: it may
// report protocol errors but never panic, and every snapshot it delivers
// covers the whole board. The input is a list of records, each a type, a
// step of the sequence number, a step of the board clock, a payload length
// and the payload, so that the CRC does not hide the link's logic from
// the fuzzer.
func FuzzLink(f *testing.F) {
	var seed []byte
	for _, ex := range docExamples {
		if ex.h.Type.FromBoard() && ex.h.Type != TypeHello {
			p := ex.m.AppendPayload(nil)
			seed = append(seed, byte(ex.h.Type), 1, 10, byte(len(p)))
			seed = append(seed, p...)
		}
	}
	f.Add(seed)
	f.Add([]byte{byte(TypeDumpEnd), 1, 1, 0, byte(TypeSquare), 200, 0, 6, 0, 3, 1, 0x80, 'P', 0})
	f.Fuzz(func(t *testing.T, stream []byte) {
		l := &Link{Send: func(Message) {}}
		l.Emit = func(e board.Event) {
			if e.Kind == board.EventSnapshot && len(e.Snapshot.Squares) != 4 {
				t.Fatalf("snapshot of %d squares on a 4-cell board", len(e.Snapshot.Squares))
			}
		}
		l.SetPort("fuzz", 0)
		hello := (&Hello{Major: 1, Boot: 1, Caps: board.CapHeight | board.CapIdentity, Heartbeat: 100, Width: 2, Height: 2, Cells: 4,
			Zones: []board.ZoneInfo{{Kind: rules.Hand, Owner: rules.First}}, ID: "F"}).AppendPayload(nil)
		l.Frame(Frame{Header: Header{Type: TypeHello}, Payload: hello}, 0)
		var seq uint16
		var ms uint32
		host := time.Duration(0)
		for len(stream) >= 4 {
			typ, ds, dt, n := stream[0], stream[1], stream[2], int(stream[3])
			stream = stream[4:]
			n = min(n, len(stream))
			seq += uint16(ds)
			ms += uint32(dt) * 7
			host += time.Duration(dt) * 7 * time.Millisecond
			l.Frame(Frame{Header: Header{Type: Type(typ), Seq: seq, Time: ms}, Payload: stream[:n]}, host)
			l.Tick(host)
			stream = stream[n:]
		}
	})
}
