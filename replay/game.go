package replay

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/clock"
	"arbiter/rules"
	"arbiter/store"
)

// Options adjust a replay.
type Options struct {
	// Configure adjusts the arbitration policy after the daemon's defaults
	// (the game's rules, AwaitSetup, BoardTime) and the tournament's stored
	// touch-move and illegal-move policy.
	Configure func(*arbiter.Config)
	// Caps are used when the raw log holds no HELLO of the board before
	// the game; the link is then synchronised by a handshake made up from
	// the game's geometry. Without them such a game cannot be replayed.
	Caps *board.Caps
	// NoActions replays the sensor log alone, without the arbiter's stored
	// actions (resolutions, take-backs, results, clock corrections).
	NoActions bool
	// Tail is how long time runs on after the game's last frame, so that a
	// last move settles (default 1 s).
	Tail time.Duration
}

// Errors of [Game] that callers may want to tell apart.
var (
	// ErrNoBoard: the game was not played on a sensor board.
	ErrNoBoard = errors.New("the game was not played on a sensor board")
	// ErrNoFrames: the raw log holds no frame of the game.
	ErrNoFrames = errors.New("no raw frames")
	// ErrNoHello: the board's capabilities are unknown.
	ErrNoHello = errors.New("no HELLO of the board in the raw log before the game")
)

// rawChunk is how many frames a look back in the raw log reads at once.
const rawChunk = 4096

// Game replays a stored game's raw sensor log through a fresh session made
// as the daemon made it (game, options, start position, clock, arbitration
// policy, the capabilities of the board's last HELLO) and reports whether
// it gives the stored moves. Frames are fed at their stored host times with
// the driver's and the table's ticks in between, from the game's RawFrom
// until the next game on the board began or the log ends; the link is
// first brought up to date with the frames from the board's last HELLO.
// The arbiter's stored actions are applied at their wall-clock times.
func Game(ctx context.Context, db *store.DB, gameID uint64, opts Options) (*Report, error) {
	g, rg, start, err := gameRules(db, gameID)
	if err != nil {
		return nil, err
	}
	warm, frames, err := gameFrames(ctx, db, g)
	if err != nil {
		return nil, err
	}
	stored, err := db.Moves(gameID)
	if err != nil {
		return nil, fmt.Errorf("replay game %d: %w", gameID, err)
	}
	frames, stored, after, restartSeq := cutAtRestart(frames, stored)
	var actions []store.Action
	if !opts.NoActions {
		if actions, err = db.Actions(gameID); err != nil {
			return nil, fmt.Errorf("replay game %d: %w", gameID, err)
		}
		slices.SortStableFunc(actions, func(a, b store.Action) int { return a.At.Compare(b.At) })
	}
	rp, err := newReplayer(db, g, rg, frames, opts)
	if err != nil {
		return nil, fmt.Errorf("replay game %d: %w", gameID, err)
	}
	rp.rep.RestartSeq, rp.rep.WarmUp = restartSeq, len(warm)
	if err := rp.run(ctx, warm, frames, start, actions); err != nil {
		return nil, fmt.Errorf("replay game %d: %w", gameID, err)
	}
	var sp []Ply
	for _, m := range stored {
		sp = append(sp, storedPly(m))
	}
	sp, rp.rep.ReadAfterRestart = readAfterRestart(sp, after, rp.moves)
	rp.rep.pair(sp, rp.moves)
	return rp.rep, nil
}

// gameRules reads the stored game gameID, its rules and its start position
// (nil: the game's own), and checks that it has a board and a raw log.
func gameRules(db *store.DB, gameID uint64) (store.Game, rules.Game, rules.Position, error) {
	g, err := db.Game(gameID)
	if err != nil {
		return g, nil, nil, err
	}
	if g.BoardID == "" {
		return g, nil, nil, fmt.Errorf("replay game %d: %w", gameID, ErrNoBoard)
	}
	if g.RawFrom == 0 {
		return g, nil, nil, fmt.Errorf("replay game %d on board %s: %w: the game recorded no raw-log position", gameID, g.BoardID, ErrNoFrames)
	}
	rg, err := rules.NewFromText(g.Game, g.Options)
	if err != nil {
		return g, nil, nil, fmt.Errorf("replay game %d: %w", gameID, err)
	}
	var start rules.Position
	if g.StartPosition != "" {
		if start, err = rg.ParsePosition(g.StartPosition); err != nil {
			return g, nil, nil, fmt.Errorf("replay game %d: start position: %w", gameID, err)
		}
	}
	return g, rg, start, nil
}

