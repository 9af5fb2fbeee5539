package director_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/rules"
	"arbiter/rules/shogi"
)

// Issue 35 §3: the arbiter gives one pairing a handicap (駒落ち) before its
// game begins: the game starts again from the handicap's position, the
// giver (gote) to move, which the set-up check expects; the change is
// audited, and a game begun keeps its handicap.
func TestSetHandicap(t *testing.T) {
	g := newBoardGame(t, "shogi", "")
	lance, _ := shogi.ParseHandicap("lance")
	require.NoError(t, g.d.SetHandicap(g.ctx, g.id, "香落ち", "chief", "teaching game: lance handicap"))
	l := g.tbl.Live()
	assert.Equal(t, lance.SFEN, l.Position)
	assert.Equal(t, "gote", l.Turn)
	rec, err := g.db.Game(g.id)
	require.NoError(t, err)
	assert.Contains(t, rec.Options, "handicap=lance")
	acts := g.actions()["handicap"]
	require.Len(t, acts, 1)
	assert.Contains(t, acts[0].Data, "lance (香落ち), given by B <Player>")

	// The board shows the handicap's position: the game starts, and the
	// giver moves first (5a4b).
	g.setUp()
	g.move("e1", "f2", rules.Second)
	err = g.d.SetHandicap(g.ctx, g.id, "none", "chief", "too late")
	assert.True(t, director.IsBadRequest(err), "a game begun keeps its handicap: %v", err)
	assert.ErrorContains(t, err, "has begun")

	c := newBoardGame(t, "chess", "")
	err = c.d.SetHandicap(c.ctx, c.id, "lance", "chief", "no handicaps in chess")
	assert.True(t, director.IsBadRequest(err), "%v", err)
	s := newBoardGame(t, "shogi", "")
	err = s.d.SetHandicap(s.ctx, s.id, "queen", "chief", "unknown handicap")
	assert.True(t, director.IsBadRequest(err), "%v", err)
	assert.Empty(t, s.actions()["handicap"], "a refused change is not audited")
}

// A tournament's handicap (options: handicap=2-piece) is every game's: the
// set-up check expects the handicap's position, the even one is not it.
func TestHandicapTournament(t *testing.T) {
	g := newBoardGame(t, "shogi", "handicap=2-piece")
	two, _ := shogi.ParseHandicap("二枚落ち")
	assert.Equal(t, two.SFEN, g.tbl.Live().Position)
	g.setUp()
	g.move("e1", "f2", rules.Second)
	rec, err := g.db.Game(g.id)
	require.NoError(t, err)
	assert.Contains(t, rec.Options, "handicap=2-piece")
	assert.Contains(t, g.record("kif"), "手合割：二枚落ち")
	assert.Contains(t, g.record("kif"), "上手：B <Player>")
}
