package director_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/rules"
)

// newPanelGame is a game on board B1, which shows texts and lights; what
// the director sends it is recorded.
func newPanelGame(t *testing.T, game, options string) (*boardGame, *recorder) {
	t.Helper()
	rec := &recorder{}
	g := newBoardGameWith(t, game, options, rec)
	g.d.BoardEvent(g.ctx, board.Event{Kind: board.EventHello, Board: "B1",
		Info: &board.Info{ID: "B1", Caps: board.CapHeight | board.CapText | board.CapLights}})
	return g, rec
}

// button presses a board button (PROTOCOL 5.4) at instant at and waits
// until the table has dealt with it.
func (g *boardGame) button(kind arbiter.EventKind, side rules.Color, at time.Duration) {
	g.t.Helper()
	g.tbl.Input(g.ctx, arbiter.Event{Kind: kind, Side: side, At: at})
	g.settle()
}

// settle waits until the table has handled every event given to it.
func (g *boardGame) settle() {
	g.t.Helper()
	require.NoError(g.t, g.tbl.Drain(g.ctx))
}

// shown is the last text and the last lights sent to the board.
func (r *recorder) shown() (text *board.Alert, lit *board.Lights) {
	for _, m := range r.messages() {
		switch m := m.(type) {
		case *board.Alert:
			text = m
		case *board.Lights:
			lit = m
		}
	}
	return text, lit
}

func TestBoardDrawOfferAccepted(t *testing.T) {
	g, rec := newPanelGame(t, "chess", "")
	g.setUp()
	g.move("e2", "e4", rules.White)
	now := g.d.Now()
	g.button(arbiter.OfferPressed, rules.White, now)
	assert.Equal(t, "White offers draw", g.tbl.Live().Offer)
	text, _ := rec.shown()
	require.NotNil(t, text)
	assert.Equal(t, board.Alert{Level: board.AlertInfo, Text: "White offers draw", Kind: "offer"}, *text, "the offer is shown, with its kind for small displays")
	g.button(arbiter.OfferPressed, rules.White, now+time.Millisecond) // a second press by the offerer: nothing new
	res, _ := g.result()
	assert.Empty(t, res)

	g.button(arbiter.OfferPressed, rules.Black, now+2*time.Millisecond)
	res, reason := g.result()
	assert.Equal(t, "1/2-1/2", res)
	assert.Equal(t, "agreement", reason)
	acts := g.actions()
	require.Len(t, acts["draw-offer"], 1)
	require.Len(t, acts["draw-accept"], 1)
	assert.Equal(t, "board B1", acts["draw-accept"][0].Who)
	assert.Equal(t, "Black pressed the offer button", acts["draw-accept"][0].Why)
	text, _ = rec.shown()
	assert.Equal(t, board.AlertInfo, text.Level)
	assert.Contains(t, text.Text, "1/2-1/2", "the result is shown")
	assert.Equal(t, "result", text.Kind)
}

// An offer shown on the board stays through the offerer's own move and is
// cleared when the opponent's move rejects it (FIDE 9.1.2.3).
func TestBoardOfferShownUntilRejected(t *testing.T) {
	g, rec := newPanelGame(t, "chess", "")
	g.setUp()
	g.button(arbiter.OfferPressed, rules.White, g.d.Now())
	g.move("e2", "e4", rules.White)
	g.settle()
	text, _ := rec.shown()
	assert.Equal(t, "White offers draw", text.Text, "still open after the offerer's move")
	g.move("e7", "e5", rules.Black)
	g.settle()
	text, _ = rec.shown()
	assert.Equal(t, board.AlertClear, text.Level, "the lapsed offer is cleared")
	assert.Len(t, g.actions()["draw-withdrawn"], 1)
}

// A declined offer (at the console) is cleared from the board.
func TestBoardOfferClearedWhenDeclined(t *testing.T) {
	g, rec := newPanelGame(t, "chess", "")
	g.setUp()
	g.button(arbiter.OfferPressed, rules.White, g.d.Now())
	_, err := g.d.AnswerOffer(g.ctx, g.id, rules.Black, false, "chief", "Black said no")
	require.NoError(t, err)
	text, _ := rec.shown()
	assert.Equal(t, board.AlertClear, text.Level)
}

// A resignation is confirmed by a second press within
// board.ResignConfirm; a lone press lapses, and the board's prompt
// with it.
func TestBoardResignNeedsConfirmation(t *testing.T) {
	g, rec := newPanelGame(t, "chess", "")
	g.setUp()
	g.move("e2", "e4", rules.White)
	now := g.d.Now()
	g.button(arbiter.ResignPressed, rules.Black, now)
	res, _ := g.result()
	assert.Empty(t, res, "one press does not resign")
	text, _ := rec.shown()
	assert.Equal(t, "Black: press resign again to resign", text.Text)
	assert.Equal(t, "resign", text.Kind)

	// Past the window: the prompt is cleared, and the next press is a
	// first press again.
	later := now + board.ResignConfirm + time.Second
	g.tbl.Input(g.ctx, heartbeat(later))
	g.settle()
	text, _ = rec.shown()
	assert.Equal(t, board.AlertClear, text.Level, "the lapsed prompt is cleared")
	g.button(arbiter.ResignPressed, rules.Black, later+time.Millisecond)
	res, _ = g.result()
	assert.Empty(t, res, "a press after the window is a first press")
	g.button(arbiter.ResignPressed, rules.White, later+2*time.Millisecond)
	res, _ = g.result()
	assert.Empty(t, res, "the opponent's press confirms nothing")

	g.button(arbiter.ResignPressed, rules.White, later+3*time.Second)
	res, reason := g.result()
	assert.Equal(t, "0-1", res)
	assert.Equal(t, "resignation", reason)
	r := g.actions()["resignation"]
	require.Len(t, r, 1)
	assert.Equal(t, "board B1", r[0].Who)
	assert.Equal(t, "White pressed the resign button twice", r[0].Why)
}

