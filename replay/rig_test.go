package replay_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/clock"
	sb "arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/replay"
	"arbiter/rules"
)

// rig is the daemon's read path fed by a simulated board, in one
// goroutine on a virtual clock: the board's wire bytes go through a
// replay.Reader (decoder, link, session) at the clock's instants, and the
// link's dump requests go back to the board as the driver would send them.
type rig struct {
	game  rules.Game
	geo   *rules.Geometry
	clock *sim.Virtual
	board *sim.Board
	rd    *replay.Reader
	rng   *rand.Rand
	human sim.Human
	// questions: prompts are shown on the board (QUESTION, as the
	// director sends them) and the player answers what the board shows.
	questions bool

	inbox   []chunk      // board to host, not yet read
	outbox  []sb.Message // host to board, not yet sent
	henc    sb.Encoder   // host frames
	hdec    *sb.Decoder  // the board's decoder of host frames
	plugged bool
	// unpluggedSent counts the frames the board sent into a pulled cable.
	unpluggedSent int

	moves   []arbiter.MoveMade
	alerts  []arbiter.Alert
	prompts []arbiter.Prompt
	// The number of moves committed when each alert and prompt came.
	alertPly, promptPly []int
	prompt              *arbiter.Prompt    // open question
	recov               []arbiter.Recovery // recovery demands
	started             bool
	over                *arbiter.GameOver

	// raw, if set, sees every frame the reader decodes (the raw log).
	raw func(wire []byte, host time.Duration, err error) uint64
}

type chunk struct {
	b  []byte
	at time.Duration
}

// rigConfig describes one simulated table.
type rigConfig struct {
	game   rules.Game
	caps   board.Caps
	faults sim.Faults
	seed   uint64
	human  sim.Human
	// configure adjusts the arbitration policy after the daemon's.
	configure func(*arbiter.Config)
	start     rules.Position
	// raw receives every frame the reader decodes (the raw log); noGame
	// leaves the rig without a session after the handshake.
	raw    func(wire []byte, host time.Duration, err error) uint64
	noGame bool
	// questions: see rig.questions.
	questions bool
}

const heartbeat = 500 * time.Millisecond

func newRig(c rigConfig) (*rig, error) {
	clock := &sim.Virtual{}
	graph := ""
	if !c.game.Geometry().Rectangular() {
		graph = c.game.Name()
	}
	b, err := sim.NewBoard(sim.Config{ID: "R-" + c.game.Name(), Geometry: c.game.Geometry(), Graph: graph, Caps: c.caps,
		Seed: c.seed, Faults: c.faults, Heartbeat: heartbeat}, clock)
	if err != nil {
		return nil, err
	}
	start := c.start
	if start == nil {
		start = c.game.Start()
	}
	b.Load(start.View())
	b.KeepLog()
	r := &rig{game: c.game, geo: c.game.Geometry(), clock: clock, board: b, rng: rand.New(rand.NewPCG(c.seed, 0xB0A4D)),
		human: c.human, hdec: sb.NewDecoder(), plugged: true, raw: c.raw, questions: c.questions}
	rd, err := replay.NewReader(sb.Protocol, "sim", 0)
	if err != nil {
		return nil, err
	}
	r.rd = rd
	r.rd.Replayer().(*sb.Replayer).Send = func(m sb.Message) { r.outbox = append(r.outbox, m) }
	r.rd.Output = r.output
	r.rd.Raw = func(wire []byte, host time.Duration, err error) uint64 {
		if r.raw != nil {
			return r.raw(wire, host, err)
		}
		return 0
	}
	b.SetOutput(r.receive)
	// The driver opens the port and asks who is there.
	r.outbox = append(r.outbox, &sb.HelloReqMsg{Major: sb.VersionMajor, Minor: sb.VersionMinor})
	r.pump()
	if r.rd.Info() == nil {
		// The HELLO itself may have been lost: ask again, as the driver does.
		for range 20 {
			r.wait(500 * time.Millisecond)
			if r.rd.Info() != nil {
				break
			}
			r.outbox = append(r.outbox, &sb.HelloReqMsg{Major: sb.VersionMajor, Minor: sb.VersionMinor})
			r.pump()
		}
		if r.rd.Info() == nil {
			return nil, fmt.Errorf("no HELLO from the board")
		}
	}
	if c.noGame {
		return r, nil
	}
	if err := r.startGame(c.game, c.start, c.configure, nil); err != nil {
		return nil, err
	}
	return r, nil
}

