package config_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/hardware/dgt/driver"
	"arbiter/internal/config"
)

// problems parses text as a configuration file that must be refused and
// returns its problems by key.
func problems(t *testing.T, text string) map[string]config.Problem {
	t.Helper()
	_, err := config.Parse([]byte(text), "test.yaml", nil)
	require.Error(t, err, "accepted:\n%s", text)
	var ce *config.Error
	require.ErrorAs(t, err, &ce)
	byKey := map[string]config.Problem{}
	for _, p := range ce.Problems {
		byKey[p.Key] = p
	}
	return byKey
}

// want checks that ps holds a problem for key, on line, whose reason holds
// every one of why.
func want(t *testing.T, ps map[string]config.Problem, key string, line int, why ...string) {
	t.Helper()
	p, ok := ps[key]
	if !assert.True(t, ok, "no problem for %s in %v", key, ps) {
		return
	}
	assert.Equal(t, line, p.Line, "line of %s", key)
	for _, w := range why {
		assert.Contains(t, p.String(), w)
	}
}

// valid is a small valid configuration; tests append to it or replace
// parts of it.
const valid = `event:
  name: "Test Open"
tournaments:
  - name: "Swiss"
    game: "shogi"
    system: "swiss-dutch"
    rounds: 3
    tiebreaks: ["BH/C1", "SB"]
    players:
      - {name: "A", rating: 2000}
      - {name: "B", rating: 1900}
      - {name: "C", rating: 1800}
      - {name: "D", rating: 1700}
      - {name: "E", rating: 1600}
      - {name: "F", rating: 1500}
`

func TestValidBaseIsAccepted(t *testing.T) {
	c, err := config.Parse([]byte(valid), "test.yaml", nil)
	require.NoError(t, err)
	assert.Empty(t, c.Warnings())
	// Keys match whatever their case, as the decoder matches them.
	_, err = config.Parse([]byte(strings.Replace(valid, "event:\n  name:", "Event:\n  Name:", 1)), "test.yaml", nil)
	require.NoError(t, err)
}

// The typos of issue 19 were silently ignored: each is refused, with its
// line and the key that was meant.
func TestUnknownKeysAreRefused(t *testing.T) {
	_, err := config.Load(filepath.Join("testdata", "typos.yaml"), nil)
	require.Error(t, err)
	require.True(t, config.IsInvalid(err))
	var ce *config.Error
	require.ErrorAs(t, err, &ce)
	ps := map[string]config.Problem{}
	for _, p := range ce.Problems {
		ps[p.Key] = p
	}
	want(t, ps, "http.listne", 5, "unknown key", "did you mean listen?", `"0.0.0.0:9000"`)
	want(t, ps, "console.users[0].pasword", 9, "unknown key", "did you mean password?")
	want(t, ps, "tournaments[0].roundz", 14, "unknown key", "did you mean rounds?")
	// What the typo left unset is reported too.
	want(t, ps, "console.users[0].password", 8, "at least 4 characters")
	assert.Contains(t, err.Error(), "line 5: http.listne")

	for _, tc := range []struct {
		name, text, key string
		line            int
		why             []string
	}{
		{"a key of another section", valid + "listen: \"0.0.0.0:80\"\n", "listen", 16, []string{"did you mean http.listen (in another section)?"}},
		{"an unknown section", valid + "backupz:\n  every: 5m\n", "backupz", 16, []string{"unknown key"}},
		{"nothing near", "event:\n  name: x\n  colour: blue\n", "event.colour", 3, []string{"the keys in event are name, database"}},
		{"in a list item", strings.Replace(valid, `{name: "B", rating: 1900}`, `{name: "B", ratng: 1900}`, 1), "tournaments[0].players[1].ratng", 11, []string{"did you mean rating?"}},
		{"in a merged mapping", "defaults: &d\n  nmae: x\nevent:\n  <<: *d\n", "defaults", 1, []string{"unknown key"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want(t, problems(t, tc.text), tc.key, tc.line, tc.why...)
		})
	}
}

