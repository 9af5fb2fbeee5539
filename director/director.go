// Package director runs an event: its tournaments, their rounds and
// pairings, the tables where games are played, and the sensor boards on
// them. It joins the pieces below it: boards feed table sessions
// (package arbiter), every decision goes to the store before anyone is
// told, rounds are paired when the previous one has ended, and live
// updates fan out to the web pages through a [Hub].
package director

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"arbiter/arbiter"
	"arbiter/clock"
	"arbiter/internal/names"
	"arbiter/pairing/trf"
	"arbiter/rules"
	"arbiter/store"
)

// Config is what the director needs to know about an event: its name and
// its tournaments. The zero value is an event with no name and no
// tournaments.
type Config struct {
	// Name is the event's name, as the pages and records give it.
	Name string
	// Tournaments are the event's tournaments, in the order the pages list
	// them.
	Tournaments []Tournament
}

// Tournament is one tournament of an event, as the director creates it in
// the database when it is not there yet. Empty fields take the game's and
// the pairing system's defaults.
type Tournament struct {
	// Name tells the tournament apart from the event's others; a
	// tournament already in the database under this name is taken as it
	// is stored.
	Name string
	// Game and Options are the game played and its rule options, as
	// rules.NewFromText reads them.
	Game, Options string
	// System is the pairing system ("swiss-dutch", "round-robin",
	// "double-round-robin", ...), and Rounds the rounds of a Swiss (a round
	// robin has as many as its players need).
	System string
	Rounds int
	// TimeControl is the games' time control in the clock package's text
	// form; RoundTimeControls overrides it for single rounds.
	TimeControl       string
	RoundTimeControls map[int]string
	// TieBreaks are the standings' tie-breaks, in order ("BH", "SB", ...).
	TieBreaks []string
	// TouchMove and IllegalMove name the touch-move and illegal-move rules
	// (empty: the game's own).
	TouchMove, IllegalMove string
	// AutoPair pairs each round as soon as the previous one is complete.
	AutoPair bool
	// Accelerated is a Swiss's acceleration: "" or "baku".
	Accelerated string
	// HalfPointByes is how many half-point byes a player may request.
	HalfPointByes int
	// Players are the players, as the database stores them (their
	// tournament and start number are given when the tournament is
	// created); PlayersTRF instead names a TRF file whose player records
	// are read then.
	Players    []store.Player
	PlayersTRF string
}

// Director runs one event.
type Director struct {
	cfg Config
	db  *store.DB
	hub *Hub
	log *slog.Logger

	origin time.Time
	now    func() time.Duration // host monotonic time since the director started
	wall   func() time.Time

	metrics Metrics

	done     chan struct{} // closed when every tournament is complete
	doneOnce sync.Once

	mu     sync.RWMutex
	tours  []*tour
	tables []*Table
	// byBoard maps board ids to their tables. It is replaced whole, under
	// mu, when a table is added, and read without a lock: a board's event
	// never waits for mu (a round being stored holds it).
	byBoard atomic.Pointer[map[string]*Table]
	ctx     context.Context
	wg      sync.WaitGroup

	// Work started in the background (pairing the next round) is waited
	// for by Run, so nothing touches the database after Run returns.
	bgMu      sync.Mutex
	bg        sync.WaitGroup
	bgStopped bool

	sender     Sender
	autoResume bool          // resume clocks held by a restart without the arbiter (demo)
	raw        *store.RawLog // where board frames are logged, if any
	pairedBy   string        // who pairs the rounds when not this daemon (a federation's hub)

	// portMu guards what is known of the venue (ports.go): the trouble
	// of each item in trouble, and the ports a board has answered on.
	portMu   sync.Mutex
	troubles map[troubleKey]trouble
	answered map[string]bool

	// pairMu pairs one round at a time (newRound): the pairing itself
	// runs outside mu.
	pairMu sync.Mutex
	// adoptMu adopts one new board at a time, so that boards saying
	// hello at once (a DGT bus line) each take a table of their own.
	adoptMu sync.Mutex
	// waitMu starts one waiting game at a time, so that tables whose
	// boards come at once each pick a game no table plays.
	waitMu sync.Mutex

	// lost is what the tables could not store when the event stopped
	// during a storage fault (storage.go).
	lostMu sync.Mutex
	lost   []string

	// Watchers are told about games and decisions (the demo players).
	watchMu  sync.Mutex
	watchers []Watcher
}

// tour is a tournament as the director runs it.
type tour struct {
	rec  store.Tournament
	cfg  Tournament
	game rules.Game
	// blocked says why the next round could not be paired, until it is.
	blocked string
}

