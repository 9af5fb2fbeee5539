package chesscore

// MoveKind says how a move changes the board beyond lifting the piece on
// From and putting it on To.
type MoveKind uint8

// The move kinds.
const (
	// Normal: the piece on From goes to To, capturing what stands there.
	// Covers steps, slides (passing over own monsters), bounces, leaps,
	// pawn double steps and pawn jumps, monster steps and hop chains.
	Normal MoveKind = iota
	// EnPassant: a pawn captures the pawn beside it that just double-stepped.
	EnPassant
	// Castle: the king goes From to To; the rook on Aux goes beside it.
	Castle
	// Push: the piece on From goes to To, where its own monster stood; the
	// monster goes to Aux.
	Push
	// MonsterCapture: the monster on From hops to To (possibly From itself)
	// and removes the enemy monster on Aux.
	MonsterCapture
)

// Move is the engine's compact move: the effect of a move, not its route
// (a bounce and a straight slide to the same square are the same Move).
// Cells are mailbox cells of the board's [Config].
type Move struct {
	From, To uint8
	// Aux is the castling rook's cell, the pushed monster's destination, or
	// the captured monster's cell, by Kind.
	Aux   uint8
	Kind  MoveKind
	Promo Kind // promotion choice, NoKind if none
}

// maxMovesGuess sizes move buffers; Tensor positions may exceed it, and
// buffers then grow by append.
const maxMovesGuess = 256

// Undo holds what [Board.Make] needs to restore for [Board.Unmake].
type Undo struct {
	captured Piece
	castle   uint8
	ep       uint8
	halfmove int
}
