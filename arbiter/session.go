package arbiter

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter/clock"
	"arbiter/rules"
)

// touch is the first lift of a square in a turn.
type touch struct {
	sq rules.Square
	at time.Duration
	// uncertain: the lift came while frames were lost, when an adjust
	// announcement may have been lost with them; such a touch binds no one.
	uncertain bool
	// placed is the number of pieces set down in the window before the
	// lift: two lifts with none set down between them had both pieces in
	// the air at once.
	placed int
}

// Session is one game on one board. It is not safe for concurrent use: the
// daemon owns one goroutine per board.
type Session struct {
	cfg  Config
	game rules.Game
	geo  *rules.Geometry
	clk  *clock.Clock

	pos     rules.Position
	history []rules.Position // positions before pos, oldest first
	over    rules.Outcome

	turn *turn // built on demand for pos

	obs        []cell // the board as sensed: squares, then zones
	lastChange time.Duration
	// unread is the top piece each square showed before the board
	// reported its identity unknown at the same height (readAgain).
	unread    map[rules.Square]rules.Piece
	lastRaw   uint64
	lastBoard int64

	// mode is what the session does with what the board shows (mode.go);
	// under is the mode that the set-up or an adjustment interrupted,
	// resumed when it ends (a recovery; otherwise modeReading).
	mode  mode
	under mode

	// The window: everything since the last committed move.
	lifted  map[rules.Square]bool
	touches []touch
	changes []change // the changes of heights and counted zones, in order (pairing.go)
	placed  int      // pieces set down in the window (touch.placed)
	log     []string
	judged  string   // signature last judged at a settle, so it is judged once
	alerted string   // signature last alerted, so an alert is not repeated
	prompt  question // the open question of which move was made, if any

	now      time.Duration // the latest instant seen
	reported time.Duration // the latest instant the board has reported
	adjusted bool          // something was lifted in the adjustment under way (modeAdjusting)

	// The facts below are not modes: each can hold in any mode, alongside
	// it rather than instead of it.
	//
	// autoEnd: an adjustment ended by itself and the player's closing
	// press is still due (it is ignored); it outlives the adjustment, and
	// a move is read meanwhile.
	autoEnd bool
	// lossy: frames were lost in this window, so lifts may be missing; it
	// weakens what the lifts prove in any mode.
	lossy bool
	// pressDue: the last move was committed on release and its mover's
	// press may follow; it is about the last move, whatever is done now.
	pressDue bool
	// recalling: the presses being judged come from the board's own log
	// (recall.go), made while the daemon did not watch the board; true
	// only during one Recalled event, in whatever mode.
	recalling bool
	// dumped: the board's whole state has been seen since Start (the
	// set-up is judged only then); a fact of the board, not of the game.
	dumped bool
	// stale: frames were lost and a state dump is awaited. Presses and
	// adjustments are held for the dump (held), and lifts meanwhile bind
	// no one, but the board goes on being read in whatever mode the
	// session is: a gap can come during an adjustment or a recovery.
	stale    bool
	held     []Event // buttons pressed while stale, judged on the dump
	illegal  [2]int
	linkDown bool // the link is down: its alert is raised once
	// clockTurn is the side the board's own clock shows to move, when
	// clockTurnKnown (a DGT clock, whose lever is a rocker): a fact of
	// the board, read from its clock (Event.Clock).
	clockTurn      rules.Color
	clockTurnKnown bool

	// setupTold is the set-up differences last alerted (SetupAlert).
	setupTold string

	// trays maps the board's zones onto the game's (Caps.Trays), nil when
	// the board counts every zone of the game in the game's order.
	trays []int
	// The zones the board counts (shogi hand stands, Kvaa trays), a
	// cross-check of the position: hand marks their cells;
	// handKey is how they disagree with the hands ("" when they agree),
	// since handSince; handTold the disagreement last alerted.
	hand      []bool
	handKey   string
	handSince time.Duration
	handTold  string
	// last is the move just committed by a clock press, until the
	// opponent acts (shogi.md 3.4.4).
	last *lastMove
	rs   retractState // take-backs and changes of completed moves
	// unstored is the first ply the daemon has not stored yet (0: none),
	// unstored.go.
	unstored int
}

// question is an open question of which candidate move was made.
type question struct {
	idx []int // the candidates asked about; nil: no question is open
	// press: the question was asked at a clock press, at instant at, which
	// its answer completes. It is a fact of the question rather than a
	// mode: the question stays open, and its answer completes the move at
	// that press, through a recovery or an adjustment that interrupts
	// modePrompting.
	press bool
	at    time.Duration
}

// lastMove is a move committed at a press, watched for a change before
// the opponent acts.
type lastMove struct {
	side    rules.Color
	at      time.Duration
	squares []rules.Square // the squares the move changed
	touched bool           // one of them has been lifted or filled since
}

// NewSession starts a session for a game from a position (nil: the game's
// start). clk may be nil for a game without a clock; a clock is started by
// the session at the first call of [Session.Start].
func NewSession(cfg Config, game rules.Game, start rules.Position, clk *clock.Clock) (*Session, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("arbiter config: %w", err)
	}
	if start == nil {
		start = game.Start()
	}
	if !game.Traits().TouchMove {
		cfg.TouchMove = Off
	}
	if cfg.Caps.NoPress {
		// Nobody presses: the move the board settles on is the move.
		cfg.Completion = OnRelease
	}
	s := &Session{cfg: cfg, game: game, geo: game.Geometry(), clk: clk, pos: start}
	s.mapTrays()
	s.obs = s.cfg.Caps.cells(start.View())
	for i := range s.geo.Zones() {
		if !s.cfg.Caps.counts(i) {
			continue
		}
		if s.hand == nil {
			s.hand = make([]bool, len(s.obs))
		}
		s.hand[s.geo.Len()+i] = true
	}
	s.resetWindow()
	return s, nil
}

// mapTrays maps the zones the board counts (Caps.Trays, in the board's
// numbering) onto the game's: a tray the game does not have is not read
// (board.Info.Fits keeps such boards off the game's tables).
func (s *Session) mapTrays() {
	c := &s.cfg.Caps
	if !c.Zones || c.Trays == nil {
		return
	}
	zs := s.geo.Zones()
	c.counted = make([]bool, len(zs))
	s.trays = make([]int, len(c.Trays))
	for i, tr := range c.Trays {
		s.trays[i] = s.geo.Zone(tr.Kind, tr.Owner)
		if s.trays[i] >= 0 {
			c.counted[s.trays[i]] = true
		}
	}
}

