// Package rules is the vocabulary shared by every game the arbiter runs:
// sides, boards, pieces, moves, positions, outcomes, and the physical view
// of a position that a sensor board should show.
//
// A game lives in its own package below rules (rules/tavreli, rules/shogi,
// rules/kvaa, rules/chess, rules/tensor) and registers itself with
// [Register] from an init function, the way database/sql drivers do. Code
// above the rules (the move reader, the store, the daemon) works only with
// the interfaces here: a [Game] makes [Position] values, a position lists
// its legal [Move] values and plays them, and every position can describe
// itself physically as a [View].
//
// Beside its rules a game declares its [Facts] with [Describe]: its title,
// its side letters, how its board is drawn, how a tournament gives out
// colours, and its pieces' names and glyphs. Code above the rules reads
// them with [FactsOf] and never switches on a game's name, so a new game
// is its package and one import (a test outside rules/ checks this).
//
// Positions are immutable values: [Position.Play] returns a new position.
// Games keep their own fast, mutable representations internally for move
// generation and perft; the interfaces here are for arbitration, where
// clarity matters more than nanoseconds.
package rules
