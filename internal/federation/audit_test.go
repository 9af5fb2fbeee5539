package federation_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/federation"
	"arbiter/store"
)

// A hall's alerts, actions and board status reach the hub's store and
// console; the hub's arbiter resolves a hall's alert, and the hall
// resolves it too, audited as the hub arbiter's action, even when the
// command was given while the hall's link was cut.
func TestHallAuditReachesHubAndHubActsOnIt(t *testing.T) {
	ctx := t.Context()
	top := startTopology(t, "east")
	dir := t.TempDir()
	hub := openDB(t, filepath.Join(dir, "hub.db"))
	tid := setupEvent(t, hub)
	hall := openDB(t, filepath.Join(dir, "east.db"))
	setupEvent(t, hall)

	in := &federation.Inbox{DB: hub, JS: top.hub.js}
	stop, err := in.Start(ctx)
	require.NoError(t, err)
	t.Cleanup(stop)
	require.NoError(t, federation.EnsureCommands(ctx, top.hub.js))
	cmdr := &federation.Commander{DB: hub, JS: top.hub.js, Poll: 20 * time.Millisecond}
	go cmdr.Run(ctx) //nolint:errcheck // ends with ctx

	hallJS := top.halls["east"].js
	hubFromHall, err := jetstream.NewWithDomain(top.halls["east"].nc, federation.HubDomain)
	require.NoError(t, err)
	cf := &federation.CommandFollower{JS: hubFromHall, Hall: "east", Retry: 50 * time.Millisecond, Apply: func(_ context.Context, c federation.Command) error {
		return hall.ResolveAlert(c.Alert, &store.Action{Who: c.Who + " (hub)", What: "resolve-alert", Why: c.Why, At: c.At})
	}}
	go cf.Run(ctx) //nolint:errcheck // ends with ctx
	status := []federation.BoardStatus{{Board: "B1", Tournament: tid, Table: 1, Health: "ok", Since: wall}}
	ob := &federation.Outbox{DB: hall, JS: hallJS, Hall: "east", Poll: 20 * time.Millisecond, AuditEvery: time.Millisecond,
		Boards: func() []federation.BoardStatus { return status }}
	go ob.Run(ctx) //nolint:errcheck // ends with ctx

	g := startGame(t, hall, tid, 1, 1)
	playMoves(t, hall, g, 1, 3)
	alert := &store.Alert{GameID: g.ID, BoardID: "B1", Kind: "illegal-move", Message: "Ke2-e4 is not legal", At: wall, Where: "table 1"}
	require.NoError(t, hall.AddAlert(alert))
	require.NoError(t, hall.AddAction(&store.Action{GameID: g.ID, Who: "deputy", What: "add-time", Why: "clock fault", At: wall}))
	ob.Notify()

	var hubAlert store.Alert
	require.Eventually(t, func() bool {
		as, err := hub.Alerts(false)
		if err != nil || len(as) != 1 {
			return false
		}
		hubAlert = as[0]
		return true
	}, 10*time.Second, 10*time.Millisecond, "the hall's alert reaches the hub")
	// (The alert may overtake moves committed before it: they are read
	// from the store in different passes.)
	var hubGames []store.Move
	require.Eventually(t, func() bool { hubGames = hubMoves(t, hub, tid, 1, 1); return len(hubGames) == 3 }, 10*time.Second, 10*time.Millisecond)
	assert.Equal(t, hubGames[0].GameID, hubAlert.GameID, "the alert names the hub's game")
	assert.Equal(t, "east/B1", hubAlert.BoardID)
	assert.Equal(t, "hall east · table 1", hubAlert.Where)
	assert.Equal(t, "illegal-move", hubAlert.Kind)
	require.Eventually(t, func() bool {
		acts, err := hub.Actions(hubAlert.GameID)
		return err == nil && slices.ContainsFunc(acts, func(a store.Action) bool { return a.Who == "deputy (hall east)" && a.What == "add-time" })
	}, 10*time.Second, 10*time.Millisecond, "the hall's action joins the hub's audit log")
	require.Eventually(t, func() bool {
		return assert.ObjectsAreEqual(status, in.Boards()["east"])
	}, 10*time.Second, 10*time.Millisecond, "the hub knows the hall's boards")

	// The same cause again: one alert, counted twice, on the hub too.
	require.NoError(t, hall.AddAlert(&store.Alert{GameID: g.ID, BoardID: "B1", Kind: "illegal-move", Message: "Ke2-e5 is not legal", At: wall.Add(time.Minute)}))
	require.Eventually(t, func() bool {
		as, err := hub.Alerts(false)
		return err == nil && len(as) == 1 && as[0].Count == 2 && as[0].Message == "Ke2-e5 is not legal"
	}, 10*time.Second, 10*time.Millisecond)

	// The hub's arbiter resolves it while the hall is cut off: the hall
	// resolves it when its link returns.
	top.links["east"].cut()
	require.Eventually(t, func() bool { return top.hub.srv.NumLeafNodes() == 0 }, 10*time.Second, 10*time.Millisecond)
	require.NoError(t, hub.ResolveAlert(hubAlert.ID, &store.Action{Who: "chief", Why: "the player was warned", At: wall.Add(time.Hour)}))
	cmdr.Notify()
	time.Sleep(200 * time.Millisecond)
	as, err := hall.Alerts(true)
	require.NoError(t, err)
	assert.Len(t, as, 1, "the hall hears nothing while cut off")
	top.links["east"].restore()
	require.Eventually(t, func() bool {
		as, err := hall.Alerts(true)
		return err == nil && len(as) == 0
	}, 15*time.Second, 10*time.Millisecond, "the hall resolves the alert the hub resolved")
	acts, err := hall.Actions(g.ID)
	require.NoError(t, err)
	i := slices.IndexFunc(acts, func(a store.Action) bool { return a.What == "resolve-alert" })
	require.GreaterOrEqual(t, i, 0, "audited in the hall")
	assert.Equal(t, "chief (hub)", acts[i].Who)
	assert.Equal(t, "the player was warned", acts[i].Why)
	// ... and the hall's action comes back to the hub's audit log.
	require.Eventually(t, func() bool {
		acts, err := hub.Actions(hubAlert.GameID)
		return err == nil && slices.ContainsFunc(acts, func(a store.Action) bool {
			return strings.HasPrefix(a.Who, "chief (hub) (hall east)") && a.What == "resolve-alert"
		})
	}, 10*time.Second, 10*time.Millisecond)
	n, err := cmdr.Send(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "each command is sent once")
}