// startGame starts a session on the rig's reader as the director does:
// the daemon's policy and the board's caps, then a fresh dump of the board,
// which the session compares with the start position (nil: the game's).
func (r *rig) startGame(g rules.Game, start rules.Position, configure func(*arbiter.Config), clk *clock.Clock) error {
	cfg := arbiter.DefaultConfig(g)
	cfg.AwaitSetup, cfg.BoardTime = true, true
	cfg.Caps = arbiter.CapsOf(r.rd.Info().Caps)
	if configure != nil {
		configure(&cfg)
	}
	s, err := arbiter.NewSession(cfg, g, start, clk)
	if err != nil {
		return err
	}
	r.moves, r.alerts, r.prompts, r.alertPly, r.promptPly, r.recov = nil, nil, nil, nil, nil, nil
	r.prompt, r.over, r.started = nil, nil, false
	r.rd.Attach(s, r.clock.Now())
	r.pump()
	for range 40 {
		if r.started {
			break
		}
		r.wait(250 * time.Millisecond)
	}
	if !r.started {
		return fmt.Errorf("the session did not see the start position")
	}
	return nil
}

func (r *rig) receive(b []byte) {
	r.inbox = append(r.inbox, chunk{slices.Clone(b), r.clock.Now()})
}

func (r *rig) output(o arbiter.Output) {
	switch o := o.(type) {
	case arbiter.MoveMade:
		r.moves = append(r.moves, o)
		r.prompt = nil
	case arbiter.MoveAmended:
		r.moves[len(r.moves)-1] = o.New
	case arbiter.Alert:
		r.alerts = append(r.alerts, o)
		r.alertPly = append(r.alertPly, len(r.moves))
	case arbiter.Prompt:
		r.prompts = append(r.prompts, o)
		r.promptPly = append(r.promptPly, len(r.moves))
		r.prompt = &o
	case arbiter.Recovery:
		if !o.Done {
			r.recov = append(r.recov, o)
		}
	case arbiter.Started:
		r.started = true
	case arbiter.GameOver:
		r.over = &o
	}
}

// pump delivers what is in flight both ways until nothing is.
func (r *rig) pump() {
	for len(r.inbox) > 0 || len(r.outbox) > 0 {
		in := r.inbox
		r.inbox = nil
		for _, c := range in {
			r.rd.Feed(c.b, c.at, 0)
		}
		out := r.outbox
		r.outbox = nil
		if !r.plugged {
			continue
		}
		for _, m := range out {
			w := r.henc.Append(nil, m, uint32(r.clock.Now()/time.Millisecond))
			if r.raw != nil {
				r.raw(w, r.clock.Now(), nil) // the driver logs what it sends
			}
			for len(w) > 0 {
				n, f, err := r.hdec.Decode(w)
				w = w[n:]
				if err == nil {
					r.board.HandleHost(f)
				}
			}
		}
	}
}

// until lets virtual time run to t: the board sends its heartbeats, the
// reader ticks.
func (r *rig) until(t time.Duration) {
	ctx := context.Background()
	for {
		now := r.clock.Now()
		if now >= t {
			r.rd.Advance(now)
			return
		}
		_ = r.clock.SleepUntil(ctx, min(t, now+100*time.Millisecond))
		r.board.Idle()
		r.pump()
		r.rd.Advance(r.clock.Now())
	}
}

func (r *rig) wait(d time.Duration) { r.until(r.clock.Now() + d) }

// run performs physical steps at their times from now on.
func (r *rig) run(steps []sim.Step) error {
	base := r.clock.Now()
	for _, s := range steps {
		r.until(base + s.At)
		if err := r.board.Do(s); err != nil {
			return err
		}
		r.pump()
	}
	return nil
}

// awaitMove waits up to d for the session to commit move number ply,
// answering a prompt that offers the expected move with the player's
// answer button. It reports whether the move came.
func (r *rig) awaitMove(ply int, want rules.Move, side rules.Color, d time.Duration) bool {
	deadline := r.clock.Now() + d
	answered := false
	for r.clock.Now() < deadline {
		if len(r.moves) >= ply || r.over != nil {
			break
		}
		if p := r.prompt; p != nil && !answered {
			if i := slices.Index(p.Moves, want.String()); i >= 0 {
				value := board.AnswerChoice + uint8(i)
				if r.questions {
					value = r.ask(*p, i)
				}
				r.wait(300 * time.Millisecond)
				r.board.Press(board.ButtonAnswer, board.SideOf(side), value)
				r.pump()
				answered = true
				continue
			}
		}
		r.wait(100 * time.Millisecond)
	}
	return len(r.moves) >= ply
}

