package sensorboard

import (
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/rules"
)

// docExamples are the worked examples of PROTOCOL.md, by name. The test
// checks that the document's wire bytes are exactly what the codec makes
// of these values, and that they decode back to them, so the document
// cannot drift from the code.
var docExamples = map[string]struct {
	h Header
	m Message
}{
	"hello": {Header{TypeHello, 0, 1200}, &Hello{
		Major: 1, Minor: 0, Boot: 0x1A2B3C4D, Caps: board.CapHeight | board.CapIdentity | board.CapColor,
		MaxHeight: 31, Heartbeat: 500, Width: 8, Height: 8, Cells: 64,
		Buttons: []board.ButtonInfo{{Kind: board.ButtonClock, Side: board.SideFirst}, {Kind: board.ButtonClock, Side: board.SideSecond}, {Kind: board.ButtonArbiter, Side: board.SideNone}},
		ID:      "TB-7", Firmware: "2.1",
	}},
	"hello-kvaa": {Header{TypeHello, 0, 35}, &Hello{
		Major: 1, Minor: 0, Boot: 7, Caps: board.CapZoneCount,
		MaxHeight: 1, Heartbeat: 1000, Width: 5, Height: 5, Cells: 13,
		Zones:   []board.ZoneInfo{{Kind: rules.Reserve, Owner: rules.First}, {Kind: rules.Reserve, Owner: rules.Second}},
		Buttons: []board.ButtonInfo{{Kind: board.ButtonClock, Side: board.SideFirst}, {Kind: board.ButtonClock, Side: board.SideSecond}},
		ID:      "KV-1", Firmware: "1", Graph: "kvaa13",
	}},
	"square-lift":   {Header{TypeSquare, 5, 73000}, &SquareMsg{Square: 12, Height: 0}},
	"square-tower":  {Header{TypeSquare, 6, 73850}, &SquareMsg{Square: 28, Height: 2, Top: board.Ident{Known: true, Piece: rules.Piece{Color: rules.First, Kind: 'P', Mark: 'H'}}}},
	"square-shogi":  {Header{TypeSquare, 300, 0x00FFFF00}, &SquareMsg{Square: 40, Height: 1, Top: board.Ident{Known: true, Piece: rules.Piece{Color: rules.Second, Kind: 'S', Face: rules.Back}}}},
	"zone-drop":     {Header{TypeZone, 301, 0x00FFFF10}, &ZoneMsg{Zone: 0, Count: 2, Action: board.ZoneRemoved, Piece: board.Ident{Known: true, Piece: rules.Piece{Kind: 'P'}}}},
	"button-clock":  {Header{TypeButton, 7, 74400}, &ButtonMsg{Button: board.ButtonClock, Side: board.SideFirst, Pressed: true, Count: 1}},
	"button-answer": {Header{TypeButton, 8, 75000}, &ButtonMsg{Button: board.ButtonAnswer, Side: board.SideSecond, Pressed: true, Count: 3, Value: board.AnswerYes}},
	"heartbeat":     {Header{TypeHeartbeat, 9, 75500}, &HeartbeatMsg{HostSeen: true, LastHostSeq: 4}},
	"dump-req":      {Header{TypeDumpReq, 5, 81234}, &DumpReqMsg{Token: 2}},
	"dump-squares":  {Header{TypeDumpSquares, 10, 75510}, &DumpSquaresMsg{Token: 2, First: 0, Squares: []board.SquareState{{Height: 1}, {Height: 0}, {Height: 3}, {Height: 31, Saturated: true}}}},
	"dump-end":      {Header{TypeDumpEnd, 11, 75512}, &DumpEndMsg{Token: 2, Squares: 4, Zones: 0, Buttons: []board.ButtonState{{Button: board.ButtonClock, Side: board.SideFirst, Count: 1, Pressed: false}, {Button: board.ButtonClock, Side: board.SideSecond, Count: 0, Pressed: false}}}},
	"clock":         {Header{TypeClock, 6, 81300}, &ClockMsg{First: 5_400_000, Second: 5_385_250, Running: board.SideSecond}},
	"light":         {Header{TypeLight, 7, 81400}, &LightMsg{Mode: board.LightBlink, Color: board.ColorBad, Squares: []uint16{12, 28}}},
	"alert":         {Header{TypeAlert, 8, 81500}, &AlertMsg{Level: board.AlertWarning, Beep: true, Text: "Restore e4"}},
	"ack-move":      {Header{TypeAckMove, 9, 81600}, &AckMoveMsg{Ply: 1, From: 12, To: 28, Text: "e2-e4"}},
	"ping":          {Header{TypePing, 10, 81700}, &PingMsg{Token: 99}},
	"pong":          {Header{TypePong, 12, 76000}, &PongMsg{Token: 99, HostTime: 81700}},
	"nak":           {Header{TypeNak, 13, 76010}, &NakMsg{HostSeq: 11, HostType: 0x9A, Reason: NakUnknownType}},
	"hello-req":     {Header{TypeHelloReq, 0, 10}, &HelloReqMsg{Major: 1, Minor: 0}},
	"question-promote": {Header{TypeQuestion, 11, 81800}, &QuestionMsg{Side: board.SideFirst, Kind: board.QuestionPromote, Text: "Promote?",
		Choices: []board.Choice{{From: 10, To: 70, Text: "8h2b+"}, {From: 10, To: 70, Text: "8h2b"}}}},
	"question-drop": {Header{TypeQuestion, 12, 81900}, &QuestionMsg{Side: board.SideSecond, Kind: board.QuestionChoose, Text: "Which piece?",
		Choices: []board.Choice{{From: -1, To: 40, Text: "P*5e"}, {From: -1, To: 40, Text: "S*5e"}, {From: -1, To: 40, Text: "G*5e"}}}},
	"question-clear": {Header{TypeQuestion, 13, 82000}, &QuestionMsg{Side: board.SideNone, Kind: board.QuestionNone}},
	"dump-zone-hand": {Header{TypeDumpZone, 14, 76020}, &DumpZoneMsg{Token: 3, Zone: 0, Count: 2, Pieces: []rules.Piece{{Kind: 'P'}, {Kind: 'S'}}}},
	"hello-buttons": {Header{TypeHello, 0, 900}, &Hello{
		Major: 1, Minor: 2, Boot: 0x5EED0001, Caps: board.CapHeight | board.CapClockDisplay | board.CapLights | board.CapText,
		MaxHeight: 31, Heartbeat: 500, Width: 8, Height: 8, Cells: 64,
		Buttons: []board.ButtonInfo{{Kind: board.ButtonClock, Side: board.SideFirst}, {Kind: board.ButtonClock, Side: board.SideSecond},
			{Kind: board.ButtonOffer, Side: board.SideFirst}, {Kind: board.ButtonOffer, Side: board.SideSecond}, {Kind: board.ButtonResign, Side: board.SideFirst}, {Kind: board.ButtonResign, Side: board.SideSecond},
			{Kind: board.ButtonClaim, Side: board.SideFirst}, {Kind: board.ButtonClaim, Side: board.SideSecond}, {Kind: board.ButtonArbiter, Side: board.SideNone}},
		ID: "TB-8", Firmware: "3.0",
	}},
	"square-unknown":  {Header{TypeSquare, 15, 76100}, &SquareMsg{Square: 28, Height: 2}},
	"button-release":  {Header{TypeButton, 16, 76180}, &ButtonMsg{Button: board.ButtonClock, Side: board.SideFirst, Pressed: false, Count: 1}},
	"button-offer":    {Header{TypeButton, 17, 76200}, &ButtonMsg{Button: board.ButtonOffer, Side: board.SideFirst, Pressed: true, Count: 1}},
	"button-resign":   {Header{TypeButton, 18, 76300}, &ButtonMsg{Button: board.ButtonResign, Side: board.SideSecond, Pressed: true, Count: 2}},
	"button-claim":    {Header{TypeButton, 19, 76400}, &ButtonMsg{Button: board.ButtonClaim, Side: board.SideFirst, Pressed: true, Count: 1}},
	"heartbeat-first": {Header{TypeHeartbeat, 1, 500}, &HeartbeatMsg{}},
	"ack-start":       {Header{TypeAckMove, 11, 81650}, &AckMoveMsg{Ply: 0, From: rules.NoSquare, To: rules.NoSquare, Text: "start"}},
}

