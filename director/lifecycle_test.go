package director_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/director"
	"arbiter/rules"
	"arbiter/store"
)

// waitRound waits until round n of tournament id is paired and returns it.
func waitRound(t *testing.T, db *store.DB, id uint64, n int) store.Round {
	t.Helper()
	var rounds []store.Round
	require.Eventually(t, func() bool {
		var err error
		rounds, err = db.Rounds(id)
		return err == nil && len(rounds) >= n
	}, 5*time.Second, 5*time.Millisecond, "round %d was not paired", n)
	return rounds[n-1]
}

// finishRound enters a result for every unfinished game of a round: the
// higher-ranked player (lower start number) wins.
func finishRound(t *testing.T, ctx context.Context, d *director.Director, r store.Round) {
	t.Helper()
	for _, p := range r.Pairings {
		if p.GameID == 0 || p.Result != "" {
			continue
		}
		o := rules.Win(rules.First, rules.ArbiterDecision)
		if p.Second < p.First {
			o = rules.Win(rules.Second, rules.ArbiterDecision)
		}
		require.NoError(t, d.SetResult(ctx, p.GameID, o, "chief", "scoresheet"))
	}
}

func actionsOf(t *testing.T, db *store.DB, what string) []store.Action {
	t.Helper()
	all, err := db.Actions(0)
	require.NoError(t, err)
	var out []store.Action
	for _, a := range all {
		if a.What == what {
			out = append(out, a)
		}
	}
	return out
}

// blockedAfter plays a four-player Swiss of four rounds until its fourth
// round cannot be paired (everyone has met everyone).
func blockedAfter(t *testing.T) (context.Context, *director.Director, *store.DB, uint64) {
	t.Helper()
	d, db := newEvent(t, "swiss-dutch", 4, 4)
	ctx := run(t, d)
	id := d.TournamentIDs()[0]
	for n := 1; n <= 3; n++ {
		finishRound(t, ctx, d, waitRound(t, db, id, n))
	}
	require.Eventually(t, func() bool { return d.Blocked(id) != "" }, 5*time.Second, 5*time.Millisecond, "the tournament is not blocked")
	return ctx, d, db, id
}

// When no valid pairing exists, the arbiter is told why and what to do,
// once, and the console's "pair" answers with the engine's reason.
func TestNoPairingRaisesAnAlert(t *testing.T) {
	ctx, d, db, id := blockedAfter(t)
	assert.Contains(t, d.Blocked(id), "round 4 cannot be paired")
	err := d.PairNextRound(ctx, id, "chief", "try again")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no valid pairing")
	open, err := db.Alerts(true)
	require.NoError(t, err)
	require.Len(t, open, 1, "one alert, however often the pairing is tried")
	a := open[0]
	assert.Equal(t, director.AlertNoPairing, a.Kind)
	assert.Equal(t, id, a.Tournament)
	assert.GreaterOrEqual(t, a.Count, 2, "the failed attempts are counted on the one alert")
	assert.Contains(t, a.Advice, "by hand")
	assert.Contains(t, a.Advice, "rematches")
	assert.Contains(t, a.Advice, "end the tournament after round 3")
	select {
	case <-d.Done():
		t.Fatal("a blocked event is not complete")
	default:
	}
}

// The last resort: rematches allowed, the round marked as such, the alert
// resolved by the arbiter's action.
func TestPairAllowingRematches(t *testing.T) {
	ctx, d, db, id := blockedAfter(t)
	require.NoError(t, d.PairAllowingRematches(ctx, id, "chief", "no other way"))
	r := waitRound(t, db, id, 4)
	assert.Equal(t, "rematches", r.How)
	assert.Contains(t, r.Trace, "Rematches allowed of games played before round 2")
	require.Len(t, r.Pairings, 2)
	assert.Empty(t, d.Blocked(id))
	open, err := db.Alerts(true)
	require.NoError(t, err)
	assert.Empty(t, open, "the arbiter's pairing resolved the alert")
	acts := actionsOf(t, db, "pair-round-rematches")
	require.Len(t, acts, 1)
	assert.Equal(t, "no other way", acts[0].Why)
	assert.Contains(t, acts[0].Data, "rematches of rounds 1-1 allowed")
	finishRound(t, ctx, d, r)
	select {
	case <-d.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the event did not complete")
	}
}

