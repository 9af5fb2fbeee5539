package generate

import (
	"bytes"
	"strings"
	"testing"

	"arbiter/pairing/trf"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseConfig(t *testing.T) {
	cfg, err := ParseConfig(strings.NewReader("# comment\r\nPlayersNumber=25\nRoundsNumber=7\r\nDrawPercentage=40\nForfeitRate=15\nRetiredRate=50\nHalfPointByeRate=20\nPointsForWin=3\nPointsForDraw=1\n"))
	require.NoError(t, err)
	assert.Equal(t, 25, cfg.Players)
	assert.Equal(t, 7, cfg.Rounds)
	assert.Equal(t, 40, cfg.DrawPercentage)
	assert.Equal(t, 15.0, cfg.ForfeitRate)
	assert.Equal(t, 50.0, cfg.RetiredRate)
	assert.Equal(t, 20.0, cfg.HalfPointByeRate)
	assert.Equal(t, 3.0, cfg.Scoring.Win)
	assert.Equal(t, 3.0, cfg.Scoring.PAB, "the PAB follows the win value unless set")
	assert.Equal(t, 1.0, cfg.Scoring.Draw)
}

func TestParseConfigErrors(t *testing.T) {
	for _, src := range []string{"PlayersNumber", "Colour=3", "PlayersNumber=x", "DrawPercentage=101", "RetiredRate=1", "\n\nForfeitRate=0.5"} {
		_, err := ParseConfig(strings.NewReader(src))
		require.Error(t, err, src)
	}
	_, err := ParseConfig(strings.NewReader("\n\nForfeitRate=0.5"))
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 3, ce.Line)
}

func TestTournamentDeterministicAndValid(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Players, cfg.Rounds = 31, 7
	cfg.ForfeitRate, cfg.RetiredRate, cfg.HalfPointByeRate, cfg.ZeroPointByeRate = 12, 40, 15, 30
	a, err := Tournament(cfg, 7)
	require.NoError(t, err)
	b, err := Tournament(cfg, 7)
	require.NoError(t, err)
	assert.Equal(t, a, b)
	var buf bytes.Buffer
	require.NoError(t, a.Write(&buf))
	again, err := trf.Parse(buf.Bytes())
	require.NoError(t, err)
	require.Len(t, again.Players, 31)
	var forfeits, byes, absences int
	for _, p := range a.Players {
		require.Len(t, p.Games, 7, "player %d", p.ID)
		for _, g := range p.Games {
			switch {
			case g.Result == '+' || (g.Result == '-' && g.Opponent != 0):
				forfeits++
			case g.Result == 'U':
				byes++
			case g.Opponent == 0:
				absences++
			}
		}
	}
	assert.Positive(t, forfeits)
	assert.Positive(t, byes)
	assert.Positive(t, absences)
	c, err := Tournament(cfg, 8)
	require.NoError(t, err)
	assert.NotEqual(t, a, c)
}

func FuzzParseConfig(f *testing.F) {
	f.Add("PlayersNumber=25\nRoundsNumber=7\r\nDrawPercentage=40\n")
	f.Add("# c\nForfeitRate=15\rRetiredRate=50\nPointsForPAB=0.5\n")
	f.Add("LowestRating=2000\nHighestRating=1000\n")
	f.Fuzz(func(t *testing.T, src string) {
		cfg, err := ParseConfig(strings.NewReader(src))
		if err != nil {
			return
		}
		require.LessOrEqual(t, cfg.LowestRating, cfg.HighestRating)
		require.GreaterOrEqual(t, cfg.DrawPercentage, 0)
		require.LessOrEqual(t, cfg.DrawPercentage, 100)
	})
}
