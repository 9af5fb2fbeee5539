package clock

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestValidateMessages pins the error Validate gives for each way a
// control can be unusable: the first thing wrong, named.
func TestValidateMessages(t *testing.T) {
	byo := Overtime{Kind: Byoyomi, Periods: 1, Period: 30 * s}
	can := Overtime{Kind: Canadian, Moves: 10, Block: 5 * m}
	tests := []struct {
		c    Control
		want string
	}{
		{Control{Kind: Upcount, Stages: []Stage{{Base: m}}}, "upcount control has stages or overtime"},
		{Control{Kind: Upcount, Overtime: byo}, "upcount control has stages or overtime"},
		{Control{Kind: Hourglass}, "hourglass control needs exactly one stage, has 0"},
		{Control{Kind: Hourglass, Stages: []Stage{{Base: m, Moves: 40}}}, "hourglass stage takes only a base time"},
		{Control{Kind: Hourglass, Stages: []Stage{{Base: m, Unit: s}}}, "hourglass stage takes only a base time"},
		{Control{Kind: Hourglass, Stages: []Stage{{Base: m, Rounding: Up}}}, "hourglass stage takes only a base time"},
		{Control{Kind: Hourglass, Stages: []Stage{{}}}, "hourglass time 0s out of range"},
		{Control{Kind: Hourglass, Stages: []Stage{{Base: m}}, Overtime: byo}, "hourglass control has overtime"},
		{Control{Kind: 9}, "unknown control kind 9"},
		{Control{}, "control has no stages"},
		{Control{Stages: []Stage{{Moves: -1, Base: m}}}, "stage 1: move quota -1 out of range"},
		{Control{Stages: []Stage{{Base: maxDuration + 1}}}, "stage 1: base time 10000h0m0.000000001s out of range"},
		{Control{Stages: []Stage{{Base: m, Bonus: -s}}}, "stage 1: bonus -1s out of range"},
		{Control{Stages: []Stage{{Base: m, Bonus: s}}}, "stage 1: bonus without a method"},
		{Control{Stages: []Stage{{Base: m, Method: Delay}}}, "stage 1: bonus method with zero bonus"},
		{Control{Stages: []Stage{{Base: m, Method: 7, Bonus: s}}}, "stage 1: unknown bonus method 7"},
		{Control{Stages: []Stage{{Base: m, Unit: -s}}}, "stage 1: charge unit -1s out of range"},
		{Control{Stages: []Stage{{Base: m, Unit: s, Rounding: 5}}}, "stage 1: unknown rounding 5"},
		{Control{Stages: []Stage{{Base: m, Rounding: Nearest}}}, "stage 1: rounding without a charge unit"},
		{Control{Stages: []Stage{{Base: m}, {Base: m}}}, "stage 1: only the last stage may be for the rest of the game"},
		{Control{Stages: []Stage{{Moves: 40, Base: m}}, Overtime: byo}, "overtime needs a last stage for the rest of the game"},
		{Control{Stages: []Stage{{Base: m}}, Overtime: Overtime{Units: 1}}, "overtime: parameters without an overtime kind"},
		{Control{Stages: []Stage{{Base: m}}, Overtime: Overtime{Kind: 4}}, "overtime: unknown overtime kind 4"},
		{Control{Stages: []Stage{{Base: m}}, Overtime: Overtime{Kind: Byoyomi, Period: s}}, "overtime: byoyomi period count 0 out of range"},
		{Control{Stages: []Stage{{Base: m}}, Overtime: Overtime{Kind: Byoyomi, Periods: 1}}, "overtime: byoyomi period 0s out of range"},
		{Control{Stages: []Stage{{Base: m}}, Overtime: Overtime{Kind: Byoyomi, Periods: 1, Period: s, Units: -1}}, "overtime: thinking unit count -1 out of range"},
		{Control{Stages: []Stage{{Base: m}}, Overtime: Overtime{Kind: Byoyomi, Periods: 1, Period: s, Unit: s}}, "overtime: thinking units 0 of 1s are inconsistent"},
		{Control{Stages: []Stage{{Base: m}}, Overtime: Overtime{Kind: Byoyomi, Periods: 1, Period: s, Units: 1, Unit: -s}}, "overtime: thinking units 1 of -1s are inconsistent"},
		{Control{Stages: []Stage{{Base: m}}, Overtime: Overtime{Kind: Byoyomi, Periods: 1, Period: s, Carry: true}}, "overtime: byoyomi with Canadian parameters"},
		{Control{Stages: []Stage{{Base: m}}, Overtime: Overtime{Kind: Byoyomi, Periods: 1, Period: s, Step: 1}}, "overtime: byoyomi with Canadian parameters"},
		{Control{Stages: []Stage{{Base: m}}, Overtime: Overtime{Kind: Canadian, Block: m}}, "overtime: Canadian moves 0 (+0 per block) out of range"},
		{Control{Stages: []Stage{{Base: m}}, Overtime: Overtime{Kind: Canadian, Moves: 1, Step: -1, Block: m}}, "overtime: Canadian moves 1 (+-1 per block) out of range"},
		{Control{Stages: []Stage{{Base: m}}, Overtime: Overtime{Kind: Canadian, Moves: 1}}, "overtime: Canadian block 0s out of range"},
		{Control{Stages: []Stage{{Base: m}}, Overtime: Overtime{Kind: Canadian, Moves: 1, Block: m, Unit: s}}, "overtime: Canadian overtime with byoyomi parameters"},
		{Control{Stages: []Stage{{Moves: 40}, {Base: m}}}, "stage 1 has no time at all"},
		{Control{Stages: []Stage{{}}}, "stage 1 has no time at all"},
	}
	for _, tt := range tests {
		err := tt.c.Validate()
		if assert.Error(t, err, "%+v", tt.c) {
			assert.Equal(t, tt.want, err.Error(), "%+v", tt.c)
		}
	}
	for _, c := range []Control{
		{Kind: Upcount},
		{Kind: Hourglass, Stages: []Stage{{Base: m}}},
		{Stages: []Stage{{}}, Overtime: byo},
		{Stages: []Stage{{Base: m}}, Overtime: can},
		{Stages: []Stage{{Moves: 40, Base: m, Method: Fischer, Bonus: s, Unit: s, Rounding: Nearest}, {Base: m}}},
	} {
		assert.NoError(t, c.Validate(), "%+v", c)
	}
}

// TestDescribeInvalid: a control built by hand that Validate refuses still
// describes itself, without a panic, naming what it cannot word.
func TestDescribeInvalid(t *testing.T) {
	for _, tt := range []struct {
		c    Control
		want string
	}{
		{Control{}, "invalid time control"},
		{Control{Stages: []Stage{{Base: m, Unit: s, Rounding: 3}}}, "1 min, charged in units of 1 s (rounding 3)"},
	} {
		assert.Error(t, tt.c.Validate())
		assert.Equal(t, tt.want, tt.c.Describe())
	}
}
