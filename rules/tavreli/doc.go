// Package tavreli implements Tavreli, Russian chess with towers, as
// specified in /work/shared/rules/tavreli.md (version 1.1).
//
// Pieces are never removed: a group of the top k pieces of a stack moves by
// the rules of its top piece and lands on top of whatever stands on the
// destination. Only top pieces move and attack; pieces of the other colour
// under a top piece are captives, freed when they become the top again.
// Ratniki (pawns) carry a mark, the piece they promote into; promotion
// happens whenever an unpromoted Ratnik is the top piece on its last rank,
// and a promoted Ratnik is demoted the moment it becomes a captive.
//
// # Layers
//
// [Board] is the fast, mutable engine state: piece-linked stacks (per
// square the top piece and height, per piece the piece below), incremental
// Zobrist hashing, allocation-free legal move generation into caller
// buffers ([Board.GenerateLegal]), make/unmake ([Board.Make],
// [Board.Unmake]) and a bulk-counting [Board.Perft]. [Position] wraps a
// Board as an immutable [rules.Position] (also a [rules.Claimer] and a
// [rules.Perfter]), and [Game] is the [rules.Game] registered as
// "tavreli".
//
// # Text formats
//
// Positions are TFEN ([ParseTFEN], [Board.TFEN]) in game mode (a real
// game: 16 pieces a side with the full inventory) or analysis mode
// (composed positions, D29). [Game.ParsePosition] reads game mode; a TFEN
// prefixed with "analysis:" ([AnalysisPrefix]) is read in analysis mode.
//
// Moves are written in the notation of spec section 4 in Latin or
// Cyrillic letters ([FormatMove], [Reader.ParseMove]); [Move.String] is the
// position-independent machine form ("e2e4", "(2)d4d8", castling "e1g1"),
// which [Position.ParseMove] also accepts. Whole game records are read with
// [ParseGame] and written with [Record.Format]. The reader takes what a
// move is from the position (origin, destination, count) and only checks
// the punctuation against it, so real scoresheets with a dash for a tower,
// a trailing x, annotation glyphs or a wrong check mark still read, with
// warnings ([Reader.Strict] rejects them instead).
//
// One choice beyond the spec: a single move read with no record around it
// and no declared alphabet, whose file letters are all look-alikes of one
// script ("e2-e4" in Latin letters, "е2-е4" in Cyrillic ones), is read in
// that script. Spec 4.4 rejects such records as ambiguous, and
// [ParseGame] does; a single Latin "e2-e4" typed at the arbiter console is
// not ambiguous in practice. A mix of scripts is always rejected.
//
// # Decisions and options
//
// The spec's decisions (D1..D30) are cited by number where the code
// implements them. The configurable ones:
//   - D1, the initial array: [DefaultArray], option "array" (e.g.
//     "RNBQKBNR").
//   - D3, the alphabet of written notation: option "alphabet" (latin,
//     cyrillic); reading detects it.
//   - D22 and 4.3, lenient or strict reading: option "notation".
//   - D25, D26: [RepetitionCount] and [MoveCountLimit], draws on claim
//     ([Position.Claims], [Position.ClaimsWithMove]).
//   - D28, automatic draws: option "autodraw" (off by default) with
//     [AutoRepetitionCount] and [AutoMoveCountLimit].
//
// Draws by agreement and wins by resignation are set by the arbiter with
// [rules.Agreement] and [rules.Resignation]; [Position.Outcome] reports
// checkmate and stalemate. [Position.Effects] lists the invisible
// consequences of a move (promotions, demotions, liberations) for the
// arbiter to announce, and [Position.FirstPartView] the board after the
// first part of castling or en passant (D20).
package tavreli
