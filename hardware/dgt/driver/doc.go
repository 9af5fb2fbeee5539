// Package driver runs DGT e-boards on serial ports for the daemon: it
// watches the configured paths and patterns, runs a [dgt.Conn] on every
// port that appears, and translates between the DGT host session and the
// daemon's neutral board boundary (package board): it delivers
// board.Event values and implements board.Display.
//
// The translation, one to one:
//
//	dgt.EventIdentified -> board.EventHello (board id "DGT-" + serial number;
//	                       an 8x8 board sensing height, identity and colour)
//	dgt.EventBoard      -> board.EventSnapshot (and EventHealth Active after a loss)
//	dgt.EventSquare     -> board.EventSquare (Height 0/1, Top as sensed)
//	dgt.EventLever      -> board.EventButton (ButtonClock, pressed, by the side that pressed)
//	dgt.EventClock      -> board.EventHeartbeat
//	dgt.EventLinkLost   -> board.EventHealth Disconnected
//	dgt.EventError      -> a log line, and for a bus board whose game could not be read
//	                       from its log (dgt.ErrNotResumed) board.EventError marked
//	                       board.ErrAttention, which the daemon raises as an alert
//
// and back:
//
//	board.Clock     -> the clock set and run for the side to move ([dgt.Conn.SetClock]),
//	                   or stopped at its times when neither runs ([dgt.Conn.StopClock]:
//	                   the game ended, the arbiter paused it, the board is being put right)
//	board.Alert     -> text on a DGT 3000 ([dgt.Conn.ShowText]): eight characters a frame,
//	                   the alert's kind in DGT-style words ("illegal" "move", "restore"
//	                   "position"), a result as "1-0 mate", any other text scrolled word by
//	                   word, never cut; brief ones give the display back to the times after
//	                   a round; a cleared alert ends the text
//	board.AckMove, Lights, others -> nothing (a DGT board has no lights)
//
// With Config.Raw set, every board's raw log (each chunk read, each command
// written, with the instant its session took or sent it) goes out under
// the board's id; [Replayer] turns such a log back into the events the
// driver delivered.
//
// [Bus] runs lines of DGT boards in bus mode (protocol [BusProtocol]):
// DGT's tournament loop ([dgt.Tournament]) on each line, and every board
// on it, by its bus address, translated as above (board id "DGT-" and the
// five-digit address). The bus has no command for a clock's display or
// text, so messages to a bus board are taken and not shown; its clock is
// read every poll. When the daemon starts in mid-game, each board is
// resumed from its own log: the board as the last host took it, then the
// moves made meanwhile one by one, each with its lever press. With
// BusConfig.Raw set, each board's part of the bus conversation (the
// commands to its address, the replies the host took for them, its
// answers to a general ping, and an empty read when the line failed) goes
// out under the board's id with protocol [BusProtocol]; [BusReplayer],
// registered for that protocol, turns it back into the events the driver
// delivered, so "arbiter replay" checks the games of bus boards too
// (read as live: the daemon keeps [BusConfig.ReplaySetting] with the
// event, and the replay passes it as [board.ReplayConfig.Setting]).
//
// A lever press whose side the clock's turn bits do not tell is taken as
// the press of the side that did not press last, so a change of the lever
// bit is a press whatever its polarity. Events of a board that has not yet
// told its serial number wait for it: its first full board follows its
// handshake.
package driver
