// Package chess is orthodox chess under the FIDE Laws for the arbiter:
// FEN positions, SAN and long algebraic moves, PGN import and export with
// [%clk] clock comments, the automatic and claimable draws, and the
// flag-fall question of FIDE 6.9 ([Position.CanEverWin]).
//
// The game registers itself as "chess". Its engine, shared with Tensor
// chess, is arbiter/rules/internal/chesscore; this package adds the
// standard setup and the chess notations. Move.String is UCI long
// algebraic (e2e4, e7e8q, castling as the king's move e1g1).
package chess
