// Package tensor is Tensor chess (шахматы «Тензор»), played on a 10x8
// board with two monsters a side, as specified in
// shared/rules/tensor.md: monsters step, hop in chains and capture only
// monsters; bishops, rooks, queens and knights pass over, bounce off and
// push their own monsters; pawns jump over and push them from the start
// rank; the king castles to one of two squares on each wing.
//
// The game registers itself as "tensor". Its engine, shared with chess,
// is arbiter/rules/internal/chesscore; this package adds the Tensor setup,
// the back-rank option (D2) and the notation TLAN (section 4), including
// the canonical route of a move with several routes (4.3).
//
// Options:
//
//	backrank=RTNBQKBNTR  the back rank from file a (default; D2); the only
//	                     other value is RTNBKQBNTR (king on e, queen on f)
//
// Move.String is canonical TLAN without the check mark; FormatMove adds it.
package tensor