var (
	exampleRE = regexp.MustCompile(`(?m)^example ([a-z0-9-]+):\n((?:[0-9A-F]{2}[ \n])+)`)
	bodyRE    = regexp.MustCompile(`(?m)^body ([a-z0-9-]+):\n((?:[0-9A-F]{2}[ \n])+)`)
)

func TestProtocolDocExamples(t *testing.T) {
	doc, err := os.ReadFile("PROTOCOL.md")
	require.NoError(t, err)
	found := map[string]bool{}
	for _, m := range exampleRE.FindAllStringSubmatch(string(doc), -1) {
		name := m[1]
		ex, ok := docExamples[name]
		if !assert.True(t, ok, "PROTOCOL.md example %q has no Go value in docExamples", name) {
			continue
		}
		found[name] = true
		wire, err := hex.DecodeString(strings.Join(strings.Fields(m[2]), ""))
		require.NoError(t, err, name)
		want := AppendFrame(nil, ex.h, ex.m.AppendPayload(nil))
		assert.Equal(t, hexLines(want), hexLines(wire), "example %s: the document's bytes differ from the codec's", name)

		d := NewDecoder()
		n, f, err := d.Decode(wire)
		require.NoError(t, err, name)
		assert.Equal(t, len(wire), n, name)
		assert.Equal(t, ex.h, f.Header, name)
		got := NewMessage(f.Type)
		require.NoError(t, got.UnmarshalPayload(f.Payload), name)
		assert.Equal(t, ex.m, got, name)
	}
	bodies := 0
	for _, m := range bodyRE.FindAllStringSubmatch(string(doc), -1) {
		ex, ok := docExamples[m[1]]
		if !assert.True(t, ok, "PROTOCOL.md body %q has no Go value", m[1]) {
			continue
		}
		bodies++
		w := AppendFrame(nil, ex.h, ex.m.AppendPayload(nil))
		body := make([]byte, MaxBody)
		n, ok := cobsDecode(body, w[:len(w)-1])
		require.True(t, ok)
		assert.Equal(t, hexLines(body[:n]), hexLines(mustHex(t, m[2])), "body %s", m[1])
	}
	assert.GreaterOrEqual(t, bodies, 4, "the document's body examples were not found")
	for name := range docExamples {
		assert.True(t, found[name], "example %q missing from PROTOCOL.md; it reads:\nexample %s:\n%s", name, name, hexLines(AppendFrame(nil, docExamples[name].h, docExamples[name].m.AppendPayload(nil))))
	}
}

