package arbiter

import "arbiter/board"

// Texts for a board's display (PROTOCOL 6: ALERT carries at most
// board.MaxText bytes) are written to fit, never cut: each alert gives
// its text in decreasing detail, and the first that fits is shown
// (board.Fit). The last of them is short whatever the game (a side's
// name, a square's, a few words); the scenario tests check every text
// shown.

// fit is board.Fit.
func fit(texts ...string) string { return board.Fit(texts...) }

// shown returns a with its text for a board's display: the first of
// texts that fits (board.Fit).
func (a Alert) shown(texts ...string) Alert {
	a.Board = fit(texts...)
	return a
}
