package director_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/export"
	"arbiter/rules"
	"arbiter/store"
)

// boardGame is one game on a table of a two-player event, its board fed
// arbiter events as TestGamesOnTables does.
type boardGame struct {
	t   *testing.T
	d   *director.Director
	db  *store.DB
	ctx context.Context
	tbl *director.Table
	geo *rules.Geometry
	id  uint64
}

func newBoardGame(t *testing.T, game, options string) *boardGame {
	t.Helper()
	return newBoardGameWith(t, game, options, nil)
}

// newBoardGameWith is newBoardGame whose board display messages go to s.
func newBoardGameWith(t *testing.T, game, options string, s director.Sender) *boardGame {
	t.Helper()
	cfg := eventConfig(t, "swiss-dutch", 2, 1)
	cfg.Tournaments[0].Game, cfg.Tournaments[0].Options = game, options
	d, db := newEventFrom(t, cfg)
	if s != nil {
		d.SetSender(s)
	}
	tbl, err := d.AddTable(d.TournamentIDs()[0], "B1")
	require.NoError(t, err)
	ctx := run(t, d)
	require.Eventually(t, func() bool { return tbl.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond)
	rg, err := rules.New(game, mustOptions(t, options))
	require.NoError(t, err)
	return &boardGame{t: t, d: d, db: db, ctx: ctx, tbl: tbl, geo: rg.Geometry(), id: tbl.Live().GameID}
}

func mustOptions(t *testing.T, s string) rules.Options {
	o, err := rules.ParseOptions(s)
	require.NoError(t, err)
	return o
}

// from restarts the game from a position (director.RestartAt).
func (g *boardGame) from(pos string) {
	g.t.Helper()
	require.NoError(g.t, g.d.RestartAt(g.ctx, g.tbl, pos))
}

// setUp reports the board's whole state as the position shows it and
// waits for the clock to start.
func (g *boardGame) setUp() {
	g.t.Helper()
	v := g.tbl.Live().View
	require.NotNil(g.t, v)
	heights := make([]int, len(v.Squares))
	for i := range heights {
		heights[i] = len(v.Squares[g.geo.SensorSquare(i)].Stack)
	}
	g.tbl.Input(g.ctx, arbiterEvent(g.d.Now(), heights))
	require.Eventually(g.t, func() bool {
		g.tbl.Input(g.ctx, heartbeat(g.d.Now()))
		return g.tbl.Live().Clock[0].Running
	}, 5*time.Second, 50*time.Millisecond, "the clock did not start after the set-up")
}

// move plays a quiet move on the board: lift, place, press the clock.
func (g *boardGame) move(from, to string, side rules.Color) {
	g.t.Helper()
	f, ok := g.geo.Lookup(from)
	require.True(g.t, ok, from)
	to2, ok := g.geo.Lookup(to)
	require.True(g.t, ok, to)
	plies := g.tbl.Live().Plies
	now := g.d.Now()
	g.tbl.Input(g.ctx, square(now, rules.Square(g.geo.SensorIndex(f)), 0))
	g.tbl.Input(g.ctx, square(now+time.Millisecond, rules.Square(g.geo.SensorIndex(to2)), 1))
	g.tbl.Input(g.ctx, press(now+2*time.Millisecond, side))
	require.Eventually(g.t, func() bool { return g.tbl.Live().Plies == plies+1 }, 5*time.Second, 10*time.Millisecond, "the move %s-%s", from, to)
}

// result returns the stored result and reason.
func (g *boardGame) result() (string, string) {
	g.t.Helper()
	rec, err := g.db.Game(g.id)
	require.NoError(g.t, err)
	return rec.Result, rec.Reason
}

// record exports the game in format.
func (g *boardGame) record(format string) string {
	g.t.Helper()
	sheet, err := export.Load(g.db, "claims", g.id)
	require.NoError(g.t, err)
	var b strings.Builder
	require.NoError(g.t, sheet.Write(&b, format))
	return b.String()
}

// actions returns the game's audit log entries by their kind.
func (g *boardGame) actions() map[string][]store.Action {
	g.t.Helper()
	acts, err := g.db.Actions(g.id)
	require.NoError(g.t, err)
	out := map[string][]store.Action{}
	for _, a := range acts {
		out[a.What] = append(out[a.What], a)
	}
	return out
}

// shuffle plays the knights out and back: Nf3 Nf6 Ng1 Ng8 (n plies of it).
func (g *boardGame) shuffle(n int) {
	g.t.Helper()
	seq := []struct {
		from, to string
		side     rules.Color
	}{{"g1", "f3", rules.White}, {"g8", "f6", rules.Black}, {"f3", "g1", rules.White}, {"f6", "g8", rules.Black}}
	for i := range n {
		m := seq[i%4]
		g.move(m.from, m.to, m.side)
	}
}

func TestDrawOfferAcceptedAndDeclined(t *testing.T) {
	g := newBoardGame(t, "chess", "")
	g.setUp()
	g.move("e2", "e4", rules.White)

	// White offers after the move; Black declines; White offers again and
	// Black accepts.
	require.NoError(t, g.d.Offer(g.ctx, g.id, rules.White, director.DrawOffer, "chief", "White offered at the board"))
	assert.Equal(t, "White offers draw", g.tbl.Live().Offer)
	err := g.d.Offer(g.ctx, g.id, rules.Black, director.DrawOffer, "chief", "crossed")
	assert.True(t, director.IsBadRequest(err), "one offer at a time: %v", err)
	_, err = g.d.AnswerOffer(g.ctx, g.id, rules.White, true, "chief", "self")
	assert.True(t, director.IsBadRequest(err), "the offerer does not answer: %v", err)
	o, err := g.d.AnswerOffer(g.ctx, g.id, rules.Black, false, "chief", "Black said no")
	require.NoError(t, err)
	assert.False(t, o.Over())
	_, err = g.d.AnswerOffer(g.ctx, g.id, rules.Black, true, "chief", "too late")
	assert.True(t, director.IsBadRequest(err), "a declined offer is gone: %v", err)
	res, _ := g.result()
	assert.Empty(t, res)
	assert.Empty(t, g.tbl.Live().Offer)

	require.NoError(t, g.d.Offer(g.ctx, g.id, rules.White, director.DrawOffer, "chief", "again"))
	o, err = g.d.AnswerOffer(g.ctx, g.id, rules.Black, true, "deputy", "Black agreed")
	require.NoError(t, err)
	assert.Equal(t, rules.Draw(rules.Agreement), o)
	res, reason := g.result()
	assert.Equal(t, "1/2-1/2", res)
	assert.Equal(t, "agreement", reason)
	acts := g.actions()
	assert.Len(t, acts["draw-offer"], 2)
	assert.Len(t, acts["draw-decline"], 1)
	require.Len(t, acts["draw-accept"], 1)
	assert.Equal(t, "deputy", acts["draw-accept"][0].Who)
	assert.Equal(t, "Black agreed", acts["draw-accept"][0].Why)
}

// An offer made on the offerer's own turn goes with the move being made;
// the offerer's next move after it withdraws the offer (the board path:
// moves read from board events).
// FIDE 9.1.2.3: the offer stands through the offerer's own move and is
// rejected by the opponent's move.
func TestDrawOfferRejectedByTheOpponentsMove(t *testing.T) {
	g := newBoardGame(t, "chess", "")
	g.setUp()
	require.NoError(t, g.d.Offer(g.ctx, g.id, rules.White, director.DrawOffer, "chief", "offered while moving"))
	g.move("e2", "e4", rules.White) // the move the offer goes with
	assert.Empty(t, g.actions()["draw-withdrawn"], "still open after the offerer's own move")
	assert.Equal(t, "White offers draw", g.tbl.Live().Offer)
	g.move("e7", "e5", rules.Black) // the opponent moves: rejected
	assert.Empty(t, g.tbl.Live().Offer)
	_, err := g.d.AnswerOffer(g.ctx, g.id, rules.Black, true, "chief", "too late")
	assert.True(t, director.IsBadRequest(err), "the offer lapsed: %v", err)
	acts := g.actions()
	require.Len(t, acts["draw-withdrawn"], 1)
	assert.Contains(t, acts["draw-withdrawn"][0].Data, "ply 2")
	res, _ := g.result()
	assert.Empty(t, res)
}

func TestShogiHasNoDrawOffer(t *testing.T) {
	g := newBoardGame(t, "shogi", "")
	err := g.d.Offer(g.ctx, g.id, rules.First, director.DrawOffer, "chief", "draw?")
	assert.True(t, director.IsBadRequest(err), "%v", err)
	err = g.d.Offer(g.ctx, g.id, rules.First, director.JishogiOffer, "chief", "kings not entered")
	assert.True(t, director.IsBadRequest(err), "%v", err)
	assert.Empty(t, g.actions())
}

func TestRepetitionClaims(t *testing.T) {
	g := newBoardGame(t, "chess", "")
	g.setUp()
	g.shuffle(7)
	// Black writes Ng8, which makes the start position appear a third
	// time, and claims without playing it (FIDE 9.2.1.1). White may not
	// claim on Black's turn.
	_, err := g.d.ClaimDraw(g.ctx, g.id, rules.White, "", "chief", "not to move")
	assert.True(t, director.IsBadRequest(err), "%v", err)
	v, err := g.d.ClaimDraw(g.ctx, g.id, rules.Black, "", "chief", "claim now")
	require.NoError(t, err)
	assert.False(t, v.Valid, "the position after Ng1 occurred twice")
	v, err = g.d.ClaimDraw(g.ctx, g.id, rules.Black, "Ng8", "chief", "claim with the move")
	require.NoError(t, err)
	assert.True(t, v.Valid, v.Detail)
	assert.Equal(t, rules.Draw(rules.Repetition), v.Outcome)
	res, reason := g.result()
	assert.Equal(t, "1/2-1/2", res)
	assert.Equal(t, "repetition", reason)
	moves, err := g.db.Moves(g.id)
	require.NoError(t, err)
	assert.Len(t, moves, 7, "the intended move is written, not played")
	claims := g.actions()["draw-claim"]
	require.Len(t, claims, 2)
	assert.Contains(t, claims[1].Data, "intended move Ng8")
	assert.Contains(t, claims[1].Data, "threefold repetition")
	pgn := g.record("pgn")
	assert.Contains(t, pgn, `[Reason "repetition"]`)
	assert.Contains(t, pgn, `[Result "1/2-1/2"]`)
}

func TestRepetitionClaimOnTheBoard(t *testing.T) {
	g := newBoardGame(t, "chess", "")
	g.setUp()
	g.shuffle(8)
	v, err := g.d.ClaimDraw(g.ctx, g.id, rules.White, "", "chief", "third time")
	require.NoError(t, err)
	assert.True(t, v.Valid, v.Detail)
	_, reason := g.result()
	assert.Equal(t, "repetition", reason)
}

// The 50-move rule, and an incorrect claim's penalty: two minutes to the
// opponent (FIDE 9.5.3), the game going on.
func TestFiftyMoveClaimsAndPenalty(t *testing.T) {
	for _, c := range []struct {
		name, fen, intended string
		valid               bool
	}{
		{"counter at 100", "4k3/8/8/8/8/8/8/R3K3 w - - 100 80", "", true},
		{"100 with the intended move", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "Ra2", true},
		{"a pawn move resets", "4k3/8/8/8/8/8/P7/R3K3 w - - 99 80", "a3", false},
		{"98 is not enough", "4k3/8/8/8/8/8/8/R3K3 w - - 98 80", "Ra2", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newBoardGame(t, "chess", "")
			g.from(c.fen)
			before := g.tbl.Live().Clock
			v, err := g.d.ClaimDraw(g.ctx, g.id, rules.White, c.intended, "chief", c.name)
			require.NoError(t, err)
			res, reason := g.result()
			claims := g.actions()["draw-claim"]
			require.Len(t, claims, 1)
			if c.valid {
				assert.True(t, v.Valid, v.Detail)
				assert.Equal(t, "1/2-1/2", res)
				assert.Equal(t, "move-count", reason)
				assert.Contains(t, claims[0].Data, "50-move rule")
				return
			}
			assert.False(t, v.Valid)
			assert.Empty(t, res, "the game goes on")
			assert.Equal(t, 2*time.Minute, v.Penalty)
			after := g.tbl.Live().Clock
			assert.Equal(t, before[1].Millis+120000, after[1].Millis, "two minutes to Black")
			assert.Equal(t, before[0].Millis, after[0].Millis)
			assert.Contains(t, claims[0].Data, "incorrect")
			assert.Contains(t, claims[0].Data, "must be played")
			alerts, err := g.db.Alerts(true)
			require.NoError(t, err)
			require.NotEmpty(t, alerts)
			assert.Contains(t, alerts[len(alerts)-1].Message, "incorrect")
		})
	}
}

