// Package demo puts simulated boards on an event, played by simulated
// people who make random legal moves with human timing, so that the
// daemon reads them through exactly the serial code path real boards
// use: the built-in demo, and the rehearsal of an event's own
// configuration (arbiter rehearse). The boards are made by their
// protocols' simulators (board.Protocol.Simulate), so that a protocol
// registered tomorrow is rehearsed as well.
//
// A configuration without ports (the built-in demo) gets one board for
// every game of a round in each tournament (or Config.Boards each): our
// own boards, and on the first chess tables a DGT e-board and the
// e-boards of the protocols Config.BoardsOf lists. A configuration
// with ports gets a simulated board of each port's protocol standing in
// for each board the port holds: one at a path, one for each listed
// board of a bus line (board.BoardsOf), and, behind a pattern or a USB
// identity, as many as the tables still want; each board is set up for
// the first tournament that still wants a board and whose game its
// protocol can play, and takes the id boards.assign gives a board of that
// tournament where its protocol lets the board choose its id.
package demo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"sync"
	"time"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/director"
	"arbiter/rules"
	"arbiter/store"
)

// Demo is the set of simulated boards and players of the demo event.
type Demo struct {
	d      *director.Director
	dir    string // where the pseudo-terminal links live
	log    *slog.Logger
	speed  float64
	seed   uint64
	faults float64

	plies   int
	players map[string]*player // by board id
	boards  []board.Simulated
	ports   map[string][]board.Port // by protocol
	index   map[string]int          // the boards made so far, by protocol
	// numbered counts the boards named so far by game, across the
	// tournaments, so that two tournaments of one game have boards of
	// their own.
	numbered map[string]int
	stats    *Stats

	// eboards are the protocols of the e-boards still to be put in the
	// first chess tournament, in order (the DGT board first).
	eboards  []string
	settings map[string]board.Settings
}

// Stats count what the simulated players did and how it was read.
type Stats struct {
	mu sync.Mutex
	// Played moves were made on the boards; Read were stored as made;
	// Misread were stored as another move (never expected); Retried were
	// put back and made again after the arbiter refused them or did not
	// read them; Abandoned games were stopped because a move was never
	// read.
	Played, Read, Misread, Retried, Abandoned int
}

func (s *Stats) add(f func(s *Stats)) {
	s.mu.Lock()
	f(s)
	s.mu.Unlock()
}

// Stats returns a copy of the counts so far.
func (dm *Demo) Stats() Stats {
	dm.stats.mu.Lock()
	defer dm.stats.mu.Unlock()
	return Stats{Played: dm.stats.Played, Read: dm.stats.Read, Misread: dm.stats.Misread, Retried: dm.stats.Retried, Abandoned: dm.stats.Abandoned}
}

// player is the two simulated people at one table, and its board.
type player struct {
	d     *director.Director
	stats *Stats
	plies int
	table *director.Table
	hands board.Simulated // the board, and the people's hands on it
	rng   *rand.Rand
	// patience is how long a player waits for a move to be read before
	// putting the position back and making it again: as long as a person
	// would wait, at the demo's speed, 10 to 30 seconds (a DGT bus line
	// reads a board's move within its poll, 2 s, whatever the speed).
	patience time.Duration

	news chan news // from the table's goroutine; never blocks it

	// handicaps, when set, are the handicaps (the values of the rule
	// option handicapKey) the table's games are given in turn, as an
	// arbiter sets them for a pairing before its game begins.
	handicaps   []rules.Handicap
	handicapKey string
}

// news is what a player hears from the director.
type news struct {
	start  *rules.Position // a game started from this position
	output arbiter.Output
}

