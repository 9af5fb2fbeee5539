package director

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"arbiter/rules"
	"arbiter/store"
)

// CorrectResult changes the result of a finished game: the standings and
// tie-breaks follow, and so does the next pairing if it has not been made
// yet (pairings already published stand, as FIDE wants). The old and the
// new result are audited.
func (d *Director) CorrectResult(ctx context.Context, gameID uint64, o rules.Outcome, who, why string) error {
	if !o.Over() {
		return errors.New("correct result: not a result")
	}
	g, err := d.db.Game(gameID)
	if err != nil {
		return err
	}
	if g.Result == "" {
		return fmt.Errorf("game %d has no result yet: set it instead", gameID)
	}
	if g.Result == o.Result.String() && g.Reason == o.Reason.String() {
		return fmt.Errorf("%w: game %d already has the result %s", errBadInput, gameID, o)
	}
	data := fmt.Sprintf("%s (%s) corrected to %s", g.Result, g.Reason, o)
	if g.TournamentID != 0 {
		if rounds, err := d.db.Rounds(g.TournamentID); err == nil && len(rounds) > g.Round {
			data += fmt.Sprintf("; round %d was paired already and stands", g.Round+1)
		}
	}
	a := &store.Action{Who: who, What: "correct-result", Why: why, Data: data, At: d.wall()}
	if err := d.db.SetResult(gameID, o.Result.String(), o.Reason.String(), d.wall(), a); err != nil {
		return err
	}
	d.hub.Publish(Update{Kind: "result", Game: gameID, At: d.wall(), Data: o.String()})
	return nil
}

// moveNumber matches the move numbers of a written game ("12.", "12...").
var moveNumber = regexp.MustCompile(`^\d+\.+`)

// EnterMoves records the moves of a game played without a sensor board, as
// the arbiter copies them from the scoresheet: one move after another in
// any notation the game reads, move numbers and a closing result allowed.
// The game must have no stored move yet; nothing is stored unless every
// move is legal, and the moves are stored with the action in one
// transaction.
func (d *Director) EnterMoves(gameID uint64, text, who, why string) (int, error) {
	if _, err := d.tableOfGame(gameID); err == nil {
		return 0, fmt.Errorf("%w: game %d is played on a board, which records its moves", errBadInput, gameID)
	}
	g, err := d.db.Game(gameID)
	if err != nil {
		return 0, err
	}
	if moves, err := d.db.Moves(gameID); err != nil {
		return 0, err
	} else if len(moves) > 0 {
		return 0, fmt.Errorf("%w: game %d already has %d moves", errBadInput, gameID, len(moves))
	}
	rg, err := rules.NewFromText(g.Game, g.Options)
	if err != nil {
		return 0, err
	}
	pos := rg.Start()
	if g.StartPosition != "" {
		if pos, err = rg.ParsePosition(g.StartPosition); err != nil {
			return 0, fmt.Errorf("game %d: start position: %w", gameID, err)
		}
	}
	var recs []store.Move
	for _, tok := range strings.Fields(text) {
		tok = moveNumber.ReplaceAllString(tok, "")
		switch tok {
		case "", "1-0", "0-1", "1/2-1/2", "½-½", "*":
			continue
		}
		ply := len(recs) + 1
		m, err := pos.ParseMove(tok)
		if err != nil {
			return 0, fmt.Errorf("%w: move %d %q: %v", errBadInput, ply, tok, err)
		}
		note := pos.FormatMove(m)
		next, err := pos.Play(m)
		if err != nil {
			return 0, fmt.Errorf("%w: move %d %q: %v", errBadInput, ply, tok, err)
		}
		pos = next
		recs = append(recs, store.Move{GameID: gameID, Ply: ply, Notation: note, Canonical: m.String(), Position: pos.String(), Wall: d.wall()})
		if len(recs) > 2000 {
			return 0, fmt.Errorf("%w: more than 2000 moves", errBadInput)
		}
	}
	if len(recs) == 0 {
		return 0, fmt.Errorf("%w: no moves given", errBadInput)
	}
	if err := d.db.AppendMoves(recs, &store.Action{GameID: gameID, Who: who, What: "enter-moves", Why: why, Data: fmt.Sprintf("%d moves from the scoresheet", len(recs)), At: d.wall()}); err != nil {
		return 0, err
	}
	d.hub.Publish(Update{Kind: "move", Game: gameID, At: d.wall()})
	return len(recs), nil
}
