package director

import (
	"context"
	"fmt"
	"strings"
	"time"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/clock"
	"arbiter/rules"
	"arbiter/store"
)

// Claims, offers and declarations at the board (issue 18 §3): what the
// players say rather than play. The engines judge them, through the
// interfaces of package rules their positions implement (rules.Claimer,
// rules.Impasser, rules.Declarer); the director checks who may say what,
// ends the game with the engine's outcome and stores the action (who
// entered it, why, what was found) before the result, so the audit log
// explains every result it leads to.

// OfferKind is what a player proposes to the opponent.
type OfferKind uint8

const (
	// DrawOffer proposes a draw by agreement (FIDE 9.1.2).
	DrawOffer OfferKind = iota + 1
	// JishogiOffer proposes jishogi, the count of a blocked game
	// (rules.Impasser; shogi spec 2.10): once the opponent confirms, the
	// count decides.
	JishogiOffer
)

// String names the kind as the console and the audit log write it.
func (k OfferKind) String() string {
	switch k {
	case DrawOffer:
		return "draw"
	case JishogiOffer:
		return "jishogi"
	}
	return fmt.Sprintf("offer(%d)", uint8(k))
}

// ParseOfferKind is the inverse of [OfferKind.String].
func ParseOfferKind(s string) (OfferKind, bool) {
	for k := DrawOffer; k <= JishogiOffer; k++ {
		if k.String() == s {
			return k, true
		}
	}
	return 0, false
}

// offer is a proposal waiting for the opponent's answer. It is owned by
// the table's goroutine.
type offer struct {
	kind OfferKind
	side rules.Color // who offered
	game uint64
	// madeWith is the ply of the offerer's move the offer goes with: the
	// move being made when the offer came on the offerer's own turn (FIDE
	// 9.1.2.2: after making the move, before pressing the clock), or the
	// offerer's last move. The offerer's next move after it withdraws the
	// offer.
	madeWith int
}

// systemWho is the audit log's name for what the daemon does by itself.
const systemWho = "daemon"

// badInput marks the arbiter's entry as not fitting the game (web: 400).
func badInput(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errBadInput, fmt.Sprintf(format, args...))
}

// running runs f on the table of a running game, not yet over.
func (d *Director) running(ctx context.Context, gameID uint64, f func(t *Table) error) error {
	t, err := d.tableOfGame(gameID)
	if err != nil {
		return err
	}
	return t.Do(ctx, func() error {
		if t.session == nil || t.game == nil || t.game.ID != gameID {
			return errNoGame
		}
		if o := t.session.Outcome(); o.Over() {
			return fmt.Errorf("game %d is already over (%s)", gameID, o)
		}
		err := f(t)
		t.refresh()
		return err
	})
}

// endBy ends the game on t with o: the action is stored first, then the
// result (FIDE and the specs: the result is the consequence of the
// recorded decision).
func (d *Director) endBy(t *Table, o rules.Outcome, detail, who, what, why, data string) error {
	outs, err := t.session.SetResult(o, t.now(), detail)
	if err != nil {
		return err
	}
	if err := d.action(t.game.ID, who, what, why, data); err != nil {
		return err
	}
	t.offer, t.panel.resign = nil, nil
	t.apply(outs)
	return nil
}

// pendingOffer returns the table's open offer for its present game.
func (t *Table) pendingOffer() *offer {
	if t.offer == nil || t.game == nil || t.offer.game != t.game.ID {
		return nil
	}
	return t.offer
}

// offerText describes the open offer for display, "" without one.
func (t *Table) offerText() string {
	o := t.pendingOffer()
	if o == nil || t.session.Outcome().Over() {
		return ""
	}
	return t.rgame.SideName(o.side) + " offers " + o.kind.String()
}

// Offer records that side proposes a draw or jishogi to the opponent.
func (d *Director) Offer(ctx context.Context, gameID uint64, side rules.Color, kind OfferKind, who, why string) error {
	return d.running(ctx, gameID, func(t *Table) error { return d.offer(t, side, kind, who, why) })
}