// gameFrames reads the raw frames of game g, until the next game on its
// board began or the log ends, and the frames from the board's last
// handshake before them (warm).
func gameFrames(ctx context.Context, db *store.DB, g store.Game) (warm, frames []store.Frame, err error) {
	end, err := rawEnd(db, g)
	if err != nil {
		return nil, nil, fmt.Errorf("replay game %d: %w", g.ID, err)
	}
	frames, err = db.RawFrames(g.BoardID, g.RawFrom, end)
	if err != nil {
		return nil, nil, fmt.Errorf("replay game %d: %w", g.ID, err)
	}
	if len(frames) == 0 {
		return nil, nil, fmt.Errorf("replay game %d: %w of board %s from sequence %d", g.ID, ErrNoFrames, g.BoardID, g.RawFrom)
	}
	// The frames' protocol chooses the replayer; one that only looks for
	// the last handshake before the game finds where to begin.
	probe, err := board.NewReplayer(frames[0].Protocol, board.ReplayConfig{})
	if err != nil {
		return nil, nil, fmt.Errorf("replay game %d on board %s: %w", g.ID, g.BoardID, err)
	}
	warm, err = lookBack(ctx, db, g.BoardID, g.RawFrom, probe.Handshake)
	if err != nil {
		return nil, nil, fmt.Errorf("replay game %d: %w", g.ID, err)
	}
	return warm, frames, nil
}

// cutAtRestart cuts the frames at a daemon restart, which starts a new
// host timeline and a resumed session: the replay covers the game up to
// the restart, and the moves made before it; the stored moves read after
// the restart are returned apart (after), with the restart's sequence. A
// small step back is no restart (restarted): a host frame timed when it
// was queued may reach the log just after a board frame read a moment
// later (issue 18 §4).
func cutAtRestart(frames []store.Frame, stored []store.Move) (_ []store.Frame, _, after []store.Move, restartSeq uint64) {
	for i := 1; i < len(frames); i++ {
		if !restarted(frames[i-1], frames[i]) {
			continue
		}
		restartSeq = frames[i].Seq
		kept := stored[:0:0]
		for _, m := range stored {
			if m.RawSeq != 0 && m.RawSeq < restartSeq {
				kept = append(kept, m)
			} else {
				after = append(after, m)
			}
		}
		return frames[:i], kept, after, restartSeq
	}
	return frames, stored, nil, 0
}

// newReplayer makes the replayer of game g from frames: with the event's
// policy, stored with its tournament, the setting the live driver read
// the board with, and the report's stored side.
func newReplayer(db *store.DB, g store.Game, rg rules.Game, frames []store.Frame, opts Options) (*replayer, error) {
	alerts, err := db.Alerts(false)
	if err != nil {
		return nil, err
	}
	var policy [2]string
	if g.TournamentID != 0 {
		t, err := db.Tournament(g.TournamentID)
		if err != nil {
			return nil, err
		}
		policy = [2]string{t.TouchMove, t.IllegalMove}
	}
	setting, err := Setting(db, frames[0].Protocol)
	if err != nil {
		return nil, err
	}
	rp := &replayer{
		policy: policy, setting: setting,
		rep: &Report{GameID: g.ID, Game: g.Game, Board: g.BoardID, StoredAlerts: map[string]int{},
			StoredResult: g.Result, StoredReason: g.Reason, FirstSeq: frames[0].Seq, LastSeq: frames[len(frames)-1].Seq,
			Frames: len(frames)},
		game: g, rg: rg, opts: opts,
	}
	for _, a := range alerts {
		if a.GameID == g.ID {
			rp.rep.StoredAlerts[a.Kind]++
		}
	}
	return rp, nil
}