// Tavreli judges a claim with the intended move by its own rules (src
// §5.4, ClaimsWithMove) and has no penalty for an incorrect claim.
func TestTavreliClaimHasNoPenalty(t *testing.T) {
	g := newBoardGame(t, "tavreli", "")
	before := g.tbl.Live().Clock
	v, err := g.d.ClaimDraw(g.ctx, g.id, rules.First, "", "chief", "nothing to claim")
	require.NoError(t, err)
	assert.False(t, v.Valid)
	assert.Zero(t, v.Penalty)
	assert.Equal(t, before, g.tbl.Live().Clock)
}

func TestGamesWithoutClaims(t *testing.T) {
	for _, game := range []string{"shogi", "kvaa"} {
		g := newBoardGame(t, game, "")
		_, err := g.d.ClaimDraw(g.ctx, g.id, rules.First, "", "chief", "claim")
		assert.True(t, director.IsBadRequest(err), "%s: %v", game, err)
	}
}

// Both kings entered (spec T7): the 24-point count decides jishogi, by the
// players' confirmation or the arbiter's ruling; the entering-king
// declaration is judged under the game's rule.
const (
	shogiT7a = "9/3GKG3/2+PS1S+P+R1/9/9/9/2+ps1s+p2/1+b1gkg1r1/9 b B2N2L8P2n2l6p 1"
	shogiT7c = "9/3GKG3/PP+PS1S+P+RP/9/9/9/2+ps1s+p2/1+b1gkg1r1/9 b B2N2L5P2n2l6p 1"
)

