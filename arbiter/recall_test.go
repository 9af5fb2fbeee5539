package arbiter_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/clock"
	"arbiter/rules"
)

// chessLog returns the board at each press of a chess game played from
// the start, as an identity-sensing board logs it, and the positions.
func chessLog(t testing.TB, g rules.Game, sans ...string) []arbiter.LoggedPress {
	t.Helper()
	geo := g.Geometry()
	pos := g.Start()
	var out []arbiter.LoggedPress
	for _, san := range sans {
		side := pos.Turn()
		_, next, err := rules.PlayText(pos, san)
		require.NoError(t, err, san)
		pos = next
		v := pos.View()
		p := arbiter.LoggedPress{Side: side, SideKnown: true, Heights: make([]int, geo.Len()), Tops: make([]rules.Piece, geo.Len())}
		for i := range p.Heights {
			sq := geo.SensorSquare(i)
			p.Heights[i] = v.Height(sq)
			if p.Heights[i] > 0 {
				p.Tops[i] = v.Stacks[sq][len(v.Stacks[sq])-1]
			}
		}
		out = append(out, p)
	}
	return out
}

// moves returns the notations of the moves among outs.
func moves(outs []arbiter.Output) []string {
	var s []string
	for _, o := range outs {
		if m, ok := o.(arbiter.MoveMade); ok {
			s = append(s, m.Notation)
		}
	}
	return s
}

// TestRecallResumedGame: a game resumed after a restart of the daemon
// waits for the board to show its position; the board's log, read then,
// shows that position and three moves more. The set-up is done at the
// press that showed the position and the three moves are read, and
// nothing else is said: no alert, no penalty.
func TestRecallResumedGame(t *testing.T) {
	g, err := rules.New("chess", nil)
	require.NoError(t, err)
	sans := []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"}
	for _, tc := range []struct {
		name  string
		log   []string
		want  []string
		plies int
	}{
		{"three moves made while the daemon was down", sans, sans[3:], 6},
		{"nothing new", sans[:3], nil, 3},
		{"a stray press shifts the count", append([]string{"e4", "e5", "Nf3"}, sans[3:]...), sans[3:], 6},
		{"a log of another game", []string{"d4", "d5"}, nil, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := arbiter.BoardConfig(g, "strict", "chess")
			require.NoError(t, err)
			cfg.Caps = arbiter.Caps{TopKind: true, TopColor: true}
			s, err := arbiter.NewSession(cfg, g, nil, nil)
			require.NoError(t, err)
			require.NoError(t, s.Resume(sans[:3]))
			s.Start(0)
			require.True(t, s.SettingUp())
			log := chessLog(t, g, tc.log...)
			if tc.name == "a stray press shifts the count" {
				log = append(log[:1:1], log...) // the press of e4 logged twice
			}
			outs := s.Handle(arbiter.Event{Kind: arbiter.Recalled, At: time.Second, Presses: log})
			assert.Equal(t, tc.want, moves(outs))
			for _, o := range outs {
				_, alert := o.(arbiter.Alert)
				assert.False(t, alert, "%v", o)
			}
			assert.Equal(t, tc.plies, s.Plies())
		})
	}
}

