package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"arbiter/director"
	"arbiter/rules"
	"arbiter/store"
)

// maxWhy bounds the explanation stored with an action.
const maxWhy = 500

// consolePage shows the alert queue, the tables with their actions, the
// games waiting for a hand-entered result, the rounds and the recent
// actions.
func (s *Site) consolePage(w http.ResponseWriter, r *http.Request) {
	sess := sessionOf(r)
	db := s.d.DB()
	alerts, err := db.Alerts(true)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	slices.Reverse(alerts)  // newest first
	var ports []store.Alert // the configured ports in trouble, shown with the tables
	for _, a := range alerts {
		if a.Kind == director.AlertPort {
			ports = append(ports, a)
		}
	}
	slices.SortFunc(ports, func(a, b store.Alert) int { return strings.Compare(a.Item, b.Item) })
	tours, err := s.tourSummaries()
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	unboarded, err := s.unboarded()
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	acts, err := db.Actions(0)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	slices.Reverse(acts)
	if len(acts) > 30 {
		acts = acts[:30]
	}
	s.render(w, r, http.StatusOK, "console", map[string]any{
		"User": sess.user, "CSRF": sess.csrf, "Done": r.URL.Query().Get("done"),
		"Alerts": alerts, "Tables": s.cards(), "Ports": ports, "Unboarded": unboarded, "Tournaments": tours,
		"Actions": acts, "Reasons": resultReasons(), "Links": s.linkRows(),
	})
}

// ShowLinks gives the console the state of a multi-hall event's links (a
// hall's to the hub, or on the hub each hall's). Call it before serving;
// without it the console shows no links.
func (s *Site) ShowLinks(links func() []Link) { s.links = links }

// linkRows are the multi-hall event's links, nil for a single hall.
func (s *Site) linkRows() []Link {
	if s.links == nil {
		return nil
	}
	return s.links()
}

// resultReasons lists the reasons an arbiter may give with a result.
func resultReasons() []string {
	var out []string
	for r := rules.Reason(1); ; r++ {
		name := r.String()
		if strings.HasPrefix(name, "reason(") {
			break
		}
		out = append(out, name)
	}
	// The arbiter's own decision first: the usual choice.
	i := slices.Index(out, rules.ArbiterDecision.String())
	if i > 0 {
		out = append([]string{out[i]}, append(out[:i:i], out[i+1:]...)...)
	}
	return out
}

// action is one state-changing console route.
type action struct {
	path string
	// do carries the action out for who, with the reason why, and says
	// what was done.
	do func(s *Site, ctx context.Context, r *http.Request, who, why string) (string, error)
}

var actions = []action{
	{"/console/alerts/{id}/resolve", (*Site).resolveAlert},
	{"/console/games/{id}/resolve", (*Site).resolveMove},
	{"/console/games/{id}/takeback", onGame((*director.Director).TakeBack, "game %d: last move taken back; restore the board")},
	{"/console/games/{id}/result", (*Site).setResult},
	{"/console/games/{id}/addtime", (*Site).addTime},
	{"/console/games/{id}/pause", onGame((*director.Director).Pause, "game %d: clocks paused")},
	{"/console/games/{id}/resume", onGame((*director.Director).Resume, "game %d: clocks resumed")},
	{"/console/tournaments/{id}/pair", onTournament((*director.Director).PairNextRound, "tournament %d: next round paired and started")},
}

// call is a director action on one game or tournament that needs nothing
// but the arbiter's name and reason.
type call func(d *director.Director, ctx context.Context, id uint64, who, why string) error

// onGame makes an action of a call on the game of the path's {id}; done
// says what was done, with the id.
func onGame(c call, done string) func(*Site, context.Context, *http.Request, string, string) (string, error) {
	return func(s *Site, ctx context.Context, r *http.Request, who, why string) (string, error) {
		id, err := pathID(r, "id")
		if err != nil {
			return "", err
		}
		return fmt.Sprintf(done, id), directorErr(c(s.d, ctx, id, who, why))
	}
}

// onTournament makes an action of a call on the tournament of the path's
// {id}, which must exist.
func onTournament(c call, done string) func(*Site, context.Context, *http.Request, string, string) (string, error) {
	return func(s *Site, ctx context.Context, r *http.Request, who, why string) (string, error) {
		id, err := s.tourID(r)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf(done, id), directorErr(c(s.d, ctx, id, who, why))
	}
}