// The chief arbiter ends the tournament after its last complete round:
// the event completes with three rounds.
func TestEndTournament(t *testing.T) {
	_, d, db, id := blockedAfter(t)
	require.NoError(t, d.EndTournament(id, "chief", "no valid fourth round"))
	select {
	case <-d.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the event did not complete")
	}
	tr, err := db.Tournament(id)
	require.NoError(t, err)
	assert.Equal(t, 3, tr.PlayedRounds())
	assert.Equal(t, 4, tr.Rounds, "the planned rounds are kept")
	trf, err := d.TRF(id)
	require.NoError(t, err)
	assert.Equal(t, 3, trf.Rounds)
	assert.Error(t, d.EndTournament(id, "chief", "twice"))
	require.Len(t, actionsOf(t, db, "end-tournament"), 1)
}

// Pairings by hand: refused when they are not pairings, and stored with
// the criteria each board breaks.
func TestPairByHand(t *testing.T) {
	ctx, d, db, id := blockedAfter(t)
	for _, bad := range []string{"1 - 1\n2 - 3", "1 - 2\n2 - 3", "1 - 9", "1 bye\n2 bye", "one - two"} {
		boards, err := director.ParseManual(bad)
		if err == nil {
			err = d.PairByHand(ctx, id, boards, "chief", "by hand")
		}
		assert.Error(t, err, bad)
	}
	assert.Empty(t, actionsOf(t, db, "pair-round-manual"), "refused pairings are not logged")
	boards, err := director.ParseManual("1 - 2\n 3-4 \n")
	require.NoError(t, err)
	require.NoError(t, d.PairByHand(ctx, id, boards, "chief", "organiser's decision"))
	r := waitRound(t, db, id, 4)
	assert.Equal(t, "manual", r.How)
	require.Len(t, r.Pairings, 2)
	for _, p := range r.Pairings {
		assert.Contains(t, p.Manual, "C1: they met in round", "board %d", p.Board)
	}
	acts := actionsOf(t, db, "pair-round-manual")
	require.Len(t, acts, 1)
	assert.Contains(t, acts[0].Data, "breaks 1-2: C1")
}

// A no-show loses by forfeit: the round counts it as +/-, and the player
// is not paired again until re-admitted.
func TestForfeitNoShowIsNotPairedAgain(t *testing.T) {
	d, db := newEvent(t, "swiss-dutch", 6, 3)
	ctx := run(t, d)
	id := d.TournamentIDs()[0]
	r1 := waitRound(t, db, id, 1)
	p := r1.Pairings[0]
	require.NoError(t, d.SetResult(ctx, p.GameID, rules.Win(rules.First, rules.Forfeit), "chief", "did not appear"))
	finishRound(t, ctx, d, waitRound(t, db, id, 1))
	r1 = waitRound(t, db, id, 1)
	assert.Equal(t, director.ResultFirstForfeit, r1.Pairings[0].Result)

	r2 := waitRound(t, db, id, 2)
	var entry *store.Pairing
	for i := range r2.Pairings {
		pr := r2.Pairings[i]
		assert.NotEqual(t, p.Second, pr.Second, "the no-show is not paired")
		if pr.First == p.Second {
			entry = &r2.Pairings[i]
		}
	}
	require.NotNil(t, entry, "the no-show has an entry in round 2")
	assert.Equal(t, 0, entry.Second)
	assert.Equal(t, director.ResultZeroBye, entry.Result)
	tr, err := d.TRF(id)
	require.NoError(t, err)
	pl := tr.PlayerByID(p.Second)
	assert.Equal(t, byte('-'), pl.Games[0].Result, "a forfeit loss is '-' in the TRF")
	assert.Equal(t, byte('Z'), pl.Games[1].Result)

	require.NoError(t, d.Readmit(id, p.Second, "chief", "was ill, told us"))
	assert.Error(t, d.Readmit(id, p.Second, "chief", "twice"))
	finishRound(t, ctx, d, r2)
	r3 := waitRound(t, db, id, 3)
	paired := false
	for _, pr := range r3.Pairings {
		if pr.Second != 0 && (pr.First == p.Second || pr.Second == p.Second) {
			paired = true
		}
	}
	assert.True(t, paired, "re-admitted, the player is paired again")
}