// BenchmarkRecall measures reading a board's log after a restart: a game
// resumed at ply 10 whose board's log holds 40 presses, so 30 moves are
// read from it (ns and allocations per recalled move are reported).
func BenchmarkRecall(b *testing.B) {
	g, err := rules.New("chess", nil)
	require.NoError(b, err)
	rng := rand.New(rand.NewPCG(7, 8))
	var sans []string
	pos := g.Start()
	for len(sans) < 40 {
		legal := pos.Legal()
		m := legal[rng.IntN(len(legal))]
		next, err := pos.Play(m)
		require.NoError(b, err)
		if next.Outcome(nil).Over() {
			continue
		}
		sans = append(sans, pos.FormatMove(m))
		pos = next
	}
	log := chessLog(b, g, sans...)
	cfg, err := arbiter.BoardConfig(g, "strict", "chess")
	require.NoError(b, err)
	cfg.Caps = arbiter.Caps{TopKind: true, TopColor: true}
	b.ReportAllocs()
	for b.Loop() {
		s, err := arbiter.NewSession(cfg, g, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Resume(sans[:10]); err != nil {
			b.Fatal(err)
		}
		s.Start(0)
		s.Handle(arbiter.Event{Kind: arbiter.Recalled, At: time.Second, Presses: log})
		if s.Plies() != 40 {
			b.Fatalf("read %d plies, want 40", s.Plies())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/30, "ns/move")
}

// heldGame is a chess game resumed after its first three moves with a
// 5-minute clock held, as a restart of the daemon leaves it (Black to
// move, Black's clock stands).
func heldGame(t *testing.T) (*arbiter.Session, *clock.Clock) {
	t.Helper()
	g, err := rules.New("chess", nil)
	require.NoError(t, err)
	ctl, err := clock.Parse("5m")
	require.NoError(t, err)
	clk, err := clock.New(ctl, clock.Options{})
	require.NoError(t, err)
	// The clock as stored with the three moves.
	require.NoError(t, clk.Start(0))
	for i, side := range []clock.Side{clock.First, clock.Second, clock.First} {
		_, err := clk.Press(side, time.Duration(i+1)*time.Second)
		require.NoError(t, err)
	}
	cfg, err := arbiter.BoardConfig(g, "strict", "chess")
	require.NoError(t, err)
	cfg.Caps = arbiter.Caps{TopKind: true, TopColor: true}
	s, err := arbiter.NewSession(cfg, g, nil, clk)
	require.NoError(t, err)
	require.NoError(t, s.Resume([]string{"e4", "e5", "Nf3"}))
	s.Start(0)
	log := chessLog(t, g, "e4", "e5", "Nf3")
	s.Handle(arbiter.Event{Kind: arbiter.StateDump, At: 4 * time.Second, Heights: log[2].Heights, Tops: log[2].Tops})
	require.False(t, s.SettingUp())
	require.NoError(t, clk.Pause(5*time.Second))
	return s, clk
}

// Moves read from a board's log while the clocks are held (a restart of
// the daemon holds them) are taken without an alert: they were made while
// the daemon did not watch, when nothing held the players' clock. Each
// ends its mover's turn at the hold, so the clocks, resumed, run for the
// side to move.
func TestRecallWhileTheClocksAreHeld(t *testing.T) {
	g, err := rules.New("chess", nil)
	require.NoError(t, err)
	s, clk := heldGame(t)
	log := chessLog(t, g, "e4", "e5", "Nf3", "Nc6", "Bb5", "a6")
	outs := s.Handle(arbiter.Event{Kind: arbiter.Recalled, At: 6 * time.Second, Presses: log})
	assert.Equal(t, []string{"Nc6", "Bb5", "a6"}, moves(outs))
	for _, o := range outs {
		_, alert := o.(arbiter.Alert)
		assert.False(t, alert, "%v", o)
	}
	side, _ := clk.Running()
	assert.Equal(t, clock.First, side, "White to move: White's clock runs when resumed")
	assert.Equal(t, clock.Paused, clk.Status(), "still held")
}

// A move made on the board while the clocks are held is taken, and the
// arbiter is told; the clocks, resumed, run for the side to move.
func TestMoveWhileTheClocksAreHeld(t *testing.T) {
	g, err := rules.New("chess", nil)
	require.NoError(t, err)
	s, clk := heldGame(t)
	log := chessLog(t, g, "e4", "e5", "Nf3", "Nc6")
	outs := s.Handle(arbiter.Event{Kind: arbiter.StateDump, At: 6 * time.Second, Heights: log[3].Heights, Tops: log[3].Tops})
	outs = append(outs, s.Handle(arbiter.Event{Kind: arbiter.ClockPressed, At: 7 * time.Second, Side: rules.Black})...)
	assert.Equal(t, []string{"Nc6"}, moves(outs))
	var alerts []string
	for _, o := range outs {
		if a, ok := o.(arbiter.Alert); ok {
			alerts = append(alerts, a.Message)
		}
	}
	assert.Equal(t, []string{"Black moved while the clocks are held: no time is charged until they run again"}, alerts)
	side, _ := clk.Running()
	assert.Equal(t, clock.First, side, "White's clock runs when resumed")

	// The arbiter takes the move back: the turn is Black's again, on a
	// clock still held.
	_, err = s.TakeBack(8 * time.Second)
	require.NoError(t, err)
	assert.Equal(t, 3, s.Plies())
	side, _ = clk.Running()
	assert.Equal(t, clock.Second, side, "Black's clock runs when resumed")
	assert.Equal(t, clock.Paused, clk.Status())
}
