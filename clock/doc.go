// Package clock keeps the authoritative game clock for one board.
//
// A [Control] describes a time control as data: sudden death, stages with
// move quotas, Fischer increment, US (simple) and Bronstein delay, hourglass,
// Japanese byoyomi (with optional NHK-style thinking units), Canadian
// overtime (fixed or progressive), the shogi stopwatch's whole-minute charging
// and upcount. [Parse] reads the compact text form (a superset of the PGN
// TimeControl tag) and [Control.String] writes it back.
//
// A [Clock] is a pure state machine over monotonic instants: every call takes
// the instant as a time.Duration offset from a fixed origin chosen by the
// caller, so tests need no fake time. The clock counts the first and the
// second mover, not colours. Deadlines (flags and byoyomi or Canadian
// rollovers) are committed only up to the instant the board's link has
// delivered (see [Clock.Delivered]): a press stamped before a flag instant
// that reaches the host after it still counts, and a silent link holds the
// clock and alerts the arbiter instead of deciding.
package clock
