package arbiter

// advice says what the arbiter should do about each kind of alert.
var advice = map[AlertKind]string{
	IllegalMoveAlert:   "Go to the table: the illegal move is to be taken back and the position restored as the board shows; the game's penalty has been applied.",
	TouchMoveAlert:     "Go to the table: the player must move the piece touched first, if it can move.",
	AmbiguityAlert:     "Ask the player which move was meant, and choose it on the table's card.",
	RecoveryAlert:      "The board does not show the game's position: have the players set it up as the table's card shows; the game goes on when it matches.",
	IrregularityAlert:  "Look at the evidence and settle it with the players; resolve the alert when done.",
	AdjustAlert:        "A piece changed while it was being adjusted: check the position against the table's card.",
	FlagAlert:          "A flag fell: check the clock and the position, and confirm or correct the result.",
	LinkAlert:          "Check the board's cable and power; the game resumes from its stored moves when the board is back.",
	ArbiterCallAlert:   "A player called the arbiter: go to the table.",
	EtiquetteAlert:     "Ask the player to put the captured piece on their own piece stand.",
	SetupAlert:         "The board does not show the start position: have the players put right the squares listed (lit on the board); the clock starts when it matches.",
	RetractionAlert:    "Go to the table: the player who just moved took the move back or changed it after completing it; the game's penalty has been applied to that player. Have the move put back as the table's card shows.",
	FoulSuspectedAlert: "Look at the evidence: a move may have been changed after the clock was pressed. Decide, and resolve the alert.",
	ClocksHeldAlert:    "Compare the times on the players' clock with the table's card, set them on the console if they differ, then resume the clocks.",
}

// Advice says what the arbiter should do about an alert of this kind.
func (k AlertKind) Advice() string {
	if a, ok := advice[k]; ok {
		return a
	}
	return "Look at the table and settle it; resolve the alert when done."
}
