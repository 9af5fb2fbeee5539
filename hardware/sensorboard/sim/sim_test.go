package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	sb "arbiter/hardware/sensorboard"
	"arbiter/rules"
	_ "arbiter/rules/kvaa"
)

type move struct{ from, to rules.Square }

func (m move) From() rules.Square { return m.from }
func (m move) To() rules.Square   { return m.to }
func (m move) String() string     { return fmt.Sprintf("%d-%d", m.from, m.to) }

var (
	geo8 = rules.NewRect(8, 8)
	geoH = rules.NewRect(9, 9, rules.Zone{Name: "hand-first", Kind: rules.Hand, Owner: rules.First},
		rules.Zone{Name: "hand-second", Kind: rules.Hand, Owner: rules.Second})
	wP = rules.Piece{Color: rules.First, Kind: 'P'}
	wN = rules.Piece{Color: rules.First, Kind: 'N'}
	bP = rules.Piece{Color: rules.Second, Kind: 'P'}
	bR = rules.Piece{Color: rules.Second, Kind: 'R'}
	wS = rules.Piece{Color: rules.First, Kind: 'S'}
)

func sq(g *rules.Geometry, name string) rules.Square {
	s, ok := g.Lookup(name)
	if !ok {
		panic(name)
	}
	return s
}

// view builds a view from "square: pieces bottom first" pairs.
func view(g *rules.Geometry, stacks map[string][]rules.Piece, zones ...[]rules.Piece) rules.View {
	v := rules.NewView(g)
	for name, ps := range stacks {
		v.Stacks[sq(g, name)] = ps
	}
	copy(v.Zones, zones)
	v.SortZones()
	return v
}

func ops(steps []Step) []Op {
	var out []Op
	for _, s := range steps {
		out = append(out, s.Op)
	}
	return out
}

func TestPlanCaptureEitherOrder(t *testing.T) {
	before := view(geo8, map[string][]rules.Piece{"e4": {wP}, "d5": {bP}})
	after := view(geo8, map[string][]rules.Piece{"d5": {wP}})
	m := move{sq(geo8, "e4"), sq(geo8, "d5")}
	firsts := map[rules.Square]int{}
	for seed := range uint64(40) {
		steps, err := PlanMove(geo8, before, after, m, rules.First, Human{}, rand.New(rand.NewPCG(seed, 1)))
		require.NoError(t, err)
		assert.Equal(t, []Op{OpLift, OpLift, OpPlace, OpPress}, ops(steps))
		firsts[steps[0].Square]++
		assert.Equal(t, board.ButtonClock, steps[len(steps)-1].Button)
	}
	assert.Positive(t, firsts[m.from], "mover lifted first")
	assert.Positive(t, firsts[m.to], "victim lifted first")
}

