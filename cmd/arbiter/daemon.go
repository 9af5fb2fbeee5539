package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	bolt "go.etcd.io/bbolt"

	"arbiter/demo"
	"arbiter/director"
	"arbiter/internal/backup"
	"arbiter/internal/broadcast"
	"arbiter/internal/config"
	"arbiter/internal/federation"
	"arbiter/store"
	"arbiter/web"
)

// daemon is what the components of a running serve share.
type daemon struct {
	cfg   *config.Config
	opts  serveOptions
	log   *slog.Logger
	level *slog.LevelVar
	// rh is the run on simulated boards (demo.enabled): the demo, or a
	// rehearsal; nil for an event on its own boards. dm are its boards
	// and players.
	rh *rehearsal
	dm *demo.Demo

	// ctx ends the event; every goroutine of the components is in wg.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// The boards' drivers run until ctx ends; the director and the raw
	// log until dctx does, once the drivers (in boards) have stopped and
	// handed over every event they read.
	boards  sync.WaitGroup
	dctx    context.Context
	dcancel context.CancelFunc

	ln        net.Listener
	db        *store.DB
	d         *director.Director
	push      *broadcast.Pusher
	fed       *federation.Node
	raw       *store.RawLog
	backupErr *atomic.Pointer[error]
	backups   *backup.Metrics
	site      *web.Site
	// done is closed when the event is complete here, and doneMsg says so.
	done    <-chan struct{}
	doneMsg string
}

// component is one part of the daemon. start brings it up and returns
// how to take it down (nil: nothing to do); an error stops serve, with
// the exit code it carries. serve starts the components in the order of
// [components] and stops those started in the reverse order.
type component struct {
	name  string
	start func(*daemon) (stop func() error, err error)
}

// components are the parts of the daemon, in the order they start. The
// listen address is bound before the database is opened, so that an
// address that cannot be served leaves the event file untouched; every
// goroutine ends (goroutines) once the web server has shut down and
// before the boards' raw log, the federation and the database close.
var components = []component{
	{"listen", (*daemon).listen},
	{"database", (*daemon).openDatabase},
	{"director", (*daemon).newDirector},
	{"report", (*daemon).reportAtStop},
	{"broadcast", (*daemon).newPush},
	{"backups", (*daemon).startBackups},
	{"federation", (*daemon).joinFederation},
	{"boards", (*daemon).startBoards},
	{"checks", (*daemon).startChecks},
	{"goroutines", (*daemon).goroutines},
	{"web", (*daemon).startWeb},
	{"push", (*daemon).runPush},
	{"signals", (*daemon).watchSignals},
	{"done", (*daemon).watchDone},
}

func (s *daemon) listen() (func() error, error) {
	ln, err := net.Listen("tcp", s.cfg.HTTP.Listen)
	if err != nil {
		return nil, withCode(exitConfig, fmt.Errorf("http.listen: cannot listen on %s (nothing was opened): %w", s.cfg.HTTP.Listen, err))
	}
	s.ln = ln
	return func() error {
		_ = ln.Close() // for the returns before the server takes it
		return nil
	}, nil
}

func (s *daemon) openDatabase() (func() error, error) {
	db, err := openDB(s.cfg.Event.Database, false)
	if err != nil {
		return nil, err
	}
	s.db = db
	if s.opts.opened != nil {
		s.opts.opened(db)
	}
	return func() error {
		if err := db.Close(); err != nil {
			s.log.Error("close database", "err", err)
		}
		return nil
	}, nil
}

func (s *daemon) newDirector() (func() error, error) {
	d, err := director.New(directorConfig(s.cfg), s.db, s.log)
	if err != nil {
		return nil, err
	}
	s.d = d
	s.done, s.doneMsg = d.Done(), "arbiter: every tournament is complete"
	return nil, nil
}

