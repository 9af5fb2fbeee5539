package clock

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	s = time.Second
	m = time.Minute
	h = time.Hour
)

func TestParse(t *testing.T) {
	tests := []struct {
		in        string
		want      Control
		canonical string
		describe  string
	}{
		{"40/90m+30s:30m+30s",
			Control{Stages: []Stage{{Moves: 40, Base: 90 * m, Method: Fischer, Bonus: 30 * s}, {Base: 30 * m, Method: Fischer, Bonus: 30 * s}}},
			"40/90m+30s:30m+30s", "90 min/40 moves + 30 min, +30 s/move"},
		{"40/5400+30:1800+30", // PGN
			Control{Stages: []Stage{{Moves: 40, Base: 90 * m, Method: Fischer, Bonus: 30 * s}, {Base: 30 * m, Method: Fischer, Bonus: 30 * s}}},
			"40/90m+30s:30m+30s", "90 min/40 moves + 30 min, +30 s/move"},
		{"40/9000:3600", // PGN classical without increment
			Control{Stages: []Stage{{Moves: 40, Base: 150 * m}, {Base: h}}},
			"40/150m:1h", "150 min/40 moves + 1 h"},
		{"300", Control{Stages: []Stage{{Base: 5 * m}}}, "5m", "5 min"},
		{"300+0", Control{Stages: []Stage{{Base: 5 * m}}}, "5m", "5 min"},
		{"180+2", Control{Stages: []Stage{{Base: 3 * m, Method: Fischer, Bonus: 2 * s}}}, "3m+2s", "3 min, +2 s/move"},
		{"40/2h", Control{Stages: []Stage{{Moves: 40, Base: 2 * h}}}, "40/2h", "2 h/40 moves, repeating"},
		{"90m+d5s", Control{Stages: []Stage{{Base: 90 * m, Method: Delay, Bonus: 5 * s}}}, "90m+d5s", "90 min, 5 s delay"},
		{"1h30m+b5s", Control{Stages: []Stage{{Base: 90 * m, Method: Bronstein, Bonus: 5 * s}}}, "90m+b5s", "90 min, 5 s Bronstein delay"},
		{"*60", Control{Kind: Hourglass, Stages: []Stage{{Base: m}}}, "*1m", "hourglass, 1 min each"},
		{"-", Control{Kind: Upcount}, "-", "no clock (upcount)"},
		{"10m:byo=30s", Control{Stages: []Stage{{Base: 10 * m}}, Overtime: Overtime{Kind: Byoyomi, Periods: 1, Period: 30 * s}},
			"10m:byo=30s", "10 min, then 30 s byoyomi"},
		{"1h:byo=5x30s", Control{Stages: []Stage{{Base: h}}, Overtime: Overtime{Kind: Byoyomi, Periods: 5, Period: 30 * s}},
			"1h:byo=5x30s", "1 h, then 5 × 30 s byoyomi"},
		{"0:byo=30s+10x1m", Control{Stages: []Stage{{}}, Overtime: Overtime{Kind: Byoyomi, Periods: 1, Period: 30 * s, Units: 10, Unit: m}},
			"0:byo=30s+10x1m", "no main time, then 30 s byoyomi + 10 × 1 min thinking time"},
		{"6h@1m:byo=60s", Control{Stages: []Stage{{Base: 6 * h, Unit: m}}, Overtime: Overtime{Kind: Byoyomi, Periods: 1, Period: m}},
			"6h@1m:byo=1m", "6 h, charged in units of 1 min (truncated), then 1 min byoyomi"},
		{"10m@ceil1s", Control{Stages: []Stage{{Base: 10 * m, Unit: s, Rounding: Up}}}, "10m@ceil1s", "10 min, charged in units of 1 s (rounded up)"},
		{"10m@round1s+2s", Control{Stages: []Stage{{Base: 10 * m, Unit: s, Rounding: Nearest, Method: Fischer, Bonus: 2 * s}}},
			"10m@round1s+2s", "10 min, +2 s/move, charged in units of 1 s (rounded)"},
		{"1h:can=25/5m", Control{Stages: []Stage{{Base: h}}, Overtime: Overtime{Kind: Canadian, Moves: 25, Block: 5 * m}},
			"1h:can=25/5m", "1 h, then 25 moves in 5 min (Canadian)"},
		{"1h:can=10+10/5m,carry,next", Control{Stages: []Stage{{Base: h}}, Overtime: Overtime{Kind: Canadian, Moves: 10, Step: 10, Block: 5 * m, Carry: true, FromNextMove: true}},
			"1h:can=10+10/5m,carry,next", "1 h, then 10 moves (+10 each block) in 5 min (Canadian), leftover kept, counting from the next move"},
		{"40/100m+30s:20/50m+30s:15m+30s", Control{Stages: []Stage{
			{Moves: 40, Base: 100 * m, Method: Fischer, Bonus: 30 * s},
			{Moves: 20, Base: 50 * m, Method: Fischer, Bonus: 30 * s},
			{Base: 15 * m, Method: Fischer, Bonus: 30 * s}}},
			"40/100m+30s:20/50m+30s:15m+30s", "100 min/40 moves + 50 min/20 moves + 15 min, +30 s/move"},
		{"40/90m:30m+30s", Control{Stages: []Stage{{Moves: 40, Base: 90 * m}, {Base: 30 * m, Method: Fischer, Bonus: 30 * s}}},
			"40/90m:30m+30s", "90 min/40 moves + 30 min (+30 s/move)"},
		{"1.5s+250ms", Control{Stages: []Stage{{Base: 1500 * time.Millisecond, Method: Fischer, Bonus: 250 * time.Millisecond}}},
			"1.5s+0.25s", "1.5 s, +0.25 s/move"},
		{" 5m30s ", Control{Stages: []Stage{{Base: 5*m + 30*s}}}, "5m30s", "5 min 30 s"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.canonical, got.String())
			assert.Equal(t, tt.describe, got.Describe())
			back, err := Parse(got.String())
			require.NoError(t, err)
			assert.Equal(t, got, back)
		})
	}
}

