package replay

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"arbiter/arbiter"
	"arbiter/clock"
	"arbiter/rules"
	"arbiter/store"
)

// apply carries out one stored arbiter action on the replayed session, as
// the director did live, and records what happened.
func (rp *replayer) apply(a store.Action) {
	rec := AppliedAction{ID: a.ID, What: a.What, Data: a.Data, Ply: rp.ply(), Result: "applied"}
	err := rp.rd.Do(func(s *arbiter.Session, now time.Duration) ([]arbiter.Output, error) {
		return rp.act(s, now, a)
	})
	switch {
	case errors.Is(err, errSkip):
		rec.Result = "skipped: " + errSkip.Error()
	case err != nil:
		rec.Result = "failed: " + err.Error()
	}
	// A take-back removes the replayed move too.
	if s := rp.rd.Session(); s != nil && len(rp.moves) > s.Plies() {
		rp.moves = rp.moves[:s.Plies()]
	}
	rp.rep.Actions = append(rp.rep.Actions, rec)
}

var errSkip = errors.New("no effect on the session")

func (rp *replayer) act(s *arbiter.Session, now time.Duration, a store.Action) ([]arbiter.Output, error) {
	switch a.What {
	case "resolve":
		return s.Resolve(a.Data, now)
	case "take-back":
		return s.TakeBack(now)
	case "resignation":
		loser, ok := loserOf(rp.game.Result)
		if !ok {
			return nil, fmt.Errorf("the stored result %q names no loser", rp.game.Result)
		}
		return s.SetResult(rules.Loss(loser, rules.Resignation), now, rp.rg.SideName(loser)+" resigned")
	case "set-result":
		o, err := parseOutcome(a.Data)
		if err != nil {
			return nil, err
		}
		return s.SetResult(o, now, a.Why)
	case "add-time", "pause", "resume":
		c := s.Clock()
		if c == nil {
			return nil, errors.New("the game has no clock")
		}
		switch a.What {
		case "pause":
			return nil, c.Pause(now)
		case "resume":
			return nil, c.Resume(now)
		}
		side, extra, err := parseAddTime(a.Data)
		if err != nil {
			return nil, err
		}
		return nil, c.AddTime(clock.Side(side), extra)
	}
	return nil, errSkip
}

// loserOf returns the side that lost by the stored result, if one did.
func loserOf(result string) (rules.Color, bool) {
	r, _ := rules.ParseResult(result)
	winner, ok := rules.Outcome{Result: r}.Winner()
	return winner.Other(), ok
}

// parseOutcome reads an outcome as rules.Outcome.String writes it
// ("1-0 checkmate").
func parseOutcome(s string) (rules.Outcome, error) {
	res, reason, _ := strings.Cut(strings.TrimSpace(s), " ")
	var o rules.Outcome
	var ok bool
	if o.Result, ok = rules.ParseResult(res); !ok || !o.Over() {
		return o, fmt.Errorf("outcome %q: result %q is not 1-0, 0-1 or 1/2-1/2", s, res)
	}
	r, ok := rules.ParseReason(reason)
	if !ok {
		return o, fmt.Errorf("outcome %q: unknown reason %q", s, reason)
	}
	o.Reason = r
	return o, nil
}

// parseAddTime reads the data of an add-time action ("first +2m0s").
func parseAddTime(s string) (rules.Color, time.Duration, error) {
	sideText, d, ok := strings.Cut(strings.TrimSpace(s), " ")
	if !ok {
		return 0, 0, fmt.Errorf("add-time %q: want side and +duration", s)
	}
	side, ok := rules.ParseColor(sideText)
	if !ok {
		return 0, 0, fmt.Errorf("add-time %q: side %q is not first or second", s, sideText)
	}
	extra, err := time.ParseDuration(strings.TrimPrefix(d, "+"))
	if err != nil {
		return 0, 0, fmt.Errorf("add-time %q: %w", s, err)
	}
	return side, extra, nil
}
