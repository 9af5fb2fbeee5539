package board

import (
	"fmt"
	"time"
)

// ButtonKind says what a button is for.
type ButtonKind uint8

// Buttons.
const (
	// ButtonClock ends the player's turn (a clock press, a DGT lever).
	ButtonClock ButtonKind = 1
	// ButtonAdjust announces "j'adoube": touches until the next press are
	// adjustments, not moves.
	ButtonAdjust ButtonKind = 2
	// ButtonArbiter calls the human arbiter.
	ButtonArbiter ButtonKind = 3
	// ButtonAnswer answers a question shown to the player (promote or not,
	// which piece to drop); the event's value says which answer.
	ButtonAnswer ButtonKind = 4
	// ButtonOffer offers a draw (jishogi in shogi, which has no draw by
	// agreement); pressed by the opponent while the offer stands, it
	// accepts it.
	ButtonOffer ButtonKind = 5
	// ButtonResign resigns the game once confirmed: a second press of the
	// same button within [ResignConfirm] of the first.
	ButtonResign ButtonKind = 6
	// ButtonClaim claims a draw by the player to move (threefold
	// repetition, the move-count rule), or in shogi declares an entering
	// king.
	ButtonClaim ButtonKind = 7
)

// ResignConfirm is how long after a first press of [ButtonResign] the
// second press that confirms the resignation may come (board time).
const ResignConfirm = 5 * time.Second

// String returns the button's name.
func (b ButtonKind) String() string {
	switch b {
	case ButtonClock:
		return "clock"
	case ButtonAdjust:
		return "adjust"
	case ButtonArbiter:
		return "arbiter"
	case ButtonAnswer:
		return "answer"
	case ButtonOffer:
		return "offer"
	case ButtonResign:
		return "resign"
	case ButtonClaim:
		return "claim"
	}
	return fmt.Sprintf("button(%d)", uint8(b))
}

// Answer values carried by ButtonAnswer presses. Choices of a list are
// AnswerChoice+n for n from 0 to MaxChoices-1.
const (
	AnswerYes    uint8 = 0x01
	AnswerNo     uint8 = 0x02
	AnswerChoice uint8 = 0x10
)

// ButtonInfo describes one button of a board.
type ButtonInfo struct {
	Kind ButtonKind
	Side Side
}

// ButtonState is one button's state in a [Snapshot].
type ButtonState struct {
	Button  ButtonKind
	Side    Side
	Count   uint8 // presses since power-up, modulo 256
	Pressed bool  // held down now
}
