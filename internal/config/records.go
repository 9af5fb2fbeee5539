package config

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"

	"arbiter/internal/names"
	"arbiter/store"
)

// What the records say about the event and its players beyond names: the
// TRF header (city, federation, arbiters, dates) and the players' FIDE
// data. Every value is checked for the form the TRF report's columns take.

// DateLayout is the form of the dates of the configuration: YYYY-MM-DD.
const DateLayout = "2006-01-02"

// Titles are the FIDE titles a player may be given.
var Titles = []string{"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"}

// decodeHook is viper's own (durations, comma-separated lists),
// dateText and wholeNumber.
var decodeHook = mapstructure.ComposeDecodeHookFunc(dateText, wholeNumber,
	mapstructure.StringToTimeDurationHookFunc(), mapstructure.StringToSliceHookFunc(","))

// wholeNumber refuses a number with a fraction (rounds: 2.5) for a key
// that counts (rounds, a rating, a round's number): the decoder, which
// reads YAML's numbers loosely, would cut it to 2 without a word.
func wholeNumber(from, to reflect.Type, data any) (any, error) {
	switch to.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
	default:
		return data, nil
	}
	var f float64
	switch v := data.(type) {
	case float64:
		f = v
	case float32:
		f = float64(v)
	default:
		return data, nil
	}
	if f != math.Trunc(f) || math.IsInf(f, 0) {
		return nil, &fractionError{value: data}
	}
	return data, nil
}

// fractionError is wholeNumber's refusal of value.
type fractionError struct{ value any }

func (e *fractionError) Error() string { return "want a whole number" }

// dateText lets YAML's unquoted dates (2026-11-20, which the YAML reader
// makes timestamps) fill text keys, as the date they were written as.
func dateText(_, to reflect.Type, data any) (any, error) {
	if t, ok := data.(time.Time); ok && to.Kind() == reflect.String {
		if t.Equal(time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())) {
			return t.Format(DateLayout), nil
		}
		return t.Format(time.RFC3339), nil
	}
	return data, nil
}

// ParseDate reads a date of the configuration (YYYY-MM-DD); "" is the
// zero time.
func ParseDate(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	d, err := time.Parse(DateLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("want a date such as 2026-11-20 (YYYY-MM-DD)")
	}
	return d, nil
}

// federationProblem says what is wrong with a FIDE federation code, or "".
func federationProblem(code string) string {
	if len(code) != 3 || strings.ToUpper(code) != code || strings.IndexFunc(code, func(r rune) bool { return r < 'A' || r > 'Z' }) >= 0 {
		return "want a FIDE federation code: three capital letters such as NOR or JPN"
	}
	return ""
}

// problems checks the event's record keys.
func (e Event) problems() []Problem {
	var ps []Problem
	add := func(key string, value any, why string) {
		ps = append(ps, Problem{Key: key, Value: fmt.Sprint(value), Why: why})
	}
	for key, text := range map[string]string{"event.city": e.City, "event.chief_arbiter": e.ChiefArbiter} {
		if text != "" {
			if why := nameProblem(text); why != "" {
				add(key, text, why)
			}
		}
	}
	for i, d := range e.DeputyArbiters {
		if why := nameProblem(d); why != "" {
			add(fmt.Sprintf("event.deputy_arbiters[%d]", i), d, why)
		}
	}
	if e.Federation != "" {
		if why := federationProblem(e.Federation); why != "" {
			add("event.federation", e.Federation, why)
		}
	}
	start, serr := ParseDate(e.StartDate)
	if serr != nil {
		add("event.start_date", e.StartDate, serr.Error())
	}
	end, eerr := ParseDate(e.EndDate)
	if eerr != nil {
		add("event.end_date", e.EndDate, eerr.Error())
	}
	if serr == nil && eerr == nil && !start.IsZero() && !end.IsZero() && end.Before(start) {
		add("event.end_date", e.EndDate, "is before the start date "+e.StartDate)
	}
	return ps
}

