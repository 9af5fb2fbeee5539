package config_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/config"
)

// withRecords is the valid configuration with every key the records
// (the TRF header, the players' FIDE data) read; YAML's unquoted dates are
// taken as the dates they are.
const withRecords = `event:
  name: "Test Open"
  city: "Oslo"
  federation: "NOR"
  chief_arbiter: "IA Jane Doe"
  deputy_arbiters: ["FA John Roe", "NA Kari Nordmann"]
  start_date: 2026-11-20
  end_date: "2026-11-22"
tournaments:
  - name: "Swiss"
    game: "chess"
    system: "swiss-dutch"
    rounds: 3
    round_dates: [2026-11-20, 2026-11-21, 2026-11-22]
    players:
      - {name: "A", rating: 2500, fide_id: "1503014", title: GM, federation: NOR, birth_year: 1990}
      - {name: "B", rating: 1900, birth: 2001-05-17}
      - {name: "C", rating: 1800}
      - {name: "D", rating: 1700}
`

func TestRecordKeys(t *testing.T) {
	c, err := config.Parse([]byte(withRecords), "test.yaml", nil)
	require.NoError(t, err)
	assert.Equal(t, config.Event{Name: "Test Open", Database: "arbiter-event.db", City: "Oslo", Federation: "NOR",
		ChiefArbiter: "IA Jane Doe", DeputyArbiters: []string{"FA John Roe", "NA Kari Nordmann"},
		StartDate: "2026-11-20", EndDate: "2026-11-22"}, c.Event)
	assert.Equal(t, []string{"2026-11-20", "2026-11-21", "2026-11-22"}, c.Tournaments[0].RoundDates)
	assert.Equal(t, config.Player{Name: "A", Rating: 2500, FideID: "1503014", Title: "GM", Federation: "NOR", BirthYear: 1990},
		c.Tournaments[0].Players[0])
	// A whole date of birth: the records keep it, as TRF writes it.
	assert.Equal(t, "2001-05-17", c.Tournaments[0].Players[1].Birth)
	rec := c.Tournaments[0].Players[1].Record()
	assert.Equal(t, "2001/05/17", rec.Birth)
	assert.Equal(t, 2001, rec.BirthYear)
}

func TestRecordKeysRefused(t *testing.T) {
	for _, tt := range []struct {
		name, old, new, key string
		line                int
		why                 string
	}{
		{"federation", `federation: "NOR"`, `federation: "Norway"`, "event.federation", 4, "three capital letters"},
		{"start date", `start_date: 2026-11-20`, `start_date: 20.11.2026`, "event.start_date", 7, "YYYY-MM-DD"},
		{"end before start", `end_date: "2026-11-22"`, `end_date: "2026-11-19"`, "event.end_date", 8, "before the start date"},
		{"deputy", `"NA Kari Nordmann"`, `"NA Kari\u202eNordmann"`, "event.deputy_arbiters[1]", 6, "control character"},
		{"round date", `2026-11-21, 2026-11-22]`, `2026-11-21, 2026-11-19]`, "tournaments[0].round_dates[2]", 14, "before round 2"},
		{"round date outside", `[2026-11-20, 2026-11-21`, `[2026-11-10, 2026-11-21`, "tournaments[0].round_dates[0]", 14, "outside the event's dates"},
		{"too many dates", `2026-11-22]`, `2026-11-22, 2026-11-22]`, "tournaments[0].round_dates", 14, "4 dates for 3 rounds"},
		{"fide id", `fide_id: "1503014"`, `fide_id: "15O3014"`, "tournaments[0].players[0].fide_id", 16, "digits"},
		{"title", `title: GM`, `title: Grandmaster`, "tournaments[0].players[0].title", 16, "GM, IM"},
		{"player federation", `federation: NOR,`, `federation: nor,`, "tournaments[0].players[0].federation", 16, "three capital letters"},
		{"birth year", `birth_year: 1990`, `birth_year: 90`, "tournaments[0].players[0].birth_year", 16, "a year"},
		{"birth", `birth: 2001-05-17`, `birth: 17.05.2001`, "tournaments[0].players[1].birth", 17, "YYYY-MM-DD"},
		{"birth out of range", `birth: 2001-05-17`, `birth: 1850-05-17`, "tournaments[0].players[1].birth", 17, "between 1900 and 2100"},
		{"birth and its year", `birth: 2001-05-17`, `birth: 2001-05-17, birth_year: 2002`, "tournaments[0].players[1].birth_year", 17, "not the year of birth 2001-05-17"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.Contains(t, withRecords, tt.old)
			ps := problems(t, strings.Replace(withRecords, tt.old, tt.new, 1))
			want(t, ps, tt.key, tt.line, tt.why)
		})
	}
}
