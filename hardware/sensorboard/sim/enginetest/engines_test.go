package enginetest

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/board"
	sb "arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
	_ "arbiter/rules/chess"
	_ "arbiter/rules/kvaa"
	_ "arbiter/rules/shogi"
	_ "arbiter/rules/tavreli"
	_ "arbiter/rules/tensor"
)

// Every registered game: random games are planned move by move and
// played on a simulated board (both capability classes); the board must
// end each turn showing the engine's view.
func TestRandomGamesPlayPhysically(t *testing.T) {
	games := rules.Games()
	require.NotEmpty(t, games)
	for _, name := range games {
		t.Run(name, func(t *testing.T) {
			g, err := rules.New(name, nil)
			require.NoError(t, err)
			geo := g.Geometry()
			for seed := range uint64(6) {
				rng := rand.New(rand.NewPCG(seed, 99))
				turns, err := sim.RandomGame(g.Start(), 150, rng)
				require.NoError(t, err)
				caps := board.CapHeight
				if seed%2 == 1 {
					caps |= board.CapIdentity | board.CapColor | board.CapFace | board.CapZoneIdentity
				}
				clock := &sim.Virtual{}
				b, err := sim.NewBoard(sim.Config{ID: name, Geometry: geo, Graph: graphName(g), Caps: caps, Seed: seed}, clock)
				require.NoError(t, err)
				b.Load(g.Start().View())
				frames := 0
				b.SetOutput(func([]byte) { frames++ })
				hostReady(b)
				run := sim.NewRunner(b, clock)
				require.NoError(t, run.Play(context.Background(), turns), "seed %d", seed)
				if len(turns) > 0 {
					require.True(t, b.View().Equal(turns[len(turns)-1].After), "seed %d: final view", seed)
				}
				require.Positive(t, frames)
				t.Logf("seed %d: %d turns, %d frames", seed, len(turns), frames)
			}
		})
	}
}

// hostReady makes the board believe a host has connected.
func hostReady(b *sim.Board) {
	var enc sb.Encoder
	w := enc.Append(nil, &sb.HelloReqMsg{Major: 1}, 0)
	d := sb.NewDecoder()
	_, f, err := d.Decode(w)
	if err != nil {
		panic(err)
	}
	b.HandleHost(f)
}

// graphName names the cell graph of a board that is not rectangular.
func graphName(g rules.Game) string {
	if g.Geometry().Rectangular() {
		return ""
	}
	return g.Name()
}