// gameZone returns the game's zone of the board's zone z, or -1 for a
// zone the session does not read.
func (s *Session) gameZone(z int) int {
	switch {
	case !s.cfg.Caps.Zones || z < 0:
		return -1
	case s.trays == nil:
		if z < len(s.geo.Zones()) {
			return z
		}
		return -1
	case z < len(s.trays):
		return s.trays[z]
	}
	return -1
}

// Resume replays moves already made (stored before a restart) from the
// session's start position, so that the game goes on with its whole
// history for repetition. It must be called before Start.
func (s *Session) Resume(moves []string) error {
	for i, text := range moves {
		_, next, err := rules.PlayText(s.pos, text)
		if err != nil {
			return fmt.Errorf("resume: move %d %q: %w", i+1, text, err)
		}
		s.history = append(s.history, s.pos)
		s.pos = next
	}
	s.obs = s.cfg.Caps.cells(s.pos.View())
	s.turn = nil
	return nil
}

// Start starts the game at instant at: the clock of the side to move
// starts now, or, with Config.AwaitSetup, once the board has settled on
// the start position.
func (s *Session) Start(at time.Duration) []Output {
	s.now = max(s.now, at)
	if s.cfg.AwaitSetup {
		s.enterSettingUp()
		s.setupTold = ""
		s.dumped = false
		s.lastChange = at
		s.note(at, "waiting for the start position")
		return nil
	}
	return append(s.startClock(at), Started{At: at})
}

// setUpDone ends the set-up: the board has shown the start position since
// at, when the game and its clock start.
func (s *Session) setUpDone(out []Output, at time.Duration) []Output {
	s.endOverlay()
	s.setupTold = ""
	s.resetWindow()
	s.note(at, "start position set up")
	out = append(out, s.startClock(at)...)
	return append(out, Started{At: at})
}

// SettingUp reports whether the session waits for the start position.
func (s *Session) SettingUp() bool { return s.mode == modeSettingUp }

func (s *Session) startClock(at time.Duration) []Output {
	if s.clk == nil {
		return nil
	}
	if err := s.clk.Start(at); err != nil && !errors.Is(err, clock.ErrStarted) {
		return []Output{s.alert(IrregularityAlert, s.pos.Turn(), at, "clock: "+err.Error(), false).shown("clock fault: call the arbiter")}
	}
	return nil
}

// Position returns the current position.
func (s *Session) Position() rules.Position { return s.pos }

// History returns the positions before the current one, oldest first.
func (s *Session) History() []rules.Position { return s.history }

// Plies returns the number of moves made.
func (s *Session) Plies() int { return len(s.history) }

// Outcome returns the result, or the zero Outcome while the game goes on.
func (s *Session) Outcome() rules.Outcome { return s.over }

// IllegalCounts returns each side's illegal moves (and retractions) so
// far, by side (rules.Color), which the game's penalty counts on.
func (s *Session) IllegalCounts() [2]int { return s.illegal }

// RestoreIllegalCounts gives a resumed game the counts stored before a
// restart (IllegalCounts), so that a restart forgives no illegal move. It
// must be called before Start.
func (s *Session) RestoreIllegalCounts(n [2]int) { s.illegal = n }

// InRecovery reports whether the board must be put right before play goes
// on.
func (s *Session) InRecovery() bool { return s.recovering() }

// Clock returns the session's clock, or nil.
func (s *Session) Clock() *clock.Clock { return s.clk }

func (s *Session) resetWindow() {
	s.lossy = false
	s.autoEnd = false
	s.lifted = map[rules.Square]bool{}
	s.touches = s.touches[:0]
	s.changes = s.changes[:0]
	s.placed = 0
	s.log = s.log[:0]
	s.judged = ""
	s.alerted = ""
	s.prompt = question{}
	s.endWindow()
}

// currentTurn is the turn of the current position, built on demand.
func (s *Session) currentTurn() *turn {
	if s.turn == nil || s.turn.pos != s.pos {
		s.turn = newTurn(s.pos, s.cfg.Caps, s.hand)
	}
	return s.turn
}

const maxLog = 400

func (s *Session) note(at time.Duration, format string, args ...any) {
	if len(s.log) < maxLog {
		s.log = append(s.log, fmt.Sprintf("%8.3fs ", at.Seconds())+fmt.Sprintf(format, args...))
	}
}

// Handle takes one board event and returns what the session decided.
func (s *Session) Handle(e Event) []Output {
	var out []Output
	s.now = max(s.now, e.At)
	if e.Kind != LinkLost && e.Kind != LinkRestored {
		s.reported = max(s.reported, e.At)
	}
	if s.clk != nil && e.Kind != LinkLost {
		s.clk.Delivered(e.At)
		out = s.clockEvents(out, e.At)
	}
	if e.RawSeq != 0 {
		s.lastRaw = e.RawSeq
	}
	if e.Kind >= boardSettled {
		return out // the session's own inputs come from no board
	}
	return s.step(out, input{Event: e})
}

// zoneChanged takes a new count of an off-board zone, on a board that
// counts them. An adjustment's changes (binds false) are not recorded
// for pairing.
func (s *Session) zoneChanged(e Event, binds bool) {
	if z := s.gameZone(e.Zone); z >= 0 {
		s.note(e.At, "%s count %d", s.zoneName(s.geo.Zones()[z]), e.Count)
		if binds {
			s.record(s.geo.Len()+z, e.Count)
		}
		s.obs[s.geo.Len()+z].height = e.Count
		s.changed(e)
		s.trimChanges(s.currentTurn())
	}
}

// link takes the news of the board's link: lost, restored, or frames
// lost with it (a gap).
func (s *Session) link(out []Output, e Event) []Output {
	switch e.Kind {
	case LinkLost:
		// Whatever the board reported while its link was down is lost:
		// the dump that follows its return shows the board, not who
		// moved what; its clock's lever may have moved too.
		s.lossy = true
		s.clockTurnKnown = false
		if !s.linkDown {
			s.linkDown = true
			out = append(out, s.alert(LinkAlert, s.pos.Turn(), e.At, "the board stopped answering", false))
		}
	case LinkRestored:
		s.linkDown = false
		s.note(e.At, "link restored")
	case Gap:
		s.stale = true
		s.lossy = true
		s.note(e.At, "frames lost: waiting for the board's state")
	}
	return out
}

// changesBoard reports whether events of kind k change what the board
// shows or act on it (a press).
func changesBoard(k EventKind) bool {
	return k == SquareChanged || k == ZoneChanged || k == ClockPressed || k == AdjustPressed
}

func (s *Session) changed(e Event) {
	s.lastChange = e.At
	s.lastBoard = e.BoardMs
}

