package export

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"arbiter/pairing/tiebreak"
	"arbiter/pairing/trf"
	"arbiter/store"
)

// Event is what an event's records say about it beyond its database, as
// the daemon reads it from its configuration: the TRF report's header
// records.
type Event struct {
	Name         string
	City         string // 022
	Federation   string // 032
	ChiefArbiter string // 102
	Deputies     []string
	// Start and End are the event's first and last days (042, 052); zero:
	// the dates of the first and the last round.
	Start, End time.Time
	// RoundDates are the scheduled days of each tournament's rounds (132),
	// by tournament name; a round without one is dated by its pairing.
	RoundDates map[string][]time.Time
}

// WithEvent returns a Reporter whose reports are rep's with the header
// records of ev and of the tournament as db stores it (see Report). It
// also computes standings when rep does.
func WithEvent(rep Reporter, db *store.DB, ev Event) Reporter {
	h := headed{rep: rep, db: db, ev: ev}
	if sr, ok := rep.(StandingsReporter); ok {
		return headedStandings{h, sr}
	}
	return h
}

type headed struct {
	rep Reporter
	db  *store.DB
	ev  Event
}

func (h headed) TRF(id uint64) (*trf.Tournament, error) { return Report(h.db, h.rep, id, h.ev) }

type headedStandings struct {
	headed
	sr StandingsReporter
}

func (h headedStandings) Standings(id uint64) (*tiebreak.Standings, error) { return h.sr.Standings(id) }

// trfDate is the form of the TRF's 042 and 052 dates.
const trfDate = "2006/01/02"

// Report builds tournament id's TRF report: the players and rounds of
// rep's report, and the header records a reader of the file needs: the
// event's city, federation, dates and arbiters from ev (042 and 052 fall
// back to the first and the last round's dates), the numbers of players
// and rated players (062, 072, 082 0 teams), the type (092) and the
// encoded system (192, see tournamentType) from the stored tournament, so
// that a round robin reads back as one, the rounds' dates (132), and its
// tie-breaks (202), which `arbiter standings` reads. The players' dates of
// birth (or years, when only the year is known) come from the store, and
// when rep also computes standings, each player's rank in them.
func Report(db *store.DB, rep Reporter, id uint64, ev Event) (*trf.Tournament, error) {
	t, err := rep.TRF(id)
	if err != nil {
		return nil, err
	}
	tr, err := db.Tournament(id)
	if err != nil {
		return nil, err
	}
	players, err := db.Players(id)
	if err != nil {
		return nil, fmt.Errorf("tournament %d: %w", id, err)
	}
	rounds, err := db.Rounds(id)
	if err != nil {
		return nil, fmt.Errorf("tournament %d: %w", id, err)
	}
	rank, err := standingRanks(rep, id)
	if err != nil {
		return nil, err
	}
	rated := completePlayers(t, birthDates(players), rank)
	dates := roundDates(tr, rounds, ev.RoundDates[tr.Name])
	t.City, t.Federation, t.Arbiter = ev.City, ev.Federation, ev.ChiefArbiter
	start, end := eventDates(ev, tr, dates)
	if !start.IsZero() {
		t.StartDate = start.Format(trfDate)
	}
	if !end.IsZero() {
		t.EndDate = end.Format(trfDate)
	}
	kind, system := tournamentType(tr)
	t.System = system
	head := []string{
		"062 " + strconv.Itoa(len(t.Players)),
		"072 " + strconv.Itoa(rated),
		"082 0",
		"092 " + kind,
	}
	for _, d := range ev.Deputies {
		head = append(head, "112 "+d)
	}
	if line := datesRecord(dates); line != "" {
		head = append(head, line)
	}
	if len(tr.TieBreaks) > 0 {
		head = append(head, "202 "+strings.Join(tr.TieBreaks, " "))
	}
	t.Extra = append(head, t.Extra...)
	return t, nil
}

// birthDates returns the stored date of birth of each player by ID, or
// the year when only the year is known.
func birthDates(players []store.Player) map[int]string {
	born := map[int]string{}
	for _, p := range players {
		switch {
		case p.Birth != "":
			born[p.ID] = p.Birth
		case p.BirthYear > 0:
			born[p.ID] = strconv.Itoa(p.BirthYear)
		}
	}
	return born
}