func TestDecodeCommand(t *testing.T) {
	tests := []struct{ name, data, says string }{
		{"not json", `[`, "command on arbiter-cmd.east.resolve-alert: unexpected end"},
		{"unknown", `{"what":"delete-all","alert":1,"who":"x"}`, `unknown command "delete-all"`},
		{"no alert", `{"what":"resolve-alert","who":"chief"}`, "resolve-alert without its alert or who"},
		{"no who", `{"what":"resolve-alert","alert":2}`, "resolve-alert without its alert or who"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := federation.DecodeCommand("arbiter-cmd.east.resolve-alert", []byte(tt.data))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.says)
		})
	}
	c, err := federation.DecodeCommand("arbiter-cmd.east.resolve-alert", []byte(`{"what":"resolve-alert","alert":2,"who":"chief","why":"warned"}`))
	require.NoError(t, err)
	assert.Equal(t, "cmd/east/resolve-alert/2", c.MsgID("east"))
}

// FuzzDecodeCommand: a command either decodes to one the hall knows, with
// its alert and who, or is refused; it never panics.
func FuzzDecodeCommand(f *testing.F) {
	f.Add("arbiter-cmd.east.resolve-alert", []byte(`{"what":"resolve-alert","alert":2,"who":"chief"}`))
	f.Add("arbiter-cmd.east.x", []byte(`{"what":"x"}`))
	f.Add("", []byte(`null`))
	f.Fuzz(func(t *testing.T, subject string, data []byte) {
		c, err := federation.DecodeCommand(subject, data)
		if err != nil {
			return
		}
		require.Equal(t, federation.CmdResolveAlert, c.What)
		require.NotZero(t, c.Alert)
		require.NotEmpty(t, c.Who)
	})
}