// Config sets up the demo's simulated boards and players.
type Config struct {
	// Boards is how many boards each tournament gets; 0: one for every
	// game of a round.
	Boards int
	// Speed is how much faster than people the simulated players play
	// (1: as fast as people; 0 is taken as 1).
	Speed float64
	// Faults is the rate (0 to 1) of the boards' link and sensor faults,
	// where their protocol's simulator has them.
	Faults float64
	// Seed makes the boards' faults and the players' moves repeatable.
	Seed uint64
	// Plies is the most moves a game lasts before one side resigns (each
	// game lasts between half of it and all of it); 0 is taken as
	// DefaultPlies.
	Plies int
	// DGT puts one simulated DGT e-board in the first chess tournament.
	DGT bool
	// BoardsOf puts one simulated board of each protocol listed in the
	// first chess tournament, after the DGT board: its next tables.
	BoardsOf []string
	// Settings are the protocols' settings the daemon reads the boards
	// with (where White sits at a DGT clock), by protocol; nil for the
	// defaults.
	Settings map[string]board.Settings
	// Ports are the event's configured ports, each a simulated board
	// (or several) stands in for; none: the demo's own boards. Boards and
	// DGT are the demo's own boards' only.
	Ports []board.Port
	// Protocols are the ports' protocols, in the order of Ports (""
	// for our boards).
	Protocols []string
	// Assigned are the board ids boards.assign gives, by tournament
	// name, in the file's order: a simulated board of the tournament
	// takes the next where its protocol lets it choose its id.
	Assigned map[string][]string
}

// ProtocolDGT is the protocol of the demo's DGT e-board (Config.DGT).
const ProtocolDGT = "dgt"

// DefaultPlies is the most moves of a demo game when Config.Plies is 0.
const DefaultPlies = 80

// New creates the simulated boards in dir, for every tournament d runs
// (cfg.Boards each, or one for every game of a round when that is 0) or
// standing in for the boards of cfg.Ports, and gives each a table of d
// (the one boards.assign gave its id, or a new one); [Demo.Ports] says
// where the drivers find them.
func New(d *director.Director, cfg Config, dir string, log *slog.Logger) (*Demo, error) {
	if cfg.Speed <= 0 {
		cfg.Speed = 1
	}
	if cfg.Plies <= 0 {
		cfg.Plies = DefaultPlies
	}
	dm := &Demo{d: d, dir: dir, log: log, speed: cfg.Speed, seed: cfg.Seed, faults: cfg.Faults,
		plies: cfg.Plies, players: map[string]*player{}, stats: &Stats{}, settings: cfg.Settings,
		ports: map[string][]board.Port{}, index: map[string]int{}, numbered: map[string]int{}}
	if cfg.DGT {
		dm.eboards = append(dm.eboards, ProtocolDGT)
	}
	dm.eboards = append(dm.eboards, cfg.BoardsOf...)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	var err error
	if len(cfg.Ports) > 0 {
		err = dm.standIn(cfg)
	} else {
		err = dm.demoBoards(cfg)
	}
	if err != nil {
		dm.Close()
		return nil, err
	}
	return dm, nil
}

// tournament is one of the event's tournaments as its boards are made.
type tournament struct {
	id   uint64
	name string
	game rules.Game
	want int // boards it still wants
}

// tournaments returns the event's tournaments, each wanting boards
// boards, or one for every game of a round when boards is 0.
func (dm *Demo) tournaments(boards int) ([]*tournament, error) {
	var out []*tournament
	for _, id := range dm.d.TournamentIDs() {
		tc, err := dm.d.DB().Tournament(id)
		if err != nil {
			return nil, fmt.Errorf("demo: tournament %d: %w", id, err)
		}
		g, err := rules.NewFromText(tc.Game, tc.Options)
		if err != nil {
			return nil, fmt.Errorf("demo: tournament %q: %w", tc.Name, err)
		}
		want := boards
		if want == 0 {
			// One board for every game of a round.
			players, err := dm.d.DB().Players(id)
			if err != nil {
				return nil, fmt.Errorf("demo: tournament %q: %w", tc.Name, err)
			}
			want = len(players) / 2
		}
		out = append(out, &tournament{id: id, name: tc.Name, game: g, want: want})
	}
	return out, nil
}

// demoBoards makes the demo's own boards: cfg.Boards for each tournament
// (or one for every game of a round), our boards, the first chess board
// a DGT e-board with cfg.DGT and the next ones the e-boards of
// cfg.BoardsOf (all in the first chess tournament), the first table of a
// game with handicaps playing handicap games.
func (dm *Demo) demoBoards(cfg Config) error {
	tours, err := dm.tournaments(cfg.Boards)
	if err != nil {
		return err
	}
	chess := uint64(0) // the tournament that takes the e-boards
	for ti, t := range tours {
		game := t.game.Name()
		for n := 1; n <= t.want; n++ {
			name, protocol := dm.name(game), board.ProtocolSensorboard
			if len(dm.eboards) > 0 && game == "chess" && (chess == 0 || chess == t.id) {
				// The first chess boards are the e-boards.
				chess, protocol = t.id, dm.eboards[0]
				dm.eboards = dm.eboards[1:]
			}
			pl, err := dm.addBoard(t.id, protocol, name, t.game, uint64(ti*100+n))
			if err != nil {
				return err
			}
			dm.numbered[game]++
			if facts := rules.FactsOf(game); n == 1 && facts.HandicapOption != "" {
				// The first table of a game with handicaps (shogi) plays a
				// handicap game every round, as the arbiter sets it for
				// the pairing.
				pl.handicaps, pl.handicapKey = facts.Handicaps, facts.HandicapOption
			}
		}
	}
	return nil
}