// offer records an offer on t's running game, on the table's goroutine.
func (d *Director) offer(t *Table, side rules.Color, kind OfferKind, who, why string) error {
	gameID := t.game.ID
	name := t.rgame.SideName(side)
	switch kind {
	case DrawOffer:
		if t.rgame.Traits().NoDrawByAgreement {
			// Shogi spec 2.12: shogi has no draw by agreement.
			return badInput("%s has no draw by agreement: propose jishogi, or the arbiter sets the result",
				t.rgame.Name())
		}
	case JishogiOffer:
		p, ok := t.session.Position().(rules.Impasser)
		if !ok {
			return badInput("jishogi is proposed only in %s, not in %s", gamesWith(impasse), t.rgame.Name())
		}
		if err := p.ImpasseReady(); err != nil {
			return badInput("%v", err)
		}
	default:
		return badInput("unknown offer %s", kind)
	}
	if o := t.pendingOffer(); o != nil {
		return badInput("%s's %s offer is open: answer it first", t.rgame.SideName(o.side), o.kind)
	}
	plies := t.session.Plies()
	madeWith := plies
	if t.session.Position().Turn() == side {
		madeWith = plies + 1
	}
	if err := d.action(gameID, who, kind.String()+"-offer", why, name+" offers "+kind.String()); err != nil {
		return err
	}
	t.offer = &offer{kind: kind, side: side, game: gameID, madeWith: madeWith}
	d.hub.Publish(Update{Kind: "offer", Table: t.ID, Game: gameID, At: d.wall(), Data: name + " offers " + kind.String()})
	t.restoreDisplay(d.sender)
	return nil
}

// AnswerOffer records the opponent's answer to the open offer: accepted,
// the game ends (a draw by agreement, or the jishogi count); declined,
// the offer is gone. It returns the outcome, which is still going for a
// declined offer.
func (d *Director) AnswerOffer(ctx context.Context, gameID uint64, side rules.Color, accept bool, who, why string) (rules.Outcome, error) {
	var out rules.Outcome
	err := d.running(ctx, gameID, func(t *Table) (err error) {
		out, err = d.answerOffer(t, side, accept, who, why)
		return err
	})
	return out, err
}

// answerOffer records side's answer to the open offer on t's running game,
// on the table's goroutine.
func (d *Director) answerOffer(t *Table, side rules.Color, accept bool, who, why string) (rules.Outcome, error) {
	var out rules.Outcome
	gameID := t.game.ID
	err := func() error {
		o := t.pendingOffer()
		if o == nil {
			return badInput("no offer is open in game %d", gameID)
		}
		if side == o.side {
			return badInput("%s made the %s offer: the opponent answers it", t.rgame.SideName(side), o.kind)
		}
		name := t.rgame.SideName(side)
		if !accept {
			if err := d.action(gameID, who, o.kind.String()+"-decline", why, name+" declines"); err != nil {
				return err
			}
			t.offer = nil
			d.hub.Publish(Update{Kind: "offer", Table: t.ID, Game: gameID, At: d.wall(), Data: name + " declines the " + o.kind.String() + " offer"})
			t.restoreDisplay(d.sender)
			return nil
		}
		switch o.kind {
		case DrawOffer:
			out = rules.Draw(rules.Agreement)
			return d.endBy(t, out, "draw agreed", who, "draw-accept", why, name+" accepts: "+out.String())
		case JishogiOffer:
			var detail string
			out, detail = jishogiCount(t)
			return d.endBy(t, out, detail, who, "jishogi-accept", why, name+" confirms; "+detail)
		}
		return badInput("unknown offer %s", o.kind)
	}()
	return out, err
}

// Jishogi applies the 24-point count by the arbiter's ruling (spec 2.10:
// "once both players have confirmed it, or once the human arbiter
// rules"), without the players' confirmation.
func (d *Director) Jishogi(ctx context.Context, gameID uint64, who, why string) (rules.Outcome, error) {
	var out rules.Outcome
	err := d.running(ctx, gameID, func(t *Table) error {
		if _, ok := t.session.Position().(rules.Impasser); !ok {
			return badInput("jishogi is ruled only in %s, not in %s", gamesWith(impasse), t.rgame.Name())
		}
		var detail string
		out, detail = jishogiCount(t)
		return d.endBy(t, out, detail, who, "jishogi-ruling", why, detail)
	})
	return out, err
}

// jishogiCount is the engine's count of t's position (rules.Impasser,
// which the caller checked), and its description for the records. In a
// handicap game the pieces the giver left out count as the giver's (shogi
// spec 2.10); the giver moved first (spec 1.5).
func jishogiCount(t *Table) (rules.Outcome, string) {
	pos := t.session.Position()
	first := pos.Turn()
	if h := t.session.History(); len(h) > 0 {
		first = h[0].Turn()
	}
	o, pts := pos.(rules.Impasser).ImpasseCount(first)
	return o, fmt.Sprintf("jishogi: %s %d points, %s %d points: %s",
		t.rgame.SideName(rules.First), pts[0], t.rgame.SideName(rules.Second), pts[1], o)
}

// Declare judges a declaration by side (rules.Declarer: shogi's entering
// king, spec 2.11): made on the declarer's own turn instead of a move,
// under the game's declaration rule. A declaration whose conditions fail
// loses; the engine's judgement is returned and stored with the action;
// the result of a failed declaration is the declarer's loss by a foul.
func (d *Director) Declare(ctx context.Context, gameID uint64, side rules.Color, who, why string) (rules.Declaration, error) {
	var dec rules.Declaration
	err := d.running(ctx, gameID, func(t *Table) (err error) {
		dec, err = d.declare(t, side, who, why)
		return err
	})
	return dec, err
}