// storedPly is the stored side of a report's ply.
func storedPly(m store.Move) Ply {
	return Ply{Ply: m.Ply, Stored: m.Canonical, StoredNotation: m.Notation, StoredAt: time.Duration(m.HostNs), StoredRaw: m.RawSeq,
		StoredClock: [2]time.Duration{m.ClockFirst, m.ClockSecond}}
}

// readAfterRestart extends the stored plies before a restart (sp) with the
// moves the replay read beyond them that the daemon stored only after the
// restart (after, in ply order): a move made as the daemon stopped is in
// the raw log before the restart, and the new daemon read it from the
// board when it resumed. The same move at the same ply is no difference;
// it returns the plies and how many were taken from after.
func readAfterRestart(sp []Ply, after []store.Move, replayed []Ply) ([]Ply, int) {
	n := 0
	for len(sp) < len(replayed) && n < len(after) {
		m := after[n]
		if m.Ply != len(sp)+1 || m.Canonical != replayed[len(sp)].Replayed {
			break
		}
		sp = append(sp, storedPly(m))
		n++
	}
	return sp, n
}

// rawEnd returns the last raw sequence of g: the frame before the next game
// on its board began, or 0 for the log's end.
func rawEnd(db *store.DB, g store.Game) (uint64, error) {
	games, err := db.Games()
	if err != nil {
		return 0, err
	}
	var next uint64
	for _, o := range games {
		if o.ID != g.ID && o.BoardID == g.BoardID && o.RawFrom > g.RawFrom && (next == 0 || o.RawFrom < next) {
			next = o.RawFrom
		}
	}
	if next == 0 {
		return 0, nil
	}
	return next - 1, nil
}

// record returns a stored frame as a replayer takes it.
func record(f store.Frame) board.Record {
	return board.Record{Seq: f.Seq, Host: time.Duration(f.HostNs), Sent: f.Sent, Data: f.Data}
}

// lookBack returns the board's frames from its last handshake before
// sequence from up to from-1, or nil when there is none.
func lookBack(ctx context.Context, db *store.DB, boardID string, from uint64, handshake func(board.Record) bool) ([]store.Frame, error) {
	var chunks [][]store.Frame
	hi := from - 1
	for hi >= 1 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		lo := uint64(1)
		if hi > rawChunk {
			lo = hi - rawChunk + 1
		}
		fs, err := db.RawFrames(boardID, lo, hi)
		if err != nil {
			return nil, err
		}
		for i := len(fs) - 1; i >= 0; i-- {
			if handshake(record(fs[i])) {
				out := slices.Clone(fs[i:])
				for j := len(chunks) - 1; j >= 0; j-- {
					out = append(out, chunks[j]...)
				}
				return out, nil
			}
		}
		chunks = append(chunks, fs)
		hi = lo - 1
	}
	return nil, nil
}

// replayer carries one replay.
type replayer struct {
	policy  [2]string // the tournament's touch-move and illegal-move policy
	setting []byte    // how the live driver read the board (board.ReplayConfig.Setting)
	rep     *Report
	game    store.Game
	rg      rules.Game
	opts    Options
	rd      *Reader
	start   time.Duration
	moves   []Ply
}

// run replays the game: the warm-up frames, then the game's frames with
// the arbiter's actions at their wall-clock times, through a fresh
// session that starts at the game's first frame, host and wall time.
func (rp *replayer) run(ctx context.Context, warm, frames []store.Frame, start rules.Position, actions []store.Action) error {
	first, firstWall := time.Duration(frames[0].HostNs), frames[0].Wall
	origin := first
	if len(warm) > 0 {
		origin = time.Duration(warm[0].HostNs)
	}
	rd, err := rp.newReader(frames[0].Protocol, origin)
	if err != nil {
		return err
	}
	if err := feedAll(ctx, rd, warm); err != nil {
		return err
	}
	if frames, err = rp.attach(frames); err != nil {
		return err
	}
	s, err := rp.session(start)
	if err != nil {
		return err
	}
	rp.start = first
	rd.Attach(s, first)
	if err := rp.play(ctx, frames, actions, firstWall); err != nil {
		return err
	}
	rp.rep.Stats = rd.Stats
	rp.rep.Outcome = s.Outcome()
	return nil
}

