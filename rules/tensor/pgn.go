package tensor

import (
	"fmt"
	"io"
	"strings"
	"time"

	"arbiter/rules"
	"arbiter/rules/internal/chesscore"
)

// Record is a game score shared with chess: tags, moves in TLAN with
// clock readings, result.
type Record = chesscore.Record

// NewRecord scores moves played from start in canonical TLAN with check
// marks, with the mover's remaining time after each move when clocks is
// not nil. It always sets Variant "Tensor", SetUp "1" and the FEN of the
// start (4.3 rule 6); the caller sets the Seven Tag Roster, TimeControl,
// Termination and Result.
func NewRecord(start *Position, moves []rules.Move, clocks []time.Duration) (*Record, error) {
	return chesscore.NewRecord(start, moves, clocks, "Tensor")
}

// Imported is one game read from PGN: the record, its start position, the
// moves and the position after each move.
type Imported = chesscore.Imported

// ImportPGN reads every game of a PGN text of Tensor games (Variant
// "Tensor") and checks their moves. Errors name the game, the line and
// column, and the move text.
func (g *Game) ImportPGN(r io.Reader) ([]Imported, error) {
	return chesscore.ImportPGN(r, func(rec *Record) error {
		if v, ok := rec.Tag("Variant"); !ok || !strings.EqualFold(v, "Tensor") {
			//lint:ignore ST1005 the message starts with the tag's name
			return fmt.Errorf("Variant tag %q, want \"Tensor\"", v)
		}
		return nil
	}, g.StartPosition(), g.ParseFEN)
}