// standIn makes a simulated board of its protocol for each board the
// configured ports hold (see the package documentation).
func (dm *Demo) standIn(cfg Config) error {
	tours, err := dm.tournaments(0)
	if err != nil {
		return err
	}
	wanted := 0
	for _, t := range tours {
		wanted += t.want
	}
	counts := make([]int, len(cfg.Ports))
	var open []int // the ports that do not say how many boards they hold
	for i, p := range cfg.Ports {
		counts[i] = board.BoardsOf(p)
		wanted -= counts[i]
		if counts[i] == 0 {
			open = append(open, i)
		}
	}
	for k, i := range open { // the boards still wanted, shared; one at least
		counts[i] = max(1, wanted/len(open))
		if wanted > 0 && k < wanted%len(open) {
			counts[i]++
		}
	}
	used := map[string]bool{}
	number := uint64(0)
	for i, p := range cfg.Ports {
		protocol := ""
		if i < len(cfg.Protocols) {
			protocol = cfg.Protocols[i]
		}
		for range counts[i] {
			number++
			if err := dm.standInBoard(tours, protocol, cfg.Assigned, used, number); err != nil {
				return fmt.Errorf("demo: port %s: %w", portName(p), err)
			}
		}
	}
	return nil
}

// standInBoard makes one simulated board of protocol, for the first
// tournament that still wants a board and whose game the protocol can
// play, else the first whose game it can play (a spare board).
func (dm *Demo) standInBoard(tours []*tournament, protocol string, assigned map[string][]string, used map[string]bool, number uint64) error {
	var errs []error
	for _, spare := range []bool{false, true} {
		for _, t := range tours {
			if !spare && t.want <= 0 {
				continue
			}
			id := dm.name(t.game.Name())
			for _, a := range assigned[t.name] {
				if !used[a] {
					id = a
					break
				}
			}
			pl, err := dm.addBoard(t.id, protocol, id, t.game, number)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", t.name, err))
				continue
			}
			if pl.table.ID == dm.name(t.game.Name()) {
				dm.numbered[t.game.Name()]++
			}
			used[pl.table.ID] = true
			t.want--
			return nil
		}
	}
	return fmt.Errorf("no tournament for a simulated board of protocol %q: %w", protocol, errors.Join(errs...))
}

// name is the name of the next simulated board of game: SIM-tav-1,
// numbered across the tournaments.
func (dm *Demo) name(game string) string {
	return fmt.Sprintf("SIM-%s-%d", abbrev(game), dm.numbered[game]+1)
}

// portName names a port as its entry does.
func portName(p board.Port) string {
	switch {
	case p.Path != "":
		return p.Path
	case p.Glob != "":
		return p.Glob
	}
	return fmt.Sprintf("usb %s:%s %s", p.USB.VID, p.USB.PID, p.USB.Serial)
}

// Ports returns where the drivers find the simulated boards, by
// protocol.
func (dm *Demo) Ports() map[string][]board.Port { return dm.ports }

func abbrev(game string) string {
	if len(game) > 3 {
		return game[:3]
	}
	return game
}

