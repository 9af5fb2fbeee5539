package clock

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSnapshotCheckMessages pins the error Restore gives for each way a
// snapshot can be inconsistent: the first thing wrong, named.
func TestSnapshotCheckMessages(t *testing.T) {
	snapshot := func(text string) Snapshot {
		c := mustClock(t, text, Options{})
		require.NoError(t, c.Start(0))
		_, err := c.Press(First, 10*time.Second)
		require.NoError(t, err)
		return c.Snapshot()
	}
	standard := snapshot("40/90m:30m:byo=3x30s+2x1m")
	canadian := snapshot("10m:can=10/5m")
	upcount := snapshot("-")
	tests := []struct {
		from   Snapshot
		change func(*Snapshot)
		want   string
	}{
		{standard, func(s *Snapshot) { s.Version = 2 }, "snapshot version 2, want 1"},
		{standard, func(s *Snapshot) { s.Control = "40/" }, `snapshot control: time control "40/": column 4 (end of text): expected a time`},
		{standard, func(s *Snapshot) { s.Status = Stopped + 1 }, "snapshot has an out-of-range enum"},
		{standard, func(s *Snapshot) { s.Running = 2 }, "snapshot has an out-of-range enum"},
		{standard, func(s *Snapshot) { s.Phase = Counting + 1 }, "snapshot has an out-of-range enum"},
		{standard, func(s *Snapshot) { s.Hold = RestartHold + 1 }, "snapshot has an out-of-range enum"},
		{standard, func(s *Snapshot) { s.FlagSide = 3 }, "snapshot has an out-of-range enum"},
		{standard, func(s *Snapshot) { s.Verdict = AskArbiter + 1 }, "snapshot has an out-of-range enum"},
		{standard, func(s *Snapshot) { s.TurnStart = -instantLimit - 1 }, "snapshot turn_start -100000h0m0.000000001s out of range"},
		{standard, func(s *Snapshot) { s.Anchor = instantLimit + 1 }, "snapshot anchor 100000h0m0.000000001s out of range"},
		{standard, func(s *Snapshot) { s.HoldAt = instantLimit + 1 }, "snapshot hold_at 100000h0m0.000000001s out of range"},
		{standard, func(s *Snapshot) { s.Known = instantLimit + 1 }, "snapshot known 100000h0m0.000000001s out of range"},
		{standard, func(s *Snapshot) { s.FlagAt = -instantLimit - 1 }, "snapshot flag_at -100000h0m0.000000001s out of range"},
		{standard, func(s *Snapshot) { s.Left = -1 }, "snapshot left -1ns out of range"},
		{standard, func(s *Snapshot) { s.Left = maxDuration + 1 }, "snapshot left 10000h0m0.000000001s out of range"},
		{standard, func(s *Snapshot) { s.TurnStart = s.Anchor + 1 }, "snapshot anchor 10s before turn start 10.000000001s"},
		{standard, func(s *Snapshot) { s.Phase = Counting }, `snapshot phase upcount does not fit control "40/90m:30m:byo=3x30s+2x1m"`},
		{standard, func(s *Snapshot) { s.Phase = InBlock }, `snapshot phase block does not fit control "40/90m:30m:byo=3x30s+2x1m"`},
		{canadian, func(s *Snapshot) { s.Phase = InByoyomi }, `snapshot phase byoyomi does not fit control "10m:can=10/5m"`},
		{canadian, func(s *Snapshot) { s.Phase = InUnit }, `snapshot phase unit does not fit control "10m:can=10/5m"`},
		{upcount, func(s *Snapshot) { s.Phase = Main }, `snapshot phase main does not fit control "-"`},
		{upcount, func(s *Snapshot) { s.Phase = InDelay }, `snapshot phase delay does not fit control "-"`},
		{standard, func(s *Snapshot) { s.Sides[0].Main = -1 }, "snapshot first side: time out of range"},
		{standard, func(s *Snapshot) { s.Sides[1].Main = 2*maxDuration + 1 }, "snapshot second side: time out of range"},
		{standard, func(s *Snapshot) { s.Sides[0].BlockLeft = maxDuration + 1 }, "snapshot first side: time out of range"},
		{standard, func(s *Snapshot) { s.Sides[0].Spent = -1 }, "snapshot first side: time out of range"},
		{standard, func(s *Snapshot) { s.Sides[0].FlagAt = instantLimit + 1 }, "snapshot first side: time out of range"},
		{standard, func(s *Snapshot) { s.Sides[0].Stage = -1 }, "snapshot first side: stage -1 out of range"},
		{standard, func(s *Snapshot) { s.Sides[0].Stage = 2 }, "snapshot first side: stage 2 out of range"},
		{upcount, func(s *Snapshot) { s.Sides[1].Stage = 1 }, "snapshot second side: stage 1 out of range"},
		{standard, func(s *Snapshot) { s.Sides[0].StageMoves = -1 }, "snapshot first side: move counts out of range"},
		{standard, func(s *Snapshot) { s.Sides[0].Moves = -1 }, "snapshot first side: move counts out of range"},
		{standard, func(s *Snapshot) { s.Sides[0].Moves = maxCount*maxCount + 1 }, "snapshot first side: move counts out of range"},
		{standard, func(s *Snapshot) { s.Sides[0].StageMoves = 2 }, "snapshot first side: move counts out of range"},
		{standard, func(s *Snapshot) { s.Sides[0].ByoLeft = 4 }, "snapshot first side: overtime counters out of range"},
		{standard, func(s *Snapshot) { s.Sides[0].UnitsLeft = -1 }, "snapshot first side: overtime counters out of range"},
		{standard, func(s *Snapshot) { s.Sides[0].UnitsLeft = 3 }, "snapshot first side: overtime counters out of range"},
		{standard, func(s *Snapshot) { s.Sides[0].Stones = -1 }, "snapshot first side: overtime counters out of range"},
		{standard, func(s *Snapshot) { s.Sides[0].Block = 2 }, "snapshot first side: overtime counters out of range"},
		{snapshot("10m"), func(s *Snapshot) { s.Sides[0].Overtime = true }, "snapshot first side: in overtime without overtime"},
		{standard, func(s *Snapshot) { s.Sides[0].Moves, s.Sides[0].StageMoves = 40, 40 }, "snapshot first side: 40 moves in a stage of 40"},
	}
	for _, tt := range tests {
		s := tt.from
		tt.change(&s)
		_, err := s.check()
		if assert.Error(t, err, tt.want) {
			assert.Equal(t, tt.want, err.Error())
		}
	}
	for _, s := range []Snapshot{standard, canadian, upcount} {
		_, err := s.check()
		assert.NoError(t, err, s.Control)
	}
}