func TestPlanTowerSplit(t *testing.T) {
	// The top two of a three-high tower go onto an enemy piece.
	before := view(geo8, map[string][]rules.Piece{"d4": {bP, wP, wN}, "d8": {bR}})
	after := view(geo8, map[string][]rules.Piece{"d4": {bP}, "d8": {bR, wP, wN}})
	m := move{sq(geo8, "d4"), sq(geo8, "d8")}
	pinch := Human{OneByOne: 0}
	steps, err := PlanMove(geo8, before, after, m, rules.First, pinch, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	require.Equal(t, []Op{OpLift, OpPlace, OpPress}, ops(steps))
	assert.Equal(t, 2, steps[0].N)
	assert.Equal(t, []rules.Piece{wP, wN}, steps[1].Pieces)
	steps, err = PlanMove(geo8, before, after, m, rules.First, Human{OneByOne: 1}, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	assert.Equal(t, []Op{OpLift, OpLift, OpPlace, OpPlace, OpPress}, ops(steps))
}

func TestPlanPromotionTurnsThePiece(t *testing.T) {
	before := view(geoH, map[string][]rules.Piece{"e6": {wS}})
	promoted := wS
	promoted.Face = rules.Back
	after := view(geoH, map[string][]rules.Piece{"e7": {promoted}})
	m := move{sq(geoH, "e6"), sq(geoH, "e7")}
	steps, err := PlanMove(geoH, before, after, m, rules.First, Human{TurnAfter: 1}, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	require.Equal(t, []Op{OpLift, OpPlace, OpTurn, OpPress}, ops(steps))
	assert.Equal(t, rules.Front, steps[1].Pieces[0].Face, "placed unpromoted")
	assert.Equal(t, rules.Back, steps[2].Face)
	steps, err = PlanMove(geoH, before, after, m, rules.First, Human{}, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	require.Equal(t, []Op{OpLift, OpPlace, OpPress}, ops(steps))
	assert.Equal(t, rules.Back, steps[1].Pieces[0].Face, "turned over in the air")
}

func TestPlanShogiCaptureAndDrop(t *testing.T) {
	gP := rules.Piece{Color: rules.Second, Kind: 'P'}
	before := view(geoH, map[string][]rules.Piece{"e5": {wS}, "e6": {gP}}, nil, nil)
	after := view(geoH, map[string][]rules.Piece{"e6": {wS}}, []rules.Piece{wP}, nil)
	m := move{sq(geoH, "e5"), sq(geoH, "e6")}
	steps, err := PlanMove(geoH, before, after, m, rules.First, Human{}, rand.New(rand.NewPCG(2, 1)))
	require.NoError(t, err)
	assert.Equal(t, OpPut, steps[len(steps)-2].Op, "the captured pawn goes to the hand last")
	assert.Equal(t, wP, steps[len(steps)-2].Piece)

	// Dropping it again.
	drop := view(geoH, map[string][]rules.Piece{"e6": {wS}, "c3": {wP}}, nil, nil)
	steps, err = PlanMove(geoH, after, drop, move{rules.NoSquare, sq(geoH, "c3")}, rules.First, Human{}, rand.New(rand.NewPCG(2, 1)))
	require.NoError(t, err)
	require.Equal(t, []Op{OpTake, OpPlace, OpPress}, ops(steps))
	assert.Equal(t, 0, steps[0].Zone)
}

// TestPlanCapturedPieceStands checks the habits of a captured shogi
// piece reaching the stand: after the press, before the capturing piece
// is set down, or on the opponent's stand and then moved.
func TestPlanCapturedPieceStands(t *testing.T) {
	gP := rules.Piece{Color: rules.Second, Kind: 'P'}
	before := view(geoH, map[string][]rules.Piece{"e5": {wS}, "e6": {gP}}, nil, nil)
	after := view(geoH, map[string][]rules.Piece{"e6": {wS}}, []rules.Piece{wP}, nil)
	m := move{sq(geoH, "e5"), sq(geoH, "e6")}
	index := func(steps []Step, op Op) int { return slices.IndexFunc(steps, func(s Step) bool { return s.Op == op }) }
	cases := []struct {
		name  string
		h     Human
		check func(t *testing.T, steps []Step)
	}{
		{"late", Human{LateStand: 1}, func(t *testing.T, steps []Step) {
			assert.Equal(t, []Op{OpPress, OpPut}, ops(steps[len(steps)-2:]), "the pawn reaches the stand after the press")
			assert.Equal(t, 0, steps[len(steps)-1].Zone)
		}},
		{"early", Human{EarlyStand: 1}, func(t *testing.T, steps []Step) {
			assert.Less(t, index(steps, OpPut), index(steps, OpPlace), "the pawn reaches the stand before the silver is set down")
			assert.Equal(t, OpPress, steps[len(steps)-1].Op)
		}},
		{"wrong", Human{WrongStand: 1}, func(t *testing.T, steps []Step) {
			put := index(steps, OpPut)
			assert.Equal(t, 1, steps[put].Zone, "the pawn goes on the opponent's stand")
			assert.Less(t, put, index(steps, OpPress))
			assert.Equal(t, []Op{OpPress, OpTake, OpPut}, ops(steps[len(steps)-3:]))
			assert.Equal(t, 1, steps[len(steps)-2].Zone)
			assert.Equal(t, 0, steps[len(steps)-1].Zone)
		}},
		{"wrong and late", Human{WrongStand: 1, LateStand: 1}, func(t *testing.T, steps []Step) {
			assert.Equal(t, []Op{OpPress, OpPut, OpTake, OpPut}, ops(steps[len(steps)-4:]))
			assert.Equal(t, 1, steps[len(steps)-3].Zone)
		}},
		{"retouch", Human{Retouch: 1}, func(t *testing.T, steps []Step) {
			assert.Equal(t, []Op{OpPress, OpLift, OpPlace}, ops(steps[len(steps)-3:]), "the silver is lifted and put back after the press")
			assert.Equal(t, m.to, steps[len(steps)-1].Square)
			assert.Equal(t, []rules.Piece{wS}, steps[len(steps)-1].Pieces)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for seed := range uint64(8) {
				steps, err := PlanMove(geoH, before, after, m, rules.First, c.h, rand.New(rand.NewPCG(seed, 1)))
				require.NoError(t, err)
				c.check(t, steps)
			}
		})
	}
}

func TestPlanSlideTouchesTheSquaresBetween(t *testing.T) {
	before := view(geo8, map[string][]rules.Piece{"a1": {wN}})
	after := view(geo8, map[string][]rules.Piece{"a4": {wN}})
	steps, err := PlanMove(geo8, before, after, move{sq(geo8, "a1"), sq(geo8, "a4")}, rules.First, Human{Slide: 1}, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	require.Equal(t, []Op{OpLift, OpPlace, OpLift, OpPlace, OpLift, OpPlace, OpPress}, ops(steps))
	assert.Equal(t, sq(geo8, "a2"), steps[1].Square)
	assert.Equal(t, sq(geo8, "a3"), steps[3].Square)
	for i := 1; i < len(steps); i++ {
		assert.GreaterOrEqual(t, steps[i].At, steps[i-1].At, "steps in time order")
	}
}

func TestPlanCastlingKingFirst(t *testing.T) {
	wK := rules.Piece{Color: rules.First, Kind: 'K'}
	wR := rules.Piece{Color: rules.First, Kind: 'R'}
	before := view(geo8, map[string][]rules.Piece{"e1": {wK}, "h1": {wR}})
	after := view(geo8, map[string][]rules.Piece{"g1": {wK}, "f1": {wR}})
	steps, err := PlanMove(geo8, before, after, move{sq(geo8, "e1"), sq(geo8, "g1")}, rules.First, Human{}, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	require.Equal(t, []Op{OpLift, OpPlace, OpLift, OpPlace, OpPress}, ops(steps))
	assert.Equal(t, []rules.Square{sq(geo8, "e1"), sq(geo8, "g1"), sq(geo8, "h1"), sq(geo8, "f1")},
		[]rules.Square{steps[0].Square, steps[1].Square, steps[2].Square, steps[3].Square})
}

func TestPlanKnockRestores(t *testing.T) {
	before := view(geo8, map[string][]rules.Piece{"d4": {bP, wP, wN}, "e4": {wP}})
	steps := PlanKnock(geo8, before, sq(geo8, "d4"), DefaultHuman, rand.New(rand.NewPCG(1, 1)))
	p := &planner{g: geo8, cur: before.Clone()}
	for _, s := range steps {
		p.apply(s)
	}
	assert.True(t, p.cur.Equal(before), "the tower is set up again")
	assert.Equal(t, OpLift, steps[0].Op)
	assert.Equal(t, 3, steps[0].N)
}

// sink decodes every frame a board writes.
type sink struct {
	dec    *sb.Decoder
	frames []sb.Frame
}

func (s *sink) write(b []byte) {
	p := b
	for len(p) > 0 {
		n, f, err := s.dec.Decode(p)
		p = p[n:]
		if err == nil {
			f.Payload = slices.Clone(f.Payload)
			s.frames = append(s.frames, f)
		}
	}
}

func newTestBoard(t *testing.T, caps board.Caps, maxH int) (*Board, *sink) {
	b, err := NewBoard(Config{ID: "T", Geometry: geo8, Caps: caps, MaxHeight: maxH}, &Virtual{})
	require.NoError(t, err)
	s := &sink{dec: sb.NewDecoder()}
	b.SetOutput(s.write)
	return b, s
}

func squareMsgs(t *testing.T, fs []sb.Frame) []sb.SquareMsg {
	var out []sb.SquareMsg
	for _, f := range fs {
		if f.Type == sb.TypeSquare {
			var m sb.SquareMsg
			require.NoError(t, m.UnmarshalPayload(f.Payload))
			out = append(out, m)
		}
	}
	return out
}

func TestBoardSensing(t *testing.T) {
	s0 := sq(geo8, "a1")
	t.Run("occupancy only", func(t *testing.T) {
		b, s := newTestBoard(t, 0, 0)
		b.Place(s0, wP, bP)
		_, err := b.Lift(s0, 1)
		require.NoError(t, err)
		ms := squareMsgs(t, s.frames)
		require.Len(t, ms, 1, "the lift from a stack of two is invisible")
		assert.Equal(t, uint8(1), ms[0].Height)
		assert.False(t, ms[0].Top.Known)
	})
	t.Run("saturation", func(t *testing.T) {
		b, s := newTestBoard(t, board.CapHeight, 3)
		b.Place(s0, wP, wP, wP, wP, wP)
		ms := squareMsgs(t, s.frames)
		require.Len(t, ms, 1)
		assert.Equal(t, uint8(3), ms[0].Height)
		assert.True(t, ms[0].Saturated)
	})
	t.Run("identity without colour or face", func(t *testing.T) {
		b, s := newTestBoard(t, board.CapHeight|board.CapIdentity, 0)
		promoted := rules.Piece{Color: rules.Second, Kind: 'S', Face: rules.Back}
		b.Place(s0, promoted)
		require.NoError(t, b.Turn(s0, rules.Front))
		ms := squareMsgs(t, s.frames)
		require.Len(t, ms, 1, "the face change is invisible")
		assert.Equal(t, board.Ident{Known: true, Piece: rules.Piece{Kind: 'S'}}, ms[0].Top)
	})
	t.Run("identity with face", func(t *testing.T) {
		b, s := newTestBoard(t, board.CapHeight|board.CapIdentity|board.CapColor|board.CapFace, 0)
		b.Place(s0, wS)
		require.NoError(t, b.Turn(s0, rules.Back))
		ms := squareMsgs(t, s.frames)
		require.Len(t, ms, 2)
		assert.Equal(t, rules.Back, ms[1].Top.Piece.Face)
	})
}

func TestBoardAnswersTheHost(t *testing.T) {
	b, s := newTestBoard(t, board.CapHeight, 0)
	b.Place(sq(geo8, "c3"), wP)
	var enc sb.Encoder
	host := func(m sb.Message) {
		d := sb.NewDecoder()
		_, f, err := d.Decode(enc.Append(nil, m, 77))
		require.NoError(t, err)
		b.HandleHost(f)
	}
	select {
	case <-b.Connected():
		t.Fatal("connected before any host frame")
	default:
	}
	host(&sb.HelloReqMsg{Major: 1})
	<-b.Connected()
	host(&sb.DumpReqMsg{Token: 9})
	host(&sb.PingMsg{Token: 5})
	host(&sb.ClockMsg{First: 1000, Second: 2000, Running: board.SideFirst})
	d := sb.NewDecoder()
	_, bad, _ := d.Decode(sb.AppendFrame(nil, sb.Header{Type: 0xF0, Seq: 4}, nil))
	b.HandleHost(bad)
	var types []sb.Type
	for _, f := range s.frames {
		types = append(types, f.Type)
	}
	assert.Equal(t, []sb.Type{sb.TypeSquare, sb.TypeHello, sb.TypeDumpSquares, sb.TypeDumpEnd, sb.TypePong, sb.TypeNak}, types)
	var pong sb.PongMsg
	require.NoError(t, pong.UnmarshalPayload(s.frames[4].Payload))
	assert.Equal(t, sb.PongMsg{Token: 5, HostTime: 77}, pong)
	var dump sb.DumpSquaresMsg
	require.NoError(t, dump.UnmarshalPayload(s.frames[2].Payload))
	assert.Len(t, dump.Squares, 64)
	assert.Equal(t, uint8(1), dump.Squares[sq(geo8, "c3")].Height)
	clock, _, _, _ := b.HostState()
	assert.Equal(t, uint32(2000), clock.Second)
	for i, f := range s.frames {
		assert.Equal(t, uint16(i), f.Seq, "frames numbered from 0")
	}

	// A question is shown until the move is acknowledged.
	q := sb.QuestionMsg{Side: board.SideFirst, Kind: board.QuestionPromote, Text: "promote?",
		Choices: []board.Choice{{From: 10, To: 70, Text: "8h2b+"}, {From: 10, To: 70, Text: "8h2b"}}}
	host(&q)
	assert.Equal(t, q, b.Question())
	host(&sb.AckMoveMsg{Ply: 3, From: 10, To: 70, Text: "8h2b+"})
	assert.Equal(t, board.QuestionNone, b.Question().Kind)
}

func TestBoardLinkFaults(t *testing.T) {
	b, err := NewBoard(Config{ID: "F", Geometry: geo8, Caps: board.CapHeight, Seed: 3,
		Faults: Faults{Drop: 0.2, Duplicate: 0.2, Corrupt: 0.2}}, &Virtual{})
	require.NoError(t, err)
	b.KeepLog()
	s := &sink{dec: sb.NewDecoder()}
	b.SetOutput(s.write)
	for i := range 200 {
		b.Place(rules.Square(i%64), wP)
	}
	dropped := 0
	for _, l := range b.Log() {
		if l.Dropped {
			dropped++
		}
	}
	seen := map[uint16]int{}
	for _, f := range s.frames {
		seen[f.Seq]++
	}
	dups := 0
	for _, n := range seen {
		if n > 1 {
			dups++
		}
	}
	assert.InDelta(t, 40, dropped, 20)
	assert.Positive(t, dups)
	assert.Positive(t, s.dec.Stats.Bad, "corrupted frames are rejected")
	assert.Less(t, len(seen), 200-dropped+1)
}

func TestRunnerAnswers(t *testing.T) {
	clock := &Virtual{}
	b, err := NewBoard(Config{ID: "A", Geometry: geoH, Caps: board.CapHeight}, clock)
	require.NoError(t, err)
	before := view(geoH, map[string][]rules.Piece{"e6": {wS}})
	promoted := wS
	promoted.Face = rules.Back
	after := view(geoH, map[string][]rules.Piece{"e7": {promoted}})
	b.Load(before)
	s := &sink{dec: sb.NewDecoder()}
	b.SetOutput(s.write)
	var enc sb.Encoder
	d := sb.NewDecoder()
	_, f, err := d.Decode(enc.Append(nil, &sb.HelloReqMsg{Major: 1}, 0))
	require.NoError(t, err)
	b.HandleHost(f)
	run := NewRunner(b, clock)
	run.Answer = func(t Turn) (uint8, bool) { return board.AnswerYes, true }
	turn := Turn{Move: move{sq(geoH, "e6"), sq(geoH, "e7")}, Mover: rules.First, Before: before, After: after}
	require.NoError(t, run.Play(context.Background(), []Turn{turn}))
	var buttons []sb.ButtonMsg
	for _, f := range s.frames {
		if f.Type == sb.TypeButton {
			var m sb.ButtonMsg
			require.NoError(t, m.UnmarshalPayload(f.Payload))
			if m.Pressed {
				buttons = append(buttons, m)
			}
		}
	}
	require.Len(t, buttons, 2)
	assert.Equal(t, sb.ButtonMsg{Button: board.ButtonAnswer, Side: board.SideFirst, Pressed: true, Count: 1, Value: board.AnswerYes}, buttons[0])
	assert.Equal(t, board.ButtonClock, buttons[1].Button)
}

// hostOf returns a function that sends b a host frame.
func hostOf(t *testing.T, b *Board) func(sb.Message) {
	var enc sb.Encoder
	return func(m sb.Message) {
		_, f, err := sb.NewDecoder().Decode(enc.Append(nil, m, 1))
		require.NoError(t, err)
		b.HandleHost(f)
	}
}

// TestBoardHasArbitrationButtons: a simulated board advertises the offer,
// resign and claim buttons of each side (PROTOCOL 5.4) and presses them,
// and its dump counts their presses.
func TestBoardHasArbitrationButtons(t *testing.T) {
	b, s := newTestBoard(t, board.CapHeight, 0)
	host := hostOf(t, b)
	host(&sb.HelloReqMsg{Major: 1})
	var hello sb.Hello
	require.NoError(t, hello.UnmarshalPayload(s.frames[len(s.frames)-1].Payload))
	for _, k := range []board.ButtonKind{board.ButtonOffer, board.ButtonResign, board.ButtonClaim} {
		for _, side := range []board.Side{board.SideFirst, board.SideSecond} {
			assert.Contains(t, hello.Buttons, board.ButtonInfo{Kind: k, Side: side})
		}
	}
	b.Press(board.ButtonResign, board.SideSecond, 0)
	b.Press(board.ButtonResign, board.SideSecond, 0)
	var press sb.ButtonMsg
	require.NoError(t, press.UnmarshalPayload(s.frames[len(s.frames)-2].Payload))
	assert.Equal(t, sb.ButtonMsg{Button: board.ButtonResign, Side: board.SideSecond, Pressed: true, Count: 2}, press)
	host(&sb.DumpReqMsg{Token: 1})
	var end sb.DumpEndMsg
	require.NoError(t, end.UnmarshalPayload(s.frames[len(s.frames)-1].Payload))
	assert.Contains(t, end.Buttons, board.ButtonState{Button: board.ButtonResign, Side: board.SideSecond, Count: 2})
}

// Two simulated boards made with the same configuration, as `arbiter
// simulate` started again with the same id and seed, draw different boot
// values (PROTOCOL 3.1: drawn at random at power-up), so that the host
// sees the second as a board that restarted. With the seed's boot value
// both had the same one: the host took the new board's press counters,
// from 0, for presses lost since the old board's, and acted on a clock
// press nobody made.
func TestBootDrawnAtRandom(t *testing.T) {
	cfg := Config{ID: "SIM-1", Geometry: geo8, Seed: 1}
	boots := map[uint32]bool{}
	for range 4 {
		b, err := NewBoard(cfg, &Virtual{})
		require.NoError(t, err)
		boots[b.helloLocked().Boot] = true
	}
	assert.Len(t, boots, 4, "each power-up draws its own boot value")
}

// A board with some of the game's zones only (PROTOCOL hello-kvaa: the
// reserve trays) announces those, reports their changes under its own
// numbering and dumps them alone; the pieces in the other zones are
// there all the same. A board with an empty list has no trays.
func TestBoardTrays(t *testing.T) {
	geoK := rules.NewRect(5, 5, rules.Zone{Name: "r1", Kind: rules.Reserve, Owner: rules.First},
		rules.Zone{Name: "r2", Kind: rules.Reserve, Owner: rules.Second},
		rules.Zone{Name: "c1", Kind: rules.Captured, Owner: rules.First},
		rules.Zone{Name: "c2", Kind: rules.Captured, Owner: rules.Second})
	c := rules.Piece{Color: rules.Second, Kind: 'C'}
	trays := []board.ZoneInfo{{Kind: rules.Reserve, Owner: rules.Second}, {Kind: rules.Captured, Owner: rules.Second}}
	b, err := NewBoard(Config{ID: "K", Geometry: geoK, Caps: board.CapZoneCount, Zones: trays,
		Buttons: []board.ButtonInfo{{Kind: board.ButtonClock, Side: board.SideFirst}}}, &Virtual{})
	require.NoError(t, err)
	s := &sink{dec: sb.NewDecoder()}
	b.SetOutput(s.write)
	host := hostOf(t, b)
	host(&sb.HelloReqMsg{Major: 1})
	var hello sb.Hello
	require.NoError(t, hello.UnmarshalPayload(s.frames[0].Payload))
	assert.Equal(t, trays, hello.Zones)
	assert.Equal(t, []board.ButtonInfo{{Kind: board.ButtonClock, Side: board.SideFirst}}, hello.Buttons)

	b.Put(1, c) // North's reserve: the board's tray 0
	b.Put(0, c) // South's reserve: no tray
	b.Put(3, c) // North's captured: tray 1
	var zs []sb.ZoneMsg
	for _, f := range s.frames[1:] {
		var m sb.ZoneMsg
		require.NoError(t, m.UnmarshalPayload(f.Payload))
		zs = append(zs, m)
	}
	assert.Equal(t, []sb.ZoneMsg{{Zone: 0, Count: 1}, {Zone: 1, Count: 1}}, zs)
	assert.Len(t, b.View().Zones[0], 1, "the piece lies in the zone the board does not sense")

	n := len(s.frames)
	host(&sb.DumpReqMsg{Token: 4})
	var dz []uint8
	for _, f := range s.frames[n:] {
		if f.Type == sb.TypeDumpZone {
			var m sb.DumpZoneMsg
			require.NoError(t, m.UnmarshalPayload(f.Payload))
			dz = append(dz, m.Zone)
		}
	}
	assert.Equal(t, []uint8{0, 1}, dz)

	_, err = NewBoard(Config{ID: "X", Geometry: geoK, Zones: []board.ZoneInfo{trays[1], trays[0]}}, &Virtual{})
	assert.Error(t, err, "trays out of the game's order")
	none, err := NewBoard(Config{ID: "N", Geometry: geoK, Caps: board.CapZoneCount, Zones: []board.ZoneInfo{}}, &Virtual{})
	require.NoError(t, err)
	s = &sink{dec: sb.NewDecoder()}
	none.SetOutput(s.write)
	none.Put(0, c)
	assert.Empty(t, s.frames, "a board without trays reports no zone")
}

// A player who makes a Kvaa turn in its rules' order places the reserve
// counter before the step (kvaa.md 7.2, @p then the move); otherwise the
// moving counter goes first.
func TestPlanKvaaPlacementFirst(t *testing.T) {
	g, err := rules.New("kvaa", nil)
	require.NoError(t, err)
	pos := g.Start()
	for _, m := range []string{"b2-c3", "d4xb2"} {
		_, pos, err = rules.PlayText(pos, m)
		require.NoError(t, err)
	}
	m, next, err := rules.PlayText(pos, "@e3,d2-c3")
	require.NoError(t, err)
	geo := g.Geometry()
	for _, tc := range []struct {
		ordered float64
		want    []Op
		squares []string
	}{
		{1, []Op{OpTake, OpPlace, OpLift, OpPlace, OpPress}, []string{"e3", "d2", "c3"}},
		{0, []Op{OpLift, OpPlace, OpTake, OpPlace, OpPress}, []string{"d2", "c3", "e3"}},
	} {
		steps, err := PlanMove(geo, pos.View(), next.View(), m, rules.First, Human{Ordered: tc.ordered}, rand.New(rand.NewPCG(1, 2)))
		require.NoError(t, err)
		assert.Equal(t, tc.want, ops(steps))
		var squares []string
		for _, st := range steps {
			if st.Op == OpLift || st.Op == OpPlace {
				squares = append(squares, geo.Name(st.Square))
			}
		}
		assert.Equal(t, tc.squares, squares)
	}
	// The counter that moves is the one that leaves its origin, whatever
	// the cells' order: @c3,b4-c5 is not b4 to c3 and a placement on c5.
	pos, err = g.ParsePosition("N.N/N./.../../S.. N 5 5 - - 0 10")
	require.NoError(t, err)
	m, next, err = rules.PlayText(pos, "@c3,b4-c5")
	require.NoError(t, err)
	steps, err := PlanMove(geo, pos.View(), next.View(), m, rules.Second, Human{}, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	var squares []string
	for _, st := range steps {
		if st.Op == OpLift || st.Op == OpPlace {
			squares = append(squares, geo.Name(st.Square))
		}
	}
	assert.Equal(t, []string{"b4", "c5", "c3"}, squares)
	assert.Equal(t, []Op{OpLift, OpPlace, OpTake, OpPlace, OpPress}, ops(steps), "the reserve counter is taken for c3")
}

// A board whose host does not read (no host has opened the port, or it
// stopped reading) goes on, as a UART does: its frames are lost once the
// pseudo-terminal's buffer is full, and no call on the board waits for a
// reader. "arbiter simulate" waiting for a daemon hung there, deaf to
// SIGTERM, once the buffer filled with heartbeats.
func TestBoardGoesOnWithoutAReader(t *testing.T) {
	b, err := NewBoard(Config{ID: "DEAF", Geometry: geo8, Caps: board.CapHeight}, NewReal())
	require.NoError(t, err)
	p, err := Attach(b, "")
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 5000 { // far more than the pseudo-terminal holds
			b.Press(board.ButtonOffer, board.SideFirst, 0)
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Minute): // a generous bound: it takes about writeWait
		t.Fatal("the board waits for a host that does not read")
	}
}