// addBoard makes a simulated board of protocol for a table of
// tournament (the table boards.assign gave its id, or a new one), id its
// name where the protocol lets the board choose one, and its players; n
// makes the board and its players' moves repeatable.
func (dm *Demo) addBoard(tournament uint64, protocol, id string, g rules.Game, n uint64) (*player, error) {
	p, ok := board.Lookup(protocol)
	if !ok || p.Simulate == nil {
		return nil, fmt.Errorf("demo: no simulator of board protocol %q", protocol)
	}
	b, err := p.Simulate(board.SimConfig{Dir: dm.dir, ID: id, Index: dm.index[p.Name] + 1, Game: g, Seed: dm.seed, Number: n,
		Speed: dm.speed, Faults: dm.faults, Settings: dm.settings[p.Name]})
	if err != nil {
		return nil, fmt.Errorf("demo board %s: %w", id, err)
	}
	dm.index[p.Name]++
	dm.boards = append(dm.boards, b)
	dm.ports[p.Name] = append(dm.ports[p.Name], b.Port())
	t, ok := dm.d.Table(b.ID())
	if !ok {
		if t, err = dm.d.AddTable(tournament, b.ID()); err != nil {
			return nil, err
		}
	}
	pl := &player{d: dm.d, stats: dm.stats, plies: dm.plies, table: t, hands: b, rng: rand.New(rand.NewPCG(dm.seed, n)),
		news: make(chan news, 64), patience: min(30*time.Second, max(10*time.Second, time.Duration(float64(2*time.Minute)/dm.speed)))}
	dm.players[b.ID()] = pl
	return pl, nil
}

// GameStarted implements director.Watcher.
func (dm *Demo) GameStarted(t *director.Table, g store.Game, start rules.Position) {
	if p, ok := dm.players[t.ID]; ok {
		p.tell(news{start: &start})
	}
}

// Decided implements director.Watcher.
func (dm *Demo) Decided(t *director.Table, o arbiter.Output) {
	if p, ok := dm.players[t.ID]; ok {
		p.tell(news{output: o})
	}
}

func (p *player) tell(n news) {
	select {
	case p.news <- n:
	default: // a player that fell behind catches up from the next news
	}
}

// Run plays until ctx ends.
func (dm *Demo) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for _, p := range dm.players {
		wg.Go(func() {
			// run returns only on an error or when ctx ends.
			err := p.run(ctx, dm.log.With("board", p.table.ID))
			if ctx.Err() == nil {
				dm.log.Error("demo player stopped", "board", p.table.ID, "err", err)
			}
		})
	}
	<-ctx.Done()
	wg.Wait()
	dm.Close()
	return nil
}

// Close unplugs every simulated board.
func (dm *Demo) Close() {
	for _, b := range dm.boards {
		_ = b.Close()
	}
	dm.boards = nil
}

// run plays every game the table is given, until an error or the end
// of ctx.
func (p *player) run(ctx context.Context, log *slog.Logger) error {
	if err := p.hands.WaitHost(ctx); err != nil {
		return err
	}
	for {
		var start rules.Position
		err := p.listen(ctx, func(n news) bool {
			if n.start != nil {
				start = *n.start
			}
			return start != nil
		})
		if err != nil {
			return err
		}
		if p.giveHandicap(ctx, log) {
			continue // the game starts again from the handicap's position
		}
		if err := p.play(ctx, start, log); err != nil {
			return err
		}
	}
}

// giveHandicap gives the table's new game a handicap, as the arbiter does
// for a pairing, when the table plays handicap games and its game, not
// begun, has none: the next of p.handicaps by the game's round. It
// reports whether it did (the table then starts the game again).
func (p *player) giveHandicap(ctx context.Context, log *slog.Logger) bool {
	l := p.table.Live()
	if len(p.handicaps) < 2 || l.GameID == 0 || l.Plies > 0 {
		return false
	}
	g, err := p.d.DB().Game(l.GameID)
	if err != nil {
		return false
	}
	opts, err := rules.ParseOptions(g.Options)
	if err != nil || opts[p.handicapKey] != p.handicaps[0].Value {
		return false // given already
	}
	h := p.handicaps[1+(g.Round-1)%(len(p.handicaps)-1)]
	if err := p.d.SetHandicap(ctx, g.ID, h.Value, "demo", "the demo's handicap table"); err != nil {
		log.Warn("handicap", "err", err)
		return false
	}
	log.Info("handicap game", "game", g.ID, "handicap", h.Title)
	return true
}

