package rules

import "time"

// Move is one legal action of the side to move: a board move, a drop, a
// placement, or a compound turn (castling, en passant, a Tensor push, a
// Kvaa move with a placement). Moves are comparable values made by a
// position; they are meaningful only in the position that made them.
type Move interface {
	// From returns the square the moving piece or group leaves: the square a
	// player must lift first, and the one the touch-move rule binds to.
	// It is NoSquare for a drop or a placement from an off-board zone.
	From() Square
	// To returns the square where the moving piece or group ends.
	To() Square
	// String returns the move in the game's canonical, position-independent
	// machine form (USI for shogi, long algebraic for chess and Tavreli,
	// TLAN for Tensor, the spec's turn notation for Kvaa). Two different
	// legal moves of one position never have the same string.
	String() string
}

// Position is an immutable game position. Every position can list its
// legal moves, play one, and describe itself physically.
type Position interface {
	// Turn returns the side to move.
	Turn() Color
	// Legal returns the legal moves in a deterministic order. The slice is
	// the caller's.
	Legal() []Move
	// Play returns the position after m. It fails if m is not a legal move
	// of this position.
	Play(m Move) (Position, error)
	// InCheck reports whether the side to move is in check. Games without
	// check report false.
	InCheck() bool
	// Outcome judges the game automatically: mate, stalemate, blocked
	// positions, and the rules that look at the game's past (repetition,
	// move counts, perpetual check). history holds the positions before
	// this one, oldest first. Draws that need a claim are not reported here
	// (see [Claimer]).
	Outcome(history []Position) Outcome
	// View returns the physical picture of the position.
	View() View
	// Key returns the position's identity for repetition: two positions
	// count as the same position exactly when their keys are equal.
	Key() Key
	// ParseMove reads a move in any notation the game accepts (its
	// canonical form and its record notations) and returns the legal move
	// it names. The error says what is wrong with the text.
	ParseMove(s string) (Move, error)
	// FormatMove writes m in the game's record notation (SAN-like forms may
	// depend on the position: check marks, disambiguation).
	FormatMove(m Move) string
	// String returns the position in the game's position format (TFEN,
	// SFEN, FEN, KPS).
	String() string
}

// Key identifies a position for repetition detection. It is an exact
// encoding, not a hash, so equal keys always mean equal positions.
type Key string

// Claimer is implemented by positions of games with draws that a player
// must claim (threefold repetition, the 50-move rule): it returns the
// outcomes the side to move may claim now.
type Claimer interface {
	Claims(history []Position) []Outcome
}

// Traits are the facts about a game that arbitration needs.
type Traits struct {
	// TouchMove: a player who lifts an own piece must move it if it can.
	TouchMove bool
	// TouchCaptures: a player who touches an opponent's piece must
	// capture it if it can be captured (FIDE 4.3.2); a touch of one that
	// cannot be is an adjustment the board cannot hear ("j'adoube").
	TouchCaptures bool
	// Stacks: pieces stack into towers and a move may carry the top k.
	Stacks bool
	// CompleteOnRelease: the rules say a move is complete when the pieces
	// are set down (Tavreli), so a board may commit a move once it has
	// settled; otherwise moves are committed at the clock press, because
	// intermediate states can look like legal moves (Tensor pushes).
	CompleteOnRelease bool
	// IllegalMoveLoses: a completed illegal move loses at once (shogi);
	// otherwise the event's illegal-move policy applies.
	IllegalMoveLoses bool
	// JudgeAtPress: a move is judged only at the clock press that commits
	// it (shogi: a foul is complete at commit, and before it the player may
	// lift and put back freely), so a board showing no legal move is not
	// to be put right before the press.
	JudgeAtPress bool
	// IllegalLossDrawnIfUnwinnable: a player who loses by illegal moves
	// against an opponent who cannot win by any series of legal moves
	// (rules.Winnable) gets a draw instead (FIDE 7.5.5 with 6.9).
	IllegalLossDrawnIfUnwinnable bool
	// IllegalMoves is the game's own default for a completed illegal move
	// where IllegalMoveLoses does not apply; the zero value is the
	// chess-style penalty. A tournament's configuration may override it.
	IllegalMoves IllegalDefault
	// FlagDraws: running out of time draws the game instead of losing it
	// (Kvaa flag_result=draw, D-24).
	FlagDraws bool
	// ClaimPenalty is the time given to the opponent of a player whose
	// draw claim is found incorrect ([FIDEClaimPenalty] for the games
	// played under the FIDE Laws); zero: no penalty.
	ClaimPenalty time.Duration
	// NoDrawByAgreement: the players cannot agree a draw (shogi, spec
	// 2.12); a draw offer is refused.
	NoDrawByAgreement bool
	// Impasse: the players may agree jishogi, the arbiter may rule it, and
	// a player may declare an entering king (shogi, spec 2.10 and 2.11).
	Impasse bool
}

// IllegalDefault is a game's own default penalty for illegal moves.
type IllegalDefault struct {
	// CorrectOnly: the position is restored and nothing else (Tavreli D21,
	// Kvaa D-23 "correct").
	CorrectOnly bool
	// AddTime is added to the opponent's clock for each illegal move, and
	// LossAt is the illegal move that loses (0: none); they apply when
	// either is set (Kvaa "time_penalty:N", "forfeit_after:N").
	AddTime time.Duration
	LossAt  int
}

// Game is a set of rules with fixed options: a factory of positions.
type Game interface {
	// Name returns the game's registered name ("tavreli").
	Name() string
	// Options returns the options the game was made with, including
	// defaults, so that a stored game replays under its own rules.
	Options() Options
	// Geometry returns the board.
	Geometry() *Geometry
	// Traits returns the facts arbitration needs.
	Traits() Traits
	// SideName names a side in the game's own terms ("White", "sente",
	// "South").
	SideName(c Color) string
	// Start returns the game's initial position.
	Start() Position
	// ParsePosition reads a position in the game's format.
	ParsePosition(s string) (Position, error)
}

// Winnable is implemented by positions of games where a flag fall or a
// dead position depends on whether a side can still win (FIDE 6.9: can the
// opponent checkmate by any series of legal moves). known is false when
// the game cannot tell, and the arbiter decides.
type Winnable interface {
	CanEverWin(c Color) (can, known bool)
}

// SquareNamer is implemented by games whose squares have names of their
// own ("7g" in shogi) rather than the geometry's algebraic ones.
type SquareNamer interface {
	SquareName(sq Square) string
}

// SquareName names sq in g's own terms.
func SquareName(g Game, sq Square) string {
	if n, ok := g.(SquareNamer); ok {
		return n.SquareName(sq)
	}
	return g.Geometry().Name(sq)
}

// PlayText reads a move in any notation p reads (ParseMove) and plays it:
// stored games and records are replayed one text at a time.
func PlayText(p Position, text string) (Move, Position, error) {
	m, err := p.ParseMove(text)
	if err != nil {
		return nil, nil, err
	}
	next, err := p.Play(m)
	if err != nil {
		return nil, nil, err
	}
	return m, next, nil
}

// Tooled is implemented by moves that use other own pieces as tools: a
// Tensor push moves the pusher onto its own monster's square and the
// monster on. Touching a tool first binds the player to nothing (Tensor
// D34: either piece of a push may be touched first).
type Tooled interface {
	Tools() []Square
}
