package sim_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/hardware/eboard"
	"arbiter/rules"
	"arbiter/rules/chess"
)

func eboardField(sq rules.Square) int { return eboard.Normal.Field(sq) }

func newRng() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

func mustFEN(t *testing.T, fen string) rules.Position {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	require.NoError(t, err)
	return p
}
