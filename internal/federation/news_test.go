package federation_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/internal/federation"
	"arbiter/store"
)

// What a hall's facts add to the hub's store is told once, after it is
// stored, with the hub's IDs: a move once however often it comes, an
// alert each time it comes or changes, and nothing for the other kinds
// (a result is told through Applied).
func TestInboxTellsWhatIsNew(t *testing.T) {
	dir := t.TempDir()
	hub := openDB(t, filepath.Join(dir, "hub.db"))
	hall := openDB(t, filepath.Join(dir, "east.db"))
	tid := setupEvent(t, hub)
	require.Equal(t, tid, setupEvent(t, hall))
	// A hub game before the hall's, so that the IDs differ.
	require.NoError(t, hub.CreateGame(&store.Game{Game: "chess", Started: wall}))
	g := startGame(t, hall, tid, 1, 1)
	playMoves(t, hall, g, 1, 2)
	ms, err := hall.Moves(g.ID)
	require.NoError(t, err)
	alert := store.Alert{ID: 5, GameID: g.ID, Kind: "illegal-move", Message: "not legal", At: wall, Count: 1}
	changed := alert
	changed.Count, changed.Last = 2, wall.Add(time.Minute)

	var told []federation.News
	in := &federation.Inbox{DB: hub, Stored: func(n federation.News) { told = append(told, n) }}
	for _, tt := range []struct {
		name string
		fact federation.Fact
		want string // the kind told; "" nothing
	}{
		{"game", federation.Fact{Kind: federation.KindGame, Hall: "east", GameID: g.ID, Game: &g}, ""},
		{"move 1", federation.Fact{Kind: federation.KindMove, Hall: "east", GameID: g.ID, Move: &ms[0]}, federation.KindMove},
		{"move 1 again", federation.Fact{Kind: federation.KindMove, Hall: "east", GameID: g.ID, Move: &ms[0]}, ""},
		{"move 2", federation.Fact{Kind: federation.KindMove, Hall: "east", GameID: g.ID, Move: &ms[1]}, federation.KindMove},
		{"alert", federation.Fact{Kind: federation.KindAlert, Hall: "east", GameID: g.ID, Alert: &alert}, federation.KindAlert},
		{"alert changed", federation.Fact{Kind: federation.KindAlert, Hall: "east", GameID: g.ID, Alert: &changed}, federation.KindAlert},
		{"action", federation.Fact{Kind: federation.KindAction, Hall: "east", GameID: g.ID,
			Action: &store.Action{ID: 1, Who: "deputy", What: "add-time", Why: "clock fault", At: wall}}, ""},
		{"result", federation.Fact{Kind: federation.KindResult, Hall: "east", GameID: g.ID, Result: "1-0", Reason: "resignation", Ended: wall, Plies: 2}, ""},
		{"status", federation.Fact{Kind: federation.KindStatus, Hall: "east", Boards: []federation.BoardStatus{{Board: "B1", Health: "ok"}}}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			told = nil
			require.NoError(t, in.Apply(tt.fact))
			if tt.want == "" {
				require.Empty(t, told)
				return
			}
			require.Len(t, told, 1)
			n := told[0]
			require.Equal(t, tt.want, n.Kind)
			require.Equal(t, "east", n.Hall)
			hubGame, err := hub.ImportedGame("east", g.ID)
			require.NoError(t, err)
			require.Equal(t, hubGame, n.Game, "the hub's game")
			require.NotEqual(t, g.ID, n.Game)
			switch n.Kind {
			case federation.KindMove:
				stored, err := hub.Moves(hubGame)
				require.NoError(t, err)
				require.Equal(t, stored[len(stored)-1], *n.Move, "the move as the hub stored it")
				require.Equal(t, n.Move.Wall, n.At)
			case federation.KindAlert:
				alerts, err := hub.Alerts(false)
				require.NoError(t, err)
				require.Len(t, alerts, 1)
				require.Equal(t, alerts[0].ID, n.Alert, "the hub's alert")
				require.Equal(t, tt.fact.Alert.Count, alerts[0].Count)
				want := tt.fact.Alert.At
				if !tt.fact.Alert.Last.IsZero() {
					want = tt.fact.Alert.Last
				}
				require.Equal(t, want, n.At)
			}
		})
	}
}