// declare judges side's declaration on t's running game, on the table's
// goroutine.
func (d *Director) declare(t *Table, side rules.Color, who, why string) (rules.Declaration, error) {
	var dec rules.Declaration
	err := func() error {
		p, ok := t.session.Position().(rules.Declarer)
		if !ok {
			return badInput("an entering-king declaration is made only in %s, not in %s", gamesWith(declares), t.rgame.Name())
		}
		if t.session.Position().Turn() != side {
			return badInput("%s is not to move: a declaration is made on one's own turn", t.rgame.SideName(side))
		}
		var err error
		if dec, err = p.DeclareWin(); err != nil {
			return badInput("%v", err)
		}
		detail := fmt.Sprintf("%s declares (%s): %s: %s", t.rgame.SideName(side), dec.Rule, dec.Conditions, dec.Outcome)
		// A failed declaration loses by the declaration
		// (rules.DeclarationFailed), which the records write as the
		// declarer's foul (KIF 反則負け).
		return d.endBy(t, dec.Outcome, detail, who, "declaration", why, detail)
	}()
	return dec, err
}

// impasse and declares report whether a game's positions offer jishogi
// and a declaration; gamesWith names the registered games that do, for
// the messages that refuse them elsewhere.
func impasse(p rules.Position) bool  { _, ok := p.(rules.Impasser); return ok }
func declares(p rules.Position) bool { _, ok := p.(rules.Declarer); return ok }

func gamesWith(has func(rules.Position) bool) string {
	var names []string
	for _, name := range rules.Games() {
		if g, err := rules.New(name, nil); err == nil && has(g.Start()) {
			names = append(names, name)
		}
	}
	return strings.Join(names, " or ")
}

// ResignGame records that side resigned game gameID (the console's
// resign, by game rather than by table).
func (d *Director) ResignGame(ctx context.Context, gameID uint64, side rules.Color, who, why string) error {
	return d.running(ctx, gameID, func(t *Table) error { return d.resign(t, side, who, why) })
}

// resign ends the game on t by side's resignation.
func (d *Director) resign(t *Table, side rules.Color, who, why string) error {
	o := rules.Loss(side, rules.Resignation)
	name := t.rgame.SideName(side)
	return d.endBy(t, o, name+" resigned", who, "resignation", why, name+" resigned: "+o.String())
}

// ClaimVerdict is the judgement of a draw claim.
type ClaimVerdict struct {
	// Valid: the game is drawn with Outcome.
	Valid   bool
	Outcome rules.Outcome
	// Penalty is the time added to the opponent's clock for an incorrect
	// claim (FIDE 9.5.3); zero where the game has none.
	Penalty time.Duration
	// Detail says what was found, as stored in the audit log.
	Detail string
}

// withMoveClaimer is implemented by positions that judge a claim made by
// writing the intended move (rules/tavreli: src §5.4).
type withMoveClaimer interface {
	ClaimsWithMove(history []rules.Position, m rules.Move) ([]rules.Outcome, error)
}

// claimable returns the draws the side to move of pos may claim, now or
// (with an intended move) by declaring that move (FIDE 9.2.1.1, 9.3.1).
func claimable(pos rules.Position, history []rules.Position, intended rules.Move) ([]rules.Outcome, error) {
	c, ok := pos.(rules.Claimer)
	if !ok {
		return nil, nil
	}
	if intended == nil {
		return c.Claims(history), nil
	}
	if w, ok := pos.(withMoveClaimer); ok {
		return w.ClaimsWithMove(history, intended)
	}
	next, err := pos.Play(intended)
	if err != nil {
		return nil, err
	}
	out := c.Claims(history)
	after, ok := next.(rules.Claimer)
	if !ok {
		return out, nil
	}
	for _, o := range after.Claims(append(history[:len(history):len(history)], pos)) {
		if !containsOutcome(out, o) {
			out = append(out, o)
		}
	}
	return out, nil
}

func containsOutcome(os []rules.Outcome, o rules.Outcome) bool {
	for _, x := range os {
		if x == o {
			return true
		}
	}
	return false
}

// ClaimDraw judges a draw claim by side, the side to move: threefold
// repetition or the move-count rule, now or, with intended (the move
// written and not played), after it. A valid claim draws the game. An
// incorrect claim costs the claimant the game's penalty (FIDE 9.5.3: two
// minutes to the opponent) and the game goes on; with an intended move,
// that move must then be played (FIDE 9.5.2), which the action records.
func (d *Director) ClaimDraw(ctx context.Context, gameID uint64, side rules.Color, intended, who, why string) (ClaimVerdict, error) {
	var v ClaimVerdict
	err := d.running(ctx, gameID, func(t *Table) (err error) {
		v, err = d.claimDraw(t, side, intended, who, why)
		return err
	})
	return v, err
}

