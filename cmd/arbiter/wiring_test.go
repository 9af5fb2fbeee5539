package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/demo"
	"arbiter/director"
	"arbiter/export"
	"arbiter/hardware/dgt/driver"
	"arbiter/internal/broadcast"
	"arbiter/internal/config"
	"arbiter/store"
	"arbiter/web"
)

// The configuration file maps onto the packages' own config types, every
// key they use, as the table says.
func TestWiring(t *testing.T) {
	cfg, err := config.Load(filepath.Join("testdata", "wiring", "arbiter.yaml"), nil)
	require.NoError(t, err)
	dc, wc, mc, bc := directorConfig(cfg), webConfig(cfg), demoConfig(cfg), broadcastPushes(cfg)
	// The demo's DGT board is read with the DGT protocols' settings.
	require.IsType(t, &driver.Settings{}, mc.Settings[driver.Protocol])
	assert.True(t, mc.Settings[driver.Protocol].(*driver.Settings).WhiteRight, "White at the DGT clock's right")
	assert.Same(t, cfg.Boards.SettingsOf(driver.Protocol), mc.Settings[driver.Protocol])
	settings := mc.Settings
	mc.Settings = nil
	day := func(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name      string
		got, want any
	}{
		{"event name", dc.Name, "Wiring Open"},
		{"tournament with players", dc.Tournaments[0], director.Tournament{
			Name: "Tavreli Open", Game: "tavreli", Options: "autodraw=off", System: "swiss-dutch", Rounds: 4,
			TimeControl: "15m+10s", RoundTimeControls: map[int]string{4: "10m+5s"},
			TieBreaks: []string{"BH/C1", "BH", "SB", "WIN"}, TouchMove: "strict", IllegalMove: "chess",
			AutoPair: true, Accelerated: "baku", HalfPointByes: 1,
			Players: []store.Player{
				{Name: "Ivan Petrov", Rating: 2210, FideID: "4100018", Title: "FM", Federation: "RUS", BirthYear: 1990},
				{Name: "Olga Smirnova", Rating: 2180}, {Name: "Dmitri Volkov", Rating: 2105},
				{Name: "Anna Kuznetsova", Rating: 2050}, {Name: "Sergei Orlov", Rating: 1990},
				{Name: "Maria Sokolova", Rating: 1920}, {Name: "Pavel Morozov", Rating: 1875},
				{Name: "Elena Popova", Rating: 1810},
			}}},
		{"tournament with players_trf", dc.Tournaments[1], director.Tournament{
			Name: "Shogi Open", Game: "shogi", System: "round-robin", Rounds: 3, TimeControl: "10m:byo=30s",
			TieBreaks: []string{"SB"}, PlayersTRF: "testdata/wiring/players.trf"}},
		{"records", wc.Event, export.Event{Name: "Wiring Open", City: "Oslo", Federation: "NOR",
			ChiefArbiter: "IA Jane Doe", Deputies: []string{"FA John Roe"}, Start: day(20), End: day(21),
			RoundDates: map[string][]time.Time{"Tavreli Open": {day(20), day(20), day(21), day(21)}}}},
		{"logins", wc.Users, []web.User{{Name: "chief", Password: "arbiter"},
			{Name: "deputy", Password: "sha256:2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b"}}},
		{"trusted proxies", wc.TrustedProxies, []string{"10.0.0.0/8"}},
		{"metrics allow", wc.MetricsAllow, []string{"192.168.1.10"}},
		{"secure cookies", wc.SecureCookies, true},
		{"demo", mc, demo.Config{Boards: 2, Speed: 4, Faults: 0.02, Seed: 7, Plies: 60, DGT: true, BoardsOf: []string{"millennium", "certabo"},
			Ports: []board.Port{{Path: "/dev/ttyACM0"}, {Glob: "/dev/rfcomm*"}}, Protocols: []string{"", "dgt"},
			Assigned: map[string][]string{"Tavreli Open": {"TB-0042"}}}},
		{"broadcast", bc, []broadcast.Push{{URL: "https://lichess.org/api/broadcast/round/abcd1234/push", Tournament: "Shogi Open",
			Round: 2, Token: "lip_wiring", Format: "kif"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.got)
		})
	}

	// A field added to a package's config type and not mapped here stays
	// zero for every value of the file above.
	mapped := func(name string, vs ...any) {
		typ := reflect.TypeOf(vs[0])
		for i := range typ.NumField() {
			set := false
			for _, v := range vs {
				set = set || !reflect.ValueOf(v).Field(i).IsZero()
			}
			assert.True(t, set, "%s.%s is never set by wiring.go (or testdata/wiring/arbiter.yaml lacks its key)", name, typ.Field(i).Name)
		}
	}
	mapped("director.Config", dc)
	mapped("director.Tournament", dc.Tournaments[0], dc.Tournaments[1])
	mapped("web.Config", wc)
	mc.Settings = settings
	mapped("demo.Config", mc)
	mapped("broadcast.Push", bc[0])
}

