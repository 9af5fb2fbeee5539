package export_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/export"
)

// TestReadGamesRoundTrip: every record format of every game reads back,
// through ReadGames, to the stored game: its moves, result, players,
// round and board, and the times the format carries.
func TestReadGamesRoundTrip(t *testing.T) {
	f := newFixture(t)
	for _, c := range cases {
		s := f.sheet(t, c.game)
		for _, format := range export.Formats(c.game) {
			t.Run(c.game+"/"+format.Name, func(t *testing.T) {
				var buf bytes.Buffer
				require.NoError(t, s.Write(&buf, format.Name))
				games, _, err := export.ReadGames("x."+format.Ext, buf.Bytes(), s.Game.Options)
				require.NoError(t, err)
				require.Len(t, games, 1)
				g := games[0]
				assert.Equal(t, c.game, g.Game.Game)
				assert.Equal(t, canonical(s.Moves), canonical(g.Moves))
				assert.Equal(t, s.Game.Result, g.Game.Result)
				assert.Equal(t, s.Game.Reason, g.Game.Reason)
				assert.Equal(t, evilFirst, g.Game.First)
				second := evilSecond
				if c.game == "kvaa" {
					second = strings.ReplaceAll(second, `"`, "'") // Kvaa tags hold no quotes
				}
				assert.Equal(t, second, g.Game.Second)
				if format.Name != "csa" && format.Name != "ki2" {
					assert.Equal(t, 1, g.Round)
				}
				for i, m := range g.Moves {
					assert.Equal(t, s.Moves[i].Notation, m.Notation, "move %d", i+1)
					switch c.game {
					case "shogi":
						if format.Name != "ki2" {
							assert.Equal(t, s.Moves[i].Used.Truncate(time.Second), m.Used, "time of move %d", i+1)
						}
					case "tensor":
					default:
						want := s.Moves[i].ClockFirst
						got := m.ClockFirst
						if i%2 == 1 {
							want, got = s.Moves[i].ClockSecond, m.ClockSecond
						}
						assert.InDelta(t, want, got, float64(time.Second), "clock after move %d", i+1)
					}
				}
			})
		}
	}
}

// TestReadGamesBadMove: the first move that is not legal is named with
// the file, the game, its number and its text.
func TestReadGamesBadMove(t *testing.T) {
	pgn := "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n"
	_, _, err := export.ReadGames("round.pgn", []byte(pgn), "")
	require.Error(t, err)
	for _, want := range []string{"round.pgn", "game 2", "Ke3"} {
		assert.Contains(t, err.Error(), want)
	}
	_, _, err = export.ReadGames("notes.txt", []byte(pgn), "")
	assert.ErrorIs(t, err, export.ErrRecordFormat)
	var sb strings.Builder
	sb.WriteString("#KIF version=2.0 encoding=UTF-8\n手合割：平手\n手数----指手---------消費時間--\n")
	sb.WriteString("   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ５五角(22)   ( 0:01/00:00:01)\n")
	_, _, err = export.ReadGames(filepath.Join("dir", "g.kif"), []byte(sb.String()), "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "g.kif")
	assert.Contains(t, err.Error(), "game 1")
	t.Log(err)
}

// TestImportedWithoutClocks: a record with a time control but no clock
// readings is written back without made-up [%clk 0:00:00] comments.
func TestImportedWithoutClocks(t *testing.T) {
	pgn := "[White \"A\"]\n[Black \"B\"]\n[TimeControl \"300+2\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"
	games, _, err := export.ReadGames("g.pgn", []byte(pgn), "")
	require.NoError(t, err)
	s := &export.Sheet{Game: games[0].Game, Moves: games[0].Moves}
	s.Game.ID = 1
	var buf bytes.Buffer
	require.NoError(t, s.Write(&buf, "pgn"))
	assert.NotContains(t, buf.String(), "%clk")
	assert.Contains(t, buf.String(), `[TimeControl "300+2"]`)
	assert.Contains(t, buf.String(), `[Reason "checkmate"]`)
}
