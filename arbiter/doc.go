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
// to resolve (using which squares were lifted, the order in which pieces
// left and arrived for moves of several pieces (pairing.go), then the
// player or the arbiter), never a silent guess; none at a clock press is an
// illegal move.
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
// # Modes
//
// A session is in one mode at a time (mode.go), and each mode has its
// own step function (step.go), the way an etcd raft node steps by its
// role: Handle and Tick do what every input needs, then the mode's step
// decides what the input means, passing what it treats as every mode
// does to stepAny, and, for the set-up and an adjustment, what they leave
// alone to the mode they interrupted. The board settled (Tick), the
// board changed and the moves stored at last (SetUnstored) are inputs the
// session gives itself:
//
//	mode         what it waits for                 a settle               a press
//	setting up   the board to show the position    starts the game        ignored
//	reading      a move                            a move on release,     the move, an
//	                                                a retraction,          ambiguity or an
//	                                                unmatched → recovery   illegal move
//	adjusting    the side to move's adjustment     ends it at baseline    as the mode beneath
//	prompting    the answer to a press's question  nothing                judged again
//	recovering   the board put back                nothing                recovery alert *
//	unmatched    the board put back, or a legal    nothing                recovery alert *
//	             move shown
//
// (*) Where the game judges at the press (Config.JudgeAtPress), a press
// ends a recovery that no retraction caused and is judged as reading.
//
// The transitions:
//
//	reading     → setting up   Start, waiting for the set-up
//	setting up  → reading      the start position shown (a recovery under it goes on)
//	any but setting up
//	            → adjusting    the side to move presses adjust
//	adjusting   → the mode it interrupted: the closing press (recovering
//	              if the position was altered), the board back at its
//	              baseline at a settle, a move committed
//	reading     → prompting    a press that fits several moves
//	prompting   → reading      the answer commits the move; a strict
//	                           touch-move refusal
//	reading, prompting, adjusting
//	            → recovering   an illegal move at a press, a retraction,
//	                           an altered adjustment, a take-back
//	reading     → unmatched    no legal move fits for Config.RecoveryAfter
//	recovering, unmatched
//	            → reading (prompting while a press's question is still
//	              open): the board shows the position again, a press
//	              judged at the press, a take-back; unmatched also ends
//	              when a legal move is shown
//
// The set-up and an adjustment interrupt the mode beneath them and
// resume it when they end: a recovery asked for during an adjustment
// goes on after it, and a press's question stays open through a
// recovery. Every step leaves the mode and the facts kept beside it
// (a press's question, a retraction open, presses held for a dump)
// consistent; the tests check it after every step (Session.check).
//
// The end of the game is no mode: the result stops all judging, but the
// board is still watched, so that a recovery under way is reported put
// right and the console can take the last move back. Lost frames (stale,
// waiting for a state dump) hold presses for the dump in whatever mode
// the session is.
//
// A board that keeps its own log of the game (a DGT board's EEPROM) can
// be asked for it when it comes back after a host crash or a link down
// (a Recalled event, recall.go): from the press at which the board
// showed the game's position, each later press is taken as it was made,
// the board whole and then the press, so the moves made meanwhile are
// read one by one instead of the board being put back. Reading stops
// before the first press that shows no legal move: a log never causes a
// penalty.
//
// A board whose own clock tells the turn it shows (a DGT clock, whose
// lever is a rocker: a player whose side is down cannot press again) may
// show the side to move's opponent to move before that side has moved:
// after an illegal move's press, or a press without a move. The side's
// legal move is then taken when the board settles on it, without a press
// (Session.pressedAlready), as DGT's own software reads such a clock.
//
// Off-board zones (shogi hand stands, Kvaa trays) are kept logically: a
// board may count some of them, all or none, and their sensed counts
// never decide whether a move was made, only choose among look-alike
// moves, and raise etiquette alerts when a captured piece lies on the
// wrong stand or stays long in a player's hand, or a reserve tray holds a
// counter that is not in reserve (rules/shogi/DECISIONS.md, kvaa.md 7.2).
package arbiter