// A value of the wrong type used to be the only problem reported.
func TestTypeErrorsDoNotHideOtherProblems(t *testing.T) {
	_, err := config.Load(filepath.Join("testdata", "types.yaml"), nil)
	require.Error(t, err)
	var ce *config.Error
	require.ErrorAs(t, err, &ce)
	ps := map[string]config.Problem{}
	for _, p := range ce.Problems {
		assert.NotContains(t, ps, p.Key, "reported twice: %s", p)
		ps[p.Key] = p
	}
	want(t, ps, "demo.speed", 5, `"fast"`, "float64")
	want(t, ps, "demo.boards", 6, `"many"`, "int")
	want(t, ps, "log.level", 8, "want debug, info, warn or error")
	want(t, ps, "tournaments[0].rounds", 13, `"three"`, "int")
	want(t, ps, "tournaments[0].tiebreaks[1]", 14, `unknown name "Buchholtz"`, "known: PTS, BH")
	want(t, ps, "tournaments[0].players[0].rating", 16, `"strong"`)
	assert.Len(t, ce.Problems, 6, "the zero values left by a type error are not problems of their own:\n%v", err)
}

// playersList is the players of valid.
const playersList = `    players:
      - {name: "A", rating: 2000}
      - {name: "B", rating: 1900}
      - {name: "C", rating: 1800}
      - {name: "D", rating: 1700}
      - {name: "E", rating: 1600}
      - {name: "F", rating: 1500}
`