// sense maps the square e changed from the board's sensor number onto
// the game's square (in e) and returns the cell it now shows; ok is false
// when the cell is as it was, or the game has no such square (out then
// has the alert).
func (s *Session) sense(out []Output, e *Event) (_ []Output, nc cell, ok bool) {
	sensor := int(e.Square)
	if e.Square = s.geo.SensorSquare(sensor); e.Square == rules.NoSquare {
		return append(out, s.alert(IrregularityAlert, s.pos.Turn(), e.At, fmt.Sprintf("the board reported square %d, which this game does not have", sensor), false).shown("sensor fault: call the arbiter")), nc, false
	}
	old := s.obs[e.Square]
	nc = cell{height: e.Height}
	if e.Height > 0 {
		nc.top = s.cfg.Caps.project(e.Top)
	}
	if nc == old {
		return out, nc, false
	}
	if nc.height != old.height {
		delete(s.unread, e.Square)
	}
	return out, nc, true
}

// squareSetUp takes a square's change while the board is being set up:
// only what it shows.
func (s *Session) squareSetUp(out []Output, e Event) []Output {
	out, nc, ok := s.sense(out, &e)
	if ok {
		s.obs[e.Square] = nc
		s.changed(e)
	}
	return out
}

// squareChanged takes a square's change: a lift, a piece set down, an
// identity read again. Outside an adjustment (binds) a lift is a touch,
// the change is recorded for pairing, and the last move's watch goes on.
func (s *Session) squareChanged(out []Output, e Event, binds bool) []Output {
	out, nc, ok := s.sense(out, &e)
	if !ok {
		return out
	}
	old := s.obs[e.Square]
	if s.readAgain(e.Square, old, nc) {
		// The board lost the piece's identity for a moment or read it
		// again (PROTOCOL 4.1 allows it at any time): no hand touched
		// the square, so it is no touch, no lift and no change of the
		// last move (issue 35 §2).
		s.note(e.At, "identity of %s %s", s.squareName(e.Square), map[bool]string{true: "unknown", false: "read again"}[nc.unknown()])
		s.obs[e.Square] = nc
		return s.afterChange(out, e.At)
	}
	if !binds {
		s.adjusted = true
	}
	s.autoEnd = false
	// Two quick moves: the mover's settled move is followed at once by the
	// opponent's first lift. Commit the move before taking the lift; the
	// move ends an adjustment, so that the lift binds.
	if s.cfg.Completion == OnRelease && e.Height < old.height && !s.over.Over() && !s.recovering() &&
		e.At-s.lastChange >= s.cfg.Release {
		plies := len(s.history)
		out = s.quickCommit(out, e)
		binds = binds || len(s.history) > plies
	}
	s.handChange(e, old.height, binds)
	s.obs[e.Square] = nc
	s.changed(e)
	return s.afterChange(out, e.At)
}

// handChange notes a hand's change of square e.Square from height from:
// a lift, a piece set down. Outside an adjustment (binds) the change is
// recorded for pairing, a first lift is a touch, and a touch elsewhere
// ends the last move's watch.
func (s *Session) handChange(e Event, from int, binds bool) {
	if s.last != nil && binds {
		// The opponent's first touch elsewhere ends the watch.
		if slices.Contains(s.last.squares, e.Square) {
			s.last.touched = true
		} else {
			s.last = nil
		}
	}
	if binds {
		s.record(int(e.Square), e.Height)
	}
	name := s.squareName(e.Square)
	if e.Height < from {
		s.note(e.At, "lift %s %d→%d", name, from, e.Height)
		if !s.lifted[e.Square] && binds {
			s.lifted[e.Square] = true
			s.touches = append(s.touches, touch{sq: e.Square, at: e.At, uncertain: s.stale, placed: s.placed})
		}
		return
	}
	s.note(e.At, "place %s %d→%d", name, from, e.Height)
	if e.Height > from {
		s.placed++
	}
}

// readAgain reports whether a square's change from old to nc at the same
// height is its top piece's identity lost or read again rather than a
// hand's work: known to unknown, or unknown to the piece it was before it
// became unknown (or to any piece, when the square has been unknown
// since it changed height: a piece set down and read a moment later).
// A piece turned over where it stands changes from one known piece to
// another: a touch.
func (s *Session) readAgain(sq rules.Square, old, nc cell) bool {
	if nc.height != old.height {
		return false
	}
	switch {
	case nc.unknown() && !old.unknown():
		if s.unread == nil {
			s.unread = map[rules.Square]rules.Piece{}
		}
		s.unread[sq] = old.top
		return true
	case old.unknown() && !nc.unknown():
		was, ok := s.unread[sq]
		delete(s.unread, sq)
		return !ok || was == nc.top
	}
	return false
}

// quickCommit commits the move the board showed before event e if e is a
// lift of a square the opponent owns after that move.
func (s *Session) quickCommit(out []Output, e Event) []Output {
	t := s.currentTurn()
	if t.sig(s.obs) == "" {
		return out
	}
	idx, err := t.match(s.obs, s.lifted, s.lossy)
	if err != nil || len(idx) != 1 {
		return out
	}
	c := t.cands[idx[0]]
	if !s.opponentsLift(c, e.Square) {
		return out
	}
	if v, _ := s.touchViolation(t, c); v != "" && s.cfg.TouchMove == Strict {
		return out
	}
	return s.commit(out, idx[0], s.lastChange, s.lastBoard, false)
}

// dump takes the board's whole state: what it shows, then the presses
// held for it.
func (s *Session) dump(out []Output, e Event) []Output {
	out, ok := s.readDump(out, e)
	if !ok {
		return out
	}
	return s.dumpRead(out, e.At)
}

// dumpSetUp takes the board's whole state while it is being set up. A
// dump is the whole board at one instant, not pieces still being put
// down: showing the start position, it ends the set-up at once, so a
// move made right after it is read (issue 18 §4).
func (s *Session) dumpSetUp(out []Output, e Event) []Output {
	out, ok := s.readDump(out, e)
	if !ok {
		return out
	}
	if s.currentTurn().sig(s.obs) == "" {
		out = s.setUpDone(out, e.At)
	}
	return s.dumpRead(out, e.At)
}