// newPush sets up the live rounds pushed to broadcast services
// (broadcast.push); runPush starts them once the web pages are up. At the
// stop, once the event's goroutines have ended and before the database
// closes, it sends what is still pending (flushBroadcast).
func (s *daemon) newPush() (func() error, error) {
	push, err := broadcast.New(s.db, s.d.Name(), broadcastPushes(s.cfg), s.log.With("part", "broadcast"))
	if err != nil {
		return nil, withCode(exitConfig, err)
	}
	s.push = push
	return func() error { flushBroadcast(push, s.opts.out, s.log); return nil }, nil
}

// reportAtStop reports on a run on simulated boards once everything
// after it has stopped (the boards, the last broadcast pushes), before
// the database closes.
func (s *daemon) reportAtStop() (func() error, error) {
	if s.rh != nil {
		// What the boards' stop raises (a board that stopped answering)
		// is no arbiter's trouble: the instant the stop began tells it.
		s.wg.Go(func() {
			<-s.ctx.Done()
			s.rh.stopping(time.Now())
		})
	}
	return func() error {
		if s.rh != nil && s.dm != nil {
			s.report(s.rh, s.dm)
		}
		return nil
	}, nil
}

func (s *daemon) runPush() (func() error, error) {
	s.wg.Go(func() { _ = s.push.Run(s.ctx, s.d.Hub().Subscribe) })
	return nil, nil
}

// startBackups serves consistent copies on the backup socket beside the
// database (for "arbiter db backup" while the event runs) and, when
// backup.dir is set, writes automatic backups; backupErr holds the last
// automatic backup's error, nil while they work.
func (s *daemon) startBackups() (func() error, error) {
	var last atomic.Pointer[error]
	s.backupErr = &last
	s.backups = backup.NewMetrics()
	log := s.log.With("part", "backup")
	if ln, err := backup.Listen(s.db); err != nil {
		log.Warn("no backup socket: \"arbiter db backup\" will not work while the event runs", "err", err)
	} else {
		s.wg.Go(func() { backup.Serve(s.ctx, ln, s.db, log) })
	}
	b := s.cfg.Backup
	if b.Dir == "" {
		return nil, nil
	}
	auto := &backup.Auto{DB: s.db, Dir: b.Dir, Every: b.Every, Keep: b.Keep, Now: time.Now, Log: log, Metrics: s.backups,
		Failed: func(err error) {
			if err == nil {
				last.Store(nil)
			} else {
				last.Store(&err)
			}
		}}
	s.wg.Go(func() { auto.Run(s.ctx) })
	log.Info("automatic backups", "dir", b.Dir, "every", b.Every, "keep", b.Keep)
	return nil, nil
}

// joinFederation starts the daemon's part of a multi-hall event
// (federation.role): it is done once the others have its part too.
func (s *daemon) joinFederation() (func() error, error) {
	f := s.cfg.Federation
	if s.opts.rebuild && f.Role != federation.RoleHub {
		return nil, withCode(exitUsage, errors.New("--rebuild rebuilds the database of a multi-hall event's hub (federation.role: hub)"))
	}
	if f.Role == "" {
		return nil, nil
	}
	rebuilt := func(summary string) {
		fmt.Fprintln(s.opts.out, "arbiter: the hub was rebuilt from the federation's streams: "+summary)
	}
	if !s.opts.rebuild {
		rebuilt = nil
	}
	fed, err := startFederation(s.ctx, &s.wg, f, s.db, s.d, rebuilt, s.log.With("part", "federation"))
	if errors.Is(err, federation.ErrRefused) {
		return nil, withCode(exitConfig, err)
	}
	if err != nil {
		return nil, err
	}
	s.fed = fed
	s.done = fed.Done(s.d.Done(), 250*time.Millisecond)
	if f.Role == federation.RoleHall {
		s.doneMsg = "arbiter: this hall's games are all played and at the hub"
	}
	return func() error { fed.Close(); return nil }, nil
}