func TestRefusals(t *testing.T) {
	player := func(name string) string {
		return strings.Replace(valid, `{name: "C", rating: 1800}`, `{name: "`+name+`", rating: 1800}`, 1)
	}
	for _, tc := range []struct {
		name, text, key string
		line            int
		why             []string
	}{
		{"unknown tie-break", strings.Replace(valid, `"SB"`, `"SBB"`, 1), "tournaments[0].tiebreaks[1]", 8, []string{`unknown name "SBB"`, "known: PTS, BH"}},
		{"tie-break modifier", strings.Replace(valid, `"SB"`, `"WIN/C1"`, 1), "tournaments[0].tiebreaks[1]", 8, []string{"modifier /C1 does not apply to WIN"}},
		{"empty tie-break", strings.Replace(valid, `"SB"`, `" "`, 1), "tournaments[0].tiebreaks[1]", 8, []string{"empty tie-break"}},
		{"duplicate player", player("a"), "tournaments[0].players[2].name", 12, []string{`two players of "Swiss" have this name (players[0] and players[2])`}},
		{"duplicate player, spaced", player("  A "), "tournaments[0].players[2].name", 12, []string{"have this name"}},
		{"player with NUL", player(`C\0D`), "tournaments[0].players[2].name", 12, []string{"U+0000"}},
		{"player with LF", player(`C\nD`), "tournaments[0].players[2].name", 12, []string{"U+000A"}},
		{"player with CR", player(`C\rD`), "tournaments[0].players[2].name", 12, []string{"U+000D"}},
		{"player with RLO", player(`C\u202ED`), "tournaments[0].players[2].name", 12, []string{"U+202E"}},
		{"player with LRI", player("C\u2066D"), "tournaments[0].players[2].name", 12, []string{"U+2066"}},
		{"player name too long", player(strings.Repeat("Ж", config.MaxNameLen+1)), "tournaments[0].players[2].name", 12, []string{"121 characters long; at most 120"}},
		{"empty player", player(" "), "tournaments[0].players[2].name", 12, []string{"must not be empty"}},
		{"duplicate player, no-break space", strings.Replace(player("Nils Berg"), `{name: "A"`, `{name: "Nils\u00a0 Berg "`, 1), "tournaments[0].players[2].name", 12, []string{"have this name (players[0] and players[2])"}},
		{"duplicate player, decomposed accent", strings.Replace(player("Eva Horva\u0301th"), `{name: "A"`, `{name: "Eva Horváth"`, 1), "tournaments[0].players[2].name", 12, []string{"have this name"}},
		{"player with a zero-width space", player(`Nils\u200bBerg`), "tournaments[0].players[2].name", 12, []string{"invisible character U+200B"}},
		{"player with a zero-width joiner", player(`Nils\u200dBerg`), "tournaments[0].players[2].name", 12, []string{"U+200D"}},
		{"rounds with a fraction", strings.Replace(valid, "rounds: 3", "rounds: 2.5", 1), "tournaments[0].rounds", 7, []string{`"2.5"`, "want a whole number"}},
		{"rating with a fraction", strings.Replace(valid, "rating: 1900", "rating: 1900.5", 1), "tournaments[0].players[1].rating", 11, []string{"want a whole number"}},
		{"players_trf missing", strings.Replace(valid, playersList, `    players_trf: "no-such-players.trf"`+"\n", 1), "tournaments[0].players_trf", 9, []string{"no such file", "the folder arbiter runs in"}},
		{"players_trf not a TRF file", strings.Replace(valid, playersList, `    players_trf: "testdata/types.yaml"`+"\n", 1), "tournaments[0].players_trf", 9, []string{"testdata/types.yaml"}},
		{"players_trf with the same player twice", strings.Replace(valid, playersList, `    players_trf: "testdata/players-twice.trf"`+"\n", 1), "tournaments[0].players_trf", 9, []string{`players 1 ("Nils  Berg") and 3 ("Nils Berg") have the same name`}},
		{"event with LF", strings.Replace(valid, `"Test Open"`, `"Test\nOpen"`, 1), "event.name", 2, []string{"U+000A"}},
		{"tournament with RLO", strings.Replace(valid, `"Swiss"`, `"Sw\u202Eiss"`, 1), "tournaments[0].name", 4, []string{"U+202E"}},
		{"tournament too long", strings.Replace(valid, `"Swiss"`, `"`+strings.Repeat("x", 500)+`"`, 1), "tournaments[0].name", 4, []string{"at most 120"}},
		{"user with NUL", valid + "console:\n  users:\n    - {name: \"chief\\0\", password: \"long enough\"}\n", "console.users[0].name", 18, []string{"U+0000"}},
		{"listen without a port", valid + "http:\n  listen: \"8080\"\n", "http.listen", 17, []string{"want host:port"}},
		{"listen on a name alone", valid + "http:\n  listen: localhost\n", "http.listen", 17, []string{"want host:port"}},
		{"listen port too large", valid + "http:\n  listen: \":99999\"\n", "http.listen", 17, []string{`port "99999"`}},
		{"listen port not a number", valid + "http:\n  listen: \"[::1]:eighty\"\n", "http.listen", 17, []string{`port "eighty"`}},
		{"listen host with a blank", valid + "http:\n  listen: \"my host:80\"\n", "http.listen", 17, []string{`host "my host"`}},
		{"board assigned twice", valid + "boards:\n  assign:\n    - {board: TB-1, tournament: Swiss, table: 1}\n    - {board: TB-1, tournament: Swiss, table: 2}\n",
			"boards.assign[1].board", 19, []string{"assigned twice (boards.assign[0] and [1])"}},
		{"table given two boards", valid + "boards:\n  assign:\n    - {board: TB-1, tournament: Swiss, table: 1}\n    - {board: TB-2, tournament: Swiss, table: 1}\n",
			"boards.assign[1].table", 19, []string{`table 1 of "Swiss" has two boards`}},
		{"unknown board protocol", valid + "boards:\n  ports:\n    - {path: /dev/ttyACM0, protocol: millennium}\n",
			"boards.ports[0].protocol", 18, []string{`"millennium"`, "unknown protocol; known: sensorboard, dgt"}},
		{"DGT board by USB id", valid + "boards:\n  ports:\n    - {usb: {vid: \"2341\"}, protocol: dgt}\n",
			"boards.ports[0].usb", 18, []string{"a DGT board is found by path or glob"}},
		{"demo board of an unknown protocol", valid + "demo:\n  boards_of: [dgt, novag]\n",
			"demo.boards_of[1]", 17, []string{`"novag"`, "unknown protocol; known: sensorboard, dgt"}},
		{"DGT settle too long", valid + "boards:\n  dgt:\n    settle: 1m\n", "boards.dgt.settle", 18, []string{"between 0 and 5s"}},
		{"empty file", "", "(file)", 0, []string{"the file is empty"}},
		{"comments only", "# nothing yet\n\n", "(file)", 0, []string{"the file is empty"}},
		{"empty document", "---\n", "(file)", 0, []string{"the file is empty"}},
		{"null document", "~\n", "(file)", 0, []string{"the file is empty"}},
		{"a list", "- event\n", "(file)", 1, []string{"must be a mapping of sections"}},
		{"a word", "hello\n", "(file)", 1, []string{"must be a mapping of sections"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want(t, problems(t, tc.text), tc.key, tc.line, tc.why...)
		})
	}
}

