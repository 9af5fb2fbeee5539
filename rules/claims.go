package rules

// Besides moves, a player may say something that ends the game: claim a
// draw ([Claimer]), propose a count of a blocked game ([Impasser]), or
// declare the game won ([Declarer]). A game whose positions implement
// these interfaces offers them; the arbitration above names no game.

// Impasser is implemented by positions of games that end a blocked game
// by a count, which one player proposes and the other confirms or the
// arbiter rules (shogi's jishogi, spec 2.10); such a game has no draw by
// agreement.
type Impasser interface {
	// ImpasseReady returns why the count cannot be proposed now (in shogi,
	// both kings must have entered the opponent's camp), or nil.
	ImpasseReady() error
	// ImpasseCount applies the count to the position and returns the
	// outcome and each side's points. first is the side that moved first
	// in the game: a handicap game's giver, whose missing pieces count as
	// its own.
	ImpasseCount(first Color) (Outcome, [2]int)
}

// Declarer is implemented by positions in which the player to move may
// declare the game won instead of moving (shogi's entering-king
// declaration, spec 2.11).
type Declarer interface {
	// DeclareWin judges a declaration by the side to move under the
	// game's rule. A declaration whose conditions fail is judged too (its
	// Outcome is the declarer's loss); an error means the game's options
	// allow no declaration.
	DeclareWin() (Declaration, error)
}

// Declaration is the judgement of a declaration ([Declarer]).
type Declaration struct {
	// Declarer is the side that declared.
	Declarer Color
	// Rule names the rule judged by, as the game's options write it.
	Rule string
	// Points is the declarer's count.
	Points int
	// Conditions says what was found, for the records: "king in camp
	// true, 10 pieces in camp, in check false, 28 points".
	Conditions string
	// Outcome is the result of the declaration.
	Outcome Outcome
}