// standingRanks returns each player's rank in tournament id's standings
// by ID, when rep computes standings; none otherwise.
func standingRanks(rep Reporter, id uint64) (map[int]int, error) {
	rank := map[int]int{}
	sr, ok := rep.(StandingsReporter)
	if !ok {
		return rank, nil
	}
	st, err := sr.Standings(id)
	if err != nil {
		return nil, fmt.Errorf("tournament %d: ranks: %w", id, err)
	}
	for _, row := range st.Rows {
		rank[row.ID] = row.Rank
	}
	return rank, nil
}

// completePlayers fills the dates of birth and ranks the report's players
// lack from born and rank, and returns how many players are rated.
func completePlayers(t *trf.Tournament, born map[int]string, rank map[int]int) (rated int) {
	for i := range t.Players {
		p := &t.Players[i]
		if b := born[p.ID]; b != "" && p.Birth == "" {
			p.Birth = b
		}
		if r := rank[p.ID]; r > 0 && p.Rank == 0 {
			p.Rank = r
		}
		if p.Rating > 0 {
			rated++
		}
	}
	return rated
}

// eventDates returns the event's first and last days (042 and 052): ev's,
// else the first round's and, once every round is dated, the last
// round's; zero when unknown.
func eventDates(ev Event, tr store.Tournament, dates []time.Time) (start, end time.Time) {
	start, end = ev.Start, ev.End
	if start.IsZero() && len(dates) > 0 {
		start = dates[0]
	}
	if end.IsZero() && len(dates) == tr.PlayedRounds() {
		end = dates[len(dates)-1]
	}
	return start, end
}

// tournamentType returns the 092 text and the 192 code of a tournament.
// Our Dutch rules are the ones FIDE adopted in 2025 (in force from 2026),
// which the reference checker bbpPairings reads as FIDE_DUTCH_2025 (it
// refuses any other dated Dutch code); the 2017 rules are
// FIDE_DUTCH_2017. Baku acceleration adds _BAKU.
func tournamentType(tr store.Tournament) (kind, code string) {
	switch tr.System {
	case "round-robin":
		return "Round robin", "FIDE_ROUNDROBIN"
	case "double-round-robin":
		return "Double round robin", "FIDE_DOUBLE_ROUNDROBIN"
	case "swiss-dutch-2017":
		kind, code = "Swiss Dutch (2017 rules)", "FIDE_DUTCH_2017"
	default:
		kind, code = "Swiss Dutch", "FIDE_DUTCH_2025"
	}
	if tr.Accelerated == "baku" {
		kind += ", Baku acceleration"
		code += "_BAKU"
	}
	return kind, code
}

// roundDates returns the day of each round so far: the scheduled date when
// the configuration gives one, else the day it was paired. Rounds not
// paired yet are dated only when scheduled, up to the last scheduled one.
func roundDates(tr store.Tournament, rounds []store.Round, scheduled []time.Time) []time.Time {
	n := min(max(len(rounds), len(scheduled)), tr.PlayedRounds())
	out := make([]time.Time, n)
	for i := range out {
		if i < len(scheduled) && !scheduled[i].IsZero() {
			out[i] = scheduled[i]
		}
	}
	for _, r := range rounds {
		if r.Number >= 1 && r.Number <= n && out[r.Number-1].IsZero() && !r.PairedAt.IsZero() {
			out[r.Number-1] = r.PairedAt.UTC()
		}
	}
	return out
}

// datesRecord is the 132 record: each round's date as YY/MM/DD in the
// round's columns of the 001 records (92 + 10(r-1)); "" when no round has
// a date.
func datesRecord(dates []time.Time) string {
	var b strings.Builder
	b.WriteString("132")
	b.WriteString(strings.Repeat(" ", 91-3))
	dated := false
	for _, d := range dates {
		if d.IsZero() {
			b.WriteString(strings.Repeat(" ", 10))
			continue
		}
		dated = true
		b.WriteString(d.Format("06/01/02"))
		b.WriteString("  ")
	}
	if !dated {
		return ""
	}
	return strings.TrimRight(b.String(), " ")
}
