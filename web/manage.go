package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"arbiter/director"
	"arbiter/rules"
	"arbiter/store"
)

// The console's tournament management: the event off the happy path.
// Every route here is an action (see actions): a logged-in arbiter, the
// session's CSRF token and a reason.

var manageActions = []action{
	{"/console/alerts/resolve", (*Site).resolveAlerts},
	{"/console/tournaments/{id}/pair-rematches", onTournament((*director.Director).PairAllowingRematches, "tournament %d: next round paired with rematches allowed")},
	{"/console/tournaments/{id}/pair-manual", (*Site).pairManual},
	{"/console/tournaments/{id}/end", onTournament(func(d *director.Director, _ context.Context, id uint64, who, why string) error {
		return d.EndTournament(id, who, why)
	}, "tournament %d ended after its last complete round")},
	{"/console/tournaments/{id}/players", (*Site).addPlayer},
	{"/console/tournaments/{id}/players/{pid}/withdraw", (*Site).withdraw},
	{"/console/tournaments/{id}/players/{pid}/readmit", (*Site).readmit},
	{"/console/tournaments/{id}/players/{pid}/bye", (*Site).requestBye},
	{"/console/tournaments/{id}/rounds/{round}/timecontrol", (*Site).roundTimeControl},
	{"/console/games/{id}/correct", (*Site).correctResult},
	{"/console/tables/{board}/start", (*Site).startWaiting},
	{"/console/games/{id}/moves", (*Site).enterMoves},
	{"/console/tournaments/{id}/accelerate", (*Site).accelerate},
	{"/console/games/{id}/handicap", (*Site).setHandicap},
}

func init() { actions = append(actions, manageActions...) }

// formInt reads a whole number from a form field.
func formInt(r *http.Request, name string, lo, hi int) (int, error) {
	v := strings.TrimSpace(r.PostForm.Get(name))
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, formErr("%s %q: want a whole number from %d to %d", name, v, lo, hi)
	}
	return n, nil
}

// tourAndPlayer reads the tournament and player of a path.
func (s *Site) tourAndPlayer(r *http.Request) (uint64, int, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return 0, 0, err
	}
	pid, err := pathID(r, "pid")
	if err != nil {
		return 0, 0, err
	}
	if pid > 100000 {
		return 0, 0, formErr("no player has start number %d", pid)
	}
	return id, int(pid), nil
}

// tourID reads the tournament of a path and checks that it exists.
func (s *Site) tourID(r *http.Request) (uint64, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return 0, err
	}
	if _, err := s.tournament(id); err != nil {
		return 0, err
	}
	return id, nil
}

// directorErr marks the director's refusals of the arbiter's input as bad
// requests.
func directorErr(err error) error {
	if err != nil && director.IsBadRequest(err) {
		return fmt.Errorf("%w: %w", errBadRequest, err)
	}
	return err
}