func TestJishogiByAgreement(t *testing.T) {
	g := newBoardGame(t, "shogi", "")
	g.from(shogiT7a)
	require.NoError(t, g.d.Offer(g.ctx, g.id, rules.First, director.JishogiOffer, "chief", "sente proposes jishogi"))
	o, err := g.d.AnswerOffer(g.ctx, g.id, rules.Second, true, "chief", "gote confirms")
	require.NoError(t, err)
	assert.Equal(t, rules.Draw(rules.Impasse), o)
	res, reason := g.result()
	assert.Equal(t, "1/2-1/2", res)
	assert.Equal(t, "impasse", reason)
	acc := g.actions()["jishogi-accept"]
	require.Len(t, acc, 1)
	assert.Contains(t, acc[0].Data, "28 points")
	assert.Contains(t, acc[0].Data, "26 points")
	assert.Contains(t, g.record("kif"), "持将棋")
}

// In a handicap game the giver (who moved first) is counted the pieces
// left out: gote, without a rook, has 21 points on the board and 26 with
// the handicap (spec 2.10).
func TestJishogiInAHandicapGame(t *testing.T) {
	g := newBoardGame(t, "shogi", "")
	g.from("9/3GKG3/2+PS1S+P+R1/9/9/9/2+ps1s+p2/1+b1gkg3/9 w B2N2L8P2n2l6p 1")
	o, err := g.d.Jishogi(g.ctx, g.id, "chief", "no prospect of mate")
	require.NoError(t, err)
	assert.Equal(t, rules.Draw(rules.Impasse), o)
	assert.Contains(t, g.actions()["jishogi-ruling"][0].Data, "26 points")
}