// dateProblems checks a tournament's round dates: one date per round at
// most, in order, within the event's dates when it has them.
func (t Tournament) dateProblems(key string, e Event) []Problem {
	var ps []Problem
	start, _ := ParseDate(e.StartDate)
	end, _ := ParseDate(e.EndDate)
	if len(t.RoundDates) > t.Rounds && t.Rounds > 0 && !strings.Contains(t.System, "round-robin") {
		ps = append(ps, Problem{Key: key + ".round_dates", Value: strings.Join(t.RoundDates, ", "),
			Why: fmt.Sprintf("%d dates for %d rounds", len(t.RoundDates), t.Rounds)})
	}
	var prev time.Time
	for i, s := range t.RoundDates {
		k := fmt.Sprintf("%s.round_dates[%d]", key, i)
		d, err := ParseDate(s)
		switch {
		case err != nil || s == "":
			ps = append(ps, Problem{Key: k, Value: s, Why: "want the date of round " + fmt.Sprint(i+1) + " such as 2026-11-20 (YYYY-MM-DD)"})
			continue
		case d.Before(prev):
			ps = append(ps, Problem{Key: k, Value: s, Why: fmt.Sprintf("round %d is dated before round %d", i+1, i)})
		case !start.IsZero() && d.Before(start), !end.IsZero() && d.After(end):
			ps = append(ps, Problem{Key: k, Value: s, Why: fmt.Sprintf("is outside the event's dates %s to %s", e.StartDate, e.EndDate)})
		}
		prev = d
	}
	return ps
}

// problems checks a player's FIDE data; the keys are relative to the player.
func (p Player) problems() []Problem {
	var ps []Problem
	if p.FideID != "" && (len(p.FideID) > 11 || strings.IndexFunc(p.FideID, func(r rune) bool { return r < '0' || r > '9' }) >= 0) {
		ps = append(ps, Problem{Key: "fide_id", Value: p.FideID, Why: "want the FIDE id's digits, at most 11"})
	}
	if p.Title != "" && !slices.Contains(Titles, p.Title) {
		ps = append(ps, Problem{Key: "title", Value: p.Title, Why: "want one of " + strings.Join(Titles, ", ")})
	}
	if p.Federation != "" {
		if why := federationProblem(p.Federation); why != "" {
			ps = append(ps, Problem{Key: "federation", Value: p.Federation, Why: why})
		}
	}
	if p.BirthYear != 0 && (p.BirthYear < 1900 || p.BirthYear > 2100) {
		ps = append(ps, Problem{Key: "birth_year", Value: fmt.Sprint(p.BirthYear), Why: "want a year such as 1990"})
	}
	if p.Birth != "" {
		d, err := ParseDate(p.Birth)
		switch {
		case err != nil:
			ps = append(ps, Problem{Key: "birth", Value: p.Birth, Why: "want a date of birth such as 1990-05-17 (YYYY-MM-DD)"})
		case d.Year() < 1900 || d.Year() > 2100:
			ps = append(ps, Problem{Key: "birth", Value: p.Birth, Why: "want a date of birth between 1900 and 2100"})
		case p.BirthYear != 0 && p.BirthYear != d.Year():
			ps = append(ps, Problem{Key: "birth_year", Value: fmt.Sprint(p.BirthYear), Why: fmt.Sprintf("is not the year of birth %s", p.Birth)})
		}
	}
	return ps
}

// Record is the player as the event database stores it, without the
// tournament and the start number, which the event gives, the name in its
// normal form (names.Normal).
func (p Player) Record() store.Player {
	rec := store.Player{Name: names.Normal(p.Name), Rating: p.Rating, FideID: p.FideID, Title: p.Title,
		Federation: p.Federation, BirthYear: p.BirthYear}
	// Validation has checked the date: an unreadable one stays unknown.
	if d, err := ParseDate(p.Birth); err == nil && !d.IsZero() {
		rec.Birth, rec.BirthYear = d.Format("2006/01/02"), d.Year()
	}
	return rec
}