// hexLines writes bytes as upper-case hex pairs, 16 to a line.
func hexLines(b []byte) string {
	var sb strings.Builder
	for i, c := range b {
		if i > 0 {
			if i%16 == 0 {
				sb.WriteByte('\n')
			} else {
				sb.WriteByte(' ')
			}
		}
		sb.WriteString(strings.ToUpper(hex.EncodeToString([]byte{c})))
	}
	return sb.String()
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	require.NoError(t, err)
	return b
}

// TestProtocolDocNumbers checks the document's figures against the code:
// the version, the button kinds and their names, the longest frame and
// the resignation window.
func TestProtocolDocNumbers(t *testing.T) {
	raw, err := os.ReadFile("PROTOCOL.md")
	require.NoError(t, err)
	doc := string(raw)
	assert.Contains(t, doc, fmt.Sprintf("# Arbiter sensor-board protocol, version %d.%d\n", VersionMajor, VersionMinor))

	kinds := regexp.MustCompile(`(?m)^\| ([0-9]+) \| ([a-z]+) \| [^|]+ \| (1\.[0-9]) \|$`).FindAllStringSubmatch(doc, -1)
	require.Len(t, kinds, int(board.ButtonClaim), "the button kinds of §5.4, one row each")
	for i, k := range kinds {
		assert.Equal(t, strconv.Itoa(i+1), k[1], "kinds in order")
		assert.Equal(t, board.ButtonKind(i+1).String(), k[2], "the name of kind %d", i+1)
	}

	group := func(n int) string { // 1041 → "1 041", as the document writes numbers
		s := strconv.Itoa(n)
		if len(s) > 3 {
			s = s[:len(s)-3] + " " + s[len(s)-3:]
		}
		return s
	}
	flat := strings.Join(strings.Fields(doc), " ") // the text, whatever its line breaks
	assert.Contains(t, flat, fmt.Sprintf("7 + %d + 4 = **%s bytes**", MaxPayload, group(MaxBody)))
	assert.Contains(t, flat, fmt.Sprintf("⌈%s / 254⌉ = %d", group(MaxBody), (MaxBody+253)/254))
	assert.Contains(t, flat, fmt.Sprintf("at most **%s wire bytes**", group(MaxWire)))
	assert.Contains(t, flat, fmt.Sprintf("keeps at most %s bytes before a delimiter", group(MaxWire-1)))
	assert.Contains(t, flat, fmt.Sprintf("within **%d s** of the first", int(board.ResignConfirm/time.Second)))
}