// New prepares an event from its configuration and database: tournaments
// and players named in the configuration are created in the database if
// they are not there yet.
func New(cfg Config, db *store.DB, log *slog.Logger) (*Director, error) {
	origin := time.Now()
	d := &Director{
		cfg: cfg, db: db, hub: NewHub(), log: log, origin: origin,
		now:  func() time.Duration { return time.Since(origin) },
		wall: func() time.Time { return time.Now() },
		done: make(chan struct{}),
	}
	stored, err := db.Tournaments()
	if err != nil {
		return nil, fmt.Errorf("read tournaments: %w", err)
	}
	// Every tournament is read before any is created: a players_trf file
	// that cannot be read leaves the database as it was.
	newPlayers := map[string][]store.Player{}
	for _, tc := range cfg.Tournaments {
		if slices.ContainsFunc(stored, func(s store.Tournament) bool { return s.Name == tc.Name }) {
			continue
		}
		players, err := configPlayers(tc)
		if err != nil {
			return nil, fmt.Errorf("tournament %q: %w", tc.Name, err)
		}
		newPlayers[tc.Name] = players
	}
	for _, tc := range cfg.Tournaments {
		g, err := rules.NewFromText(tc.Game, tc.Options)
		if err != nil {
			return nil, fmt.Errorf("tournament %q: %w", tc.Name, err)
		}
		t := &tour{cfg: tc, game: g}
		if _, err := gameControl(tc.TimeControl); err != nil {
			return nil, fmt.Errorf("tournament %q: %w", tc.Name, err)
		}
		i := slices.IndexFunc(stored, func(s store.Tournament) bool { return s.Name == tc.Name })
		if i >= 0 {
			t.rec = stored[i]
		} else {
			players := newPlayers[tc.Name]
			rounds := tc.Rounds
			if n, ok := roundRobinRounds(tc.System, len(players)); ok {
				// A round robin has as many rounds as its players need.
				rounds = n
			}
			t.rec = store.Tournament{Name: tc.Name, Game: tc.Game, Options: g.Options().String(), TimeControl: tc.TimeControl,
				System: tc.System, Rounds: rounds, TieBreaks: tc.TieBreaks, TouchMove: tc.TouchMove, IllegalMove: tc.IllegalMove,
				Created: d.wall(), Accelerated: tc.Accelerated, HalfByes: tc.HalfPointByes, RoundTimeControls: tc.RoundTimeControls}
			if err := db.CreateTournament(&t.rec); err != nil {
				return nil, fmt.Errorf("create tournament %q: %w", tc.Name, err)
			}
			for j := range players {
				p := players[j]
				p.TournamentID, p.ID = t.rec.ID, j+1
				if err := db.PutPlayer(&p); err != nil {
					return nil, fmt.Errorf("tournament %q: %w", tc.Name, err)
				}
			}
		}
		d.tours = append(d.tours, t)
	}
	return d, nil
}

// ConfiguredPlayers returns the tournament's players as its
// configuration gives them, start number 1 first: the list given there,
// or the player records of its players_trf file.
func (tc Tournament) ConfiguredPlayers() ([]store.Player, error) { return configPlayers(tc) }

// configPlayers returns a tournament's players from its configuration:
// the list given there, or the player records of its players_trf file.
func configPlayers(tc Tournament) ([]store.Player, error) {
	if tc.PlayersTRF == "" {
		return slices.Clone(tc.Players), nil
	}
	data, err := os.ReadFile(tc.PlayersTRF)
	if err != nil {
		return nil, fmt.Errorf("players_trf: %w", err)
	}
	t, err := trf.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("players_trf %s: %w", tc.PlayersTRF, err)
	}
	ps := slices.Clone(t.Players)
	slices.SortFunc(ps, func(a, b trf.Player) int { return a.ID - b.ID })
	out := make([]store.Player, len(ps))
	for i, p := range ps {
		out[i] = playerFromTRF(p)
	}
	return out, nil
}

// playerFromTRF is a player record of a players_trf file as the event
// database stores it: the year of birth is the date's (YYYY/MM/DD or
// YYYY), 0 when the file gives none; a whole date is kept as it is.
func playerFromTRF(p trf.Player) store.Player {
	year, birth := 0, strings.TrimSpace(p.Birth)
	if y, err := strconv.Atoi(strings.SplitN(birth, "/", 2)[0]); err == nil && y >= 1900 && y <= 2100 {
		year = y
	}
	rec := store.Player{Name: names.Normal(p.Name), Rating: p.Rating, Title: p.Title, Federation: p.Federation, FideID: p.FideID, BirthYear: year}
	if d, err := time.Parse("2006/01/02", birth); err == nil && d.Year() == year {
		rec.Birth = birth
	}
	return rec
}