// An incorrect claim at the board costs the claimant the FIDE penalty (two
// minutes to the opponent) and the game goes on; the board is told. A
// claim by the player not to move is refused, with the reason.
func TestBoardClaimIncorrect(t *testing.T) {
	g, rec := newPanelGame(t, "chess", "")
	g.setUp()
	before := g.tbl.Live().Clock
	g.button(arbiter.ClaimPressed, rules.Black, g.d.Now())
	assert.Empty(t, g.actions()["draw-claim"], "Black is not to move")
	text, _ := rec.shown()
	assert.Equal(t, board.AlertWarning, text.Level)
	assert.Contains(t, text.Text, "Black's claim button: Black is not to move")

	g.button(arbiter.ClaimPressed, rules.White, g.d.Now())
	res, _ := g.result()
	assert.Empty(t, res, "the game goes on")
	claims := g.actions()["draw-claim"]
	require.Len(t, claims, 1)
	assert.Equal(t, "board B1", claims[0].Who)
	assert.Contains(t, claims[0].Data, "incorrect")
	after := g.tbl.Live().Clock
	assert.InDelta(t, before[1].Millis+120000, after[1].Millis, 1000, "two minutes to Black")
	text, _ = rec.shown()
	assert.Contains(t, text.Text, "incorrect")
	var clk *board.Clock
	for _, m := range rec.messages() {
		if c, ok := m.(*board.Clock); ok {
			clk = c
		}
	}
	require.NotNil(t, clk)
	assert.InDelta(t, after[1].Millis, int64(clk.Second), 1000, "the board shows the penalty")
}

// A valid claim at the board draws the game: threefold repetition.
func TestBoardClaimRepetition(t *testing.T) {
	g, _ := newPanelGame(t, "chess", "")
	g.setUp()
	g.shuffle(8)
	g.button(arbiter.ClaimPressed, rules.White, g.d.Now())
	res, reason := g.result()
	assert.Equal(t, "1/2-1/2", res)
	assert.Equal(t, "repetition", reason)
}

// In shogi the claim button declares an entering king, and the offer
// button proposes jishogi (shogi has no draw by agreement).
func TestBoardShogiDeclarationAndJishogi(t *testing.T) {
	g, _ := newPanelGame(t, "shogi", "declaration=amateur27")
	g.from(shogiT7c)
	g.button(arbiter.ClaimPressed, rules.First, g.d.Now())
	res, reason := g.result()
	assert.Equal(t, "1-0", res)
	assert.Equal(t, "impasse", reason)
	require.Len(t, g.actions()["declaration"], 1)

	g, _ = newPanelGame(t, "shogi", "")
	g.from(shogiT7a)
	g.button(arbiter.OfferPressed, rules.First, g.d.Now())
	g.button(arbiter.OfferPressed, rules.Second, g.d.Now())
	res, reason = g.result()
	assert.Equal(t, "1/2-1/2", res)
	assert.Equal(t, "impasse", reason)
	require.Len(t, g.actions()["jishogi-accept"], 1)
}

// A press recovered from a dump's counters is not acted on: the player is
// asked to press again.
func TestBoardRecoveredPressNotActedOn(t *testing.T) {
	g, _ := newPanelGame(t, "chess", "")
	g.setUp()
	for range 2 {
		g.tbl.Input(g.ctx, arbiter.Event{Kind: arbiter.ResignPressed, Side: rules.White, At: g.d.Now(), Recovered: true})
	}
	g.settle()
	res, _ := g.result()
	assert.Empty(t, res)
	alerts, err := g.db.Alerts(true)
	require.NoError(t, err)
	require.NotEmpty(t, alerts)
	assert.Contains(t, alerts[len(alerts)-1].Message, "press it again")
}

// The board learns that the game started (set-up confirmation, PROTOCOL
// 6): an ACK_MOVE naming no squares, at ply 0.
func TestBoardToldTheGameStarted(t *testing.T) {
	g, rec := newPanelGame(t, "chess", "")
	g.setUp()
	g.settle()
	var acks []board.AckMove
	for _, m := range rec.messages() {
		if a, ok := m.(*board.AckMove); ok {
			acks = append(acks, *a)
		}
	}
	require.NotEmpty(t, acks)
	assert.Equal(t, board.AckMove{Ply: 0, From: rules.NoSquare, To: rules.NoSquare, Text: "start"}, acks[0])
}

