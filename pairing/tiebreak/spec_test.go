package tiebreak

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		in   string
		want Spec
		str  string
	}{
		{"PTS", Spec{Kind: PTS}, "PTS"},
		{"bh", Spec{Kind: BH}, "BH"},
		{"BH/C1", Spec{Kind: BH, CutLow: 1}, "BH/C1"},
		{"BH/C2", Spec{Kind: BH, CutLow: 2}, "BH/C2"},
		{"bh/m1", Spec{Kind: BH, CutLow: 1, CutHigh: 1}, "BH/M1"},
		{"FB/M2", Spec{Kind: FB, CutLow: 2, CutHigh: 2}, "FB/M2"},
		{"SB/C1", Spec{Kind: SB, CutLow: 1}, "SB/C1"},
		{" PS/C1 ", Spec{Kind: PS, CutLow: 1}, "PS/C1"},
		{"DE/P", Spec{Kind: DE, Forfeits: true}, "DE/P"},
		{"ARO/C1", Spec{Kind: ARO, CutLow: 1}, "ARO/C1"},
		{"TPR/U1400", Spec{Kind: TPR, Unrated: 1400}, "TPR/U1400"},
		{"GE", Spec{Kind: REP}, "REP"},
		{"BH/C1/H1", Spec{Kind: BH, CutLow: 1, CutHigh: 1}, "BH/M1"},
		{"APPO", Spec{Kind: APPO}, "APPO"},
	}
	for _, tc := range tests {
		got, err := ParseSpec(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		assert.Equal(t, tc.str, got.String(), tc.in)
	}
}

func TestParseSpecErrors(t *testing.T) {
	tests := []struct{ in, err string }{
		{"XYZ", `unknown name "XYZ"`},
		{"", "unknown name"},
		{"WIN/C1", "modifier /C1 does not apply to WIN"},
		{"BH/Cx", `"X" is not a number`},
		{"BH/", "empty modifier"},
		{"DE/Q", "modifier /Q does not apply to DE"},
		{"PS/M1", "modifier /M1 does not apply to PS"},
		{"BH/U1000", "modifier /U1000 does not apply to BH"},
		{"ARO/U0", "modifier /U0 does not apply"},
	}
	for _, tc := range tests {
		_, err := ParseSpec(tc.in)
		require.ErrorContains(t, err, tc.err, tc.in)
	}
	_, err := ParseSpecs("BH, SB; NOPE")
	require.ErrorContains(t, err, "tie-break 3")
	require.Panics(t, func() { MustParseSpecs("NOPE") })
}

func TestParseSpecsSeparators(t *testing.T) {
	specs, err := ParseSpecs("BH/C1, BH;SB\tDE")
	require.NoError(t, err)
	var names []string
	for _, s := range specs {
		names = append(names, s.String())
	}
	assert.Equal(t, "BH/C1 BH SB DE", strings.Join(names, " "))
}

func FuzzParseSpecs(f *testing.F) {
	for _, s := range []string{"PTS BH BH/C1 BH/C2 BH/M1 FB AOB SB DE", "WIN WON BPG BWG REP ARO/C1 TPR/U1000", "PS/C1,KS;RTNG TPN", "bh/m", "DE/P/P", "/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		specs, err := ParseSpecs(text)
		if err != nil {
			return
		}
		var names []string
		for _, s := range specs {
			names = append(names, s.String())
		}
		again, err := ParseSpecs(strings.Join(names, " "))
		require.NoError(t, err, "canonical form %q of %q", names, text)
		require.Equal(t, specs, again)
	})
}