// readDump writes a state dump into what the session observes; ok is
// false when it does not fit the board (out then has the alert).
func (s *Session) readDump(out []Output, e Event) (_ []Output, ok bool) {
	if len(e.Heights) != s.geo.Len() {
		return append(out, s.alert(IrregularityAlert, s.pos.Turn(), e.At, fmt.Sprintf("state dump has %d squares, the board has %d", len(e.Heights), s.geo.Len()), false).shown("sensor fault: call the arbiter")), false
	}
	s.note(e.At, "state dump")
	before := slices.Clone(s.obs)
	s.observe(s.obs, e.Heights, e.Tops)
	for i, n := range e.ZoneCounts {
		if z := s.gameZone(i); z >= 0 {
			s.obs[s.geo.Len()+z].height = n
		}
	}
	if !s.dumped || !slices.Equal(before, s.obs) {
		// A dump that shows what was already seen is no change of the
		// board: the dumps asked for while a game waits for its set-up
		// (every few seconds) must not put off the set-up alert.
		s.changed(e)
	}
	s.dumped = true
	return out, true
}

// dumpRead follows a state dump read at instant at: what the change
// means, then the presses held for the dump, judged late.
func (s *Session) dumpRead(out []Output, at time.Duration) []Output {
	out = s.afterChange(out, at)
	s.stale = false
	held := s.held
	s.held = nil
	for _, h := range held {
		out = s.step(out, input{Event: h, held: true})
	}
	return out
}

// observe writes a whole board's squares (heights and top pieces in
// sensor order, as a dump has them) into obs, as the session senses them.
func (s *Session) observe(obs []cell, heights []int, tops []rules.Piece) {
	for i, h := range heights {
		c := cell{height: h}
		if h > 0 && i < len(tops) {
			c.top = s.cfg.Caps.project(tops[i])
		}
		obs[s.geo.SensorSquare(i)] = c
	}
}

// afterChange handles what a change of the board means at once: the
// mode's (a recovery ends when the board is put right), then the last
// move's watch.
func (s *Session) afterChange(out []Output, at time.Duration) []Output {
	s.judged = ""
	t := s.currentTurn()
	s.trimChanges(t)
	out = s.step(out, input{Event: Event{Kind: boardChanged, At: at}})
	if s.last != nil && s.last.touched && t.sig(s.obs) == "" && !t.swapLifted(s.lifted) {
		// (Unless the lifts may be the opponent's move that changes
		// nothing a board senses: a Tensor swap.)
		out = s.changedAfterPress(out, at)
	}
	return out
}

// changedAfterPress reports the last move's squares lifted and put back
// before the opponent moved. By shogi.md 6.3 a lift and put-back is not a
// move, so the position stays; by 3.4.4 a change of a committed move by
// its player is evidence of 待った (F8), which a human arbiter judges. The
// board cannot tell whose hand it was, so the lifts are not held against
// the opponent.
func (s *Session) changedAfterPress(out []Output, at time.Duration) []Output {
	l := s.last
	s.last = nil
	names := make([]string, len(l.squares))
	for i, sq := range l.squares {
		names[i] = s.squareName(sq)
		delete(s.lifted, sq)
	}
	s.touches = slices.DeleteFunc(s.touches, func(tc touch) bool { return slices.Contains(l.squares, tc.sq) })
	if s.lastUnstored() {
		return out // the move made again: unstored.go
	}
	msg := fmt.Sprintf("foul suspected (待った): the move of %s on %s was lifted and put back at %.1fs, after the clock press at %.1fs and before %s moved; the move stands, the arbiter decides",
		s.game.SideName(l.side), strings.Join(names, ", "), at.Seconds(), l.at.Seconds(), s.game.SideName(l.side.Other()))
	a := s.alert(FoulSuspectedAlert, l.side, at, msg, false).shown(
		fmt.Sprintf("%s's move (%s) touched after the press: arbiter decides", s.game.SideName(l.side), strings.Join(names, ", ")),
		"move touched after the press: the arbiter decides")
	a.Squares = slices.Clone(l.squares)
	return append(out, a)
}

// checkHands compares the zones the board counts (hand stands, Kvaa
// reserve trays) with the position while the squares show it (a move in
// progress is judged when it is made). since is when the board came to
// its state. A zone holding more than the position puts there (a captured
// piece on the wrong stand, a Kvaa counter placed from elsewhere than the
// reserve) is alerted at once; a zone short of a piece only after
// HandGrace and only the last mover's (a captured piece held in the hand,
// a second reserve counter taken up), never the player to move's (a piece
// taken up to drop or place). Neither is a foul (shogi.md 6.6); trays of
// captured pieces are never alerted (kvaa.md 7.2: a captured counter may
// go anywhere off the board).
func (s *Session) checkHands(out []Output, at, since time.Duration) []Output {
	if s.hand == nil || s.SettingUp() || s.over.Over() {
		return out
	}
	t := s.currentTurn()
	if t.sig(s.obs) != "" {
		return out
	}
	key := t.handSig(s.obs)
	if key != s.handKey {
		s.handKey, s.handSince = key, since
	}
	if key == "" {
		s.handTold = "" // agreed again: the next disagreement is news
		return out
	}
	if key == s.handTold {
		return out
	}
	side, msg, shown, ok := s.trayAlert(t, at)
	if !ok {
		return out
	}
	s.handTold = key
	return append(out, s.alert(EtiquetteAlert, side, at, msg, false).shown(shown))
}

// trayAlert says, at instant at, how the counted zones disagree with the
// position of turn t: a piece over in one and short in another, over, or
// the last mover's short for HandGrace; ok is false when that is not yet
// for an alert.
func (s *Session) trayAlert(t *turn, at time.Duration) (side rules.Color, msg, shown string, ok bool) {
	n := s.geo.Len()
	var over, short []rules.Zone
	for i, z := range s.geo.Zones() {
		switch d := s.obs[n+i].height - t.baseCells[n+i].height; {
		case !s.hand[n+i] || z.Kind == rules.Captured:
		case d > 0:
			over = append(over, z)
		case d < 0:
			short = append(short, z)
		}
	}
	switch {
	case len(over) > 0 && len(short) > 0:
		msg, shown = s.trayMisplaced(over[0], short[0])
		return short[0].Owner, msg, shown, true
	case len(over) > 0:
		msg, shown = s.trayOver(over[0])
		return over[0].Owner, msg, shown, true
	}
	mover := s.pos.Turn().Other()
	k := slices.IndexFunc(short, func(z rules.Zone) bool { return z.Owner == mover })
	if k < 0 || at-s.handSince < s.cfg.HandGrace {
		return 0, "", "", false
	}
	msg, shown = s.trayShort(short[k], (at - s.handSince).Round(time.Second))
	return mover, msg, shown, true
}

