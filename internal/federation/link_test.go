package federation

import (
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/store"
)

// What the NATS server logs of a link tells each side: the lines are the
// server's own (nats-server 2.15), as each side logs them.
func TestMistakesFromTheServersLog(t *testing.T) {
	hall := []struct {
		level      slog.Level
		line, kind string
	}{
		{slog.LevelError, "127.0.0.1:42745 - lid:5 - Leafnode Error 'Authorization Violation'", "credentials"},
		{slog.LevelError, "127.0.0.1:34063 - lid:5 - attempted to connect to wrong port", "port"},
		{slog.LevelError, "127.0.0.1:45191 - lid:5 - Leafnode Error 'Duplicate Remote LeafNode Connection'", "duplicate"},
		{slog.LevelError, "127.0.0.1:43281 - lid:7 - TLS leafnode handshake error: tls: failed to verify certificate: x509: certificate signed by unknown authority (CN=hub SHA-256: 4b54)", "tls"},
		{slog.LevelWarn, `Error trying to connect as leafnode to remote server "127.0.0.1:38581" (attempt 1): dial tcp 127.0.0.1:38581: connect: connection refused`, ""},
		{slog.LevelInfo, "127.0.0.1:46347 - lid:5 - Leafnode connection created for account: $G ", ""},
		{slog.LevelInfo, "127.0.0.1:42745 - lid:5 - Leafnode connection closed: Authorization Violation", ""},
	}
	for _, tt := range hall {
		assert.Equal(t, tt.kind, hallMistake("east", tt.level, tt.line).Key, tt.line)
	}
	halls := []string{"east", "west"}
	hub := []struct {
		line, hall, kind, says string
	}{
		{`127.0.0.1:47084 - lid:5 - authentication error - User "east"`, "east", "credentials", "hall east tried to link with a wrong password (from 127.0.0.1)"},
		{`127.0.0.1:59726 - lid:5 - authentication error - User "south"`, "south", "stranger", `a daemon tried to link as hall "south" (from 127.0.0.1), which is not one of federation.halls (east, west)`},
		{"127.0.0.1:51700 - lid:5 - Duplicate Remote LeafNode Connection - Account:$G - user:east", "east", "duplicate", "two daemons link as hall east"},
		{"127.0.0.1:51700 - lid:5 - Leafnode connection closed: Duplicate Remote LeafNode Connection - Remote: west", "west", "duplicate", "two daemons link as hall west"},
		{"127.0.0.1:50312 - lid:7 - TLS leafnode handshake error: remote error: tls: bad certificate", "", "tls", "a daemon from 127.0.0.1 failed the TLS of the leaf port (remote error: tls: bad certificate)"},
		{"127.0.0.1:36624 - lid:7 - authentication error", "", "unnamed", "is its hub_url tls://… while the leaf port has no certificate"},
		{`127.0.0.1:40268 - cid:5 - authentication error - User "arbiter"`, "", "", ""},
		{"127.0.0.1:47518 - lid:5 - JetStream using domains: local \"hub\", remote \"east\"", "", "", ""},
	}
	for _, tt := range hub {
		h, m := hubMistake(halls, tt.line)
		assert.Equal(t, tt.hall, h, tt.line)
		assert.Equal(t, tt.kind, m.Key, tt.line)
		assert.Contains(t, m.Text, tt.says, tt.line)
	}
}

// A hall's configuration against the hub's roster: players otherwise
// listed are taken from the hub (a warning); another tournament, or
// players the hall would drop, refuse the tournament.
func TestCompareRoster(t *testing.T) {
	players := func(names ...string) []store.Player {
		out := make([]store.Player, len(names))
		for i, n := range names {
			out[i] = store.Player{ID: i + 1, TournamentID: 1, Name: n}
		}
		return out
	}
	hub := Roster{TournamentID: 1, Tournament: "Open", Game: "chess", System: "swiss-dutch", Players: players("Ann", "Bob", "Cid")}
	own := func(name, game string, names ...string) *Tournament {
		return &Tournament{ID: 1, Name: name, Game: game, System: "swiss-dutch", Players: names}
	}
	tests := []struct {
		name    string
		own     *Tournament
		warning bool
		says    string
	}{
		{"the same", own("Open", "chess", "Ann", "Bob", "Cid"), false, ""},
		{"the same but for case and blanks", own("Open", "chess", "ann", " Bob ", "CID"), false, ""},
		{"the hub's late entry", own("Open", "chess", "Ann", "Bob"), false, ""},
		{"another order", own("Open", "chess", "Bob", "Ann", "Cid"), true, "player 1 is Ann at the hub, Bob here; player 2 is Bob at the hub, Ann here"},
		{"another spelling", own("Open", "chess", "Ann", "Rob", "Cid"), true, "player 2 is Bob at the hub, Rob here"},
		{"a player the hub has not", own("Open", "chess", "Ann", "Bob", "Cid", "Dan"), false, "lists 4 players of \"Open\", the hub 3"},
		{"another name", own("Open B", "chess", "Ann", "Bob", "Cid"), false, `tournament 1 is "Open" (chess, swiss-dutch) at the hub but "Open B" (chess, swiss-dutch)`},
		{"another game", own("Open", "shogi", "Ann", "Bob", "Cid"), false, `"Open" (shogi, swiss-dutch) in this hall's configuration`},
		{"none", nil, false, `the hub's tournament 1, "Open" (chess, swiss-dutch), is not in this hall's configuration`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := compareRoster(tt.own, hub)
			if tt.says == "" {
				assert.Empty(t, m.Text)
				return
			}
			assert.Equal(t, "roster:t1", m.Key)
			assert.Equal(t, tt.warning, m.Warning)
			assert.Contains(t, m.Text, tt.says)
		})
	}
}

