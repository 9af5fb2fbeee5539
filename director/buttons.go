package director

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/rules"
)

// Board buttons for offers, claims and resignation (PROTOCOL 5.4, kinds
// 5-7; issue 18 §3): a press at the board goes to the same offer, claim
// and resignation code as the arbiter's console, with the same audit
// entry and stored reason. The session has no part in them: it reads
// moves; what the players say is the director's.

// panel is what a table keeps of the players' buttons and of the board's
// display. It is owned by the table's goroutine.
type panel struct {
	// resign is a first press of a resign button, waiting for the
	// second press that confirms it.
	resign *resignPress
	// textUp and litUp: the board shows a text, lit squares; standing:
	// the text is the standing one (an open offer, a resignation to
	// confirm), not an alert.
	textUp, litUp, standing bool
}

// resignPress is a first press of a side's resign button.
type resignPress struct {
	side rules.Color
	game uint64
	at   time.Duration
}

// boardButton acts on a press of a board's offer, resign or claim button.
// It runs on the table's goroutine for every board event, after the
// session has seen it, so that a press is judged in the order of the
// board's events: an offer made after a move goes with that move.
//
// A refused press (a claim by the player not to move, an offer in a game
// without one) raises an alert that names why, shown on the board too.
// A press recovered from a dump's counters has lost its instant, so it is
// not acted on: the player is asked to press again.
func (t *Table) boardButton(e arbiter.Event) {
	if r := t.panel.resign; r != nil && (e.At-r.at > board.ResignConfirm || t.game == nil || r.game != t.game.ID) {
		t.panel.resign = nil
		t.restoreDisplay(t.notify.sender)
	}
	switch e.Kind {
	case arbiter.OfferPressed, arbiter.ResignPressed, arbiter.ClaimPressed:
	default:
		return
	}
	button := e.Kind.String() // "offer", "resign", "claim"
	if t.session == nil || t.game == nil || t.session.Outcome().Over() {
		t.log.Info("board button pressed with no game running", "button", button, "side", e.Side)
		return
	}
	name := t.rgame.SideName(e.Side)
	if e.Recovered {
		t.storeAlert(arbiter.Alert{Kind: arbiter.IrregularityAlert, Side: e.Side, At: e.At,
			Message: fmt.Sprintf("a press of %s's %s button was lost on the way: press it again", name, button),
			Board:   fmt.Sprintf("%s: press the %s button again", name, button)})
		return
	}
	d := t.notify
	who, why := "board "+t.ID, name+" pressed the "+button+" button"
	var err error
	switch e.Kind {
	case arbiter.OfferPressed:
		err = d.offerPressed(t, e.Side, who, why)
	case arbiter.ResignPressed:
		if r := t.panel.resign; r != nil && r.side == e.Side {
			t.panel.resign = nil
			err = d.resign(t, e.Side, who, why+" twice")
			break
		}
		t.panel.resign = &resignPress{side: e.Side, game: t.game.ID, at: e.At}
		t.restoreDisplay(d.sender)
	case arbiter.ClaimPressed:
		if _, ok := t.session.Position().(rules.Declarer); ok {
			_, err = d.declare(t, e.Side, who, why)
		} else {
			_, err = d.claimDraw(t, e.Side, "", who, why)
		}
	}
	switch {
	case err == nil:
	case IsBadRequest(err):
		reason := strings.TrimPrefix(err.Error(), errBadInput.Error()+": ")
		msg := fmt.Sprintf("%s's %s button: %s", name, button, reason)
		t.storeAlert(arbiter.Alert{Kind: arbiter.IrregularityAlert, Side: e.Side, At: e.At, Message: msg,
			Board: board.Fit(msg, fmt.Sprintf("%s's %s button: %s", name, button, firstClause(reason)),
				fmt.Sprintf("%s's %s button refused: see the arbiter", name, button))})
	default:
		t.log.Error("board button", "button", button, "side", e.Side, "err", err)
		t.storeAlert(arbiter.Alert{Kind: arbiter.IrregularityAlert, Side: e.Side, At: e.At,
			Message: fmt.Sprintf("%s's %s button could not be acted on: %v", name, button, err),
			Board:   fmt.Sprintf("%s's %s button failed: call the arbiter", name, button)})
	}
}

