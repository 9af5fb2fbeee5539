package director_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/director"
	"arbiter/hardware/sensorboard"
	"arbiter/rules"
	_ "arbiter/rules/chess"
	_ "arbiter/rules/kvaa"
	_ "arbiter/rules/shogi"
	_ "arbiter/rules/tavreli"
	_ "arbiter/rules/tensor"
	"arbiter/store"
)

func eventConfig(t *testing.T, system string, players int, rounds int) director.Config {
	t.Helper()
	tc := director.Tournament{Name: "Club " + system, Game: "chess", System: system, Rounds: rounds,
		TimeControl: "5m+3s", TieBreaks: []string{"BH", "SB"}, AutoPair: true}
	for i := range players {
		tc.Players = append(tc.Players, store.Player{Name: string(rune('A'+i)) + " <Player>", Rating: 2000 - 10*i})
	}
	return director.Config{Name: "arbiter event", Tournaments: []director.Tournament{tc}}
}

// newEvent opens a fresh event database and a director for it.
func newEvent(t *testing.T, system string, players, rounds int) (*director.Director, *store.DB) {
	t.Helper()
	return newEventFrom(t, eventConfig(t, system, players, rounds))
}

// newEventFrom opens a fresh event database and a director for cfg.
func newEventFrom(t *testing.T, cfg director.Config) (*director.Director, *store.DB) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "event.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	d, err := director.New(cfg, db, slog.Default())
	require.NoError(t, err)
	return d, db
}

// A round-robin event played without sensor boards: the arbiter enters
// every result, rounds follow one another, and the event completes.
func TestResultsEnteredByHand(t *testing.T) {
	d, db := newEvent(t, "round-robin", 4, 3)
	ctx := run(t, d)
	id := d.TournamentIDs()[0]

	outcomes := []rules.Outcome{rules.Win(rules.First, rules.ArbiterDecision), rules.Draw(rules.Agreement), rules.Loss(rules.First, rules.Resignation)}
	for round := 1; round <= 3; round++ {
		var rounds []store.Round
		require.Eventually(t, func() bool {
			var err error
			rounds, err = db.Rounds(id)
			return err == nil && len(rounds) == round
		}, 5*time.Second, 10*time.Millisecond, "round %d was not paired", round)
		r := rounds[round-1]
		require.Len(t, r.Pairings, 2)
		for _, p := range r.Pairings {
			require.NoError(t, d.SetResult(ctx, p.GameID, outcomes[round-1], "chief", "scoresheet"))
			assert.Error(t, d.SetResult(ctx, p.GameID, outcomes[0], "chief", "twice"), "a result is set once")
		}
	}
	select {
	case <-d.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the event did not complete")
	}
	st, err := d.Standings(id)
	require.NoError(t, err)
	total := 0.0
	for _, row := range st.Rows {
		total += row.Values[0].Num
	}
	assert.Equal(t, 6.0, total, "six games, a point each")

	// Every result is an action with who and why.
	acts, err := db.Actions(0)
	require.NoError(t, err)
	results := 0
	for _, a := range acts {
		if a.What == "set-result" {
			results++
			assert.Equal(t, "chief", a.Who)
			assert.Equal(t, "scoresheet", a.Why)
		}
	}
	assert.Equal(t, 6, results)

	// The TRF of the event round-trips the results.
	tr, err := d.TRF(id)
	require.NoError(t, err)
	require.Len(t, tr.Players, 4)
	assert.Len(t, tr.Players[0].Games, 3)
}