// Withdrawals: from the next round, or at once with the game forfeited.
func TestWithdraw(t *testing.T) {
	d, db := newEvent(t, "swiss-dutch", 6, 3)
	ctx := run(t, d)
	id := d.TournamentIDs()[0]
	r1 := waitRound(t, db, id, 1)
	at := r1.Pairings[0]
	later := r1.Pairings[1].First
	require.NoError(t, d.Withdraw(ctx, id, at.First, true, "chief", "left the venue"))
	require.NoError(t, d.Withdraw(ctx, id, later, false, "chief", "plays round 1 only"))
	assert.Error(t, d.Withdraw(ctx, id, later, false, "chief", "twice"))
	r1 = waitRound(t, db, id, 1)
	assert.Equal(t, director.ResultSecondForfit, r1.Pairings[0].Result, "the game is forfeited to the opponent")
	assert.Empty(t, r1.Pairings[1].Result, "the other plays on")
	finishRound(t, ctx, d, r1)
	r2 := waitRound(t, db, id, 2)
	boards := 0
	for _, pr := range r2.Pairings {
		if pr.Second != 0 {
			boards++
			assert.NotContains(t, []int{at.First, later}, pr.First)
			assert.NotContains(t, []int{at.First, later}, pr.Second)
		}
	}
	assert.Equal(t, 2, boards)
}

// Requested byes: a half point within the tournament's limit, zero
// points always; neither is paired.
func TestRequestedByes(t *testing.T) {
	cfg := eventConfig(t, "swiss-dutch", 6, 3)
	cfg.Tournaments[0].HalfPointByes = 1
	d, db := newEventFrom(t, cfg)
	id := d.TournamentIDs()[0]
	require.NoError(t, d.RequestBye(id, 2, 2, "H", "chief", "exam"))
	require.Error(t, d.RequestBye(id, 2, 3, "H", "chief", "second one"), "one half-point bye each")
	require.NoError(t, d.RequestBye(id, 2, 3, "Z", "chief", "second one, unpaid"))
	require.NoError(t, d.RequestBye(id, 2, 3, "", "chief", "changed his mind"))
	require.Error(t, d.RequestBye(id, 2, 9, "Z", "chief", "no such round"))
	ctx := run(t, d)
	finishRound(t, ctx, d, waitRound(t, db, id, 1))
	r2 := waitRound(t, db, id, 2)
	found := false
	for _, p := range r2.Pairings {
		if p.First == 2 && p.Second == 0 {
			found = true
			assert.Equal(t, director.ResultHalfBye, p.Result)
		}
		assert.NotEqual(t, 2, p.Second)
	}
	assert.True(t, found)
	finishRound(t, ctx, d, r2)
	st, err := d.Standings(id)
	require.NoError(t, err)
	for _, row := range st.Rows {
		if row.ID == 2 {
			assert.Equal(t, 1.5, row.Values[0].Num, "a win in round 1 and a half-point bye")
		}
	}
	require.Error(t, d.RequestBye(id, 2, 2, "Z", "chief", "round 2 is paired"))
}