// newReader makes the replay's reader of protocol, whose host timeline
// begins at origin: its output goes to the report, and so do the corrupt
// frames and the snapshots that heal them.
func (rp *replayer) newReader(protocol string, origin time.Duration) (*Reader, error) {
	rd, err := NewReaderWithSetting(protocol, "replay", origin, rp.setting)
	if err != nil {
		return nil, fmt.Errorf("board %s: %w", rp.game.BoardID, err)
	}
	rp.rd = rd
	rd.Output = rp.output
	rd.Bad = func(seq uint64, host time.Duration, err error) {
		if rd.Session() == nil {
			return
		}
		rp.rep.Corrupt = append(rp.rep.Corrupt, CorruptFrame{Seq: seq, At: host - rp.start, Err: err.Error(), FromPly: rp.ply()})
	}
	rd.Event = func(e board.Event) {
		if e.Kind != board.EventSnapshot {
			return
		}
		for i := range rp.rep.Corrupt {
			if c := &rp.rep.Corrupt[i]; c.HealedBy == 0 {
				c.HealedBy, c.ToPly = e.RawSeq, rp.ply()
			}
		}
	}
	return rd, nil
}

// feedAll feeds frames to rd, stopping when ctx ends.
func feedAll(ctx context.Context, rd *Reader, frames []store.Frame) error {
	for i, f := range frames {
		if i%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		rd.FeedRecord(record(f))
	}
	return nil
}

// attach brings the reader to know the board before the game's frames:
// from the warm-up, from a handshake among the game's first frames, or
// from the capabilities given as an option (a synthesized HELLO). It
// returns the game's frames that are left to play.
func (rp *replayer) attach(frames []store.Frame) ([]store.Frame, error) {
	rd := rp.rd
	if rd.Info() == nil {
		// A board that attached after its game began opens the game's
		// frames with its HELLO; what comes before that reached no session
		// in the daemon either. A handshake may take several records (a
		// DGT host's start, then the board's version and serial number):
		// the game's frames begin once the board is known.
		if h := slices.IndexFunc(frames, func(f store.Frame) bool { return rd.Replayer().Handshake(record(f)) }); h >= 0 && h+1 < len(frames) {
			n := h + 1
			for _, f := range frames[:n] {
				rd.FeedRecord(record(f))
			}
			for ; rd.Info() == nil && n+1 < len(frames); n++ {
				rd.FeedRecord(record(frames[n]))
			}
			frames = frames[n:]
		}
	}
	if rd.Info() == nil {
		if rp.opts.Caps == nil {
			return nil, fmt.Errorf("board %s: %w (sequence %d): its capabilities are unknown; give them as an option", rp.game.BoardID, ErrNoHello, rp.game.RawFrom)
		}
		if err := rp.synthesize(frames[0]); err != nil {
			return nil, err
		}
		rp.rep.Synthetic = true
	}
	return frames, nil
}

// session makes the game's session from start as the daemon made it:
// the board's capabilities, the event's policy, the options' changes,
// the game's clock.
func (rp *replayer) session(start rules.Position) (*arbiter.Session, error) {
	caps := arbiter.CapsOfBoard(rp.rd.Info())
	rp.rep.Caps = caps
	cfg, err := arbiter.BoardConfig(rp.rg, rp.policy[0], rp.policy[1])
	if err != nil {
		return nil, err
	}
	if rp.opts.Configure != nil {
		rp.opts.Configure(&cfg)
	}
	cfg.Caps = caps
	clk, err := rp.clock()
	if err != nil {
		return nil, err
	}
	return arbiter.NewSession(cfg, rp.rg, start, clk)
}

// play feeds the game's frames at their host times, applying each action
// at its wall-clock time between them, and then the tail and the actions
// after the last frame. The session began at host time rp.start, wall
// time firstWall.
func (rp *replayer) play(ctx context.Context, frames []store.Frame, actions []store.Action, firstWall time.Time) error {
	rd := rp.rd
	next := 0 // the next action
	prevHost, prevWall := rp.start, firstWall
	for i, f := range frames {
		if i%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		host := time.Duration(f.HostNs)
		for next < len(actions) && !actions[next].At.After(f.Wall) {
			at := prevHost + actions[next].At.Sub(prevWall)
			rd.Advance(min(max(at, prevHost), host))
			rp.apply(actions[next])
			next++
		}
		rd.FeedRecord(record(f))
		prevHost, prevWall = host, f.Wall
	}
	tail := rp.opts.Tail
	if tail <= 0 {
		tail = time.Second
	}
	rd.Advance(prevHost + tail)
	for ; next < len(actions); next++ {
		rp.apply(actions[next])
	}
	return nil
}

