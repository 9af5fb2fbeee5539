package board

import "arbiter/rules"

// Display is the host-to-board side of a driver, as the director uses it.
// A driver shows what its board can of each message and ignores the rest
// (a DGT board has no lights); Caps tell the director what is worth
// sending.
type Display interface {
	// Show shows m on the board with id board.
	Show(board string, m Message) error
	// Resync asks the board for its whole state: an [EventSnapshot]
	// follows.
	Resync(board string) error
}

// Message is one thing shown on a board: *[Clock], *[Alert], *[Lights],
// *[AckMove] or *[Question].
type Message interface {
	message()
}

func (*Clock) message()    {}
func (*Alert) message()    {}
func (*Lights) message()   {}
func (*AckMove) message()  {}
func (*Question) message() {}

// Clock flags.
const (
	ClockFirstFlag  = 0x01 // the first player's flag has fallen
	ClockSecondFlag = 0x02 // the second player's flag has fallen
	ClockPaused     = 0x04 // the arbiter has paused the clocks
)

// Clock sets the clock display. Times are what remains, in ms; the board
// counts the running side down by itself until the next Clock.
type Clock struct {
	First, Second uint32
	Running       Side // SideNone when both clocks stand
	Flags         uint8
}

// LightMode says how lit squares show.
type LightMode uint8

// Light modes.
const (
	LightOff    LightMode = 0
	LightSteady LightMode = 1
	LightBlink  LightMode = 2
)

// Light colours. Boards with one colour show them all the same.
const (
	ColorDefault uint8 = 0
	ColorGood    uint8 = 1 // green: the move was accepted
	ColorBad     uint8 = 2 // red: restore this square
	ColorAttn    uint8 = 3 // amber: look here
)

// Lights replaces the whole set of lit squares: the listed squares (in
// the board's sensor order) light in the given mode and colour, every
// other square goes dark. Lights with no squares turn all lights off.
type Lights struct {
	Mode    LightMode
	Color   uint8
	Squares []uint16
}

// Alert levels.
const (
	AlertClear   uint8 = 0
	AlertInfo    uint8 = 1
	AlertWarning uint8 = 2
	AlertError   uint8 = 3
)

// MaxText is the longest text, in bytes, of an [Alert] or an [AckMove]
// that a board with a display shows whole (PROTOCOL 6). The host writes
// texts to fit, shorter rather than cut.
const MaxText = 64

// Fit returns the first of texts, written in decreasing detail, that fits
// in MaxText bytes, or the last: texts for a display are written short,
// never cut mid-phrase.
func Fit(texts ...string) string {
	for _, t := range texts {
		if len(t) <= MaxText {
			return t
		}
	}
	if len(texts) == 0 {
		return ""
	}
	return texts[len(texts)-1]
}

// Alert shows a text to the players (or clears it, level AlertClear).
// Its text fits in MaxText bytes. Boards whose display is too small
// for a sentence (a DGT 3000 shows eight characters) show their own
// short words for the alert's Kind.
type Alert struct {
	Level uint8
	Beep  bool
	Text  string
	// Kind says what the alert is about: an arbiter alert kind
	// ("illegal-move", "recovery", "touch-move", "clocks-held", ...),
	// "result" for a game's end (Text is then the outcome, "1-0
	// checkmate"), "offer" or "resign" for a standing offer or a
	// resignation to confirm; "" for any other text.
	Kind string
}

// AckMove tells the board that a move was recorded: the board may light
// its squares briefly and show its text. From and To are sensor indexes
// (rules.NoSquare for none); an AckMove with neither says the game
// started.
type AckMove struct {
	Ply      uint16 // number of the move in the game, from 1
	From, To rules.Square
	Text     string // the move in record notation
}

// QuestionKind says how a question is answered.
type QuestionKind uint8

// Question kinds.
const (
	// QuestionNone clears the question shown (no question is open).
	QuestionNone QuestionKind = 0
	// QuestionChoose asks for one of the choices: the answer key sends
	// AnswerChoice+n for choice n.
	QuestionChoose QuestionKind = 1
	// QuestionPromote asks whether a piece promoted: choice 0 is "promote"
	// and choice 1 "do not promote". AnswerYes answers choice 0 and
	// AnswerNo choice 1, as do AnswerChoice+0 and AnswerChoice+1.
	QuestionPromote QuestionKind = 2
)

// MaxChoices is the most choices a question carries: the answer values
// AnswerChoice+0 to AnswerChoice+14.
const MaxChoices = 15

// MaxChoiceText is the longest text, in bytes, of one choice.
const MaxChoiceText = 32

// Choice is one answer of a question: its text and the squares the board
// lights for it (NoSquare for none, as the origin of a drop).
type Choice struct {
	From, To rules.Square
	Text     string
}

// Question shows the player to move a question and its ordered choices.
// Choice n (from 0) is answered with AnswerChoice+n; a promotion question
// is also answered with AnswerYes (choice 0) and AnswerNo (choice 1). A
// new Question, an AckMove, or a Question of kind QuestionNone replaces
// the question shown.
type Question struct {
	Side    Side // whose answer is wanted
	Kind    QuestionKind
	Text    string
	Choices []Choice
}