// ask shows prompt p on the board as the director does, and returns the
// answer value of a player who made choice i of what the board shows: yes
// or no to a promotion question, else the choice's number.
func (r *rig) ask(p arbiter.Prompt, i int) uint8 {
	r.outbox = append(r.outbox, (*sb.QuestionMsg)(p.Message(r.geo)))
	r.pump()
	q := r.board.Question()
	switch {
	case q.Kind == board.QuestionPromote && i == 0:
		return board.AnswerYes
	case q.Kind == board.QuestionPromote:
		return board.AnswerNo
	case q.Kind == board.QuestionNone || i >= len(q.Choices):
		return 0 // nothing the board can answer: the question stays open
	}
	return board.AnswerChoice + uint8(i)
}

// restore puts the board back to v by hand, pressing nothing.
func (r *rig) restore(v rules.View, m rules.Move, mover rules.Color) error {
	if r.board.View().Equal(v) {
		return nil
	}
	steps, err := sim.PlanMove(r.geo, r.board.View(), v, m, mover, calm(r.human), r.rng)
	if err != nil {
		return err
	}
	steps = slices.DeleteFunc(steps, func(s sim.Step) bool { return s.Op == sim.OpPress })
	return r.run(steps)
}

// calm is h without habits: a person putting pieces right.
func calm(h sim.Human) sim.Human {
	h.TouchBack, h.Adjust, h.Slide, h.OneByOne, h.TurnAfter = 0, 0, 0, 0, 0
	h.LateStand, h.EarlyStand, h.WrongStand, h.Retouch = 0, 0, 0, 0
	return h
}

// unplug pulls the cable for d; the board then restarts, as the sim
// runner's disconnect fault does.
func (r *rig) unplug(d time.Duration) {
	r.board.SetOutput(nil)
	r.plugged = false
	r.rd.Disconnect(r.clock.Now())
	before := len(r.board.Log())
	r.wait(d)
	r.unpluggedSent += len(r.board.Log()) - before
	r.rd.Connect("sim", r.clock.Now())
	r.plugged = true
	r.board.SetOutput(r.receive)
	r.board.Restart()
	r.pump()
}

// knock knocks the highest stack over and sets it up again between the
// adjust presses of the side to move, as an arbiter would have it done.
func (r *rig) knock(v rules.View, side rules.Color) error {
	best, bh := rules.Square(0), -1
	for sq, st := range v.Stacks {
		if len(st) > bh || (len(st) == bh && r.rng.IntN(2) == 0) {
			best, bh = rules.Square(sq), len(st)
		}
	}
	steps := sim.PlanKnock(r.geo, v, best, r.human, r.rng)
	if len(steps) == 0 {
		return nil
	}
	s := board.SideOf(side)
	press := sim.Step{Op: sim.OpPress, Button: board.ButtonAdjust, Side: s}
	first, last := press, press
	first.At = 0
	for i := range steps {
		steps[i].At += 200 * time.Millisecond
	}
	last.At = steps[len(steps)-1].At + 150*time.Millisecond
	all := append(append([]sim.Step{first}, steps...), last)
	if err := r.run(all); err != nil {
		return err
	}
	r.wait(time.Second)
	return nil
}

// invisible reports whether the board senses no difference between the
// views before and after a turn.
func (r *rig) invisible(t sim.Turn) bool {
	s1, z1 := r.sense(t.Before)
	s2, z2 := r.sense(t.After)
	return slices.Equal(s1, s2) && slices.Equal(z1, z2)
}

// sense returns what the rig's board would report for v: every square,
// and the zone counts where it counts them.
func (r *rig) sense(v rules.View) ([]board.SquareState, []int) {
	cfg := r.board.Config()
	cfg.Faults = sim.Faults{}
	b, err := sim.NewBoard(cfg, &sim.Virtual{})
	if err != nil {
		panic(err)
	}
	b.Load(v)
	var zones []int
	if cfg.Caps&(board.CapZoneCount|board.CapZoneIdentity) != 0 {
		for _, z := range v.Zones {
			zones = append(zones, len(z))
		}
	}
	return b.Sensed(), zones
}