// trayMisplaced says that a piece of zone short lies in zone over: for
// people, and for a board's display.
func (s *Session) trayMisplaced(over, short rules.Zone) (string, string) {
	a, b := s.game.SideName(short.Owner), s.game.SideName(over.Owner)
	if short.Kind == rules.Hand {
		return fmt.Sprintf("a piece of %s's hand lies on %s's stand: put it on %s's stand (etiquette, not a foul)", a, b, a),
			fmt.Sprintf("%s's piece on %s's stand: put it on %s's", a, b, a)
	}
	return fmt.Sprintf("a counter of %s's reserve lies on %s's reserve tray: put it back on %s's (etiquette, not a foul)", a, b, a),
		fmt.Sprintf("%s's reserve counter in %s's tray: put it back", a, b)
}

// trayOver says that zone z holds a piece the position does not put
// there.
func (s *Session) trayOver(z rules.Zone) (string, string) {
	a := s.game.SideName(z.Owner)
	if z.Kind == rules.Hand {
		return fmt.Sprintf("%s's stand holds a piece that is not in %s's hand: take it away (etiquette, not a foul)", a, a),
			fmt.Sprintf("%s's stand holds a piece too many: take it away", a)
	}
	return fmt.Sprintf("%s's reserve tray holds more counters than %s's reserve: a counter was placed from elsewhere, or a captured one lies there; take it out (etiquette, not a foul)", a, a),
		fmt.Sprintf("%s's reserve tray holds a counter too many", a)
}

// trayShort says that the last mover's zone z has lacked a piece for d.
func (s *Session) trayShort(z rules.Zone, d time.Duration) (string, string) {
	a := s.game.SideName(z.Owner)
	if z.Kind == rules.Hand {
		return fmt.Sprintf("%s's captured piece has not reached %s's stand for %v: put it there (etiquette, not a foul)", a, a, d),
			fmt.Sprintf("%s: put the captured piece on the stand", a)
	}
	return fmt.Sprintf("a counter of %s's reserve has been off its tray for %v: put it back (etiquette, not a foul)", a, d),
		fmt.Sprintf("%s: put the reserve counter back in its tray", a)
}

// Tick lets time pass to instant now: a settled board is judged, the clock
// fires its deadlines.
func (s *Session) Tick(now time.Duration) []Output {
	var out []Output
	s.now = max(s.now, now)
	if s.clk != nil {
		s.clk.Advance(now)
		out = s.clockEvents(out, now)
	}
	if s.over.Over() || s.horizon(now)-s.lastChange < s.cfg.Settle {
		return out
	}
	return s.step(out, input{Event: Event{Kind: boardSettled, At: now}})
}

// NextDeadline returns when the session next needs a Tick.
func (s *Session) NextDeadline() (time.Duration, bool) {
	var next deadline
	if !s.over.Over() {
		s.judgeDeadlines(&next)
	}
	if s.clk != nil {
		if d, has := s.clk.NextDeadline(s.now); has {
			next.consider(d.At)
		}
	}
	return next.at, next.ok
}

// deadline is the earliest of the instants considered, if any.
type deadline struct {
	at time.Duration
	ok bool
}

func (d *deadline) consider(at time.Duration) {
	if !d.ok || at < d.at {
		d.at, d.ok = at, true
	}
}

// judgeDeadlines considers the instants at which the board will have
// been judged settled, unmatched for long enough, wrongly set up for long
// enough, or its stands wrong for long enough. Only those still ahead:
// one the board has not yet reported past is met by its next heartbeat
// (Handle judges then).
func (s *Session) judgeDeadlines(next *deadline) {
	ahead := func(at time.Duration, due bool) {
		if due && at > s.now {
			next.consider(at)
		}
	}
	ahead(s.lastChange+s.cfg.Settle, true)
	ahead(s.lastChange+s.cfg.RecoveryAfter, !s.recovering())
	ahead(s.lastChange+s.cfg.SetupAlertAfter, s.SettingUp() && s.dumped)
	ahead(s.handSince+s.cfg.HandGrace, s.handKey != "" && s.handKey != s.handTold)
}

// pressOutOfTurn is a press by the side that has just moved: the press
// that a move completed on release may still have due, or an
// irregularity.
func (s *Session) pressOutOfTurn(out []Output, e Event) []Output {
	if s.pressDue && e.Side == s.history[len(s.history)-1].Turn() {
		// The press that confirms a move already complete on release
		// (or changed since: then the change is the move).
		s.pressDue = false
		return s.amendAtPress(out, e)
	}
	if s.lastUnstored() && e.Side == s.history[len(s.history)-1].Turn() {
		return out // the mover's move made again, with its press: unstored.go
	}
	return append(out, s.alert(IrregularityAlert, e.Side, e.At, s.game.SideName(e.Side)+" pressed the clock on the opponent's turn", false).shown(
		s.game.SideName(e.Side)+" pressed the clock on the opponent's turn"))
}

// pressRecovering is the press of the side to move during a recovery: a
// recovery alert, or, where the game judges at the press and no
// retraction is being put right, the end of the recovery and the press
// judged.
func (s *Session) pressRecovering(out []Output, e Event) []Output {
	if s.rs.open || !s.cfg.JudgeAtPress {
		return append(out, s.alert(RecoveryAlert, e.Side, e.At, "the clock was pressed before the board was put right", true).shown("put the board right before pressing the clock"))
	}
	// Judged at the press: the board as it is now is the move.
	s.endRecovery()
	out = append(out, Recovery{At: e.At, Done: true})
	return s.judgePress(out, e)
}

// judgePress judges what the board shows at a press of the side to move:
// the move, a question when several fit, a retraction, or an illegal
// move.
func (s *Session) judgePress(out []Output, e Event) []Output {
	side := s.pos.Turn()
	t := s.currentTurn()
	if t.sig(s.obs) == "" && !t.swapLifted(s.lifted) {
		return append(out, s.alert(IrregularityAlert, side, e.At, s.game.SideName(side)+" pressed the clock without moving", false).shown(
			s.game.SideName(side)+" pressed the clock without moving"))
	}
	idx, err := t.match(s.obs, s.lifted, s.lossy)
	if err != nil {
		return append(out, s.alert(IrregularityAlert, side, e.At, err.Error(), false).shown("fault: call the arbiter"))
	}
	idx = s.pair(t, idx)
	switch {
	case len(idx) == 1:
		return s.tryCommit(out, idx[0], e.At, e.BoardMs, true)
	case len(idx) > 1:
		s.lastBoard = e.BoardMs
		return s.ambiguous(out, idx, e.At, true)
	}
	if o, ok := s.judgeRetraction(out, t, e.At); ok {
		// The board shows the last mover's change, not this press's move.
		return append(o, s.alert(RecoveryAlert, side, e.At, "the clock was pressed before the board was put right", true).shown("put the board right before pressing the clock"))
	}
	return s.illegalMove(out, e.At)
}