// The site's check names the configuration file's keys, and a console is
// exposed by boards or a listen address beyond loopback.
func TestCheckWeb(t *testing.T) {
	hashed := "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"
	users := func(pw ...string) []config.User {
		var us []config.User
		for i, p := range pw {
			us = append(us, config.User{Name: "u" + strconv.Itoa(i), Password: p})
		}
		return us
	}
	ports := []config.Port{{Glob: "/dev/ttyACM*"}}
	tests := []struct {
		name     string
		listen   string
		ports    []config.Port
		users    []config.User
		trusted  []string
		metrics  []string
		problems []string // what the error's text contains
	}{
		{"demo on loopback", "127.0.0.1:8080", nil, users(web.DemoPassword), nil, nil, nil},
		{"demo on localhost", "localhost:0", nil, users(web.DemoPassword), nil, nil, nil},
		{"demo on IPv6 loopback", "[::1]:8080", nil, users(web.DemoPassword), nil, nil, nil},
		{"demo on the venue network", "0.0.0.0:8080", nil, users(web.DemoPassword), nil, nil,
			[]string{`console.users[0].password = "(hidden)": user "u0" has the demo password "arbiter", refused with http.listen = 0.0.0.0:8080 (beyond this machine)`}},
		{"demo on every address", ":8080", nil, users(hashed, web.DemoPassword), nil, nil, []string{`console.users[1].password`, "demo password"}},
		{"demo with boards", "127.0.0.1:8080", ports, users(web.DemoPassword), nil, nil, []string{"demo password", "refused with boards.ports:"}},
		{"boards on the venue network", "10.0.0.5:80", ports, users(web.DemoPassword), nil, nil,
			[]string{"refused with boards.ports and http.listen = 10.0.0.5:80 (beyond this machine)"}},
		{"no login with boards", "127.0.0.1:8080", ports, nil, nil, nil, []string{`console.users = "(none)": an event with boards.ports needs at least one arbiter login`}},
		{"no login on loopback", "127.0.0.1:8080", nil, nil, nil, nil, nil},
		{"networks", "127.0.0.1:8080", nil, users(hashed), []string{"10.0.0.0/8", "nope"}, []string{"10.0.0.0/33"},
			[]string{`http.trusted_proxies[1] = "nope"`, `http.metrics_allow[0] = "10.0.0.0/33"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := &config.Config{HTTP: config.HTTP{Listen: tt.listen, TrustedProxies: tt.trusted, MetricsAllow: tt.metrics},
				Boards: config.Boards{Ports: tt.ports}, Console: config.Console{Users: tt.users}}
			err := checkWeb(cfg, slog.New(slog.DiscardHandler))
			if len(tt.problems) == 0 {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.True(t, config.IsInvalid(err), "an invalid configuration: exit 3")
			for _, want := range tt.problems {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
}

// The domain packages take config types of their own: the configuration
// file's layout (internal/config) is known in cmd/arbiter only.
func TestDomainPackagesDoNotImportConfig(t *testing.T) {
	for _, dir := range []string{"director", "web", "demo"} {
		path := filepath.Join("..", "..", dir)
		entries, err := os.ReadDir(path)
		require.NoError(t, err)
		files := 0
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			files++
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(path, e.Name()), nil, parser.ImportsOnly)
			require.NoError(t, err)
			for _, imp := range f.Imports {
				p, err := strconv.Unquote(imp.Path.Value)
				require.NoError(t, err)
				assert.NotEqual(t, "arbiter/internal/config", p, "%s/%s imports the configuration file's layout: give %s a config type of its own and map it in cmd/arbiter/wiring.go", dir, e.Name(), dir)
			}
		}
		assert.Positive(t, files, "no Go files in %s", dir)
	}
}

// A demo's warning names the key, not a hidden value.
func TestCheckWebWarnsByKey(t *testing.T) {
	var out bytes.Buffer
	cfg := &config.Config{HTTP: config.HTTP{Listen: "127.0.0.1:8080"},
		Console: config.Console{Users: []config.User{{Name: "chief", Password: "plain-text"}}}}
	require.NoError(t, checkWeb(cfg, slog.New(slog.NewTextHandler(&out, nil))))
	assert.Contains(t, out.String(), `console.users[0].password: user \"chief\" has a password stored in plain text`)
	assert.NotContains(t, out.String(), "(hidden)")
}
