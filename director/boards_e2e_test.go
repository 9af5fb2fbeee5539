package director_test

import (
	"encoding/hex"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
	"arbiter/store"
)

// docHello decodes the handshake of PROTOCOL.md's worked example name
// ("hello-kvaa"), as a board built from the document sends it.
func docHello(t *testing.T, name string) *sensorboard.Hello {
	t.Helper()
	doc, err := os.ReadFile("../hardware/sensorboard/PROTOCOL.md")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^example ` + regexp.QuoteMeta(name) + `:\n((?:[0-9A-F]{2}[ \n])+)`).FindSubmatch(doc)
	require.NotNil(t, m, "PROTOCOL.md has no example %s", name)
	wire, err := hex.DecodeString(strings.Join(strings.Fields(string(m[1])), ""))
	require.NoError(t, err)
	_, f, err := sensorboard.NewDecoder().Decode(wire)
	require.NoError(t, err)
	h := &sensorboard.Hello{}
	require.NoError(t, h.UnmarshalPayload(f.Payload))
	return h
}

// simConfigOf is a simulated board that says hello as h does: its id,
// capabilities, counts, trays and buttons.
func simConfigOf(h *sensorboard.Hello) sim.Config {
	return sim.Config{ID: h.ID, Firmware: h.Firmware, Caps: h.Caps, MaxHeight: int(h.MaxHeight),
		Heartbeat: time.Duration(h.Heartbeat) * time.Millisecond,
		Zones:     append([]board.ZoneInfo{}, h.Zones...), Buttons: h.Buttons}
}

// briskHuman plays a whole game without habits, briskly: the moves are
// read at the clock press, however fast they come.
var briskHuman = sim.Human{
	Think: [2]time.Duration{10 * time.Millisecond, 30 * time.Millisecond},
	Hand:  [2]time.Duration{10 * time.Millisecond, 25 * time.Millisecond},
	Glide: [2]time.Duration{5 * time.Millisecond, 10 * time.Millisecond},
	Press: [2]time.Duration{15 * time.Millisecond, 30 * time.Millisecond},
	// A turn of several counters in its rules' order half the time.
	Ordered: 0.5,
}

// playWhole plays turns to the game's end on the table's board and
// checks that every move was read as played and the result stored.
func (s *simTable) playWhole(turns []sim.Turn) store.Game {
	s.t.Helper()
	s.runner.Human = briskHuman
	require.NoError(s.t, s.runner.Play(s.ctx, turns))
	want := make([]string, len(turns))
	for i, tr := range turns {
		want[i] = tr.Move.String()
	}
	id := s.tbl.Live().GameID
	var got []string
	ok := assert.Eventually(s.t, func() bool {
		ms, err := s.db.Moves(id)
		if err != nil {
			return false
		}
		got = got[:0]
		for _, m := range ms {
			got = append(got, m.Canonical)
		}
		return len(got) >= len(want)
	}, 20*time.Second, 20*time.Millisecond)
	if !ok {
		alerts, _ := s.db.Alerts(false)
		for _, a := range alerts {
			s.t.Logf("alert: %s %s", a.Kind, a.Message)
		}
	}
	require.Equal(s.t, want, got, "moves read")
	return s.result()
}

// capturing plays a random legal move, a capture when there is one
// (Kvaa: a game that ends soon), from rng.
func capturing(rng *rand.Rand) func(rules.Position, []rules.Move) rules.Move {
	return func(p rules.Position, legal []rules.Move) rules.Move {
		var caps []rules.Move
		for _, m := range legal {
			if strings.Contains(p.FormatMove(m), "x") {
				caps = append(caps, m)
			}
		}
		if len(caps) > 0 {
			return caps[rng.IntN(len(caps))]
		}
		return legal[rng.IntN(len(legal))]
	}
}

// wholeGame plays moves picked by pick from the game's start to its end
// and returns them with the outcome the rules give.
func wholeGame(t *testing.T, game string, pick func(rules.Position, []rules.Move) rules.Move) ([]sim.Turn, rules.Outcome) {
	t.Helper()
	g, err := rules.New(game, nil)
	require.NoError(t, err)
	turns, err := sim.PlayGame(g.Start(), 300, pick)
	require.NoError(t, err)
	var history []rules.Position
	pos := g.Start()
	for _, tr := range turns {
		history = append(history, pos)
		pos, err = pos.Play(tr.Move)
		require.NoError(t, err)
	}
	o := pos.Outcome(history)
	require.True(t, o.Over(), "the game did not end in %d moves", len(turns))
	return turns, o
}

// Issue 35 §1: the boards of PROTOCOL.md's worked examples each play a
// whole game through the protocol, read by the real driver and the
// director: TB-7 (identity and colour, clock buttons only) and TB-8
// (heights, display, every button) a chess game to mate, KV-1 (the Kvaa
// board with reserve trays only, occupancy and no height capability) a
// Kvaa game to its end.
func TestProtocolExampleBoardsPlayWholeGames(t *testing.T) {
	opera := strings.Fields("e2e4 e7e5 g1f3 d7d6 d2d4 c8g4 d4e5 g4f3 d1f3 d6e5 f1c4 g8f6 f3b3 d8e7 b1c3 c7c6 c1g5 b7b5 " +
		"c3b5 c6b5 c4b5 b8d7 e1c1 a8d8 d1d7 d8d7 h1d1 e7e6 b5d7 f6d7 b3b8 d7b8 d1d8")
	for _, name := range []string{"hello", "hello-buttons"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newSimTableOn(t, "chess", simConfigOf(docHello(t, name)))
			turns, err := sim.ReplayText(s.pos, opera)
			require.NoError(t, err)
			g := s.playWhole(turns)
			assert.Equal(t, "1-0", g.Result)
			assert.Equal(t, "checkmate", g.Reason)
		})
	}
	t.Run("hello-kvaa", func(t *testing.T) {
		t.Parallel()
		h := docHello(t, "hello-kvaa")
		require.Len(t, h.Zones, 2, "the example counts the reserve trays only")
		s := newSimTableOn(t, "kvaa", simConfigOf(h))
		turns, o := wholeGame(t, "kvaa", capturing(rand.New(rand.NewPCG(7, 35))))
		g := s.playWhole(turns)
		assert.Equal(t, o.Result.String(), g.Result)
		assert.Equal(t, o.Reason.String(), g.Reason)
	})
}

// Issue 35 F1: Kvaa reads captures on every board the protocol allows:
// without trays (one whose firmware sets zone counting all the same),
// with the reserve trays only, with the captured trays only, and with all
// four; a whole game each, captures and placements included.
func TestKvaaCapturesOnEveryBoard(t *testing.T) {
	reserves := []board.ZoneInfo{{Kind: rules.Reserve, Owner: rules.First}, {Kind: rules.Reserve, Owner: rules.Second}}
	captured := []board.ZoneInfo{{Kind: rules.Captured, Owner: rules.First}, {Kind: rules.Captured, Owner: rules.Second}}
	for i, tc := range []struct {
		name  string
		caps  board.Caps
		zones []board.ZoneInfo
	}{
		{"no trays", board.CapHeight, []board.ZoneInfo{}},
		{"no trays, zone counting set", board.CapHeight | board.CapZoneCount, []board.ZoneInfo{}},
		{"reserve trays", board.CapZoneCount, reserves},
		{"captured trays", board.CapZoneCount, captured},
		{"four trays", board.CapHeight | board.CapZoneCount, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newSimTableOn(t, "kvaa", sim.Config{Caps: tc.caps | board.CapText, Zones: tc.zones})
			turns, o := wholeGame(t, "kvaa", capturing(rand.New(rand.NewPCG(uint64(i), 35))))
			g := s.playWhole(turns)
			assert.Equal(t, o.Result.String(), g.Result)
		})
	}
}
