package director_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/rules"
)

// Seven rounds of a five-player Swiss paired by hand: each board and bye is
// stored with the absolute criteria it breaks, C1 (a rematch, every round
// they met), C2 (a second unplayed win: a pairing-allocated bye or a
// forfeit) and C3 (a colour difference beyond 2, or a third colour in a
// row), and the audit log names them.
func TestPairByHandNamesTheCriteriaBroken(t *testing.T) {
	cfg := eventConfig(t, "swiss-dutch", 5, 7)
	cfg.Tournaments[0].AutoPair = false
	d, db := newEventFrom(t, cfg)
	ctx := run(t, d)
	id := d.TournamentIDs()[0]
	rounds := []struct {
		boards string
		manual []string // by board, the byes and the players left out excluded
		data   string   // the audit log's record of the pairing
	}{
		{"1 - 2\n3 - 4\n5 bye", []string{"manual", "manual"}, "paired by hand"},
		{"2 - 1\n4 - 5\n3 bye", []string{"C1: they met in round 1", "manual"},
			"paired by hand; breaks 2-1: C1: they met in round 1"},
		// Board 1 is a forfeit: player 1 scores a win without playing.
		{"1 - 2\n5 bye\n3 - 4", []string{"C1: they met in round 1; C1: they met in round 2", "C1: they met in round 1"},
			"paired by hand; breaks 1-2: C1: they met in round 1; C1: they met in round 2; 5 bye: C2: already scored without playing in round 1; 3-4: C1: they met in round 1"},
		{"1 bye\n4 - 3\n5 - 2", []string{"C1: they met in round 1; C1: they met in round 3", "manual"},
			"paired by hand; breaks 1 bye: C2: already scored without playing in round 3; 4-3: C1: they met in round 1; C1: they met in round 3"},
		{"4 - 3\n5 - 1\n2 bye", []string{"C1: they met in round 1; C1: they met in round 3; C1: they met in round 4", "manual"},
			"paired by hand; breaks 4-3: C1: they met in round 1; C1: they met in round 3; C1: they met in round 4"},
		// Player 5 is left out; 1 and 2 did not meet in round 3 (a forfeit).
		{"4 - 3\n1 - 2", []string{
			"C1: they met in round 1; C1: they met in round 3; C1: they met in round 4; C1: they met in round 5; C3: 4 would have the first move three times in a row; C3: 3 would have the second move three times in a row",
			"C1: they met in round 1; C1: they met in round 2"},
			"paired by hand; breaks 4-3: C1: they met in round 1; C1: they met in round 3; C1: they met in round 4; C1: they met in round 5; C3: 4 would have the first move three times in a row; C3: 3 would have the second move three times in a row; 1-2: C1: they met in round 1; C1: they met in round 2"},
		{"4 - 3\n1 - 2\n5 bye", []string{
			"C1: they met in round 1; C1: they met in round 3; C1: they met in round 4; C1: they met in round 5; C1: they met in round 6; C3: 4 would have a colour difference of +3 with the first move; C3: 3 would have the second move three times in a row",
			"C1: they met in round 1; C1: they met in round 2; C1: they met in round 6; C3: 2 would have a colour difference of -3 with the second move"},
			"paired by hand; breaks 4-3: C1: they met in round 1; C1: they met in round 3; C1: they met in round 4; C1: they met in round 5; C1: they met in round 6; C3: 4 would have a colour difference of +3 with the first move; C3: 3 would have the second move three times in a row; 1-2: C1: they met in round 1; C1: they met in round 2; C1: they met in round 6; C3: 2 would have a colour difference of -3 with the second move; 5 bye: C2: already scored without playing in round 1"},
	}
	for i, rd := range rounds {
		n := i + 1
		boards, err := director.ParseManual(rd.boards)
		require.NoError(t, err)
		require.NoError(t, d.PairByHand(ctx, id, boards, "chief", "by hand"), "round %d", n)
		r := waitRound(t, db, id, n)
		assert.Equal(t, "manual", r.How)
		var manual []string
		for _, p := range r.Pairings {
			if p.Second != 0 {
				manual = append(manual, p.Manual)
			}
		}
		assert.Equal(t, rd.manual, manual, "round %d", n)
		acts := actionsOf(t, db, "pair-round-manual")
		require.Len(t, acts, n)
		assert.Equal(t, "round "+string(rune('0'+n))+" of Club swiss-dutch: "+rd.data, acts[n-1].Data, "round %d", n)
		if n == 3 {
			require.NoError(t, d.SetResult(ctx, r.Pairings[0].GameID, rules.Win(rules.First, rules.Forfeit), "chief", "did not appear"))
			require.NoError(t, d.Readmit(id, 2, "chief", "arrived"))
		}
		finishRound(t, ctx, d, waitRound(t, db, id, n))
	}
}
