// Package kvaa implements Kvaa (Liberian draughts, Queah) as specified in
// the project's rules specification (shared/rules/kvaa.md), with every
// variant the rules leave to the players.
//
// The field is the 13 dark squares of a 5x5 checkerboard (DECISION D-2),
// numbered a1, c1, e1, b2, d2, a3, c3, e3, b4, d4, a5, c5, e5 as [Cell] 0 to
// 12, which are also the [rules.Square] values. Movement schemes (R.2, R.3,
// R.4, R.5, R.7, their unions and any custom set of step classes) are data:
// a table of links and a table of jump lines, each tagged with its class.
//
// The engine works on [State], a value of a few bytes with one bit mask per
// side, through the methods of [Game]: [Game.Turns] appends the legal turns
// to a caller's buffer without allocating, [Game.Apply] plays one,
// [Game.Judge] applies the positional end rules and [Game.Perft] counts.
// [Position] wraps a State as an immutable [rules.Position]; [Turn] is both
// the engine's move and a [rules.Move]. A compound turn (a move and a
// placement) is one Turn, written in the spec's turn notation
// ("c1xa3,@b2", "@d4,c1xa3").
//
// Positions are written as KPS ([ParseKPS], [State.String]); games as
// records ([ParseRecord], [Record.Format]) whose tags carry every option, so
// a stored game replays under its own rules ([Record.Replay]).
//
// The package registers itself as "kvaa" with [rules.Register]; its options
// are those of the spec's section 11 (see [ParseConfig]).
package kvaa
