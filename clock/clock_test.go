package clock

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustClock(t testing.TB, text string, opt Options) *Clock {
	t.Helper()
	ctl, err := Parse(text)
	require.NoError(t, err)
	c, err := New(ctl, opt)
	require.NoError(t, err)
	return c
}

// TestChargeBruteForce checks charge and exhaustAt against a direct search
// over the definition: exhaustAt is the first u with charge(u) >= rem.
func TestChargeBruteForce(t *testing.T) {
	const g = 10
	for _, r := range []Rounding{Truncate, Up, Nearest} {
		for rem := time.Duration(0); rem <= 45; rem++ {
			first := time.Duration(-1)
			for u := time.Duration(0); u <= 100; u++ {
				var want time.Duration
				switch r {
				case Truncate:
					want = u / g * g
				case Up:
					want = u / g * g
					if u%g != 0 {
						want += g
					}
				case Nearest:
					want = u / g * g
					if u%g >= g/2 {
						want += g
					}
				}
				require.Equal(t, want, charge(u, g, r), "charge(%d, %d, %d)", u, g, r)
				if first < 0 && want >= rem {
					first = u
				}
			}
			assert.Equal(t, first, exhaustAt(rem, g, r), "exhaustAt(%d, %d, %d)", rem, g, r)
		}
	}
}

// TestHourglassInvariant: whatever the presses, the two clocks sum to twice
// the base until a flag.
func TestHourglassInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for game := 0; game < 50; game++ {
		c := mustClock(t, "*1m", Options{})
		require.NoError(t, c.Start(0))
		now := time.Duration(0)
		side := First
		for c.Status() == Running {
			step := time.Duration(rng.Int64N(int64(40 * time.Second)))
			for _, probe := range []time.Duration{now, now + step/2, now + step} {
				sum := c.Reading(First, probe).Main + c.Reading(Second, probe).Main
				require.Equal(t, 2*time.Minute, sum, "game %d at %v", game, probe)
			}
			now += step
			if _, err := c.Press(side, now); err != nil {
				require.ErrorIs(t, err, ErrFlagged)
				break
			}
			side = side.Other()
		}
		require.Equal(t, Flagged, c.Status())
	}
}

// reference is a deliberately simple model of Japanese byoyomi with
// thinking units, advancing one second at a time; it cross-checks the
// deadline arithmetic of the state machine.
type reference struct {
	main      [2]int
	byo       [2]int
	units     [2]int
	period    int
	unit      int
	inPeriod  int // seconds left in the allowance of the running turn
	inUnit    bool
	overtime  [2]bool
	flagged   bool
	flaggedAt int
}

func (r *reference) startTurn(s Side) {
	if r.overtime[s] {
		r.inPeriod, r.inUnit = r.period, false
	}
}

// tick runs side s's clock for one second ending at instant now.
func (r *reference) tick(s Side, now int) {
	if !r.overtime[s] {
		r.main[s]--
		if r.main[s] == 0 {
			r.overtime[s] = true
			r.inPeriod, r.inUnit = r.period, false
		}
		return
	}
	r.inPeriod--
	if r.inPeriod > 0 {
		return
	}
	switch {
	case !r.inUnit && r.byo[s] > 1:
		r.byo[s]--
		r.inPeriod = r.period
	case r.units[s] > 0:
		r.units[s]--
		r.inUnit, r.inPeriod = true, r.unit
	default:
		r.flagged, r.flaggedAt = true, now
	}
}

func TestByoyomiAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	total, flags := 0, 0
	defer func() {
		// Guard against a model that silently stops early.
		assert.Greater(t, total, 2000)
		assert.Greater(t, flags, 50)
	}()
	for game := 0; game < 300; game++ {
		mainS, periods, period := 1+rng.IntN(30), 1+rng.IntN(3), 1+rng.IntN(10)
		units, unit := rng.IntN(3), 1+rng.IntN(10)
		text := formatDuration(time.Duration(mainS)*time.Second) + ":byo=" +
			strconv.Itoa(periods) + "x" + formatDuration(time.Duration(period)*time.Second)
		if units > 0 {
			text += "+" + strconv.Itoa(units) + "x" + formatDuration(time.Duration(unit)*time.Second)
		}
		c := mustClock(t, text, Options{})
		ref := reference{main: [2]int{mainS, mainS}, byo: [2]int{periods, periods},
			units: [2]int{units, units}, period: period, unit: unit}
		require.NoError(t, c.Start(0))
		now, side := 0, First
		ref.startTurn(side)
		presses := 0
		for move := 0; move < 40 && !ref.flagged; move++ {
			think := rng.IntN(period + unit + 3)
			for i := 0; i < think && !ref.flagged; i++ {
				now++
				ref.tick(side, now)
			}
			if ref.flagged {
				break
			}
			// The press comes on the second grid, after that second's tick
			// (a deadline at the press instant is processed first).
			at := time.Duration(now) * time.Second
			_, err := c.Press(side, at)
			require.NoError(t, err, "%s game %d move %d at %v", text, game, move, at)
			r := c.Reading(side, at)
			require.Equal(t, ref.byo[side], r.ByoyomiLeft, "%s game %d move %d byo", text, game, move)
			require.Equal(t, ref.units[side], r.UnitsLeft, "%s game %d move %d units", text, game, move)
			require.Equal(t, ref.overtime[side], r.Phase == InByoyomi, "%s game %d move %d phase", text, game, move)
			if !ref.overtime[side] {
				require.Equal(t, time.Duration(ref.main[side])*time.Second, r.Main)
			}
			presses++
			side = side.Other()
			ref.startTurn(side)
		}
		total += presses
		if ref.flagged {
			flags++
			c.Delivered(time.Duration(ref.flaggedAt+100) * time.Second)
			fs, at, _, ok := c.Result()
			require.True(t, ok, "%s game %d: no flag", text, game)
			assert.Equal(t, side, fs)
			assert.Equal(t, time.Duration(ref.flaggedAt)*time.Second, at, "%s game %d", text, game)
		}
	}
}

func TestReadingIsPure(t *testing.T) {
	c := mustClock(t, "1m:byo=3x10s", Options{})
	require.NoError(t, c.Start(0))
	before := c.Snapshot()
	r := c.Reading(First, 2*time.Minute)
	assert.True(t, r.Flagged, "the projection shows the flag")
	_, ok := c.NextDeadline(90 * time.Second)
	assert.True(t, ok)
	assert.Equal(t, before, c.Snapshot())
	assert.Empty(t, c.Events(nil))
	assert.Equal(t, Running, c.Status())
}

func TestMoveRecord(t *testing.T) {
	c := mustClock(t, "5m+3s", Options{})
	require.NoError(t, c.Start(time.Second))
	mv, err := c.Press(First, 11*time.Second)
	require.NoError(t, err)
	assert.Equal(t, Move{Side: First, Number: 1, Start: time.Second, End: 11 * time.Second, Used: 10 * time.Second,
		After: Reading{Side: First, Main: 5*time.Minute - 4*time.Second, Display: 5*time.Minute - 4*time.Second,
			Stage: 1, Moves: 1, Spent: 10 * time.Second}}, mv)
	require.NoError(t, c.Pause(20*time.Second))
	require.NoError(t, c.Resume(80*time.Second))
	mv, err = c.Press(Second, 90*time.Second)
	require.NoError(t, err)
	assert.Equal(t, 19*time.Second, mv.Used, "the pause is not part of the move")
	assert.Equal(t, 2, mv.Number+1)
}