// ply returns the ply being played.
func (rp *replayer) ply() int {
	if s := rp.rd.Session(); s != nil {
		return s.Plies() + 1
	}
	return 1
}

func (rp *replayer) output(o arbiter.Output) {
	at := func(t time.Duration) time.Duration { return t - rp.start }
	switch o := o.(type) {
	case arbiter.MoveMade:
		rp.moves = append(rp.moves, Ply{Ply: o.Ply, Replayed: o.Move.String(), ReplayedNotation: o.Notation, ReplayedAt: at(o.At), Raw: o.RawSeq, ReplayedClock: o.Clock})
	case arbiter.MoveAmended:
		// The mover changed the move before the press: it replaces the
		// last one, as in the store.
		m := o.New
		if n := len(rp.moves); n > 0 && rp.moves[n-1].Ply == o.Ply {
			rp.moves[n-1] = Ply{Ply: m.Ply, Replayed: m.Move.String(), ReplayedNotation: m.Notation, ReplayedAt: at(m.At), Raw: m.RawSeq, ReplayedClock: m.Clock}
		}
	case arbiter.Alert:
		rp.rep.Alerts = append(rp.rep.Alerts, Alert{Kind: o.Kind.String(), Side: o.Side, At: at(o.At), Ply: rp.ply(), Message: o.Message})
	case arbiter.Recovery:
		if !o.Done {
			rp.rep.Alerts = append(rp.rep.Alerts, Alert{Kind: arbiter.RecoveryAlert.String(), At: at(o.At), Ply: rp.ply(), Message: o.String()})
		}
	case arbiter.Prompt:
		rp.rep.Prompts++
	}
}

// clock makes the game's clock as the daemon does, or nil without one.
func (rp *replayer) clock() (*clock.Clock, error) {
	tc := rp.game.TimeControl
	if tc == "" || tc == "-" {
		return nil, nil
	}
	ctl, err := clock.Parse(tc)
	if err != nil {
		return nil, fmt.Errorf("time control %q: %w", tc, err)
	}
	return clock.New(ctl, clock.Options{Adjudicator: arbiter.Adjudicator(rp.rd.Session)})
}

// synthesize synchronises the replayer with a handshake made up from the
// game's geometry and the given capabilities, just before the game's
// first frame so that no loss is reported.
func (rp *replayer) synthesize(first store.Frame) error {
	geo := rp.rg.Geometry()
	info := board.Info{
		ID: rp.game.BoardID, Caps: *rp.opts.Caps, MaxHeight: 31,
		Width: uint8(geo.Width()), Height: uint8(geo.Height()), Cells: uint16(geo.Len()),
	}
	if !geo.Rectangular() {
		info.Graph = rp.rg.Name()
	}
	for _, z := range geo.Zones() {
		info.Zones = append(info.Zones, board.ZoneInfo{Kind: z.Kind, Owner: z.Owner})
	}
	if err := rp.rd.Replayer().Assume(info, record(first)); err != nil {
		return fmt.Errorf("board %s: %w, and none could be made up before frame %d: %v", rp.game.BoardID, ErrNoHello, first.Seq, err)
	}
	return nil
}

// restarted reports whether frame b was logged by a new daemon after a:
// its host timeline starts again, so the host instant steps back while
// the wall clock goes on. The daemon's reading and sending goroutines
// stamp frames before they take their turn at the log, so a step back of
// microseconds (or, on a loaded host, milliseconds) with the wall clock
// keeping pace is not a restart.
func restarted(a, b store.Frame) bool {
	back := time.Duration(a.HostNs - b.HostNs)
	if back <= 0 {
		return false
	}
	// How far the wall clock moved beyond the host's timeline.
	gap := b.Wall.Sub(a.Wall) + back
	return back > time.Second || gap > time.Second
}