func TestListenAddressesAccepted(t *testing.T) {
	for _, addr := range []string{":8080", "127.0.0.1:0", "0.0.0.0:8080", "[::1]:8080", "localhost:8080", "arbiter.local:80", "[fe80::1%eth0]:80"} {
		t.Run(addr, func(t *testing.T) {
			_, err := config.Parse([]byte(valid+"http:\n  listen: \""+addr+"\"\n"), "test.yaml", nil)
			assert.NoError(t, err)
		})
	}
}

func TestMissingFileIsAConfigurationError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "my-event.yaml")
	_, err := config.Load(path, nil)
	require.Error(t, err)
	assert.True(t, config.IsInvalid(err), "a missing file is an invalid configuration (exit code 3)")
	assert.ErrorContains(t, err, "no such configuration file")
	assert.ErrorContains(t, err, path)

	require.NoError(t, os.WriteFile(path, nil, 0o600))
	_, err = config.Load(path, nil)
	assert.True(t, config.IsInvalid(err))
	assert.ErrorContains(t, err, "the file is empty")
}

// A value from the environment is named by its variable, not by a line of
// the file that it replaced.
func TestEnvironmentProblemsNameTheVariable(t *testing.T) {
	t.Setenv("ARBITER_DEMO_SPEED", "fast")
	t.Setenv("ARBITER_HTTP_LISTEN", "nowhere")
	ps := problems(t, valid+"demo:\n  speed: 2\nhttp:\n  listen: \"127.0.0.1:80\"\n")
	require.Contains(t, ps, "demo.speed")
	assert.Equal(t, "environment ARBITER_DEMO_SPEED", ps["demo.speed"].From)
	assert.Zero(t, ps["demo.speed"].Line)
	require.Contains(t, ps, "http.listen")
	assert.Contains(t, ps["http.listen"].String(), "environment ARBITER_HTTP_LISTEN: http.listen")

	// A variable named after a section replaces the section.
	t.Setenv("ARBITER_EVENT", "x")
	ps = problems(t, valid)
	require.Contains(t, ps, "event.name")
	assert.Equal(t, "environment ARBITER_EVENT", ps["event.name"].From)
}

// An ARBITER_* variable that looks like a setting but sets nothing is
// warned about; other programs' variables are left alone.
func TestUnknownEnvironmentVariablesAreWarned(t *testing.T) {
	t.Setenv("ARBITER_HTTP_LISTNE", "0.0.0.0:80")
	t.Setenv("ARBITER_DEMO_COLOUR", "blue")
	t.Setenv("ARBITER_TOURNAMENTS_1_NAME", "x")
	t.Setenv("ARBITER_ARTIFACTS", "/tmp/a")
	c, err := config.Parse([]byte(valid), "test.yaml", nil)
	require.NoError(t, err)
	ws := map[string]string{}
	for _, w := range c.Warnings() {
		ws[w.Key] = w.String()
	}
	assert.Contains(t, ws["ARBITER_HTTP_LISTNE"], "did you mean ARBITER_HTTP_LISTEN?")
	assert.Contains(t, ws["ARBITER_DEMO_COLOUR"], "the variables of demo are ARBITER_DEMO_ENABLED, ARBITER_DEMO_BOARDS")
	assert.Contains(t, ws["ARBITER_TOURNAMENTS_1_NAME"], "tournaments cannot be set from the environment")
	assert.NotContains(t, ws, "ARBITER_ARTIFACTS")
	assert.Len(t, ws, 3)
}