// A late entrant is paired from the next round, scores what the arbiter
// granted for the missed rounds, and ranks by rating.
func TestLateEntry(t *testing.T) {
	d, db := newEvent(t, "swiss-dutch", 5, 3)
	ctx := run(t, d)
	id := d.TournamentIDs()[0]
	for _, bad := range []director.NewPlayer{{Name: ""}, {Name: "A <Player>"}, {Name: "Bad\nName"}, {Name: "Evil\u202eName"}, {Name: "X", Rating: -1}, {Name: "Y", Missed: "F"}} {
		_, err := d.AddPlayer(id, bad, "chief", "late")
		assert.Error(t, err, "%q", bad.Name)
	}
	r1 := waitRound(t, db, id, 1)
	p, err := d.AddPlayer(id, director.NewPlayer{Name: "Late Comer", Rating: 2500, Missed: "H"}, "chief", "train was late")
	require.NoError(t, err)
	assert.Equal(t, 6, p.ID)
	assert.Equal(t, 2, p.Joined)
	finishRound(t, ctx, d, r1)
	r2 := waitRound(t, db, id, 2)
	paired := false
	for _, pr := range r2.Pairings {
		if pr.Second != 0 && (pr.First == 6 || pr.Second == 6) {
			paired = true
		}
	}
	assert.True(t, paired, "the late entrant plays round 2")
	tr, err := d.TRF(id)
	require.NoError(t, err)
	assert.Equal(t, byte('H'), tr.PlayerByID(6).Games[0].Result)
	acts := actionsOf(t, db, "add-player")
	require.Len(t, acts, 1)
	assert.Contains(t, acts[0].Data, "late entry from round 2")
}

// A past result corrected: the standings follow, the action records both.
func TestCorrectResult(t *testing.T) {
	d, db := newEvent(t, "round-robin", 4, 3)
	ctx := run(t, d)
	id := d.TournamentIDs()[0]
	r1 := waitRound(t, db, id, 1)
	finishRound(t, ctx, d, r1)
	g := r1.Pairings[0].GameID
	before, err := d.Standings(id)
	require.NoError(t, err)
	require.Error(t, d.CorrectResult(ctx, waitRound(t, db, id, 2).Pairings[0].GameID, rules.Draw(rules.Agreement), "chief", "not finished"))
	require.NoError(t, d.CorrectResult(ctx, g, rules.Draw(rules.Agreement), "chief", "scoresheets signed a draw"))
	after, err := d.Standings(id)
	require.NoError(t, err)
	assert.NotEqual(t, before.Rows, after.Rows)
	rs, err := db.Rounds(id)
	require.NoError(t, err)
	assert.Equal(t, "1/2-1/2", rs[0].Pairings[0].Result)
	acts := actionsOf(t, db, "correct-result")
	require.Len(t, acts, 1)
	assert.True(t, strings.HasPrefix(acts[0].Data, "1-0 (arbiter) corrected to 1/2-1/2"), acts[0].Data)
	assert.Contains(t, acts[0].Data, "round 2 was paired already and stands")
}

// Per-round time controls: a later round's games carry their own.
func TestRoundTimeControl(t *testing.T) {
	d, db := newEvent(t, "round-robin", 4, 3)
	id := d.TournamentIDs()[0]
	require.Error(t, d.SetRoundTimeControl(id, 2, "ninety minutes", "chief", "typo"))
	require.Error(t, d.SetRoundTimeControl(id, 7, "5m+3s", "chief", "no such round"))
	require.NoError(t, d.SetRoundTimeControl(id, 2, "3m+2s", "chief", "blitz finish"))
	ctx := run(t, d)
	r1 := waitRound(t, db, id, 1)
	finishRound(t, ctx, d, r1)
	r2 := waitRound(t, db, id, 2)
	g1, err := db.Game(r1.Pairings[0].GameID)
	require.NoError(t, err)
	g2, err := db.Game(r2.Pairings[0].GameID)
	require.NoError(t, err)
	assert.Equal(t, "5m+3s", g1.TimeControl)
	assert.Equal(t, "3m+2s", g2.TimeControl)
}