func (s *Site) resolveAlerts(_ context.Context, r *http.Request, who, why string) (string, error) {
	var ids []uint64
	for _, v := range r.PostForm["alert"] {
		id, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		if err != nil || id == 0 {
			return "", formErr("alert %q is not a positive number", v)
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return "", formErr("tick the alerts to resolve")
	}
	if len(ids) > 1000 {
		return "", formErr("at most 1000 alerts at once")
	}
	if err := s.d.ResolveAlerts(ids, who, why); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d alerts resolved", len(ids)), nil
}

func (s *Site) pairManual(ctx context.Context, r *http.Request, who, why string) (string, error) {
	id, err := s.tourID(r)
	if err != nil {
		return "", err
	}
	boards, err := director.ParseManual(r.PostForm.Get("pairings"))
	if err != nil {
		return "", formErr("%v", err)
	}
	if err := s.d.PairByHand(ctx, id, boards, who, why); err != nil {
		return "", directorErr(err)
	}
	return fmt.Sprintf("tournament %d: next round paired by hand", id), nil
}

func (s *Site) addPlayer(_ context.Context, r *http.Request, who, why string) (string, error) {
	id, err := s.tourID(r)
	if err != nil {
		return "", err
	}
	np := director.NewPlayer{
		Name:       strings.TrimSpace(r.PostForm.Get("name")),
		Title:      strings.TrimSpace(r.PostForm.Get("title")),
		Federation: strings.ToUpper(strings.TrimSpace(r.PostForm.Get("federation"))),
		FideID:     strings.TrimSpace(r.PostForm.Get("fideId")),
		Missed:     r.PostForm.Get("missed"),
	}
	if v := strings.TrimSpace(r.PostForm.Get("rating")); v != "" {
		if np.Rating, err = formInt(r, "rating", 0, 4000); err != nil {
			return "", err
		}
	}
	for field, v := range map[string]string{"title": np.Title, "federation": np.Federation, "fideId": np.FideID} {
		if len(v) > 12 || strings.ContainsFunc(v, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			return "", formErr("%s %q: at most 12 plain characters", field, v)
		}
	}
	p, err := s.d.AddPlayer(id, np, who, why)
	if err != nil {
		return "", directorErr(err)
	}
	return fmt.Sprintf("player %d %s registered", p.ID, p.Name), nil
}

func (s *Site) withdraw(ctx context.Context, r *http.Request, who, why string) (string, error) {
	id, pid, err := s.tourAndPlayer(r)
	if err != nil {
		return "", err
	}
	now := false
	switch r.PostForm.Get("when") {
	case "now":
		now = true
	case "", "next":
	default:
		return "", formErr("when %q: want next or now", r.PostForm.Get("when"))
	}
	if err := s.d.Withdraw(ctx, id, pid, now, who, why); err != nil {
		return "", directorErr(err)
	}
	if now {
		return fmt.Sprintf("player %d withdrawn at once", pid), nil
	}
	return fmt.Sprintf("player %d withdrawn from the next round", pid), nil
}

func (s *Site) readmit(_ context.Context, r *http.Request, who, why string) (string, error) {
	id, pid, err := s.tourAndPlayer(r)
	if err != nil {
		return "", err
	}
	if err := s.d.Readmit(id, pid, who, why); err != nil {
		return "", directorErr(err)
	}
	return fmt.Sprintf("player %d re-admitted", pid), nil
}

func (s *Site) requestBye(_ context.Context, r *http.Request, who, why string) (string, error) {
	id, pid, err := s.tourAndPlayer(r)
	if err != nil {
		return "", err
	}
	round, err := formInt(r, "round", 1, 99)
	if err != nil {
		return "", err
	}
	kind := strings.ToUpper(strings.TrimSpace(r.PostForm.Get("kind")))
	if kind == "CANCEL" {
		kind = ""
	}
	if err := s.d.RequestBye(id, pid, round, kind, who, why); err != nil {
		return "", directorErr(err)
	}
	if kind == "" {
		return fmt.Sprintf("player %d: bye in round %d cancelled", pid, round), nil
	}
	return fmt.Sprintf("player %d: %s bye in round %d", pid, kind, round), nil
}

func (s *Site) roundTimeControl(_ context.Context, r *http.Request, who, why string) (string, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return "", err
	}
	round, err := pathID(r, "round")
	if err != nil || round > 99 {
		return "", formErr("round %q: want 1 to 99", r.PathValue("round"))
	}
	tc := strings.TrimSpace(r.PostForm.Get("timeControl"))
	if len(tc) > 64 {
		return "", formErr("time control: at most 64 characters")
	}
	if err := s.d.SetRoundTimeControl(id, int(round), tc, who, why); err != nil {
		return "", directorErr(err)
	}
	return fmt.Sprintf("tournament %d round %d: time control set", id, round), nil
}

func (s *Site) correctResult(ctx context.Context, r *http.Request, who, why string) (string, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return "", err
	}
	o, err := parseOutcome(r.PostForm.Get("result"), r.PostForm.Get("reason"))
	if err != nil {
		return "", err
	}
	if err := s.d.CorrectResult(ctx, id, o, who, why); err != nil {
		return "", directorErr(err)
	}
	return fmt.Sprintf("game %d: result corrected to %s", id, o), nil
}

// setHandicap gives a pairing's game a handicap before it begins
// (director.SetHandicap).
func (s *Site) setHandicap(ctx context.Context, r *http.Request, who, why string) (string, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return "", err
	}
	h := strings.TrimSpace(r.PostForm.Get("handicap"))
	if h == "" || len(h) > 40 {
		return "", formErr("handicap %q: want one of the game's handicaps", h)
	}
	if err := s.d.SetHandicap(ctx, id, h, who, why); err != nil {
		return "", directorErr(err)
	}
	return fmt.Sprintf("game %d: handicap %s", id, h), nil
}