// A hub whose database and NATS store do not go together is refused
// unless it rebuilds.
func TestCheckHubState(t *testing.T) {
	tests := []struct {
		name  string
		state hubState
		says  string
	}{
		{"a new event", hubState{}, ""},
		{"a new event, the buckets made", hubState{bucket: true}, ""},
		{"an event under way", hubState{rounds: 3, games: 5, bucket: true, published: 3}, ""},
		{"rounds paired, none played, the store new", hubState{rounds: 1}, ""},
		{"the database lost", hubState{bucket: true, published: 3}, "the database was lost. Start the hub with --rebuild"},
		{"the store lost", hubState{rounds: 3, games: 5}, "the NATS store (federation.store_dir) is new: it was lost"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkHubState(tt.state, false)
			if tt.says == "" {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, ErrRebuild)
				assert.Contains(t, err.Error(), tt.says)
			}
			require.NoError(t, checkHubState(tt.state, true), "a rebuild takes any")
		})
	}
}

// newTestLinks is a hub's link watcher of halls, on a store in a test
// folder.
func newTestLinks(t *testing.T, halls ...string) (*hubLinks, *store.DB) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "hub.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	n := &Node{o: Options{Config: Config{Role: RoleHub, Halls: halls, LeafListen: "0.0.0.0:7422"}, DB: db, Log: slog.New(slog.DiscardHandler)}}
	return newHubLinks(n).(*hubLinks), db
}

// The hub finds what only it can see in the halls' hellos, and raises an
// alert once for each: two halls playing the same boards, two daemons of
// one name, a hall it does not know, a hall never heard from.
func TestHubFindsMistakesInHellos(t *testing.T) {
	l, db := newTestLinks(t, "east", "west", "north")
	now := time.Now()
	hello := func(hall, instance string, blocks ...Block) {
		l.mu.Lock()
		defer l.mu.Unlock()
		s := l.hall(hall)
		h := Hello{Hall: hall, Instance: instance, Host: "host-" + instance, Started: now, Blocks: blocks}
		s.hellos[instance], s.heard[instance], s.last = h, now, h
		s.linked, s.since = true, now
	}
	hello("east", "e1", Block{Tournament: 1, First: 1, Last: 20})
	hello("west", "w1", Block{Tournament: 1, First: 20, Last: 39}, Block{Tournament: 2, First: 20, Last: 25})
	hello("west", "w2")
	hello("south", "s1")
	l.raise(now)
	l.raise(now.Add(time.Second))
	problems := l.problems(now)
	assert.Equal(t, []string{"halls east and west both play board 20 of tournament 1: give one of them another federation.first_board, so that each board is played in one hall"},
		texts(problems["east"]))
	assert.Contains(t, texts(problems["west"]), "halls west and east both play board 20 of tournament 1: give one of them another federation.first_board, so that each board is played in one hall")
	assert.Contains(t, texts(problems["west"]), "two daemons link as hall west (on host-w1 since "+now.Format("15:04:05")+", on host-w2 since "+now.Format("15:04:05")+"): give each hall a name of its own")
	assert.Equal(t, []string{`a daemon says hello as hall "south", which is not one of federation.halls (east, west, north): check its federation.hall`}, texts(problems["south"]))
	assert.Empty(t, problems["north"], "a hall not heard from yet is no mistake")
	require.Error(t, l.health())

	alerts, err := db.Alerts(true)
	require.NoError(t, err)
	assert.Len(t, alerts, 4, "one alert a mistake, raised once: %v", alerts)

	// A minute after the hub started, the hall it never heard from.
	l.raise(l.started.Add(LinkGrace + time.Second))
	alerts, err = db.Alerts(true)
	require.NoError(t, err)
	require.Len(t, alerts, 5)
	assert.Equal(t, "hall north has not linked to the hub since the hub started at "+l.started.Format("15:04:05"), alerts[4].Message)
	assert.Equal(t, "hall north", alerts[4].Where)

	// The hellos stop: the links are down, the mistakes gone.
	later := now.Add(helloGone + time.Second)
	l.raise(later)
	assert.Empty(t, l.problems(later))
	for _, s := range l.links() {
		assert.False(t, s.Linked, s.Hall)
	}
}