// A Swiss event on tables: games start on the boards' tables, moves made on
// a board are stored, and an arbiter's decision ends the game.
func TestGamesOnTables(t *testing.T) {
	d, db := newEvent(t, "swiss-dutch", 4, 2)
	id := d.TournamentIDs()[0]
	t1, err := d.AddTable(id, "B1")
	require.NoError(t, err)
	_, err = d.AddTable(id, "B1")
	assert.Error(t, err, "one table per board")
	ctx := run(t, d)

	require.Eventually(t, func() bool { return t1.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond)
	live := t1.Live()
	assert.Equal(t, "chess", live.Game)
	require.NotNil(t, live.View)
	assert.Len(t, live.View.Squares, 64)

	// The board reports its state, then e2-e4 and a clock press.
	heights := make([]int, 64)
	for i := range 16 {
		heights[i], heights[63-i] = 1, 1
	}
	now := d.Now()
	t1.Input(ctx, arbiterEvent(now, heights))
	// The board's heartbeat tells that it has stayed so.
	time.Sleep(400 * time.Millisecond)
	t1.Input(ctx, heartbeat(d.Now()))
	e2, _ := rules.NewRect(8, 8).Lookup("e2")
	e4, _ := rules.NewRect(8, 8).Lookup("e4")
	require.Eventually(t, func() bool { return t1.Live().Clock[0].Running }, 5*time.Second, 10*time.Millisecond, "the clock did not start after the set-up")
	now = d.Now()
	t1.Input(ctx, square(now+time.Millisecond, e2, 0))
	t1.Input(ctx, square(now+2*time.Millisecond, e4, 1))
	t1.Input(ctx, press(now+3*time.Millisecond, rules.White))
	require.Eventually(t, func() bool { return t1.Live().Plies == 1 }, 5*time.Second, 10*time.Millisecond)
	moves, err := db.Moves(live.GameID)
	require.NoError(t, err)
	require.Len(t, moves, 1)
	assert.Equal(t, "e4", moves[0].Notation)

	require.NoError(t, d.SetResult(ctx, live.GameID, rules.Win(rules.Black, rules.ArbiterDecision), "chief", "illegal conduct"))
	g, err := db.Game(live.GameID)
	require.NoError(t, err)
	assert.Equal(t, "0-1", g.Result)
	assert.Equal(t, "arbiter", g.Reason)
}

// A board plugged in without an assignment is given a table, and a game of
// the current round that had none starts on it.
func TestBoardAdopted(t *testing.T) {
	d, db, ctx := pairedEvent(t, 4)

	d.BoardEvent(ctx, board.Event{Kind: board.EventHello, Board: "NEW-1",
		Info: &board.Info{ID: "NEW-1", Caps: board.CapHeight, Width: 8, Height: 8, Cells: 64}})
	tbl, ok := d.Table("NEW-1")
	require.True(t, ok, "the board has a table")
	assert.Equal(t, 1, tbl.Number)
	require.Eventually(t, func() bool { return tbl.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond)
	g, err := db.Game(tbl.Live().GameID)
	require.NoError(t, err)
	assert.Equal(t, "NEW-1", g.BoardID)
	assert.Equal(t, "active", tbl.Live().Health)

	// A second board takes the other game; a third has nothing to do.
	d.BoardEvent(ctx, board.Event{Kind: board.EventHello, Board: "NEW-2", Info: &board.Info{ID: "NEW-2"}})
	d.BoardEvent(ctx, board.Event{Kind: board.EventHello, Board: "NEW-3", Info: &board.Info{ID: "NEW-3"}})
	_, ok = d.Table("NEW-3")
	assert.False(t, ok)
	t2, ok := d.Table("NEW-2")
	require.True(t, ok)
	require.Eventually(t, func() bool { return t2.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond)
	assert.NotEqual(t, tbl.Live().GameID, t2.Live().GameID)
}

// Run returns only when the work a result started is finished: the
// database may be closed as soon as Run returns.
func TestRunWaitsForPairing(t *testing.T) {
	d, db := newEvent(t, "round-robin", 4, 3)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		d.Run(ctx)
		close(done)
	}()
	id := d.TournamentIDs()[0]
	var rounds []store.Round
	require.Eventually(t, func() bool {
		var err error
		rounds, err = db.Rounds(id)
		return err == nil && len(rounds) == 1
	}, 5*time.Second, 10*time.Millisecond, "round 1 was not paired")
	for _, p := range rounds[0].Pairings {
		require.NoError(t, d.SetResult(ctx, p.GameID, rules.Draw(rules.Agreement), "chief", "scoresheet"))
	}
	// The last result pairs round 2 in the background; stop at once.
	cancel()
	<-done
	rounds, err := db.Rounds(id)
	require.NoError(t, err)
	assert.Len(t, rounds, 2, "round 2 was paired and stored before Run returned")
}

// The "board being restored" flag of a game does not carry over to the
// next game on that table (issue 18 §1).
func TestRecoveryFlagNotCarriedToNextGame(t *testing.T) {
	d, db := newEvent(t, "swiss-dutch", 4, 2)
	id := d.TournamentIDs()[0]
	t1, err := d.AddTable(id, "B1")
	require.NoError(t, err)
	ctx := run(t, d)

	require.Eventually(t, func() bool { return t1.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond)
	first := t1.Live().GameID
	heights := make([]int, 64)
	for i := range 16 {
		heights[i], heights[63-i] = 1, 1
	}
	t1.Input(ctx, arbiterEvent(d.Now(), heights))
	time.Sleep(400 * time.Millisecond)
	t1.Input(ctx, heartbeat(d.Now()))
	require.Eventually(t, func() bool { return t1.Live().Clock[0].Running }, 5*time.Second, 10*time.Millisecond, "the clock did not start after the set-up")

	// e2-e5 is no legal move: the board is to be restored.
	e2, _ := rules.NewRect(8, 8).Lookup("e2")
	e5, _ := rules.NewRect(8, 8).Lookup("e5")
	now := d.Now()
	t1.Input(ctx, square(now+time.Millisecond, e2, 0))
	t1.Input(ctx, square(now+2*time.Millisecond, e5, 1))
	t1.Input(ctx, press(now+3*time.Millisecond, rules.White))
	require.Eventually(t, func() bool { return t1.Live().Recovery }, 5*time.Second, 10*time.Millisecond, "no recovery after an illegal move")

	// The arbiter ends the round; a game of the next round starts on the table.
	finishRound(t, ctx, d, waitRound(t, db, id, 1))
	require.Eventually(t, func() bool {
		g := t1.Live().GameID
		return g != 0 && g != first
	}, 5*time.Second, 10*time.Millisecond, "the next game did not start on the table")
	assert.False(t, t1.Live().Recovery, "the new game's board is not being restored")
}

// recorder is a board driver that keeps what the director sends.
type recorder struct {
	mu   sync.Mutex
	sent []board.Message
}

func (r *recorder) Show(_ string, m board.Message) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, m)
	return nil
}

func (r *recorder) Resync(string) error { return nil }

func (r *recorder) messages() []board.Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.sent)
}