func TestSnapshotEncodings(t *testing.T) {
	c := mustClock(t, "1m:can=3+1/1m,carry", Options{})
	require.NoError(t, c.Start(0))
	for i, at := range []time.Duration{30 * time.Second, 40 * time.Second, 80 * time.Second, 85 * time.Second} {
		_, err := c.Press(Side(i%2), at)
		require.NoError(t, err)
	}
	snap := c.Snapshot()
	assert.Equal(t, InBlock, snap.Sides[0].stonesPhase())

	js, err := json.Marshal(snap)
	require.NoError(t, err)
	var fromJSON Snapshot
	require.NoError(t, json.Unmarshal(js, &fromJSON))
	assert.Equal(t, snap, fromJSON)

	bin, err := snap.MarshalBinary()
	require.NoError(t, err)
	assert.Less(t, len(bin), len(js)/3, "binary is compact")
	var fromBin Snapshot
	require.NoError(t, fromBin.UnmarshalBinary(bin))
	assert.Equal(t, snap, fromBin)

	c2, err := FromSnapshot(fromBin, Options{})
	require.NoError(t, err)
	for _, at := range []time.Duration{85 * time.Second, 100 * time.Second, 10 * time.Minute} {
		assert.Equal(t, c.Reading(First, at), c2.Reading(First, at))
		assert.Equal(t, c.Reading(Second, at), c2.Reading(Second, at))
	}

	for n := range bin {
		assert.Error(t, new(Snapshot).UnmarshalBinary(bin[:n]), "truncated at %d", n)
	}
	assert.Error(t, new(Snapshot).UnmarshalBinary(append(bin, 0)), "trailing byte")
	bad := snap
	bad.Sides[1].Stage = 7
	assert.Error(t, c2.Restore(bad))
	bad = snap
	bad.Phase = InByoyomi
	assert.Error(t, c2.Restore(bad))
	bad = snap
	bad.Version = 2
	assert.Error(t, c2.Restore(bad))
}

// stonesPhase lets the test say which phase a side waits in.
func (s SideState) stonesPhase() Phase {
	if s.Overtime {
		return InBlock
	}
	return Main
}

func TestRebase(t *testing.T) {
	c := mustClock(t, "5m", Options{})
	require.NoError(t, c.Start(0))
	_, err := c.Press(First, time.Minute)
	require.NoError(t, err)
	snap := c.Snapshot()
	// A new process: its timeline starts again near zero.
	c2, err := FromSnapshot(snap, Options{})
	require.NoError(t, err)
	c2.Rebase(2*time.Minute, 3*time.Second)
	assert.Equal(t, Paused, c2.Status())
	reason, at := c2.Hold()
	assert.Equal(t, RestartHold, reason)
	assert.Equal(t, 3*time.Second, at)
	assert.Equal(t, 4*time.Minute, c2.Reading(Second, time.Hour).Main, "downtime charged to nobody")
	require.NoError(t, c2.Resume(10*time.Second))
	assert.Equal(t, 3*time.Minute, c2.Reading(Second, 70*time.Second).Main)
}

func TestNoLinkCommitsAtHostTime(t *testing.T) {
	c := mustClock(t, "1m", Options{NoLink: true})
	require.NoError(t, c.Start(0))
	dl, ok := c.NextDeadline(0)
	require.True(t, ok)
	assert.Equal(t, Deadline{At: time.Minute, Kind: DueFlag, Side: First}, dl)
	c.Advance(time.Minute - 1)
	assert.Equal(t, Running, c.Status())
	c.Advance(time.Minute)
	assert.Equal(t, Flagged, c.Status())
	assert.Equal(t, []Event{{Kind: Flag, Side: First, At: time.Minute, Final: true, Verdict: FlagLoses}}, c.Events(nil))
}

func TestBadInputs(t *testing.T) {
	c := mustClock(t, "5m", Options{})
	_, err := c.Press(Side(7), 0)
	assert.ErrorIs(t, err, ErrBadSide)
	assert.ErrorIs(t, c.AddTime(Side(2), time.Second), ErrBadSide)
	_, err = c.Claim(Side(3), 0)
	assert.ErrorIs(t, err, ErrBadSide)
	assert.Equal(t, "Side(9)", Side(9).String())
	_, err = New(Control{Stages: []Stage{{Base: time.Minute}}}, Options{Grace: -1})
	assert.Error(t, err)
	require.NoError(t, c.Start(time.Minute))
	_, err = c.Press(First, 0)
	assert.Error(t, err, "a press before the turn began")
	assert.Error(t, c.Pause(0))
}

