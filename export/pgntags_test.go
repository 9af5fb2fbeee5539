package export_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/export"
	"arbiter/rules/chess"
)

// TestPGNPlayerTags: a chess game's PGN carries what the tournament knows
// of its players in the standard tags (Elo, title, FIDE id), the board
// and the tournament's first day, and reads back.
func TestPGNPlayerTags(t *testing.T) {
	db, _, tours := recordsEvent(t)
	rounds, err := db.Rounds(tours[0].ID)
	require.NoError(t, err)
	var gameID uint64 // Anna Berg's game with Boris Chen
	for _, r := range rounds {
		for _, p := range r.Pairings {
			if p.First+p.Second == 3 && p.Second != 0 {
				gameID = p.GameID
			}
		}
	}
	require.NotZero(t, gameID)
	s, err := export.Load(db, "Records Open", gameID)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, s.Write(&buf, "pgn"))
	if dir := os.Getenv("ARBITER_ARTIFACTS"); dir != "" {
		// For outside readers (chess.js) run by hand.
		require.NoError(t, os.WriteFile(filepath.Join(dir, "players.pgn"), buf.Bytes(), 0o644))
	}
	imp, err := chess.ImportPGN(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	rec := imp[0].Record
	anna, boris := "White", "Black"
	if s.Game.FirstID != 1 {
		anna, boris = boris, anna
	}
	want := map[string]string{
		anna + "Elo": "2510", anna + "Title": "GM", anna + "FideId": "1503014",
		boris + "Elo": "2405", boris + "Title": "IM", boris + "FideId": "8600101",
		"Board": strconv.Itoa(s.Game.BoardNo), "EventDate": rounds[0].PairedAt.UTC().Format("2006.01.02"),
		"TimeControl": "40/5400+30:1800+30",
	}
	for name, value := range want {
		got, ok := rec.Tag(name)
		assert.True(t, ok, "tag %s", name)
		assert.Equal(t, value, got, "tag %s", name)
	}
	// Dag Eriksen has no rating: no Elo tag rather than 0.
	assert.NotContains(t, buf.String(), `Elo "0"`)
}
