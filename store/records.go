package store

import "time"

// Tournament is one tournament of the event.
type Tournament struct {
	ID          uint64   `json:"id"`
	Name        string   `json:"name"`
	Game        string   `json:"game"`                  // registered game name, e.g. "tavreli"
	Options     string   `json:"options,omitempty"`     // rule options, "k=v,k=v"
	TimeControl string   `json:"timeControl,omitempty"` // clock text form
	System      string   `json:"system"`                // "swiss-dutch", "round-robin", ...
	Rounds      int      `json:"rounds"`
	TieBreaks   []string `json:"tieBreaks,omitempty"`
	// TouchMove and IllegalMove are the event's arbitration policy
	// ("strict", "chess", ...; empty: the game's default), kept so that a
	// replay judges as the event did.
	TouchMove   string    `json:"touchMove,omitempty"`
	IllegalMove string    `json:"illegalMove,omitempty"`
	Created     time.Time `json:"created"`
	// Accelerated is the acceleration of the pairings ("baku" or empty).
	Accelerated string `json:"accelerated,omitempty"`
	// HalfByes is how many half-point byes a player may request (0: none).
	HalfByes int `json:"halfByes,omitempty"`
	// RoundTimeControls overrides TimeControl for single rounds.
	RoundTimeControls map[int]string `json:"roundTimeControls,omitempty"`
	// EndedAfter is set when the chief arbiter ended the tournament early:
	// the last round played; Rounds keeps the planned number.
	EndedAfter int `json:"endedAfter,omitempty"`
}

// PlayedRounds is the number of rounds the tournament has: the planned
// rounds, or fewer if the chief arbiter ended it early.
func (t Tournament) PlayedRounds() int {
	if t.EndedAfter > 0 {
		return t.EndedAfter
	}
	return t.Rounds
}

// TimeControlOf returns the time control of a round.
func (t Tournament) TimeControlOf(round int) string {
	if tc, ok := t.RoundTimeControls[round]; ok && tc != "" {
		return tc
	}
	return t.TimeControl
}

// Player is a participant of one tournament, identified by start number.
type Player struct {
	TournamentID uint64 `json:"tournament"`
	ID           int    `json:"id"` // start number, from 1
	Name         string `json:"name"`
	Rating       int    `json:"rating,omitempty"`
	Title        string `json:"title,omitempty"`
	Federation   string `json:"federation,omitempty"`
	FideID       string `json:"fideId,omitempty"`
	// BirthYear is the player's year of birth, 0 when not known. Added
	// after schema 1's first release: older records read as 0.
	BirthYear int `json:"birthYear,omitempty"`
	// Birth is the full date of birth as TRF writes it (YYYY/MM/DD), ""
	// when only the year (or nothing) is known. Added after schema 1's
	// first release: older records read as "".
	Birth string `json:"birth,omitempty"`
	// Withdrawn players are paired no more: from round WithdrawnFrom on.
	Withdrawn     bool `json:"withdrawn,omitempty"`
	WithdrawnFrom int  `json:"withdrawnFrom,omitempty"`
	// Absent is set when the player lost a game by forfeit without
	// notice: not paired again until the arbiter re-admits them.
	Absent bool `json:"absent,omitempty"`
	// Joined is the first round a late entrant could be paired in (0 or 1
	// for a player who entered before round 1).
	Joined int `json:"joined,omitempty"`
	// Byes are byes requested for future rounds: round -> "H" (half
	// point) or "Z" (zero points), as TRF-26 writes them.
	Byes map[int]string `json:"byes,omitempty"`
}

// Paired reports whether the player is to be paired in round, and if not,
// the TRF code of the round's entry ("H", "Z").
func (p Player) Paired(round int) (bool, string) {
	switch {
	case p.Withdrawn && round >= p.WithdrawnFrom:
		return false, "Z"
	case p.Absent:
		return false, "Z"
	case round < p.Joined:
		return false, "Z"
	}
	if b, ok := p.Byes[round]; ok {
		return false, b
	}
	return true, ""
}

// Round is one round of a tournament with its pairings.
type Round struct {
	TournamentID uint64    `json:"tournament"`
	Number       int       `json:"number"` // from 1
	Pairings     []Pairing `json:"pairings"`
	PairedAt     time.Time `json:"pairedAt"`
	Trace        string    `json:"trace,omitempty"` // the pairing engine's explanation
	// How the round was paired: "" by the engine, "rematches" by the
	// engine with C1 relaxed, "manual" by the arbiter.
	How string `json:"how,omitempty"`
}

// Pairing is one board of a round: First moves first (White, sente).
// Second is 0 for a bye.
type Pairing struct {
	Board  int    `json:"board"`
	First  int    `json:"first"`
	Second int    `json:"second"`
	GameID uint64 `json:"game,omitempty"`
	// Result is the result for the tournament: "1-0", "0-1", "1/2-1/2",
	// forfeits "+/-", "-/+", "-/-", or "" while unplayed. A player not
	// paired (Second 0) has "bye" (the pairing-allocated bye), or the TRF
	// letter of a requested bye or absence: "H", "F" or "Z".
	Result string `json:"result,omitempty"`
	// Manual marks a board the arbiter paired by hand, with the criteria
	// the pairing breaks (empty if none).
	Manual string `json:"manual,omitempty"`
}