// A round does not start on a table whose board is gone: the game waits,
// the arbiter is told since when, and the board's return starts it.
func TestRoundWaitsForAGoneBoard(t *testing.T) {
	d, db := newEvent(t, "swiss-dutch", 4, 2)
	id := d.TournamentIDs()[0]
	tbl, err := d.AddTable(id, "B1")
	require.NoError(t, err)
	ctx0 := context.Background()
	d.BoardEvent(ctx0, board.Event{Kind: board.EventHello, Board: "B1", Info: &board.Info{ID: "B1", Caps: board.CapHeight, Width: 8, Height: 8, Cells: 64}})
	d.BoardEvent(ctx0, board.Event{Kind: board.EventHealth, Board: "B1", Health: board.Disconnected})
	assert.False(t, tbl.Live().HealthSince.IsZero())
	ctx := run(t, d)
	r1 := waitRound(t, db, id, 1)
	var open []store.Alert
	require.Eventually(t, func() bool {
		open, err = db.Alerts(true)
		return err == nil && len(open) == 1
	}, 5*time.Second, 5*time.Millisecond, "the arbiter is told")
	assert.Equal(t, director.AlertBoardGone, open[0].Kind)
	assert.Contains(t, open[0].Where, "table 1 (board B1)")
	assert.Contains(t, open[0].Message, "the board is disconnected since ")
	assert.Equal(t, r1.Pairings[0].GameID, open[0].GameID)
	time.Sleep(100 * time.Millisecond)
	assert.Zero(t, tbl.Live().GameID, "no game started on a gone board")

	// The board answers again: its game starts.
	d.BoardEvent(ctx, board.Event{Kind: board.EventHello, Board: "B1", Info: &board.Info{ID: "B1", Caps: board.CapHeight, Width: 8, Height: 8, Cells: 64}})
	require.Eventually(t, func() bool { return tbl.Live().GameID == r1.Pairings[0].GameID }, 5*time.Second, 5*time.Millisecond)
	g, err := db.Game(r1.Pairings[0].GameID)
	require.NoError(t, err)
	assert.Equal(t, "B1", g.BoardID)
}

// The arbiter may start a waiting game without its board.
func TestStartWaitingOnTheArbitersWord(t *testing.T) {
	d, db := newEvent(t, "swiss-dutch", 4, 2)
	id := d.TournamentIDs()[0]
	tbl, err := d.AddTable(id, "B1")
	require.NoError(t, err)
	d.BoardEvent(context.Background(), board.Event{Kind: board.EventHello, Board: "B1", Info: &board.Info{ID: "B1"}})
	d.BoardEvent(context.Background(), board.Event{Kind: board.EventHealth, Board: "B1", Health: board.NotResponding})
	ctx := run(t, d)
	r1 := waitRound(t, db, id, 1)
	time.Sleep(50 * time.Millisecond)
	require.Zero(t, tbl.Live().GameID)
	assert.Error(t, d.StartWaiting(ctx, "NOPE", "chief", "x"))
	require.NoError(t, d.StartWaiting(ctx, "B1", "chief", "the board's cable is being replaced"))
	require.Eventually(t, func() bool { return tbl.Live().GameID == r1.Pairings[0].GameID }, 5*time.Second, 5*time.Millisecond)
	assert.Error(t, d.StartWaiting(ctx, "B1", "chief", "again"), "the table plays already")
	require.Len(t, actionsOf(t, db, "start-game"), 1)
}

// In a round robin a withdrawn player's scheduled games are forfeited to
// the opponent as soon as the round is paired.
func TestRoundRobinWithdrawalForfeits(t *testing.T) {
	d, db := newEvent(t, "round-robin", 4, 3)
	ctx := run(t, d)
	id := d.TournamentIDs()[0]
	r1 := waitRound(t, db, id, 1)
	require.NoError(t, d.Withdraw(ctx, id, 1, false, "chief", "left after round 1"))
	finishRound(t, ctx, d, r1)
	waitRound(t, db, id, 2)
	var r2 store.Round
	require.Eventually(t, func() bool { // the forfeit follows the stored round
		rs, err := db.Rounds(id)
		if err != nil {
			return false
		}
		r2 = rs[1]
		for _, p := range r2.Pairings {
			if (p.First == 1 || p.Second == 1) && p.Result != "" {
				return true
			}
		}
		return false
	}, 5*time.Second, 5*time.Millisecond)
	found := false
	for _, p := range r2.Pairings {
		switch {
		case p.First == 1:
			found = true
			assert.Equal(t, director.ResultSecondForfit, p.Result)
		case p.Second == 1:
			found = true
			assert.Equal(t, director.ResultFirstForfeit, p.Result)
		default:
			assert.Empty(t, p.Result, "the others play")
		}
	}
	assert.True(t, found, "player 1 is scheduled in round 2")
}