// tryCommit commits candidate i unless a strict touch-move obligation
// forbids it.
func (s *Session) tryCommit(out []Output, i int, at time.Duration, boardMs int64, pressed bool) []Output {
	t := s.turn
	c := t.cands[i]
	if v, shown := s.touchViolation(t, c); v != "" {
		enforce := s.cfg.TouchMove
		if s.lossy && enforce == Strict {
			// Lost frames may hide the lift that came first: report only.
			enforce = Report
		}
		switch enforce {
		case Strict:
			if s.alerted != v {
				s.alerted = v
				a := s.alert(TouchMoveAlert, s.pos.Turn(), at, v+": put the pieces back and move the touched piece", true).shown(shown)
				a.Squares = []rules.Square{c.move.From(), c.move.To()}
				out = append(out, a)
			}
			// The press is refused: its question, if any, no longer
			// waits for it.
			s.prompt.press = false
			s.endQuestion()
			return out
		case Report:
			out = append(out, s.alert(TouchMoveAlert, s.pos.Turn(), at, v+" (recorded for a claim)", false).shown(shown+" (noted)", shown))
		}
	}
	return s.commit(out, i, at, boardMs, pressed)
}

// touchViolation returns a description of the touch-move rule that the
// move of c breaks, and the same for a board's display, or "".
func (s *Session) touchViolation(t *turn, c *candidate) (string, string) {
	if s.cfg.TouchMove == Off {
		return "", ""
	}
	side := t.pos.Turn()
	own := s.ownTouches(t, c)
	if len(own) == 0 {
		return "", ""
	}
	first := s.firstTouch(t, own)
	ordered := append([]touch{first}, own...)
	for _, tc := range ordered {
		if !t.movesFrom(tc.sq) {
			continue
		}
		if c.move.From() == tc.sq {
			return "", ""
		}
		name, who := s.squareName(tc.sq), s.game.SideName(side)
		if slices.Contains(c.changed, tc.sq) {
			// The move also moves the touched piece (castling with the
			// rook touched first).
			king := s.squareName(c.move.From())
			return fmt.Sprintf("touch-move: %s touched %s before %s and may not castle with it (FIDE 4.4.2); the piece on %s must move",
					who, name, king, name),
				fmt.Sprintf("%s touched %s before %s: no castling, move %s", who, name, king, name)
		}
		return fmt.Sprintf("touch-move: %s touched %s first and must move it", who, name),
			fmt.Sprintf("%s touched %s first: move it", who, name)
	}
	return "", ""
}

// ownTouches are the side to move's stacks touched, in order of first
// lift; the pieces the move of c uses as tools bind no one, nor do lifts
// that came while frames were lost.
func (s *Session) ownTouches(t *turn, c *candidate) []touch {
	side := t.pos.Turn()
	var tools []rules.Square
	if tm, ok := c.move.(rules.Tooled); ok {
		tools = tm.Tools()
	}
	var own []touch
	for _, tc := range s.touches {
		if col, ok := t.owner(tc.sq); ok && col == side && !tc.uncertain && !slices.Contains(tools, tc.sq) {
			own = append(own, tc)
		}
	}
	return own
}

// firstTouch is the touch that binds first among own. Lifts within the
// simultaneous window of the first, with both pieces in the air at once
// (none set down between the lifts), count as one touch; among them a
// square whose move also involves another of them (the Volkhv, the king
// in castling) binds. A rook set down before the king is lifted was
// touched first: no castling with it (FIDE 4.4.2, Tavreli src 4.3).
func (s *Session) firstTouch(t *turn, own []touch) touch {
	first := own[0]
	for _, tc := range own[1:] {
		if tc.at-own[0].at > s.cfg.Simultaneous || tc.placed != own[0].placed {
			break
		}
		if t.involves(tc.sq, own[0].sq) && t.movesFrom(tc.sq) {
			first = tc
		}
	}
	return first
}

// opponentTouches judges the lifts of the opponent's pieces that the move
// c did not need (the opponent's lifts after a move are attributed to
// the mover). Where touching an opponent's piece binds
// (rules.Traits.TouchCaptures, FIDE 4.3.2), the first such piece that
// could have been captured and was not is a touch-move matter, recorded
// for a claim; a piece that could not be captured was adjusted ("j'adoube",
// which the board cannot hear) and is kept in the evidence only. Elsewhere
// each such lift is an irregularity.
func (s *Session) opponentTouches(out []Output, t *turn, c *candidate, at time.Duration) []Output {
	side := t.pos.Turn()
	fide := s.game.Traits().TouchCaptures
	for _, tc := range s.touches {
		sq := tc.sq
		if col, ok := t.owner(sq); !ok || col == side || tc.uncertain {
			continue
		}
		captured := slices.Contains(c.changed, sq)
		if !fide {
			if !captured {
				out = append(out, s.alert(IrregularityAlert, side, at, fmt.Sprintf("the opponent's piece on %s was lifted", s.squareName(sq)), false).shown(
					fmt.Sprintf("%s lifted the opponent's piece on %s", s.game.SideName(side), s.squareName(sq))))
			}
			continue
		}
		if !t.capturable(sq) {
			s.note(at, "the opponent's piece on %s was lifted and cannot be captured: an adjustment (FIDE 4.3.2)", s.squareName(sq))
			continue
		}
		if !captured && s.cfg.TouchMove != Off {
			a := s.alert(TouchMoveAlert, side, at, fmt.Sprintf("touch-move: %s touched the opponent's piece on %s, which could be captured, and did not capture it (FIDE 4.3.2; recorded for a claim)",
				s.game.SideName(side), s.squareName(sq)), false).shown(
				fmt.Sprintf("%s touched %s and did not take it (noted)", s.game.SideName(side), s.squareName(sq)))
			a.Squares = []rules.Square{sq}
			out = append(out, a)
		}
		break // the first touched piece that can be captured is the one due
	}
	return out
}