// act runs an action for the logged-in arbiter: the why is required, and
// the outcome is a redirect to the console (forms) or JSON (API clients).
func (s *Site) act(a action) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sess := sessionOf(r)
		why := strings.TrimSpace(r.PostForm.Get("why"))
		switch {
		case why == "":
			s.fail(w, r, http.StatusBadRequest, "say why: the reason is stored with the action")
			return
		case utf8.RuneCountInString(why) > maxWhy || !utf8.ValidString(why):
			s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("the reason must be valid text of at most %d characters", maxWhy))
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
		defer cancel()
		done, err := a.do(s, ctx, r, sess.user, why)
		if err != nil {
			s.log.Warn("console action refused", "user", sess.user, "path", r.URL.Path, "err", err)
			s.fail(w, r, actionStatus(err), err.Error())
			return
		}
		s.log.Info("console action", "user", sess.user, "path", r.URL.Path, "why", why, "done", done)
		if wantsJSON(r) {
			writeJSON(w, http.StatusOK, map[string]any{"ok": true, "done": done})
			return
		}
		http.Redirect(w, r, "/console?done="+url.QueryEscape(done), http.StatusSeeOther)
	}
}

// actionStatus maps an action's error onto a status: the director refuses
// actions that do not fit the game's state with a conflict.
func actionStatus(err error) int {
	switch {
	case errors.Is(err, errBadRequest):
		return http.StatusBadRequest
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return http.StatusServiceUnavailable
	}
	return http.StatusConflict
}

func formErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errBadRequest, fmt.Sprintf(format, args...))
}

func (s *Site) resolveAlert(_ context.Context, r *http.Request, who, why string) (string, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return "", err
	}
	if err := s.d.ResolveAlert(id, who, why); err != nil {
		return "", err
	}
	return fmt.Sprintf("alert %d resolved", id), nil
}

func (s *Site) resolveMove(ctx context.Context, r *http.Request, who, why string) (string, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return "", err
	}
	move := strings.TrimSpace(r.PostForm.Get("move"))
	if move == "" || len(move) > 64 {
		return "", formErr("choose one of the candidate moves")
	}
	if l, ok := s.liveOf(id); ok && l.Prompt != nil && !slices.Contains(l.Prompt.Moves, move) {
		return "", formErr("%q is not one of the candidate moves %s", move, strings.Join(l.Prompt.Moves, ", "))
	}
	if err := s.d.Resolve(ctx, id, move, who, why); err != nil {
		return "", err
	}
	return fmt.Sprintf("game %d: %s played", id, move), nil
}

// parseOutcome reads a result ("1-0", "0-1", "1/2-1/2") and a reason
// name; no reason means the arbiter's decision.
func parseOutcome(result, reason string) (rules.Outcome, error) {
	var o rules.Outcome
	text := strings.TrimSpace(result)
	if text == "½-½" || text == "draw" {
		text = rules.Drawn.String()
	}
	r, ok := rules.ParseResult(text)
	if !ok || r == rules.Ongoing {
		return o, formErr("result %q: want 1-0, 0-1 or 1/2-1/2", result)
	}
	o.Result = r
	o.Reason = rules.ArbiterDecision
	if reason = strings.TrimSpace(reason); reason != "" {
		rs, ok := rules.ParseReason(reason)
		if !ok || rs == rules.NoReason {
			return o, formErr("reason %q: want one of %s", reason, strings.Join(resultReasons(), ", "))
		}
		o.Reason = rs
	}
	return o, nil
}

func (s *Site) setResult(ctx context.Context, r *http.Request, who, why string) (string, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return "", err
	}
	o, err := parseOutcome(r.PostForm.Get("result"), r.PostForm.Get("reason"))
	if err != nil {
		return "", err
	}
	if err := s.d.SetResult(ctx, id, o, who, why); err != nil {
		return "", err
	}
	return fmt.Sprintf("game %d: result %s", id, o), nil
}

// parseSide reads "first" or "second" (or a side's usual names).
func parseSide(v string) (rules.Color, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "first", "white", "sente", "south":
		return rules.First, nil
	case "second", "black", "gote", "north":
		return rules.Second, nil
	}
	return 0, formErr("side %q: want first or second", v)
}

func (s *Site) addTime(ctx context.Context, r *http.Request, who, why string) (string, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return "", err
	}
	side, err := parseSide(r.PostForm.Get("side"))
	if err != nil {
		return "", err
	}
	secs, err := strconv.Atoi(strings.TrimSpace(r.PostForm.Get("seconds")))
	if err != nil || secs < 1 || secs > 36000 {
		return "", formErr("seconds %q: want a whole number from 1 to 36000", r.PostForm.Get("seconds"))
	}
	extra := time.Duration(secs) * time.Second
	if err := s.d.AddTime(ctx, id, side, extra, who, why); err != nil {
		return "", err
	}
	return fmt.Sprintf("game %d: %s added to %s", id, extra, side), nil
}