func TestJishogiRuledByTheArbiter(t *testing.T) {
	g := newBoardGame(t, "shogi", "")
	g.from(shogiT7a)
	o, err := g.d.Jishogi(g.ctx, g.id, "chief", "no prospect of mate")
	require.NoError(t, err)
	assert.Equal(t, rules.Draw(rules.Impasse), o)
	require.Len(t, g.actions()["jishogi-ruling"], 1)
	_, err = g.d.Jishogi(g.ctx, g.id, "chief", "twice")
	assert.Error(t, err, "the game is over")
}

func TestEnteringKingDeclaration(t *testing.T) {
	for _, c := range []struct {
		name, options, pos string
		want               rules.Outcome
		kif                string
	}{
		{"amateur27 wins with 28", "declaration=amateur27", shogiT7c, rules.Win(rules.First, rules.Impasse), "入玉勝ち"},
		{"jsa24 draws with 28", "declaration=jsa24", shogiT7c, rules.Draw(rules.Impasse), "持将棋"},
		{"too few pieces in camp lose", "declaration=jsa24", shogiT7a, rules.Loss(rules.First, rules.DeclarationFailed), "反則負け"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newBoardGame(t, "shogi", c.options)
			g.from(c.pos)
			_, err := g.d.Declare(g.ctx, g.id, rules.Second, "chief", "not to move")
			assert.True(t, director.IsBadRequest(err), "%v", err)
			dec, err := g.d.Declare(g.ctx, g.id, rules.First, "chief", "sente declared")
			require.NoError(t, err)
			assert.Equal(t, c.want, dec.Outcome)
			res, reason := g.result()
			assert.Equal(t, c.want.Result.String(), res)
			if w, _ := c.want.Winner(); c.want.Result != rules.Drawn && w != rules.First {
				// Issue 35 §5: the result says what ended the game.
				assert.Equal(t, "declaration", reason, "a failed declaration loses by the declaration")
			} else {
				assert.Equal(t, "impasse", reason)
			}
			decl := g.actions()["declaration"]
			require.Len(t, decl, 1)
			assert.Contains(t, decl[0].Data, "points")
			assert.Contains(t, g.record("kif"), c.kif)
		})
	}
	g := newBoardGame(t, "shogi", "")
	g.from(shogiT7c)
	_, err := g.d.Declare(g.ctx, g.id, rules.First, "chief", "no rule")
	assert.True(t, director.IsBadRequest(err), "the event has no declaration rule: %v", err)
}