// commit plays candidate i: the clock is pressed at instant at, the move is
// reported, and the game's end is judged. pressed says that the mover's
// clock press completed the move, so that no further press is due.
func (s *Session) commit(out []Output, i int, at time.Duration, boardMs int64, pressed bool) []Output {
	t := s.turn
	c := t.cands[i]
	side := s.pos.Turn()
	mm := MoveMade{Ply: len(s.history) + 1, Side: side, Move: c.move, Notation: s.pos.FormatMove(c.move),
		Position: c.next, At: at, BoardMs: boardMs, RawSeq: s.lastRaw}
	if s.clk != nil {
		cm, err := s.pressClock(side, at, mm.Ply)
		switch {
		case errors.Is(err, clock.ErrFlagged):
			return s.clockEvents(out, at)
		case errors.Is(err, errHeld):
			mm.Used = cm.Used
			if s.recalling {
				// Made while the daemon did not watch the board: its
				// clock was not held then.
				s.note(at, "move from the board's log: the clocks are held")
			} else {
				out = append(out, s.alert(IrregularityAlert, side, at, s.game.SideName(side)+" moved while the clocks are held: no time is charged until they run again", false).shown(
					"clocks held: no time charged until they run again"))
			}
		case err != nil && !errors.Is(err, clock.ErrNotStarted):
			out = append(out, s.alert(IrregularityAlert, side, at, "clock: "+err.Error(), false).shown("clock fault: call the arbiter"))
		case err == nil:
			mm.Used = cm.Used
		}
		mm.Clock = [2]time.Duration{s.clk.Remaining(clock.First, at), s.clk.Remaining(clock.Second, at)}
	}
	out = s.opponentTouches(out, t, c, at)
	s.history = append(s.history, s.pos)
	s.pos = c.next
	s.committed(c.move)
	s.pressDue = s.cfg.Completion == OnRelease && !pressed
	s.resetWindow()
	s.last = nil
	if pressed && s.cfg.TouchMove == Off {
		// Where touches bind, the opponent's touch of these squares is
		// theirs to answer for; elsewhere watch them (shogi.md 3.4.4).
		s.last = &lastMove{side: side, at: at, squares: slices.Clone(c.changed)}
	}
	out = append(out, mm)
	out = s.checkHands(out, at, at)
	if o := s.pos.Outcome(s.history); o.Over() {
		out = s.end(out, o, at, "")
	}
	return out
}

// promptFor is the question that asks which of the candidates idx was
// made.
func (s *Session) promptFor(idx []int, at time.Duration) Prompt {
	t := s.turn
	p := Prompt{Side: t.pos.Turn(), At: at, Promotion: promotion(t, idx)}
	for _, i := range idx {
		m := t.cands[i].move
		p.Choices = append(p.Choices, t.pos.FormatMove(m))
		p.Moves = append(p.Moves, m.String())
		p.From = append(p.From, m.From())
		p.To = append(p.To, m.To())
	}
	if sameSquares(t, idx) {
		p.Question = "which move was made? (the board cannot see the difference)"
	} else {
		p.Question = "several legal moves fit what the board shows: which one was made?"
	}
	return p
}

// sameSquares reports whether the candidates all go from one square to
// another (a promotion or not), rather than being different moves.
func sameSquares(t *turn, idx []int) bool {
	first := t.cands[idx[0]].move
	for _, i := range idx[1:] {
		if m := t.cands[i].move; m.From() != first.From() || m.To() != first.To() {
			return false
		}
	}
	return true
}

// promotion reports whether the two candidates idx are one move with and
// without promotion, the promotion first: the piece it leaves on the
// destination differs only in its face.
func promotion(t *turn, idx []int) bool {
	if len(idx) != 2 || !sameSquares(t, idx) {
		return false
	}
	a, b := t.cands[idx[0]], t.cands[idx[1]]
	pa, oka := a.next.View().Top(a.move.To())
	pb, okb := b.next.View().Top(b.move.To())
	if !oka || !okb || pa.Face != rules.Back || pb.Face == rules.Back {
		return false
	}
	pb.Face = pa.Face
	return pa == pb
}

// ambiguous asks which of the candidates idx was made, at a settle or
// at a clock press (pressed), which the answer then completes.
func (s *Session) ambiguous(out []Output, idx []int, at time.Duration, pressed bool) []Output {
	if len(idx) == 2 && promotion(s.turn, []int{idx[1], idx[0]}) {
		// The promotion comes first: the board's "yes" is choice 0.
		idx = []int{idx[1], idx[0]}
	}
	p := s.promptFor(idx, at)
	sameOrigin := sameSquares(s.turn, idx)
	if pressed {
		s.prompt = question{idx: idx, press: true, at: at}
		s.setBase(modePrompting)
	} else {
		s.prompt = question{idx: idx}
	}
	// The question is asked every time the board comes to it (a lost
	// answer is asked again); the arbiter is alerted once.
	out = append(out, p)
	sig := "ambiguity:" + strings.Join(p.Moves, ",")
	if s.alerted == sig {
		return out
	}
	s.alerted = sig
	if !sameOrigin {
		a := s.alert(AmbiguityAlert, p.Side, at, "ambiguous move: "+strings.Join(p.Choices, " or "), true).shown(
			"which move? "+strings.Join(p.Choices, " or "), "which move was made? answer the question")
		out = append(out, a)
	}
	return out
}

func (s *Session) answered(out []Output, e Event) []Output {
	q := s.prompt.idx
	if s.over.Over() {
		s.note(e.At, "answer %d ignored: the game is over (%s)", e.Choice, s.over)
		return out
	}
	if e.Choice == AnswerLost && q != nil && e.Side == s.pos.Turn() {
		s.note(e.At, "answer lost: asking again")
		return append(out, s.promptFor(q, e.At))
	}
	if (e.Choice == AnswerYes || e.Choice == AnswerNo) && q != nil && e.Side == s.pos.Turn() && promotion(s.turn, q) {
		if e.Choice == AnswerYes {
			return s.resolve(out, q[0], e.At)
		}
		return s.resolve(out, q[1], e.At)
	}
	if q == nil || e.Side != s.pos.Turn() || e.Choice < 0 || e.Choice >= len(q) {
		s.note(e.At, "answer %d ignored", e.Choice)
		return out
	}
	return s.resolve(out, q[e.Choice], e.At)
}

// Resolve settles an ambiguity or answers a prompt with the canonical form
// of one of the candidate moves (the arbiter console or the player).
func (s *Session) Resolve(move string, at time.Duration) ([]Output, error) {
	if s.prompt.idx == nil {
		return nil, errors.New("resolve: no question is open")
	}
	if s.over.Over() {
		return nil, fmt.Errorf("resolve: the game is over (%s)", s.over)
	}
	for _, i := range s.prompt.idx {
		if s.turn.cands[i].move.String() == move {
			return s.resolve(nil, i, at), nil
		}
	}
	return nil, fmt.Errorf("resolve: %q is not one of the candidate moves", move)
}