// claimDraw judges side's draw claim on t's running game, on the table's
// goroutine.
func (d *Director) claimDraw(t *Table, side rules.Color, intended, who, why string) (ClaimVerdict, error) {
	var v ClaimVerdict
	gameID := t.game.ID
	err := func() error {
		pos := t.session.Position()
		name := t.rgame.SideName(side)
		if _, ok := pos.(rules.Claimer); !ok {
			return badInput("%s has no draw to claim", rules.FactsOf(t.rgame.Name()).Title)
		}
		if pos.Turn() != side {
			return badInput("%s is not to move: only the player to move claims a draw", name)
		}
		var m rules.Move
		written := ""
		if intended = strings.TrimSpace(intended); intended != "" {
			var err error
			if m, err = pos.ParseMove(intended); err != nil {
				return badInput("intended move %q: %v", intended, err)
			}
			written = " with the intended move " + pos.FormatMove(m)
		}
		claims, err := claimable(pos, t.session.History(), m)
		if err != nil {
			return fmt.Errorf("judge the claim: %w", err)
		}
		if len(claims) > 0 {
			v = ClaimVerdict{Valid: true, Outcome: claims[0]}
			v.Detail = fmt.Sprintf("%s claims a draw%s: valid, %s", name, written, claimWord(claims[0].Reason))
			return d.endBy(t, v.Outcome, v.Detail, who, "draw-claim", why, v.Detail)
		}
		v.Penalty = t.rgame.Traits().ClaimPenalty
		v.Detail = fmt.Sprintf("%s claims a draw%s: incorrect, the game goes on", name, written)
		if v.Penalty > 0 {
			if c := t.session.Clock(); c != nil {
				if err := c.AddTime(clock.Side(side.Other()), v.Penalty); err != nil {
					return fmt.Errorf("penalty for an incorrect claim: %w", err)
				}
				v.Detail += fmt.Sprintf("; %s added to %s's clock", v.Penalty, t.rgame.SideName(side.Other()))
				if err := displayClock(d.sender, t.ID, c, t.now()); err != nil {
					t.log.Warn("send clock to board", "err", err)
				}
			} else {
				v.Penalty = 0
			}
		}
		if m != nil {
			v.Detail += "; the intended move " + pos.FormatMove(m) + " must be played"
		}
		if err := d.action(gameID, who, "draw-claim", why, v.Detail); err != nil {
			return err
		}
		shown := board.Fit(v.Detail, name+"'s draw claim is incorrect")
		if v.Penalty > 0 {
			shown = board.Fit(v.Detail, fmt.Sprintf("%s's claim incorrect: %s to %s", name, v.Penalty, t.rgame.SideName(side.Other())),
				name+"'s draw claim is incorrect")
		}
		t.storeAlert(arbiter.Alert{Kind: arbiter.IrregularityAlert, Side: side, At: t.now(), Message: v.Detail, Board: shown})
		return nil
	}()
	return v, err
}

// claimWord names a claimed draw's reason as players say it.
func claimWord(r rules.Reason) string {
	switch r {
	case rules.Repetition:
		return "threefold repetition"
	case rules.MoveCountRule:
		return "the 50-move rule"
	}
	return r.String()
}

// moveStored ends an open offer when the opponent moves after the move the
// offer went with: by FIDE 9.1.2.3 a move rejects the offer. Called on the
// table's goroutine for every stored move.
func (t *Table) moveStored(m arbiter.MoveMade) {
	o := t.pendingOffer()
	if o == nil || m.Side == o.side || m.Ply <= o.madeWith {
		return
	}
	t.offer = nil
	opp := t.rgame.SideName(m.Side)
	msg := fmt.Sprintf("%s's %s offer lapsed: %s moved (ply %d) and so rejected it", t.rgame.SideName(o.side), o.kind, opp, m.Ply)
	a := &store.Action{GameID: t.game.ID, Who: systemWho, What: o.kind.String() + "-withdrawn", Why: "rejected by the opponent's move (FIDE 9.1.2.3)", Data: msg, At: t.wall()}
	if err := t.db.AddAction(a); err != nil {
		t.log.Error("store the lapsed offer", "game", t.game.ID, "err", err)
	}
	t.hub.Publish(Update{Kind: "offer", Table: t.ID, Game: t.game.ID, At: t.wall(), Data: msg})
	t.restoreDisplay(t.notify.sender)
}
