package export_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/export"
	"arbiter/pairing"
	"arbiter/pairing/trf"
	"arbiter/rules"
	"arbiter/store"
)

// TestTRFForfeitsAndByes: a game decided by forfeit is written as FIDE
// wants it, + and - with the scheduled opponent and colour (not 1 and 0),
// the pairing-allocated bye as 0000 - U; the file reads back with our
// reader and the pairing engine's checker agrees with every round.
func TestTRFForfeitsAndByes(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "event.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	cfg := director.Config{Name: "Forfeits"}
	tc := director.Tournament{Name: "Swiss", Game: "chess", System: "swiss-dutch", Rounds: 3, TieBreaks: []string{"BH"}}
	for i := range 5 {
		tc.Players = append(tc.Players, store.Player{Name: fmt.Sprintf("Player\n%d", i+1), Rating: 2000 - 10*i})
	}
	cfg.Tournaments = []director.Tournament{tc}
	d, err := director.New(cfg, db, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	tours, err := db.Tournaments()
	require.NoError(t, err)
	id := tours[0].ID
	ctx := context.Background()

	// Round 1: board 1 won by forfeit, board 2 played; round 2 all played.
	for round := 1; round <= 2; round++ {
		require.NoError(t, d.PairNextRound(ctx, id, "test", ""))
		rounds, err := db.Rounds(id)
		require.NoError(t, err)
		for _, p := range rounds[round-1].Pairings {
			if p.GameID == 0 {
				continue
			}
			o := rules.Win(rules.First, rules.Resignation)
			if round == 1 && p.Board == 1 {
				o = rules.Win(rules.First, rules.Forfeit)
			}
			require.NoError(t, db.SetResult(p.GameID, o.Result.String(), o.Reason.String(), started, nil))
		}
	}
	rounds, err := db.Rounds(id)
	require.NoError(t, err)
	forfeit := rounds[0].Pairings[0]
	var bye int
	for _, p := range rounds[0].Pairings {
		if p.Second == 0 {
			bye = p.First
		}
	}
	require.NotZero(t, bye, "five players: a bye in round 1")

	var buf bytes.Buffer
	require.NoError(t, export.WriteTRF(&buf, director.Reports{DB: db}, id))
	text := buf.String()
	records := map[int]string{}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "001 ") {
			var pid int
			_, err := fmt.Sscanf(l[4:8], "%d", &pid)
			require.NoError(t, err, l)
			records[pid] = l
		}
	}
	require.Len(t, records, 5, "one record per player:\n%s", text)
	round1 := func(pid int) string { return records[pid][91:99] }
	assert.Equal(t, fmt.Sprintf("%4d w +", forfeit.Second), round1(forfeit.First))
	assert.Equal(t, fmt.Sprintf("%4d b -", forfeit.First), round1(forfeit.Second))
	assert.Equal(t, "0000 - U", round1(bye))

	tour, err := trf.Parse(buf.Bytes())
	require.NoError(t, err)
	assert.Empty(t, tour.Warnings)
	p := tour.PlayerByID(forfeit.First)
	require.NotNil(t, p)
	assert.Equal(t, trf.Game{Opponent: forfeit.Second, Colour: 'w', Result: '+'}, p.Games[0])
	assert.False(t, p.Games[0].Played(), "a forfeit is not a played game")
	assert.Equal(t, "Player 1", tour.PlayerByID(1).Name)
	diffs, err := pairing.Check(tour, pairing.Options{Colours: pairing.ChessColours})
	require.NoError(t, err)
	assert.Empty(t, diffs, "the pairing engine's checker agrees with every round:\n%s", text)
}