func (s *Session) resolve(out []Output, i int, at time.Duration) []Output {
	when, board := s.lastChange, s.lastBoard
	pressed := s.prompt.press
	if pressed {
		when = s.prompt.at
	}
	s.note(at, "resolved as %s", s.turn.cands[i].move)
	return s.tryCommit(out, i, when, board, pressed)
}

func (s *Session) illegalMove(out []Output, at time.Duration) []Output {
	side := s.pos.Turn()
	s.illegal[side]++
	n := s.illegal[side]
	t := s.turn
	fixes := s.describe(t.base, t.baseCells, s.obs, false)
	msg := fmt.Sprintf("illegal move by %s (number %d): the board shows no legal move", s.game.SideName(side), n)
	short := fmt.Sprintf("illegal move %d by %s", n, s.game.SideName(side))
	why := s.explain(t.base, fixes)
	if why != "" {
		msg += ": " + why
	}
	a := s.alert(IllegalMoveAlert, side, at, msg, true).shown(short+": "+why, short+": restore the lit squares")
	a.Squares = fixSquares(fixes)
	out = append(out, a)
	if out, over := s.penalize(out, side, n, at, "illegal move"); over {
		return out
	}
	return s.enterRecovery(out, at, "restore the position before the illegal move")
}

// illegalLoss is the result of side's losing illegal move: a loss, or a
// draw where the game says so (FIDE 7.5.5) and the opponent cannot win
// from the position by any series of legal moves.
func (s *Session) illegalLoss(side rules.Color) rules.Outcome {
	if s.game.Traits().IllegalLossDrawnIfUnwinnable {
		if w, ok := s.pos.(rules.Winnable); ok {
			if can, known := w.CanEverWin(side.Other()); known && !can {
				return rules.Draw(rules.IllegalMove)
			}
		}
	}
	return rules.Loss(side, rules.IllegalMove)
}

// enterRecovery asks for the board to be put back to the position, fix
// by fix; an empty reason is worked out from them (Session.unmatched).
func (s *Session) enterRecovery(out []Output, at time.Duration, reason string) []Output {
	s.setBase(modeRecovering)
	t := s.turn
	fixes := s.describe(t.base, t.baseCells, s.obs, false)
	if reason == "" {
		reason = s.unmatched(t.base, fixes)
	}
	return append(out, Recovery{At: at, Reason: reason, Fixes: fixes, Board: fit(reason, "restore the position: see the lit squares")})
}

// clockEvents turns the clock's events into outputs, ending the game on a
// final flag.
func (s *Session) clockEvents(out []Output, at time.Duration) []Output {
	evs := s.clk.Events(nil)
	for _, ev := range evs {
		out = append(out, ClockEvent{ev})
		if ev.Kind == clock.LinkSilent {
			out = append(out, s.alert(LinkAlert, rules.Color(ev.Side), at, "the board fell silent past a flag: the clock is held", false).shown(
				"board silent past a flag: the clock is held"))
		}
		if ev.Kind != clock.Flag || !ev.Final || s.over.Over() {
			continue
		}
		side := rules.Color(ev.Side)
		switch ev.Verdict {
		case clock.FlagLoses:
			if s.game.Traits().FlagDraws {
				out = s.end(out, rules.Draw(rules.Time), ev.At, s.game.SideName(side)+"'s flag fell: a draw by the game's rule")
				break
			}
			out = s.end(out, rules.Loss(side, rules.Time), ev.At, s.game.SideName(side)+" lost on time")
		case clock.FlagDraws:
			out = s.end(out, rules.Draw(rules.Time), ev.At, s.game.SideName(side)+"'s flag fell, but the opponent cannot win")
		default:
			out = append(out, s.alert(FlagAlert, side, ev.At, s.game.SideName(side)+"'s flag fell: the arbiter decides the result", true).shown(
				s.game.SideName(side)+"'s flag fell: the arbiter decides"))
		}
	}
	return out
}

func (s *Session) end(out []Output, o rules.Outcome, at time.Duration, detail string) []Output {
	if s.over.Over() {
		return out
	}
	s.over = o
	if s.clk != nil {
		_ = s.clk.Stop(at) // a flagged clock is already frozen
	}
	return append(out, GameOver{Outcome: o, At: at, Detail: detail})
}

// SetResult ends the game by a decision outside the board: resignation,
// agreement, the arbiter.
func (s *Session) SetResult(o rules.Outcome, at time.Duration, detail string) ([]Output, error) {
	if !o.Over() {
		return nil, errors.New("set result: the outcome is not a result")
	}
	if s.over.Over() {
		return nil, fmt.Errorf("set result: the game is already over (%s)", s.over)
	}
	return s.end(nil, o, at, detail), nil
}

// Claim checks a draw claim by the side to move (threefold repetition, the
// 50-move rule) and ends the game if it is valid.
func (s *Session) Claim(side rules.Color, at time.Duration) ([]Output, error) {
	if side != s.pos.Turn() {
		return nil, errors.New("claim: only the side to move may claim")
	}
	c, ok := s.pos.(rules.Claimer)
	if !ok {
		return nil, fmt.Errorf("claim: %s has no claimable draws", s.game.Name())
	}
	claims := c.Claims(s.history)
	if len(claims) == 0 {
		return nil, errors.New("claim: no draw can be claimed in this position")
	}
	return s.end(nil, claims[0], at, "draw claimed by "+s.game.SideName(side)), nil
}

// TakeBack undoes the last move (an arbiter's correction): the position,
// and the board must then be restored to it.
func (s *Session) TakeBack(at time.Duration) ([]Output, error) {
	if len(s.history) == 0 {
		return nil, errors.New("take back: no move to take back")
	}
	ply := len(s.history)
	s.pos = s.history[len(s.history)-1]
	s.history = s.history[:len(s.history)-1]
	s.pressDue = false
	s.last = nil
	s.over = rules.Outcome{}
	s.resetWindow()
	t := s.currentTurn()
	out := s.takeBackClock(nil, ply, at)
	if t.sig(s.obs) != "" {
		return s.enterRecovery(out, at, "restore the position before the taken-back move"), nil
	}
	if s.recovering() {
		s.endRecovery()
		out = append(out, Recovery{At: at, Done: true})
	}
	return out, nil
}

// squareName names sq as the game's players do (rules.SquareName): in
// alerts and in their evidence.
func (s *Session) squareName(sq rules.Square) string { return rules.SquareName(s.game, sq) }

func (s *Session) alert(k AlertKind, side rules.Color, at time.Duration, msg string, enforced bool) Alert {
	return Alert{Kind: k, Side: side, At: at, Message: msg, Evidence: slices.Clone(s.log), Enforced: enforced}
}
