package chess

import (
	"fmt"
	"io"
	"time"

	"arbiter/rules"
	"arbiter/rules/internal/chesscore"
)

// Record is a game score: tags, moves as SAN with clock readings, result.
// Tensor chess uses the same type.
type Record = chesscore.Record

// RecordMove is one move of a Record.
type RecordMove = chesscore.RecordMove

// Tag is one PGN tag pair.
type Tag = chesscore.Tag

// NewRecord scores moves played from start in SAN, with the mover's
// remaining time after each move when clocks is not nil. It sets SetUp and
// FEN for a start other than the initial position; the caller sets the
// Seven Tag Roster, TimeControl, Termination ([Termination]) and Result.
func NewRecord(start *Position, moves []rules.Move, clocks []time.Duration) (*Record, error) {
	return chesscore.NewRecord(start, moves, clocks, "")
}

// Termination returns the PGN Termination tag value for an outcome.
func Termination(o rules.Outcome) string { return chesscore.Termination(o) }

// Imported is one game read from PGN: the record, its start position, the
// moves and the position after each move.
type Imported = chesscore.Imported

// ImportPGN reads every game of a PGN text and checks its moves. Errors
// name the game, the line and column, and the move text.
func ImportPGN(r io.Reader) ([]Imported, error) {
	return chesscore.ImportPGN(r, func(rec *Record) error {
		if v, ok := rec.Tag("Variant"); ok && v != "" && v != "Standard" && v != "chess" {
			return fmt.Errorf("variant %q is not chess", v)
		}
		return nil
	}, Start(), ParseFEN)
}

// WritePGN writes r in PGN export format.
func WritePGN(w io.Writer, r *Record) error { return r.WritePGN(w) }
