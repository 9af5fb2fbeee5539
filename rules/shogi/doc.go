// Package shogi implements the rules of shogi (hon-shōgi) for the arbiter,
// as specified in shared/rules/shogi.md: legal moves and drops with nifu,
// dead pieces and uchifuzume, check and mate, sennichite with the
// perpetual-check exception, jishogi by the 24-point count and the optional
// entering-king declarations, and the record formats SFEN, USI, KIF, KI2 and
// CSA.
//
// Two layers live here. [Board] is the fast, mutable engine: make and unmake,
// allocation-free legal move generation into caller buffers, and perft. The
// [Game] and [Position] types wrap it in the immutable interfaces of package
// rules, and the game registers itself as "shogi".
//
// Squares of the rules layer follow the SFEN reading order that the spec
// recommends: index = (rank-1)*9 + (9-file), so 9a is 0 and 1i is 80. In the
// generic [rules.Geometry] file letter 'a' is shogi file 9 and rank number 1
// is shogi rank a; use [SquareName] for the shogi name ("7g").
package shogi