// The board is sent its clocks from the start of the game, before move 1
// (issue 18 §5).
func TestClockShownFromTheStart(t *testing.T) {
	d, _ := newEvent(t, "swiss-dutch", 4, 1)
	rec := &recorder{}
	d.SetSender(rec)
	id := d.TournamentIDs()[0]
	t1, err := d.AddTable(id, "B1")
	require.NoError(t, err)
	ctx := run(t, d)

	require.Eventually(t, func() bool { return t1.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond)
	heights := make([]int, 64)
	for i := range 16 {
		heights[i], heights[63-i] = 1, 1
	}
	t1.Input(ctx, arbiterEvent(d.Now(), heights))
	time.Sleep(400 * time.Millisecond)
	t1.Input(ctx, heartbeat(d.Now()))
	require.Eventually(t, func() bool { return t1.Live().Clock[0].Running }, 5*time.Second, 10*time.Millisecond, "the clock did not start after the set-up")

	var clk *board.Clock
	require.Eventually(t, func() bool {
		for _, m := range rec.messages() {
			if c, ok := m.(*board.Clock); ok {
				clk = c
				return true
			}
		}
		return false
	}, 5*time.Second, 10*time.Millisecond, "no CLOCK frame before the first move")
	assert.Equal(t, board.SideFirst, clk.Running, "the first mover's clock runs")
	assert.Positive(t, clk.First)
	assert.Positive(t, clk.Second)
	for _, m := range rec.messages() {
		assert.NotEqual(t, sensorboard.TypeAlert, sensorboard.WireMessage(m).Type(), "a board without a display is sent no ALERT")
	}
}

// A board that advertises text and lights is told of an illegal move: the
// alert shown, the squares to restore lit, both cleared once the board is
// restored (issue 18 §5).
func TestBoardToldOfIllegalMove(t *testing.T) {
	d, _ := newEvent(t, "swiss-dutch", 4, 1)
	rec := &recorder{}
	d.SetSender(rec)
	id := d.TournamentIDs()[0]
	t1, err := d.AddTable(id, "B1")
	require.NoError(t, err)
	ctx := run(t, d)
	d.BoardEvent(ctx, board.Event{Kind: board.EventHello, Board: "B1",
		Info: &board.Info{ID: "B1", Caps: board.CapHeight | board.CapText | board.CapLights, Width: 8, Height: 8, Cells: 64}})

	require.Eventually(t, func() bool { return t1.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond)
	heights := make([]int, 64)
	for i := range 16 {
		heights[i], heights[63-i] = 1, 1
	}
	t1.Input(ctx, arbiterEvent(d.Now(), heights))
	time.Sleep(400 * time.Millisecond)
	t1.Input(ctx, heartbeat(d.Now()))
	require.Eventually(t, func() bool { return t1.Live().Clock[0].Running }, 5*time.Second, 10*time.Millisecond, "the clock did not start after the set-up")

	geo := rules.NewRect(8, 8)
	e2, _ := geo.Lookup("e2")
	e5, _ := geo.Lookup("e5")
	now := d.Now()
	t1.Input(ctx, square(now+time.Millisecond, e2, 0))
	t1.Input(ctx, square(now+2*time.Millisecond, e5, 1))
	t1.Input(ctx, press(now+3*time.Millisecond, rules.White))
	require.Eventually(t, func() bool { return t1.Live().Recovery }, 5*time.Second, 10*time.Millisecond, "no recovery after an illegal move")

	last := func() (alert *board.Alert, light *board.Lights) {
		for _, m := range rec.messages() {
			switch m := m.(type) {
			case *board.Alert:
				alert = m
			case *board.Lights:
				light = m
			}
		}
		return alert, light
	}
	// The illegal-move alert lights its squares amber, then the recovery
	// lights the squares to restore red: wait for the second.
	require.Eventually(t, func() bool {
		a, l := last()
		return a != nil && l != nil && l.Color == board.ColorBad
	}, 5*time.Second, 10*time.Millisecond, "no ALERT and LIGHT to a board with a display")
	a, l := last()
	assert.Equal(t, board.AlertError, a.Level)
	assert.NotEmpty(t, a.Text)
	assert.Equal(t, board.ColorBad, l.Color)
	assert.ElementsMatch(t, []uint16{uint16(e2), uint16(e5)}, l.Squares, "the squares to restore are lit")

	// Restored: the alert and the lights are cleared.
	now = d.Now()
	t1.Input(ctx, square(now+time.Millisecond, e5, 0))
	t1.Input(ctx, square(now+2*time.Millisecond, e2, 1))
	require.Eventually(t, func() bool { return !t1.Live().Recovery }, 5*time.Second, 10*time.Millisecond, "the board was not seen restored")
	require.Eventually(t, func() bool {
		a, l := last()
		return a.Level == board.AlertClear && len(l.Squares) == 0
	}, 5*time.Second, 10*time.Millisecond, "the display was not cleared")
}