func FuzzSnapshot(f *testing.F) {
	c := mustClock(f, "40/90m+30s:30m+30s", Options{})
	add := func() {
		b, err := c.Snapshot().MarshalBinary()
		require.NoError(f, err)
		f.Add(b)
	}
	add()
	require.NoError(f, c.Start(0))
	_, _ = c.Press(First, time.Minute)
	add()
	for _, text := range []string{"1m:byo=3x10s+2x5s", "1m:can=2+1/10s,carry", "*1m", "-", "5m+d5s", "3m@1m:byo=1m"} {
		c = mustClock(f, text, Options{Flags: ClaimOnly})
		require.NoError(f, c.Start(0))
		for i := 1; i < 8; i++ {
			_, _ = c.Press(Side(i%2), time.Duration(i)*25*time.Second)
		}
		add()
	}
	f.Add([]byte("CLK\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Snapshot
		if err := s.UnmarshalBinary(data); err != nil {
			return
		}
		again, err := s.MarshalBinary()
		require.NoError(t, err)
		var s2 Snapshot
		require.NoError(t, s2.UnmarshalBinary(again))
		require.Equal(t, s, s2)
		c, err := FromSnapshot(s, Options{})
		if err != nil {
			return
		}
		// A restored clock must never hang or panic.
		for _, at := range []time.Duration{0, time.Second, time.Hour} {
			_ = c.Reading(First, at)
			_, _ = c.NextDeadline(at)
			c.Advance(at)
		}
		_, _ = c.Press(First, time.Hour)
		c.Delivered(2 * time.Hour)
		_ = c.Events(nil)
	})
}

func TestRemaining(t *testing.T) {
	tests := []struct {
		control string
		at      time.Duration
		first   time.Duration // Remaining(First, at) after First pressed at 10s
		second  time.Duration
	}{
		{"5m+d5s", 12 * time.Second, 4*time.Minute + 55*time.Second, 5 * time.Minute}, // second in its delay window
		{"5m+b5s", 20 * time.Second, 4*time.Minute + 55*time.Second, 5*time.Minute - 5*time.Second},
		{"10s:byo=30s", 15 * time.Second, 30 * time.Second, 5 * time.Second},
		{"5s:byo=30s", 20 * time.Second, 30 * time.Second, 25 * time.Second},
		{"-", 15 * time.Second, 10 * time.Second, 5 * time.Second},
	}
	for _, tt := range tests {
		c := mustClock(t, tt.control, Options{})
		require.NoError(t, c.Start(0))
		_, err := c.Press(First, 10*time.Second)
		require.NoError(t, err, tt.control)
		assert.Equal(t, tt.first, c.Remaining(First, tt.at), tt.control)
		assert.Equal(t, tt.second, c.Remaining(Second, tt.at), tt.control)
	}
}

func TestNames(t *testing.T) {
	tests := []struct{ got, want string }{
		{NotStarted.String(), "not-started"}, {Stopped.String(), "stopped"}, {Status(9).String(), "Status(9)"},
		{Main.String(), "main"}, {Counting.String(), "upcount"}, {Phase(9).String(), "Phase(9)"},
		{FlagDraws.String(), "draw"}, {AskArbiter.String(), "arbiter"}, {NoVerdict.String(), "none"}, {FlagLoses.String(), "loss"},
		{Verdict(9).String(), "Verdict(9)"},
		{PeriodLost.String(), "period-lost"}, {EventKind(0).String(), "EventKind(0)"},
		{AutoFlag.String(), "auto"}, {FlagPolicy(5).String(), "FlagPolicy(5)"},
		{Event{Kind: Flag, Side: Second, At: time.Second, Final: true, Verdict: FlagDraws}.String(), "flag second @1s final=true verdict=draw"},
		{Event{Kind: LinkSilent, At: 2 * time.Second, FlagAt: time.Second}.String(), "link-silent first @2s flag@1s"},
		{Event{Kind: StageReached, Side: First}.String(), "stage first @0s"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.got)
	}
	_, err := FlagPolicy(7).MarshalText()
	assert.Error(t, err)
}

