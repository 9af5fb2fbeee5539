package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"arbiter/director"
	"arbiter/rules"
)

// The console's claims, offers and declarations (issue 18 §3): what a
// player says at the board, entered by the arbiter. The director checks
// who may say it and the engines judge it; every route is an action
// (see actions): a logged-in arbiter, the CSRF token and a reason.

var claimActions = []action{
	{"/console/games/{id}/offer", (*Site).offer},
	{"/console/games/{id}/answer", (*Site).answerOffer},
	{"/console/games/{id}/claim", (*Site).claimDraw},
	{"/console/games/{id}/jishogi", (*Site).ruleJishogi},
	{"/console/games/{id}/declare", (*Site).declare},
	{"/console/games/{id}/resign", (*Site).resign},
}

func init() {
	actions = append(actions, claimActions...)
	// The console's forms for them (templates/claims.html).
	funcs["claimArgs"] = func(l any, csrf string) map[string]any {
		return map[string]any{"Live": l, "CSRF": csrf}
	}
}

// gameAndSide reads the game of the path and the form's side.
func gameAndSide(r *http.Request) (uint64, rules.Color, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return 0, 0, err
	}
	side, err := parseSide(r.PostForm.Get("side"))
	return id, side, err
}

func (s *Site) offer(ctx context.Context, r *http.Request, who, why string) (string, error) {
	id, side, err := gameAndSide(r)
	if err != nil {
		return "", err
	}
	word := strings.TrimSpace(r.PostForm.Get("kind"))
	if word == "" {
		word = director.DrawOffer.String()
	}
	kind, ok := director.ParseOfferKind(word)
	if !ok {
		return "", formErr("offer %q: want draw or jishogi", word)
	}
	if err := s.d.Offer(ctx, id, side, kind, who, why); err != nil {
		return "", directorErr(err)
	}
	return fmt.Sprintf("game %d: %s offers %s", id, side, kind), nil
}

func (s *Site) answerOffer(ctx context.Context, r *http.Request, who, why string) (string, error) {
	id, side, err := gameAndSide(r)
	if err != nil {
		return "", err
	}
	var accept bool
	switch a := strings.TrimSpace(r.PostForm.Get("answer")); a {
	case "accept":
		accept = true
	case "decline":
	default:
		return "", formErr("answer %q: want accept or decline", a)
	}
	o, err := s.d.AnswerOffer(ctx, id, side, accept, who, why)
	if err != nil {
		return "", directorErr(err)
	}
	if !accept {
		return fmt.Sprintf("game %d: %s declined the offer", id, side), nil
	}
	return fmt.Sprintf("game %d: %s accepted; result %s", id, side, o), nil
}

func (s *Site) claimDraw(ctx context.Context, r *http.Request, who, why string) (string, error) {
	id, side, err := gameAndSide(r)
	if err != nil {
		return "", err
	}
	move := strings.TrimSpace(r.PostForm.Get("move"))
	if len(move) > 64 {
		return "", formErr("intended move: at most 64 characters")
	}
	v, err := s.d.ClaimDraw(ctx, id, side, move, who, why)
	if err != nil {
		return "", directorErr(err)
	}
	return fmt.Sprintf("game %d: %s", id, v.Detail), nil
}

func (s *Site) ruleJishogi(ctx context.Context, r *http.Request, who, why string) (string, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return "", err
	}
	o, err := s.d.Jishogi(ctx, id, who, why)
	if err != nil {
		return "", directorErr(err)
	}
	return fmt.Sprintf("game %d: jishogi ruled, result %s", id, o), nil
}

func (s *Site) declare(ctx context.Context, r *http.Request, who, why string) (string, error) {
	id, side, err := gameAndSide(r)
	if err != nil {
		return "", err
	}
	dec, err := s.d.Declare(ctx, id, side, who, why)
	if err != nil {
		return "", directorErr(err)
	}
	return fmt.Sprintf("game %d: %s declared with %d points, result %s", id, side, dec.Points, dec.Outcome), nil
}

func (s *Site) resign(ctx context.Context, r *http.Request, who, why string) (string, error) {
	id, side, err := gameAndSide(r)
	if err != nil {
		return "", err
	}
	if err := s.d.ResignGame(ctx, id, side, who, why); err != nil {
		return "", directorErr(err)
	}
	return fmt.Sprintf("game %d: %s resigned", id, side), nil
}