func TestResignGame(t *testing.T) {
	g := newBoardGame(t, "chess", "")
	g.setUp()
	g.move("e2", "e4", rules.White)
	require.NoError(t, g.d.ResignGame(g.ctx, g.id, rules.White, "chief", "White stopped the clocks and resigned"))
	res, reason := g.result()
	assert.Equal(t, "0-1", res)
	assert.Equal(t, "resignation", reason)
	r := g.actions()["resignation"]
	require.Len(t, r, 1)
	assert.Equal(t, "White stopped the clocks and resigned", r[0].Why)
	assert.Error(t, g.d.ResignGame(g.ctx, g.id, rules.Black, "chief", "twice"))
	assert.Contains(t, g.record("pgn"), `[Reason "resignation"]`)
}

// FuzzParseOfferKind: every text is refused or read back as written.
func FuzzParseOfferKind(f *testing.F) {
	for _, s := range []string{"draw", "jishogi", "", "Draw", "offer(3)", "draw "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, ok := director.ParseOfferKind(s)
		if !ok {
			assert.Zero(t, k)
			return
		}
		assert.Equal(t, s, k.String())
	})
}

// Tavreli judges claims with the intended move by its own rules (src
// §5.4, Position.ClaimsWithMove): a repetition about to occur, and a
// counter that reaches 100 with the declared move.
func TestTavreliClaimsWithTheIntendedMove(t *testing.T) {
	g := newBoardGame(t, "tavreli", "")
	g.setUp()
	g.shuffle(7)
	v, err := g.d.ClaimDraw(g.ctx, g.id, rules.Black, "f6-g8", "chief", "about to occur")
	require.NoError(t, err)
	assert.True(t, v.Valid, v.Detail)
	_, reason := g.result()
	assert.Equal(t, "repetition", reason)
	assert.Contains(t, g.record("latin"), `[Termination "repetition"]`)

	g = newBoardGame(t, "tavreli", "")
	g.from("analysis:k7/8/8/8/8/8/8/K6R w - - - 99 80")
	v, err = g.d.ClaimDraw(g.ctx, g.id, rules.White, "h1-h2", "chief", "the 100th half-move")
	require.NoError(t, err)
	assert.True(t, v.Valid, v.Detail)
	_, reason = g.result()
	assert.Equal(t, "move-count", reason)
}
