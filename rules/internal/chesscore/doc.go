// Package chesscore is the engine shared by the chess family of games:
// orthodox chess and Tensor chess. It holds a padded mailbox board of any
// size up to 10x8, make/unmake, one move generator, attack detection,
// castling with configurable variants, en passant, promotion, the draw
// rules, FEN, and the PGN record that both games export.
//
// Tensor's monster (kind T) is an optional piece of this engine: it is the
// only piece whose presence changes how the others move (passing over,
// bouncing, pushing), so those extensions live in the one generator and
// cost orthodox chess a single comparison per square walked. Positions
// without monsters use a pin-based legality test; positions with monsters
// test every move by make/unmake, because bounce lines make pins irregular.
package chesscore