// roundRobinRounds returns the number of rounds of a round robin of n
// players, and whether system is a round robin at all.
func roundRobinRounds(system string, n int) (int, bool) {
	switch system {
	case "round-robin":
		return n - 1 + n%2, true
	case "double-round-robin":
		return 2 * (n - 1 + n%2), true
	}
	return 0, false
}

// Hub returns the live-update hub.
func (d *Director) Hub() *Hub { return d.hub }

// DB returns the event database.
func (d *Director) DB() *store.DB { return d.db }

// Name returns the event's name.
func (d *Director) Name() string { return d.cfg.Name }

// Now returns the director's host monotonic time.
func (d *Director) Now() time.Duration { return d.now() }

// Watch registers w to be told about games and decisions.
func (d *Director) Watch(w Watcher) {
	d.watchMu.Lock()
	d.watchers = append(d.watchers, w)
	d.watchMu.Unlock()
}

// AddTable adds a playing table for a tournament, with the id of the board
// that will stand on it: the tournament's first table number no table
// has. The pairing's board n is played on table n.
func (d *Director) AddTable(tournament uint64, boardID string) (*Table, error) {
	return d.AddTableNumbered(tournament, boardID, 0)
}

// AddTableNumbered adds table number of a tournament (boards.assign's
// table), with the id of the board that will stand on it; number 0 is
// the first number no table has.
func (d *Director) AddTableNumbered(tournament uint64, boardID string, number int) (*Table, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, dup := d.Table(boardID); dup {
		return nil, fmt.Errorf("board %s already has a table", boardID)
	}
	if d.tourLocked(tournament) == nil {
		return nil, fmt.Errorf("tournament %d: %w", tournament, store.ErrNotFound)
	}
	taken := map[int]string{}
	for _, t := range d.tables {
		if t.Tournament == tournament {
			taken[t.Number] = t.ID
		}
	}
	switch {
	case number < 0:
		return nil, fmt.Errorf("table %d: a table number is 1 or more", number)
	case number == 0:
		number = 1
		for taken[number] != "" {
			number++
		}
	case taken[number] != "":
		return nil, fmt.Errorf("table %d already has board %s", number, taken[number])
	}
	t := newTable(boardID, tournament, number, d)
	d.tables = append(d.tables, t)
	byBoard := map[string]*Table{boardID: t}
	if old := d.byBoard.Load(); old != nil {
		maps.Copy(byBoard, *old)
	}
	d.byBoard.Store(&byBoard)
	if d.ctx != nil {
		d.startTable(t)
	}
	return t, nil
}

func (d *Director) startTable(t *Table) {
	d.wg.Go(func() { t.Run(d.ctx) })
}

// Table returns the table of a board.
func (d *Director) Table(boardID string) (*Table, bool) {
	byBoard := d.byBoard.Load()
	if byBoard == nil {
		return nil, false
	}
	t, ok := (*byBoard)[boardID]
	return t, ok
}

// Tables returns every table's live state, by tournament and number.
func (d *Director) Tables() []Live {
	d.mu.RLock()
	ts := slices.Clone(d.tables)
	d.mu.RUnlock()
	out := make([]Live, len(ts))
	for i, t := range ts {
		out[i] = t.Live()
	}
	return out
}

func (d *Director) tourLocked(id uint64) *tour {
	for _, t := range d.tours {
		if t.rec.ID == id {
			return t
		}
	}
	return nil
}

func (d *Director) tour(id uint64) *tour {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.tourLocked(id)
}

// TournamentIDs returns the tournaments in configuration order.
func (d *Director) TournamentIDs() []uint64 {
	d.mu.RLock()
	defer d.mu.RUnlock()
	ids := make([]uint64, len(d.tours))
	for i, t := range d.tours {
		ids[i] = t.rec.ID
	}
	return ids
}

// Run runs the event until ctx ends: every table's goroutine, and the
// first round of every tournament that has none yet (or the next round of
// one whose last round is complete) when auto-pairing is on. It returns
// after every table has paused its clock and stored its state.
func (d *Director) Run(ctx context.Context) error {
	d.mu.Lock()
	d.ctx = ctx
	for _, t := range d.tables {
		d.startTable(t)
	}
	tours := slices.Clone(d.tours)
	d.mu.Unlock()
	for _, t := range d.Tables() {
		if tbl, ok := d.Table(t.Table); ok {
			if err := d.startWaiting(ctx, tbl, nil); err != nil {
				d.log.Error("resume", "table", t.Table, "err", err)
			}
		}
	}
	for _, t := range tours {
		if t.cfg.AutoPair && d.pairedBy == "" {
			if err := d.advance(ctx, t.rec.ID, "auto", ""); err != nil && !errors.Is(err, errRoundRunning) && !errors.Is(err, errTournamentOver) {
				d.log.Error("pair", "tournament", t.rec.Name, "err", err)
			}
		}
	}
	d.checkDone()
	<-ctx.Done()
	d.bgMu.Lock()
	d.bgStopped = true
	d.bgMu.Unlock()
	d.wg.Wait()
	d.bg.Wait()
	return nil
}