// startBoards puts the boards on the event: the configured ports (and
// assignments), or the demo's simulated boards when the configuration
// asks for them (demo.enabled), the raw log, and the driver of every
// protocol in use, started through its registration. Without either a
// round's games wait for their results in the console. A federation's
// hub has no boards: the halls play the games.
func (s *daemon) startBoards() (func() error, error) {
	if s.opts.started != nil {
		s.opts.started(s.d)
	}
	hub := s.cfg.Federation.Role == federation.RoleHub
	var stops []func()
	stop := func() { // in the reverse order of set-up
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	ports := configuredPorts(s.cfg)
	for _, a := range s.cfg.Boards.Assign {
		if err := assign(s.d, a); err != nil {
			return nil, withCode(exitConfig, err)
		}
	}
	if s.rh != nil && !hub {
		// Simulated boards, standing in for the configured ports' (a
		// rehearsal) or the demo's own.
		dm, dir, err := s.startDemo()
		if dir != "" {
			stops = append(stops, func() { os.RemoveAll(dir) })
		}
		if err != nil {
			stop()
			return nil, err
		}
		s.dm = dm // reported at the stop (reportAtStop)
		ports = dm.Ports()
	}
	s.raw = s.db.NewRawLog(store.DefaultRawFlush)
	s.d.SetRawLog(s.raw)
	rawDone := make(chan struct{})
	go func() { _ = s.raw.Run(s.dctx); close(rawDone) }()
	stopped := func() error {
		<-rawDone
		// Once more: what the tables sent the boards as they took the last
		// events.
		rawErr := s.raw.Flush()
		stop()
		return stoppedUnstored(s.opts.out, s.log, s.db, s.d, s.raw, rawErr)
	}
	if err := s.startDrivers(ports, !hub); err != nil {
		return stopped, err
	}
	if !hub && s.rh == nil {
		s.watchPorts(s.cfg.Boards.Ports)
	}
	return stopped, nil
}

// startDemo makes the demo's simulated boards in a folder of their own,
// and lets the demo's people play on them.
func (s *daemon) startDemo() (*demo.Demo, string, error) {
	dir, err := os.MkdirTemp("", "arbiter-demo-")
	if err != nil {
		return nil, "", err
	}
	dm, err := demo.New(s.d, demoConfig(s.cfg), filepath.Join(dir, "boards"), s.log.With("part", "demo"))
	if err != nil {
		return nil, dir, err
	}
	s.d.Watch(dm)
	s.d.AutoResume(true)
	s.wg.Go(func() { _ = dm.Run(s.ctx) })
	return dm, dir, nil
}

// goroutines ends the event's goroutines, at its stop: the context is
// cancelled and every goroutine of the components waited for.
func (s *daemon) goroutines() (func() error, error) {
	return func() error {
		s.cancel()
		s.wg.Wait()
		return nil
	}, nil
}

// startWeb serves the web pages; /healthz on the site, so it gets its
// security headers (the site serves /metrics itself, only for
// http.metrics_allow).
func (s *daemon) startWeb() (func() error, error) {
	wc := webConfig(s.cfg)
	metrics := []prometheus.Collector{s.push.Collector(), s.backups, buildInfoMetric()}
	s.site = web.New(s.d, wc, s.log.With("part", "web"))
	if s.fed != nil {
		s.site.ShowLinks(fedLinks(s.fed))
		metrics = append(metrics, s.fed.Collector())
	}
	if err := s.site.RegisterMetrics(metrics...); err != nil {
		return nil, err
	}
	s.site.Handle("GET /healthz", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		err := health(s.db, s.raw, s.backupErr, s.d.Troubles())
		if err == nil && s.fed != nil {
			err = s.fed.Health()
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	}))
	srv := web.NewServer(s.site, web.Timeouts{}) // every timeout set; ends the live streams on Shutdown
	s.wg.Go(func() {
		if err := srv.Serve(s.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("web server", "err", err)
			s.cancel()
		}
	})
	url := "http://" + s.ln.Addr().String() + "/"
	switch {
	case s.rh != nil && s.rh.title == "demo":
		source := s.cfg.Source
		if s.opts.cfgPath == "" {
			source = "configs/arbiter.yaml, built in"
		}
		fmt.Fprintf(s.opts.out, "arbiter: %s is live at %s (a demo: simulated boards play random games, demo.enabled in %s)\n", s.cfg.Event.Name, url, source)
	case s.rh != nil:
		fmt.Fprintf(s.opts.out, "arbiter: %s is live at %s (a rehearsal on simulated boards)\n", s.cfg.Event.Name, url)
	default:
		fmt.Fprintf(s.opts.out, "arbiter: %s is live at %s\n", s.cfg.Event.Name, url)
	}
	s.log.Info("serving", "url", url)
	return func() error {
		shutdown, stop := context.WithTimeout(context.Background(), 5*time.Second)
		defer stop()
		_ = srv.Shutdown(shutdown)
		return nil
	}, nil
}