// A Swiss needs enough players for its rounds: impossible ones are
// refused, doubtful ones warned about, each naming the tournament and the
// numbers.
func TestRoundsForThePlayers(t *testing.T) {
	tournament := func(system string, rounds, players int) string {
		var b strings.Builder
		b.WriteString("event:\n  name: x\ntournaments:\n  - name: \"T\"\n    game: shogi\n    system: " + system + "\n")
		b.WriteString("    rounds: " + itoa(rounds) + "\n    players:\n")
		for i := range players {
			b.WriteString("      - {name: \"P" + itoa(i+1) + "\"}\n")
		}
		return b.String()
	}
	for _, tc := range []struct {
		system          string
		rounds, players int
		err, warn       string
	}{
		{"swiss-dutch", 3, 6, "", ""},
		{"swiss-dutch", 4, 6, "", `"T" has 6 players for 4 rounds: a pairing without a rematch is certain only up to round 3`},
		{"swiss-dutch", 5, 6, "", "certain only up to round 3"},
		{"swiss-dutch", 6, 6, `"T" has 6 players, who can play at most 5 rounds without a rematch`, ""},
		{"swiss-dutch-2017", 7, 6, "at most 5 rounds", ""},
		{"swiss-dutch", 3, 5, "", ""},
		{"swiss-dutch", 4, 5, "", "certain only up to round 3"},
		{"swiss-dutch", 5, 5, "", "certain only up to round 3"}, // a round robin with byes
		{"swiss-dutch", 6, 5, "at most 5 rounds", ""},
		{"swiss-dutch", 1, 1, "a Swiss needs at least 2 players", ""},
		{"swiss-dutch", 9, 0, "", ""}, // players registered later: nothing to say
		{"swiss-dutch", 5, 9, "", ""},
		{"swiss-dutch", 5, 8, "", ""}, // round 5 of 8 always has a pairing
		{"swiss-dutch", 6, 8, "", "certain only up to round 4, and some results leave none for round 6 (when the players split into groups of 3 and 5"},
		{"swiss-dutch", 6, 7, "", "(and the bye, as a phantom player)"},
		{"swiss-dutch", 6, 9, "", "give at least 11 players or at most 5 rounds"},
		{"round-robin", 5, 6, "", ""},
		{"round-robin", 4, 6, "", "a round-robin of 6 players has 5 rounds; with rounds: 4"},
		{"round-robin", 6, 6, "a round-robin of 6 players has 5 rounds, not 6", ""},
		{"round-robin", 5, 5, "", ""},
		{"double-round-robin", 10, 6, "", ""},
		{"double-round-robin", 5, 6, "", "has 10 rounds"},
	} {
		t.Run(tc.system+"/"+itoa(tc.rounds)+"-of-"+itoa(tc.players), func(t *testing.T) {
			text := tournament(tc.system, tc.rounds, tc.players)
			c, err := config.Parse([]byte(text), "test.yaml", nil)
			if tc.err != "" {
				want(t, problems(t, text), "tournaments[0].rounds", 7, tc.err)
				return
			}
			require.NoError(t, err)
			ws := c.Warnings()
			if tc.warn == "" {
				assert.Empty(t, ws)
				return
			}
			require.Len(t, ws, 1)
			assert.Equal(t, "tournaments[0].rounds", ws[0].Key)
			assert.Equal(t, 7, ws[0].Line)
			assert.Contains(t, ws[0].String(), tc.warn)
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestDGTPortAccepted(t *testing.T) {
	c, err := config.Parse([]byte(valid+"boards:\n  ports:\n    - {path: /dev/ttyACM0, protocol: dgt}\n    - {glob: \"/dev/rfcomm*\", protocol: dgt}\n    - {path: /dev/ttyUSB0}\n  dgt:\n    white_right: true\n    settle: 500ms\n"), "test.yaml", nil)
	require.NoError(t, err)
	require.Len(t, c.Boards.Ports, 3)
	assert.Equal(t, driver.Protocol, c.Boards.Ports[0].Protocol)
	assert.Equal(t, driver.Protocol, c.Boards.Ports[1].Protocol)
	assert.Empty(t, c.Boards.Ports[2].Protocol, "our own boards by default")
	dgt := c.Boards.SettingsOf(driver.Protocol).(*driver.Settings)
	assert.True(t, dgt.WhiteRight)
	assert.Equal(t, "500ms", dgt.Settle.String())
}