func TestAccessors(t *testing.T) {
	c := mustClock(t, "2/1m:1m:can=3/1m", Options{})
	assert.Equal(t, "2/1m:1m:can=3/1m", c.Control().String())
	_, started := c.Running()
	assert.False(t, started)
	require.NoError(t, c.Start(0))
	side, started := c.Running()
	assert.True(t, started)
	assert.Equal(t, First, side)
	assert.Equal(t, 40*time.Second, c.Remaining(First, 20*time.Second))
	assert.Equal(t, time.Minute, c.Remaining(Second, 20*time.Second))
	_, _, _, ok := c.Result()
	assert.False(t, ok)
	c.Delivered(time.Hour)
	side, at, v, ok := c.Result()
	assert.True(t, ok)
	assert.Equal(t, First, side)
	assert.Equal(t, time.Minute, at, "a flag in a quota stage is final even with overtime to come")
	assert.Equal(t, FlagLoses, v)
}

// A move made while the clock is held ends the mover's turn at the hold:
// the time used before the hold is charged, none after; the move counts
// (an increment is added, a stage reached); the clock stays held and,
// resumed, runs for the side to move. Held at 10 s and resumed at 1 min,
// it reads as a clock pressed at 10 s reads 50 s earlier.
func TestPressHeld(t *testing.T) {
	const hold, resume = 10 * time.Second, time.Minute
	for _, control := range []string{"5m", "5m+3s", "1/5m:5m", "5m+d5s", "10s:byo=30s"} {
		t.Run(control, func(t *testing.T) {
			c := mustClock(t, control, Options{})
			require.NoError(t, c.Start(0))
			require.NoError(t, c.Pause(hold))
			_, err := c.PressHeld(Second)
			require.ErrorIs(t, err, ErrNotRunning, "not Second's turn")
			mv, err := c.PressHeld(First)
			require.NoError(t, err)
			assert.Equal(t, hold, mv.Used, "the time before the hold")
			assert.Equal(t, Paused, c.Status())
			side, _ := c.Running()
			assert.Equal(t, Second, side, "the opponent's turn")

			ref := mustClock(t, control, Options{})
			require.NoError(t, ref.Start(0))
			refMove, err := ref.Press(First, hold)
			require.NoError(t, err)
			assert.Equal(t, refMove.After, mv.After, "the mover's clock after the move")
			for _, s := range []Side{First, Second} {
				assert.Equal(t, ref.Remaining(s, hold), c.Remaining(s, resume), "%s: nothing charged after the hold", s)
			}
			require.NoError(t, c.Resume(resume))
			for _, d := range []time.Duration{time.Second, 10 * time.Second, 40 * time.Second} {
				for _, s := range []Side{First, Second} {
					assert.Equal(t, ref.Remaining(s, hold+d), c.Remaining(s, resume+d), "%s, %v after the resume", s, d)
				}
			}
			_, err = c.PressHeld(Second)
			require.ErrorIs(t, err, ErrNotPaused, "a running clock is pressed")
		})
	}
}

// A flag that fell before the hold stands: the held move is refused.
func TestPressHeldAfterTheFlag(t *testing.T) {
	c := mustClock(t, "10s", Options{})
	require.NoError(t, c.Start(0))
	require.NoError(t, c.Pause(15*time.Second))
	_, err := c.PressHeld(First)
	require.ErrorIs(t, err, ErrFlagged)
}