// watchSignals reloads on SIGHUP what can change safely: the log level
// and the logins.
func (s *daemon) watchSignals() (func() error, error) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	s.wg.Go(func() {
		for {
			select {
			case <-s.ctx.Done():
				return
			case <-hup:
				s.reload()
			}
		}
	})
	return func() error { signal.Stop(hup); return nil }, nil
}

// reload reads the configuration again and takes its log level and
// logins; a configuration now invalid is refused, the running one kept.
func (s *daemon) reload() {
	next, err := config.Load(s.opts.cfgPath, s.opts.flags)
	if err == nil {
		err = checkWeb(next, s.log)
	}
	if err != nil {
		s.log.Error("reload refused", "err", err)
		return
	}
	_ = s.level.UnmarshalText([]byte(next.Log.Level))
	s.site.SetUsers(webUsers(next))
	s.log.Info("configuration reloaded", "level", next.Log.Level, "users", len(next.Console.Users))
}

// watchDone stops the daemon once the event is complete here, with
// --exit-when-done.
func (s *daemon) watchDone() (func() error, error) {
	if !s.opts.exitWhenDone {
		return nil, nil
	}
	if s.rh != nil {
		// The games on no board are the rehearsal's arbiter's to end.
		s.rh.enterByHandWhilePlaying(s.ctx, &s.wg, s.d)
	}
	if s.rh != nil && s.rh.rounds > 0 {
		s.done = s.rh.roundsDone(s.ctx, &s.wg, s.d)
		s.doneMsg = fmt.Sprintf("arbiter: every tournament has played %s (or all its rounds)", plural(s.rh.rounds, "round"))
	}
	s.wg.Go(func() {
		select {
		case <-s.done:
			fmt.Fprintln(s.opts.out, s.doneMsg)
			s.cancel()
		case <-s.ctx.Done():
		}
	})
	return nil, nil
}

// health is what /healthz reports: nil, or why the event is not safe or
// not ready: the database, the raw log, the last automatic backup, and
// the venue's troubles (a configured port that does not exist, cannot be
// opened, is held or answers nothing; a setting the checks at start found
// wrong), each of which is an open alert in the console too.
func health(db *store.DB, raw *store.RawLog, backupErr *atomic.Pointer[error], troubles []string) error {
	if err := db.Bolt().View(func(*bolt.Tx) error { return nil }); err != nil {
		return fmt.Errorf("database: %w", err)
	}
	if err := db.WriteError(); err != nil {
		return fmt.Errorf("database: %w (moves are not stored or acknowledged until it is fixed)", err)
	}
	if err := raw.Err(); err != nil {
		return fmt.Errorf("raw log: %w", err)
	}
	if p := backupErr.Load(); p != nil {
		return fmt.Errorf("automatic backup: %w", *p)
	}
	if len(troubles) > 0 {
		return fmt.Errorf("%s", strings.Join(troubles, "\n"))
	}
	return nil
}

// assign gives a board of boards.assign its table: the one it names, or
// the tournament's first free one.
func assign(d *director.Director, a config.Assignment) error {
	for _, id := range d.TournamentIDs() {
		t, err := d.DB().Tournament(id)
		if err == nil && t.Name == a.Tournament {
			if _, err := d.AddTableNumbered(id, a.Board, a.Table); err != nil {
				return fmt.Errorf("boards.assign: board %s: %w", a.Board, err)
			}
			return nil
		}
	}
	return fmt.Errorf("boards.assign: no tournament %q", a.Tournament)
}