// play plays one game: random legal moves with human handling, until the
// game ends or one side gives up after a while.
func (p *player) play(ctx context.Context, pos rules.Position, log *slog.Logger) error {
	// Set up the pieces for the new game, as the players do, and wait for
	// the arbiter to start the clock.
	if err := p.hands.Restore(ctx, pos.View()); err != nil {
		return err
	}
	if err := p.waitStart(ctx); err != nil {
		return err
	}
	limit := p.plies/2 + p.rng.IntN(p.plies/2+1)
	// A game resumed after a restart goes on from its stored moves.
	for ply := p.table.Live().Plies + 1; ; ply++ {
		moves := pos.Legal()
		if len(moves) == 0 {
			return p.waitEnd(ctx)
		}
		if ply > limit {
			// The side to move resigns: the arbiter enters it.
			side := pos.Turn()
			err := p.d.Resign(ctx, p.table, side, "demo")
			if err != nil {
				log.Warn("resign", "err", err)
			}
			return p.waitEnd(ctx)
		}
		m := moves[p.rng.IntN(len(moves))]
		next, err := pos.Play(m)
		if err != nil {
			return err
		}
		done := false
		for try := 0; try < 3 && !done; try++ {
			if try > 0 {
				p.stats.add(func(s *Stats) { s.Retried++ })
				// The move was refused or not read: put the position back,
				// as the arbiter would ask, and make the move again.
				if err := p.hands.Restore(ctx, pos.View()); err != nil {
					return err
				}
			}
			if err := p.hands.Move(ctx, pos, next, m, p.rng); err != nil {
				return err
			}
			p.stats.add(func(s *Stats) { s.Played++ })
			var over bool
			var stored rules.Position
			stored, over, err = p.await(ctx, ply, m, pos, log)
			if err != nil || over {
				return err
			}
			if stored != nil {
				// Play on from what the arbiter stored.
				done, next = true, stored
			}
		}
		if !done {
			// Still not read: the arbiter stops the game (the demo must go
			// on) and the alert queue shows why.
			log.Warn("giving up the game", "ply", ply)
			p.stats.add(func(s *Stats) { s.Abandoned++ })
			if err := p.d.Resign(ctx, p.table, pos.Turn(), "demo"); err != nil {
				log.Warn("resign", "err", err)
			}
			return p.waitEnd(ctx)
		}
		pos = next
	}
}

// await waits for the director to store the move of ply, answering a
// question about it. It returns the position after the stored move (nil
// if none was stored in time) and whether the game is over.
func (p *player) await(ctx context.Context, ply int, m rules.Move, pos rules.Position, log *slog.Logger) (stored rules.Position, over bool, err error) {
	timeout := time.NewTimer(p.patience)
	defer timeout.Stop()
	idle := time.NewTicker(p.heartbeat())
	defer idle.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, false, ctx.Err()
		case <-idle.C:
			p.hands.Idle()
		case <-timeout.C:
			log.Warn("move not read", "ply", ply, "move", m.String())
			return nil, false, nil
		case n := <-p.news:
			switch o := n.output.(type) {
			case arbiter.MoveMade:
				if o.Ply == ply {
					if o.Move.String() != m.String() {
						log.Error("move read wrongly", "ply", ply, "made", m.String(), "read", o.Move.String())
						p.stats.add(func(s *Stats) { s.Misread++ })
					} else {
						p.stats.add(func(s *Stats) { s.Read++ })
					}
					return o.Position, false, nil
				}
			case arbiter.Prompt:
				for i, mv := range o.Moves {
					if mv == m.String() {
						p.hands.Answer(pos.Turn(), i)
					}
				}
			case arbiter.GameOver:
				return nil, true, nil
			}
		}
	}
}

// listen waits for news until done says it is the one awaited, keeping
// the board's heartbeat going meanwhile.
func (p *player) listen(ctx context.Context, done func(news) bool) error {
	idle := time.NewTicker(p.heartbeat())
	defer idle.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-idle.C:
			p.hands.Idle()
		case n := <-p.news:
			if done(n) {
				return nil
			}
		}
	}
}

// waitStart waits until the session has seen the start position and
// started the clock.
func (p *player) waitStart(ctx context.Context) error {
	return p.listen(ctx, func(n news) bool {
		_, ok := n.output.(arbiter.Started)
		return ok
	})
}

// heartbeat is how often an idle board says it is alive.
func (p *player) heartbeat() time.Duration { return p.hands.Heartbeat() }

// waitEnd waits until the game on the table is over.
func (p *player) waitEnd(ctx context.Context) error {
	return p.listen(ctx, func(n news) bool {
		if n.start != nil {
			// A new game began without our seeing the end.
			p.tell(n)
			return true
		}
		_, ok := n.output.(arbiter.GameOver)
		return ok
	})
}