// firstClause is a reason up to its first colon: "Black is not to move"
// of "Black is not to move: only the player to move claims a draw".
func firstClause(reason string) string {
	first, _, _ := strings.Cut(reason, ": ")
	return first
}

// offerPressed: side's offer button offers a draw (jishogi in a game
// that counts a blocked game, shogi, which has no draw by agreement), or
// accepts the opponent's open offer.
// A second press by the offerer changes nothing.
func (d *Director) offerPressed(t *Table, side rules.Color, who, why string) error {
	if o := t.pendingOffer(); o != nil {
		if o.side == side {
			return nil
		}
		_, err := d.answerOffer(t, side, true, who, why)
		return err
	}
	kind := DrawOffer
	if _, ok := t.session.Position().(rules.Impasser); ok {
		kind = JishogiOffer
	}
	return d.offer(t, side, kind, who, why)
}

// standing is the text a board with a display shows when no alert is up:
// a resignation waiting to be confirmed, or the open offer; else nothing.
func (t *Table) standing() *board.Alert {
	if r := t.panel.resign; r != nil && t.game != nil && r.game == t.game.ID {
		return &board.Alert{Level: board.AlertInfo, Beep: true, Kind: "resign",
			Text: t.rgame.SideName(r.side) + ": press resign again to resign"}
	}
	if text := t.offerText(); text != "" {
		return &board.Alert{Level: board.AlertInfo, Text: text, Kind: "offer"}
	}
	return &board.Alert{Level: board.AlertClear}
}

// restoreDisplay shows the standing text after what it showed changed (an
// offer made, answered or lapsed; a resignation pressed or lapsed). An
// alert on the display stays: the standing text comes back when the alert
// is cleared.
func (t *Table) restoreDisplay(s Sender) {
	if t.panel.textUp && !t.panel.standing {
		return
	}
	if err := t.display(s, t.standing(), nil); err != nil {
		t.log.Warn("tell the board", "err", err)
	}
}

// display sends a board with a display a text (CAP_TEXT) and lit squares
// (CAP_LIGHTS), either of them nil for no change, and remembers whether
// anything is left showing, to be cleared once resolved.
func (t *Table) display(s Sender, text *board.Alert, lit *board.Lights) error {
	shows := t.showsCaps()
	if s == nil || shows == 0 {
		return nil
	}
	var errs []error
	if text != nil && shows.Has(board.CapText) {
		errs = append(errs, s.Show(t.ID, text))
	}
	if lit != nil && shows.Has(board.CapLights) {
		errs = append(errs, s.Show(t.ID, lit))
	}
	if text != nil {
		t.panel.textUp = text.Level != board.AlertClear
		t.panel.standing = t.panel.textUp && *text == *t.standing()
	}
	if lit != nil {
		t.panel.litUp = len(lit.Squares) > 0
	}
	t.shown = t.panel.textUp || t.panel.litUp
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("board %s: display: %w", t.ID, err)
	}
	return nil
}

// confirmStart tells the board that the game has started, or goes on
// after a restart: an ACK_MOVE naming no squares, whose ply is the number
// of moves already made (PROTOCOL 6, set-up confirmation). Whatever the
// display showed of the set-up or of the game before is cleared.
func (t *Table) confirmStart(s Sender, plies int) error {
	if s == nil {
		return nil
	}
	err := s.Show(t.ID, &board.AckMove{Ply: uint16(plies), From: rules.NoSquare, To: rules.NoSquare, Text: "start"})
	if err != nil {
		err = fmt.Errorf("board %s: start: %w", t.ID, err)
	}
	// A game resumed after a restart whose clocks are held has just shown
	// why (Table.apply): that stays.
	held := t.resumed && t.session.Clock() != nil && !t.notify.autoResume
	if t.shown && !held {
		err = errors.Join(err, t.display(s, t.standing(), &board.Lights{}))
	}
	return err
}