func (s *Site) startWaiting(ctx context.Context, r *http.Request, who, why string) (string, error) {
	board := r.PathValue("board")
	if err := s.d.StartWaiting(ctx, board, who, why); err != nil {
		return "", err
	}
	return fmt.Sprintf("table of board %s: the waiting game started", board), nil
}

// manageView is the console's page for one tournament.
type manageView struct {
	User, CSRF string
	Tour       tourDetail
	Players    []playerLine
	Reasons    []string
	// Next is the next round to pair; Future lists the rounds not paired.
	Next   int
	Future []int
	Swiss  bool
	// Handicaps are the game's handicaps (rules.Facts), none for a game
	// without; HandicapOf is the handicap of each game not yet begun, by
	// its id, which the arbiter may still change.
	Handicaps  []rules.Handicap
	HandicapOf map[uint64]string
}

// playerLine is a player with what the arbiter may do about them.
type playerLine struct {
	store.Player
	Status string // "withdrawn from round 3", "absent after a forfeit", "late entry from round 2", ""
	Byes   string // "H in round 4, Z in round 5"
}

// consoleTournament shows a tournament's players, rounds and the arbiter's
// actions on them.
func (s *Site) consoleTournament(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	td, err := s.tourDetail(id)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	sess := sessionOf(r)
	v := manageView{User: sess.user, CSRF: sess.csrf, Tour: *td, Reasons: resultReasons(), Next: td.Paired + 1,
		Swiss: strings.HasPrefix(td.System, "swiss")}
	for n := td.Paired + 1; n <= td.Last; n++ {
		v.Future = append(v.Future, n)
	}
	if facts := rules.FactsOf(td.Game); facts.HandicapOption != "" {
		v.Handicaps, v.HandicapOf = facts.Handicaps, s.handicaps(td, facts.HandicapOption)
	}
	for _, p := range td.PlayerList {
		pl := playerLine{Player: p}
		switch {
		case p.Withdrawn:
			pl.Status = fmt.Sprintf("withdrawn from round %d", p.WithdrawnFrom)
		case p.Absent:
			pl.Status = "absent after a forfeit: not paired until re-admitted"
		case p.Joined > 1:
			pl.Status = fmt.Sprintf("late entry from round %d", p.Joined)
		}
		var byes []string
		for n := 1; n <= td.Last; n++ {
			if k, ok := p.Byes[n]; ok && n >= p.Joined {
				byes = append(byes, fmt.Sprintf("%s in round %d", k, n))
			}
		}
		pl.Byes = strings.Join(byes, ", ")
		v.Players = append(v.Players, pl)
	}
	s.render(w, r, http.StatusOK, "manage", v)
}

// handicaps returns the handicap (the value of rule option key) of each
// game of td's rounds that has not begun, by its id.
func (s *Site) handicaps(td *tourDetail, key string) map[uint64]string {
	db := s.d.DB()
	out := map[uint64]string{}
	for _, rv := range td.RoundList {
		for _, b := range rv.Boards {
			if b.GameID == 0 || b.Result != "" {
				continue
			}
			g, err := db.Game(b.GameID)
			if err != nil {
				continue
			}
			if ms, err := db.Moves(g.ID); err != nil || len(ms) > 0 {
				continue
			}
			opts, err := rules.ParseOptions(g.Options)
			if err != nil {
				continue
			}
			out[g.ID] = opts[key]
		}
	}
	return out
}

func (s *Site) enterMoves(_ context.Context, r *http.Request, who, why string) (string, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return "", err
	}
	text := r.PostForm.Get("moves")
	if len(text) > 32<<10 {
		return "", formErr("at most 32 KiB of moves")
	}
	n, err := s.d.EnterMoves(id, text, who, why)
	if err != nil {
		return "", directorErr(err)
	}
	return fmt.Sprintf("game %d: %d moves entered from the scoresheet", id, n), nil
}

func (s *Site) accelerate(_ context.Context, r *http.Request, who, why string) (string, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return "", err
	}
	kind := strings.TrimSpace(r.PostForm.Get("accelerated"))
	if kind == "none" {
		kind = ""
	}
	if err := s.d.SetAccelerated(id, kind, who, why); err != nil {
		return "", directorErr(err)
	}
	if kind == "" {
		return fmt.Sprintf("tournament %d: no acceleration", id), nil
	}
	return fmt.Sprintf("tournament %d: %s acceleration", id, kind), nil
}
