// Package arbiter turns one sensor board's events into one game: it
// reconstructs every move by comparing what the board shows with the
// physical views of the legal successors of the current position, applies
// the game's touch-move and illegal-move rules, drives the game clock, and
// raises alerts for the human arbiter.
//
// A [Session] is a pure state machine: every input carries its instant, and
// the session never reads the time itself. The daemon feeds it board
// events and timer ticks and acts on the [Output] values it returns
// (storing moves, showing alerts, lighting squares).
//
// The reconstruction never trusts the order of events. It keeps the
// observed physical state and compares it, when the board has settled or
// the clock is pressed, with the successors' views reduced to what the
// board can sense ([Caps]). One match is the move; several are an ambiguity
// to resolve (using which squares were lifted, then the player or the
// arbiter), never a silent guess; none at a clock press is an illegal move.
//
// A top piece that an identity-sensing board reports as unknown fits any
// piece: that square is judged by its height alone.
//
// Whatever does not show what it should is described one way, in the
// players' words ("e2 empty, expected a white pawn", "extra piece on d5"):
// while a game waits for its start position ([Session.SetupDiff] and a
// [SetupAlert] when the board stays wrong), in a recovery, and for an
// illegal move's squares.
//
// Hand stands (shogi) are kept logically: their sensed counts never decide
// whether a move was made, only choose among look-alike moves, and raise
// etiquette alerts when a captured piece lies on the wrong stand or stays
// long in a player's hand (rules/shogi/DECISIONS.md).
package arbiter
