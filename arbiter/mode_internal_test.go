package arbiter

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// TestModeNames: every mode has a name of its own.
func TestModeNames(t *testing.T) {
	seen := map[string]bool{}
	for m := modeReading; m <= modeUnmatched; m++ {
		name := m.String()
		assert.NotEqual(t, "mode(?)", name, "mode %d", m)
		assert.False(t, seen[name], "%s named twice", name)
		seen[name] = true
	}
	assert.Equal(t, "mode(?)", (modeUnmatched + 1).String())
}

// TestModeTransitions walks the transitions that doc.go draws, checking
// the session's mode (and the mode beneath an overlay) after each step.
// A step is "t lift e2", "t place e2", "t press", "t adjust", "t answer
// n", "t gap", "t tick" or "t dump" (the board as the steps left it), at
// instant t in seconds, by the side to move.
func TestModeTransitions(t *testing.T) {
	const promotion = "4k3/6P1/8/8/8/8/8/4K3 w - - 0 1"
	type step struct {
		do          string
		mode, under mode
	}
	for _, tc := range []struct {
		name  string
		fen   string
		setup bool
		steps []step
	}{
		{"set-up, then reading", "", true, []step{
			{"0.5 dump", modeReading, modeReading},
		}},
		{"set-up waits for its position", "", true, []step{
			{"0.5 lift e2", modeSettingUp, modeReading},
			{"1.0 tick", modeSettingUp, modeReading},
		}},
		{"adjustment closed by its press", "", false, []step{
			{"1.0 adjust", modeAdjusting, modeReading},
			{"1.2 lift g1", modeAdjusting, modeReading},
			{"1.4 place g1", modeAdjusting, modeReading},
			{"1.5 adjust", modeReading, modeReading},
		}},
		{"adjustment ended at the baseline", "", false, []step{
			{"1.0 adjust", modeAdjusting, modeReading},
			{"1.2 lift g1", modeAdjusting, modeReading},
			{"1.4 place g1", modeAdjusting, modeReading},
			{"2.0 tick", modeReading, modeReading},
		}},
		{"adjustment altered", "", false, []step{
			{"1.0 adjust", modeAdjusting, modeReading},
			{"1.2 lift g1", modeAdjusting, modeReading},
			{"1.4 place f3", modeAdjusting, modeReading},
			{"1.5 adjust", modeRecovering, modeReading},
		}},
		{"illegal move, put right", "", false, []step{
			{"1.0 lift e2", modeReading, modeReading},
			{"1.2 place e5", modeReading, modeReading},
			{"1.5 press", modeRecovering, modeReading},
			{"2.0 lift e5", modeRecovering, modeReading},
			{"2.2 place e2", modeReading, modeReading},
		}},
		{"recovery beneath an adjustment", "", false, []step{
			{"1.0 lift e2", modeReading, modeReading},
			{"1.2 place e5", modeReading, modeReading},
			{"1.5 press", modeRecovering, modeReading},
			{"2.0 adjust", modeAdjusting, modeRecovering},
			{"2.5 adjust", modeRecovering, modeReading},
			{"3.0 adjust", modeAdjusting, modeRecovering},
			{"3.2 lift e5", modeAdjusting, modeRecovering},
			{"3.4 place e2", modeAdjusting, modeReading},
		}},
		{"recovery resumed after an adjustment closed late", "", false, []step{
			{"1.0 lift e2", modeReading, modeReading},
			{"1.2 place e5", modeReading, modeReading},
			{"1.5 press", modeRecovering, modeReading},
			{"2.0 adjust", modeAdjusting, modeRecovering},
			{"2.2 gap", modeAdjusting, modeRecovering},
			{"2.5 adjust", modeAdjusting, modeRecovering},
			{"3.0 dump", modeRecovering, modeReading},
		}},
		{"unmatched, then a legal move", "", false, []step{
			{"1.0 lift g1", modeReading, modeReading},
			{"11.5 tick", modeUnmatched, modeReading},
			{"12.0 place f3", modeReading, modeReading},
		}},
		{"a press's question answered", promotion, false, []step{
			{"1.0 lift g7", modeReading, modeReading},
			{"1.2 place g8", modeReading, modeReading},
			{"1.5 press", modePrompting, modeReading},
			{"2.0 tick", modePrompting, modeReading},
			{"2.5 answer 0", modeReading, modeReading},
		}},
		{"a press's question outlives a recovery", promotion, false, []step{
			{"1.0 lift g7", modeReading, modeReading},
			{"1.2 place g8", modeReading, modeReading},
			{"1.5 press", modePrompting, modeReading},
			{"2.0 lift e1", modePrompting, modeReading},
			{"2.2 place e2", modePrompting, modeReading},
			{"2.5 press", modeRecovering, modeReading},
			{"3.0 lift e2", modeRecovering, modeReading},
			{"3.2 place e1", modeRecovering, modeReading},
			{"3.5 lift g8", modeRecovering, modeReading},
			{"3.7 place g7", modePrompting, modeReading},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fen := tc.fen
			if fen == "" {
				fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
			}
			g, p := game(t, "chess", fen)
			cfg := DefaultConfig(g)
			cfg.AwaitSetup = tc.setup
			s, err := NewSession(cfg, g, p, nil)
			require.NoError(t, err)
			s.Start(0)
			if tc.setup {
				require.Equal(t, modeSettingUp, s.mode)
			}
			heights := p.View().Heights(nil)
			for _, st := range tc.steps {
				e, secs := modeEvent(t, s, heights, st.do)
				if e.Kind == 0 {
					s.Tick(secs)
				} else {
					s.Handle(e)
				}
				require.NoError(t, s.check(), st.do)
				assert.Equal(t, st.mode, s.mode, "%s: mode", st.do)
				if s.mode.overlays() {
					assert.Equal(t, st.under, s.under, "%s: the mode beneath", st.do)
				}
			}
		})
	}
}

// modeEvent is the event of a step of TestModeTransitions, by the side
// to move, with heights the board as the steps left it; a tick is no
// event (Kind 0) at instant secs.
func modeEvent(t *testing.T, s *Session, heights []int, do string) (e Event, secs time.Duration) {
	f := strings.Fields(do)
	secs, err := time.ParseDuration(f[0] + "s")
	require.NoError(t, err)
	geo := s.game.Geometry()
	e = Event{At: secs, Side: s.pos.Turn()}
	switch f[1] {
	case "lift", "place":
		sq := square(t, s.game, f[2])
		if f[1] == "lift" {
			heights[sq]--
		} else {
			heights[sq]++
		}
		e.Kind, e.Square, e.Height = SquareChanged, rules.Square(geo.SensorIndex(sq)), heights[sq]
	case "press":
		e.Kind = ClockPressed
	case "adjust":
		e.Kind = AdjustPressed
	case "gap":
		e.Kind = Gap
	case "answer":
		e.Kind, e.Choice = Answered, int(f[2][0]-'0')
	case "dump":
		e.Kind, e.Heights = StateDump, make([]int, len(heights))
		for i := range heights {
			e.Heights[i] = heights[geo.SensorSquare(i)]
		}
	}
	return e, secs
}