// A late entry is refused, with the reason, once the tournament is over.
func TestLateEntryIntoAFinishedTournament(t *testing.T) {
	d, db := newEvent(t, "swiss-dutch", 4, 1)
	ctx := run(t, d)
	id := d.TournamentIDs()[0]
	finishRound(t, ctx, d, waitRound(t, db, id, 1))
	select {
	case <-d.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the tournament did not complete")
	}
	_, err := d.AddPlayer(id, director.NewPlayer{Name: "Late Comer", Rating: 2100}, "chief", "late")
	require.Error(t, err)
	assert.True(t, director.IsBadRequest(err))
	assert.Contains(t, err.Error(), "Club swiss-dutch is over (its last round, 1, is played): it takes no more entries")
	players, err := db.Players(id)
	require.NoError(t, err)
	assert.Len(t, players, 4, "nobody was added")
	assert.Empty(t, actionsOf(t, db, "add-player"))
}

// A late entry whose name differs from a registered player's only by
// white space, case or the Unicode form of an accent is that player; a
// name with a zero-width character is refused; a new name is stored in
// its normal form.
func TestLateEntryNamesAreNormalised(t *testing.T) {
	cfg := eventConfig(t, "swiss-dutch", 4, 3)
	cfg.Tournaments[0].Players[0].Name = "Nils Berg"
	cfg.Tournaments[0].Players[1].Name = "Eva Horváth"
	d, db := newEventFrom(t, cfg)
	id := d.TournamentIDs()[0]
	for _, name := range []string{"Nils  Berg ", "nils berg", "Nils\u00a0Berg", "Eva Horva\u0301th"} {
		_, err := d.AddPlayer(id, director.NewPlayer{Name: name}, "chief", "late")
		if assert.Error(t, err, "%q", name) {
			assert.Contains(t, err.Error(), "is already registered as player")
		}
	}
	for _, name := range []string{"Nils\u200bBerg", "Nils\u200dBerg", "\ufeffAna Silva"} {
		_, err := d.AddPlayer(id, director.NewPlayer{Name: name}, "chief", "late")
		if assert.Error(t, err, "%q", name) {
			assert.Contains(t, err.Error(), "invisible character")
		}
	}
	p, err := d.AddPlayer(id, director.NewPlayer{Name: "  Ana   Silva ", Rating: 1900}, "chief", "late")
	require.NoError(t, err)
	assert.Equal(t, "Ana Silva", p.Name)
	players, err := db.Players(id)
	require.NoError(t, err)
	assert.Len(t, players, 5)
	assert.Equal(t, "Ana Silva", players[4].Name)
}

// A tournament whose players_trf file cannot be read stops the event
// before any tournament is written: the database stays as it was.
func TestNewWritesNothingWhenPlayersCannotBeRead(t *testing.T) {
	cfg := eventConfig(t, "swiss-dutch", 4, 3)
	cfg.Tournaments = append(cfg.Tournaments, director.Tournament{Name: "From TRF", Game: "chess", System: "swiss-dutch", Rounds: 3,
		PlayersTRF: filepath.Join(t.TempDir(), "missing.trf")})
	db, err := store.Open(filepath.Join(t.TempDir(), "event.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	_, err = director.New(cfg, db, slog.Default())
	require.ErrorContains(t, err, "missing.trf")
	tours, err := db.Tournaments()
	require.NoError(t, err)
	assert.Empty(t, tours, "the first tournament was not written either")
}