// background runs f in a goroutine that Run waits for. Once Run is
// stopping, f is not started: the event is shutting down.
func (d *Director) background(f func()) {
	d.bgMu.Lock()
	defer d.bgMu.Unlock()
	if d.bgStopped {
		return
	}
	d.bg.Go(f)
}

// Done is closed when every round of every tournament has been played and
// every game has a result.
func (d *Director) Done() <-chan struct{} { return d.done }

// checkDone closes Done if the event is complete.
func (d *Director) checkDone() {
	for _, id := range d.TournamentIDs() {
		d.mu.RLock()
		want := d.tourLocked(id).rec.PlayedRounds()
		d.mu.RUnlock()
		rounds, err := d.db.Rounds(id)
		if err != nil || len(rounds) < want {
			return
		}
		for _, r := range rounds {
			for _, p := range r.Pairings {
				if p.Result == "" {
					return
				}
			}
		}
	}
	d.doneOnce.Do(func() {
		d.log.Info("every tournament is complete")
		close(d.done)
	})
}

// gameStarted tells the watchers.
func (d *Director) gameStarted(t *Table, g store.Game, start rules.Position) {
	for _, w := range d.watcherList() {
		w.GameStarted(t, g, start)
	}
}

// decided tells the board and the watchers what a table decided.
func (d *Director) decided(t *Table, o arbiter.Output) {
	if m, ok := o.(arbiter.MoveMade); ok {
		held := false
		if t.session != nil && t.session.Clock() != nil {
			held = t.session.Clock().Status() == clock.Paused
		}
		display(d.sender, t.ID, t.rgame.Geometry(), m, held)
	}
	if err := t.tell(d.sender, o); err != nil {
		d.log.Warn("tell the board", "board", t.ID, "err", err)
	}
	if st, ok := o.(arbiter.Started); ok && t.session != nil {
		if err := t.confirmStart(d.sender, t.session.Plies()); err != nil {
			d.log.Warn("confirm the start to the board", "board", t.ID, "err", err)
		}
		if err := displayClock(d.sender, t.ID, t.session.Clock(), st.At); err != nil {
			d.log.Warn("send clock to board", "board", t.ID, "err", err)
		}
	}
	if at, ok := clockChange(o); ok && t.session != nil {
		if err := displayClock(d.sender, t.ID, t.session.Clock(), at); err != nil {
			d.log.Warn("send clock to board", "board", t.ID, "err", err)
		}
	}
	if p, ok := o.(arbiter.Prompt); ok && d.sender != nil {
		// The board shows the question and its ordered choices (PROTOCOL 6.1).
		if err := d.sender.Show(t.ID, p.Message(t.rgame.Geometry())); err != nil {
			d.log.Warn("send question to board", "board", t.ID, "err", err)
		}
	}
	for _, w := range d.watcherList() {
		w.Decided(t, o)
	}
}

// gameEnded pairs the next round when the round is complete and
// auto-pairing is on.
func (d *Director) gameEnded(t *Table, g store.Game) {
	tr := d.tour(g.TournamentID)
	if tr == nil || !tr.cfg.AutoPair || d.ctx == nil || d.pairedBy != "" {
		d.background(d.checkDone)
		return
	}
	// Pair from a fresh goroutine: pairing starts games on tables,
	// including this one, whose goroutine is calling.
	d.background(func() {
		if err := d.advance(d.ctx, g.TournamentID, "auto", ""); err != nil && !errors.Is(err, errRoundRunning) && !errors.Is(err, errTournamentOver) {
			// err names the tournament (tr.rec changes under d.mu).
			d.log.Error("pair next round", "err", err)
		}
		d.checkDone()
	})
}

func (d *Director) watcherList() []Watcher {
	d.watchMu.Lock()
	defer d.watchMu.Unlock()
	return slices.Clone(d.watchers)
}

// SetRawLog tells the director where the boards' raw frames are logged, so
// that every game records where its frames begin.
func (d *Director) SetRawLog(l *store.RawLog) { d.raw = l }

// AutoResume makes clocks held by a restart go on by themselves once the
// board shows the position again (for the demo; at a real event the
// arbiter resumes them).
func (d *Director) AutoResume(on bool) { d.autoResume = on }

// SetSender sets where board display messages go (the driver).
func (d *Director) SetSender(s Sender) { d.sender = s }