func TestParseUnknown(t *testing.T) {
	_, err := Parse("?")
	assert.ErrorIs(t, err, ErrUnknownControl)
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in     string
		column int
		token  string
		msg    string
	}{
		{"", 1, "", "empty"},
		{"90x", 3, "x", `expected ":"`},
		{"90m+", 5, "", "expected a time"},
		{"40/", 4, "", "expected a time"},
		{"0/90m", 1, "0", "move quota"},
		{"90m:", 5, "", `nothing after ":"`},
		{"90m:30m:10m", 5, "30m", "follows a stage for the rest"},
		{"1.5", 1, "1.5", "without a unit"},
		{"1h30", 3, "30", "without a unit"},
		{"1.h", 1, "1.h", "digits after the decimal point"},
		{"99999999h", 1, "99999999h", "too long"},
		{"90m+d0", 6, "0", "delay must be positive"},
		{"byo=30s", 1, "byo", "needs a main-time stage"},
		{"10m:byo=0x30s", 9, "0x30s", "count must be"},
		{"10m:byo=30s+1m", 13, "1m", `expected a count and "x"`},
		{"10m:byo=30s:5m", 12, ":", "overtime must come last"},
		{"10m:can=0/5m", 9, "0", "move count"},
		{"10m:can=5", 10, "", `expected "/"`},
		{"10m:can=5/5m,keep", 14, "keep", "unknown Canadian option"},
		{"*0", 2, "0", "hourglass time must be positive"},
		{"*1m+2s", 4, "+", "hourglass takes only a time"},
		{"40/90m:byo=30s", 8, "byo", "overtime needs a last stage"},
		{"0", 1, "0", "no time at all"},
		{"10m@0", 5, "0", "charge unit must be positive"},
		{"1 0m", 2, " 0m", `expected ":"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := Parse(tt.in)
			var se *SyntaxError
			require.True(t, errors.As(err, &se), "want a SyntaxError, got %v", err)
			assert.Equal(t, tt.column, se.Offset+1, "column")
			assert.Equal(t, tt.token, se.Token, "token")
			assert.Contains(t, se.Error(), tt.msg)
		})
	}
}

func TestPGN(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"40/90m+30s:30m+30s", "40/5400+30:1800+30", true},
		{"5m", "300", true},
		{"*1m", "*60", true},
		{"-", "-", true},
		{"90m+d5s", "", false},
		{"10m:byo=30s", "", false},
		{"1.5s", "", false},
	}
	for _, tt := range tests {
		c, err := Parse(tt.in)
		require.NoError(t, err)
		got, ok := c.PGN()
		assert.Equal(t, tt.ok, ok, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
		if ok {
			back, err := Parse(got)
			require.NoError(t, err)
			assert.Equal(t, c, back)
		}
	}
}

func TestValidate(t *testing.T) {
	bad := []Control{
		{},
		{Kind: Upcount, Stages: []Stage{{Base: m}}},
		{Kind: Hourglass},
		{Stages: []Stage{{Base: m, Method: Fischer}}},
		{Stages: []Stage{{Base: m, Bonus: s}}},
		{Stages: []Stage{{Base: -m}}},
		{Stages: []Stage{{Base: m}, {Base: m}}},
		{Stages: []Stage{{Base: m}}, Overtime: Overtime{Kind: Byoyomi}},
		{Stages: []Stage{{Base: m}}, Overtime: Overtime{Kind: Byoyomi, Periods: 1, Period: s, Units: 2}},
		{Stages: []Stage{{Base: m}}, Overtime: Overtime{Kind: Canadian, Moves: 1}},
		{Stages: []Stage{{Base: m}}, Overtime: Overtime{Period: s}},
		{Stages: []Stage{{Base: m, Rounding: Up}}},
		{Kind: 9},
	}
	for i, c := range bad {
		assert.Error(t, c.Validate(), "case %d: %+v", i, c)
		_, err := New(c, Options{})
		assert.Error(t, err, "case %d", i)
	}
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"40/90m+30s:30m+30s", "40/5400+30:1800+30", "300+2", "*60", "-", "?", "90m+d5s", "90m+b5s",
		"10m:byo=30s", "1h:byo=5x30s", "0:byo=30s+10x1m", "6h@1m:byo=60s", "10m@ceil1s", "10m@round500ms",
		"1h:can=25/5m", "1h:can=10+10/5m,carry,next", "40/2h", "1.5s+0.25s", "1h30m15.123456789s", "",
		"90m:", "40/", "1e9", "99999999999999999999",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c, err := Parse(in)
		if err != nil {
			var se *SyntaxError
			if !errors.Is(err, ErrUnknownControl) && !errors.As(err, &se) {
				t.Fatalf("Parse(%q): error %v is not a SyntaxError", in, err)
			}
			return
		}
		require.NoError(t, c.Validate())
		text := c.String()
		back, err := Parse(text)
		require.NoError(t, err, "reparse %q (from %q)", text, in)
		require.Equal(t, c, back, "round trip of %q via %q", in, text)
		_ = c.Describe()
		if pgn, ok := c.PGN(); ok {
			again, err := Parse(pgn)
			require.NoError(t, err)
			require.Equal(t, c, again)
		}
	})
}

func TestTextMarshaling(t *testing.T) {
	type config struct {
		Control Control    `json:"control"`
		Flags   FlagPolicy `json:"flags"`
	}
	var cfg config
	require.NoError(t, json.Unmarshal([]byte(`{"control":"40/5400+30:1800+30","flags":"claim-only"}`), &cfg))
	assert.Equal(t, "40/90m+30s:30m+30s", cfg.Control.String())
	assert.Equal(t, ClaimOnly, cfg.Flags)
	out, err := json.Marshal(cfg)
	require.NoError(t, err)
	assert.JSONEq(t, `{"control":"40/90m+30s:30m+30s","flags":"claim-only"}`, string(out))

	err = json.Unmarshal([]byte(`{"control":"40/90x"}`), &cfg)
	var se *SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "x", se.Token)
	assert.Error(t, json.Unmarshal([]byte(`{"flags":"sometimes"}`), &cfg))
	_, err = json.Marshal(config{})
	assert.Error(t, err, "the zero Control is not a time control")
}