// What the board showed before the game started (here an arbiter call
// during the set-up) is cleared when it starts.
func TestBoardDisplayClearedAtTheStart(t *testing.T) {
	g, rec := newPanelGame(t, "chess", "")
	g.button(arbiter.ArbiterCalled, rules.White, g.d.Now())
	text, _ := rec.shown()
	require.NotNil(t, text)
	assert.Equal(t, "White calls the arbiter", text.Text)
	assert.Equal(t, "arbiter-call", text.Kind)
	g.setUp()
	g.settle()
	text, lit := rec.shown()
	assert.Equal(t, board.AlertClear, text.Level)
	require.NotNil(t, lit)
	assert.Empty(t, lit.Squares)
}

// The link's own alerts are for the arbiter: a board shown "the board
// stopped answering" would keep showing it once the link is back.
func TestBoardNotToldOfItsLink(t *testing.T) {
	g, rec := newPanelGame(t, "chess", "")
	g.setUp()
	g.tbl.Input(g.ctx, arbiter.Event{Kind: arbiter.LinkLost, At: g.d.Now()})
	g.tbl.Input(g.ctx, arbiter.Event{Kind: arbiter.LinkRestored, At: g.d.Now()})
	g.settle()
	alerts, err := g.db.Alerts(true)
	require.NoError(t, err)
	require.NotEmpty(t, alerts)
	assert.Equal(t, "link", alerts[len(alerts)-1].Kind, "the arbiter is told")
	for _, m := range rec.messages() {
		if a, ok := m.(*board.Alert); ok {
			assert.NotContains(t, a.Text, "stopped answering")
		}
	}
}

// The squares of ACK_MOVE (PROTOCOL 6.0): castling names the king's
// squares, en passant the capturing pawn's.
func TestAckMoveSquares(t *testing.T) {
	for _, c := range []struct {
		name, fen string
		lift      []string
		place     string
		place2    [2]string // a second placement (the castling rook), if any
		from, to  string
	}{
		{"castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"e1", "h1"}, "g1", [2]string{"f1"}, "e1", "g1"},
		{"en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", []string{"e5", "d5"}, "d6", [2]string{}, "e5", "d6"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, rec := newPanelGame(t, "chess", "")
			g.from(c.fen)
			g.setUp()
			sensor := func(name string) rules.Square {
				sq, ok := g.geo.Lookup(name)
				require.True(t, ok, name)
				return rules.Square(g.geo.SensorIndex(sq))
			}
			now := g.d.Now()
			for i, name := range c.lift {
				g.tbl.Input(g.ctx, square(now+time.Duration(i)*time.Millisecond, sensor(name), 0))
			}
			g.tbl.Input(g.ctx, square(now+5*time.Millisecond, sensor(c.place), 1))
			if c.place2[0] != "" {
				g.tbl.Input(g.ctx, square(now+6*time.Millisecond, sensor(c.place2[0]), 1))
			}
			g.tbl.Input(g.ctx, press(now+7*time.Millisecond, rules.White))
			require.Eventually(t, func() bool { return g.tbl.Live().Plies == 1 }, 5*time.Second, 10*time.Millisecond)
			g.settle()
			var ack *board.AckMove
			for _, m := range rec.messages() {
				if a, ok := m.(*board.AckMove); ok {
					ack = a
				}
			}
			require.NotNil(t, ack)
			assert.Equal(t, uint16(1), ack.Ply)
			assert.Equal(t, sensor(c.from), ack.From)
			assert.Equal(t, sensor(c.to), ack.To)
		})
	}
}

// Every text a board with a display is sent is written for it (issue 35
// §5): at most board.MaxText bytes, shorter rather than cut. An incorrect
// claim with its intended move written, whose audit reads "White claims a
// draw with the intended move Nf3: incorrect, the game goes on; 2m0s
// added to Black's clock", shows its penalty whole on the board.
func TestBoardTextsFit(t *testing.T) {
	g, rec := newPanelGame(t, "chess", "")
	g.setUp()
	_, err := g.d.ClaimDraw(g.ctx, g.id, rules.White, "g1f3", "chief", "claimed with the move written")
	require.NoError(t, err)
	g.settle()
	claims := g.actions()["draw-claim"]
	require.Len(t, claims, 1)
	require.Greater(t, len(claims[0].Data), board.MaxText, "the audit's text is the long one")
	text, _ := rec.shown()
	assert.Equal(t, "White's claim incorrect: 2m0s to Black", text.Text)
	// Black, not to move, presses the claim button: the reason fits.
	g.button(arbiter.ClaimPressed, rules.Black, g.d.Now())
	text, _ = rec.shown()
	assert.Equal(t, "Black's claim button: Black is not to move", text.Text)
	for _, m := range rec.messages() {
		switch m := m.(type) {
		case *board.Alert:
			assert.LessOrEqual(t, len(m.Text), board.MaxText, "%q", m.Text)
		case *board.AckMove:
			assert.LessOrEqual(t, len(m.Text), board.MaxText, "%q", m.Text)
		}
	}
}