// Game is one game, with or without a sensor board.
type Game struct {
	ID            uint64    `json:"id"`
	TournamentID  uint64    `json:"tournament,omitempty"`
	Round         int       `json:"round,omitempty"`
	BoardNo       int       `json:"boardNo,omitempty"`
	BoardID       string    `json:"boardId,omitempty"` // sensor board id from its handshake
	Game          string    `json:"game"`
	Options       string    `json:"options,omitempty"`
	TimeControl   string    `json:"timeControl,omitempty"`
	StartPosition string    `json:"startPosition,omitempty"` // empty: the game's initial position
	First         string    `json:"first"`                   // player names as they played
	Second        string    `json:"second"`
	FirstID       int       `json:"firstId,omitempty"`
	SecondID      int       `json:"secondId,omitempty"`
	Result        string    `json:"result,omitempty"` // "1-0", "0-1", "1/2-1/2"; empty while running
	Reason        string    `json:"reason,omitempty"` // rules.Reason name
	Started       time.Time `json:"started"`
	Ended         time.Time `json:"ended,omitzero"`
	// RawFrom is the first raw-log sequence number of BoardID that belongs
	// to this game, so a replay starts there.
	RawFrom uint64 `json:"rawFrom,omitempty"`
	// Clock is the clock's snapshot taken when the daemon stopped, after
	// ClockPly moves, so a restarted daemon resumes the times.
	Clock    []byte `json:"clock,omitempty"`
	ClockPly int    `json:"clockPly,omitempty"`
	// Illegal counts each side's illegal moves (and retractions) so far,
	// which the game's penalty counts on: a restart must not forgive one.
	Illegal [2]int `json:"illegal,omitzero"`
	// Position is the position after the last stored move, in the game's
	// format, for quick display.
	Position string `json:"position,omitempty"`
	// Tags are the tags of the record the game was imported from that
	// the game's other fields do not hold (Event, Site, the players' Elo
	// and FIDE ids, ECO...), in the record's order, so that its exports
	// carry them again.
	Tags []Tag `json:"tags,omitempty"`
}

// Tag is one tag (header) of a game record: a name and its value.
type Tag struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Move is one move of a game, with the facts needed to print a scoresheet
// and to audit the clock.
type Move struct {
	GameID    uint64 `json:"game"`
	Ply       int    `json:"ply"`       // from 1
	Notation  string `json:"notation"`  // record notation
	Canonical string `json:"canonical"` // rules.Move.String()
	Position  string `json:"position"`  // the position after the move
	// BoardMs is the board's own timestamp of the clock press (or of the
	// event that completed the move); HostNs is the host's monotonic time
	// of it in nanoseconds since the daemon's epoch for this game.
	BoardMs int64     `json:"boardMs"`
	HostNs  int64     `json:"hostNs"`
	Wall    time.Time `json:"wall"`
	// Clock readings after the move, and the time the move used.
	ClockFirst  time.Duration `json:"clockFirst"`
	ClockSecond time.Duration `json:"clockSecond"`
	Used        time.Duration `json:"used"`
	// RawSeq is the raw-log sequence number of the frame that completed the
	// move.
	RawSeq uint64 `json:"rawSeq,omitempty"`
	// ClockState is the clock's snapshot after the move, so that a daemon
	// restarted after a crash resumes the times.
	ClockState []byte `json:"clockState,omitempty"`
}

// Alert is something the human arbiter must look at.
type Alert struct {
	ID       uint64    `json:"id"`
	GameID   uint64    `json:"game,omitempty"`
	BoardID  string    `json:"boardId,omitempty"`
	Kind     string    `json:"kind"` // "illegal-move", "touch-move", "ambiguity", ...
	Message  string    `json:"message"`
	Evidence string    `json:"evidence,omitempty"`
	At       time.Time `json:"at"`
	Resolved bool      `json:"resolved,omitempty"`
	// Resolution refers to the Action that resolved the alert.
	Resolution uint64 `json:"resolution,omitempty"`
	// Tournament is set for an alert about a tournament (a round that
	// cannot be paired) rather than a table.
	Tournament uint64 `json:"tournament,omitempty"`
	// Item names what an alert about the venue is about, where it is no
	// table, game or tournament: a configured serial port (its path, or
	// its pattern) that does not exist, cannot be opened, is held by
	// another program or answers nothing; a setting a check at start
	// found wrong (event.database, backup.dir, broadcast.push[0]). Added
	// after schema 1's first release: older records read as "".
	Item string `json:"item,omitempty"`
	// Where names the table and its players, for people.
	Where string `json:"where,omitempty"`
	// Advice says what the arbiter should do.
	Advice string `json:"advice,omitempty"`
	// Count is how many times the same cause was raised on the same table
	// while the alert was open (1 for a single event); Last is the latest.
	Count int       `json:"count,omitempty"`
	Last  time.Time `json:"last,omitzero"`
}

// Action is something the arbiter did, with who, when, what and why.
type Action struct {
	ID     uint64    `json:"id"`
	GameID uint64    `json:"game,omitempty"`
	Who    string    `json:"who"`
	What   string    `json:"what"` // "set-result", "add-time", "resolve-alert", ...
	Why    string    `json:"why"`
	Data   string    `json:"data,omitempty"`
	At     time.Time `json:"at"`
}

// Frame is one record of a board's raw log: bytes as they crossed the
// wire, in either direction.
type Frame struct {
	BoardID string    `json:"board"`
	Seq     uint64    `json:"seq"`    // the store's sequence for this board, from 1
	HostNs  int64     `json:"hostNs"` // host monotonic receive (or send) time
	Wall    time.Time `json:"wall"`
	Data    []byte    `json:"data"`
	// Protocol names the driver's protocol that wrote the record
	// (board.Info.Protocol); replays pick their decoder by it. Records
	// stored before it was kept read back as board.ProtocolSensorboard.
	Protocol string `json:"protocol,omitempty"`
	// Sent marks bytes the host wrote to the board. Records stored before
	// it was kept read back as received; our protocol's frames tell their
	// direction themselves.
	Sent bool `json:"sent,omitempty"`
}
