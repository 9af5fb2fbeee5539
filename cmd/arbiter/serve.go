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
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	bolt "go.etcd.io/bbolt"

	"arbiter/board"
	"arbiter/demo"
	"arbiter/director"
	"arbiter/hardware/dgt/driver"
	"arbiter/hardware/sensorboard"
	"arbiter/internal/backup"
	"arbiter/internal/broadcast"
	"arbiter/internal/config"
	"arbiter/store"
	"arbiter/web"
)

func newServeCmd() *cobra.Command {
	var cfgPath string
	var exitWhenDone bool
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the event: boards, games, clocks, pairings and the web pages",
		Long: `serve runs a whole event. With no configuration it runs the built-in demo:
simulated sensor boards on pseudo-terminals play a Tavreli and a shogi Swiss
tournament, paired automatically as the games finish. With --config it runs
the event the file describes, on real boards.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.Load(cfgPath, cmd.Flags())
			if err != nil {
				if config.IsInvalid(err) {
					return withCode(exitConfig, err)
				}
				return err
			}
			return serve(cmd.Context(), cfg, cfgPath, exitWhenDone, cmd)
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfgPath, "config", "", "configuration file (default: the built-in demo)")
	f.String("listen", "", "address of the web pages, e.g. 127.0.0.1:8080 (overrides http.listen)")
	f.String("database", "", "event database file (overrides event.database)")
	f.String("log-level", "", "debug, info, warn or error (overrides log.level)")
	f.BoolVar(&exitWhenDone, "exit-when-done", false, "stop once every round of every tournament has a result")
	return cmd
}

func newLogger(cfg *config.Config, level *slog.LevelVar) *slog.Logger {
	_ = level.UnmarshalText([]byte(cfg.Log.Level))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}

func serve(ctx context.Context, cfg *config.Config, cfgPath string, exitWhenDone bool, cmd *cobra.Command) error {
	var level slog.LevelVar
	log := newLogger(cfg, &level)
	log.Info("starting", "config", cfg.Source, "database", cfg.Event.Database)
	if err := checkWeb(cfg, log); err != nil {
		return withCode(exitConfig, err)
	}
	for _, w := range cfg.Warnings() {
		log.Warn("configuration warning", "problem", w.String())
	}

	// The listen address is bound before the database is opened, so that
	// an address that cannot be served leaves the event file untouched.
	ln, err := net.Listen("tcp", cfg.HTTP.Listen)
	if err != nil {
		return withCode(exitConfig, fmt.Errorf("http.listen: cannot listen on %s (nothing was opened): %w", cfg.HTTP.Listen, err))
	}
	defer ln.Close() // for the returns before the server takes it

	db, err := openDB(cfg.Event.Database, false)
	if err != nil {
		return err
	}
	defer func() {
		if err := db.Close(); err != nil {
			log.Error("close database", "err", err)
		}
	}()
	if testHookOpened != nil {
		testHookOpened(db)
	}
	d, err := director.New(directorConfig(cfg), db, log)
	if err != nil {
		return err
	}
	push, err := broadcast.New(db, d.Name(), cfg.Broadcast.Push, log.With("part", "broadcast"))
	if err != nil {
		return withCode(exitConfig, err)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	backupErr := startBackups(ctx, &wg, cfg, db, log.With("part", "backup"))
	done, doneMsg := d.Done(), "arbiter: every tournament is complete"
	if cfg.Federation.Role != "" {
		fed, err := startFederation(ctx, &wg, cfg.Federation, db, d, log.With("part", "federation"))
		if err != nil {
			return err
		}
		defer fed.Close()
		flog := log.With("part", "federation")
		switch cfg.Federation.Role {
		case "hall":
			empty := func(context.Context) (bool, error) { return fed.OutboxEmpty() }
			done = federationDone(ctx, &wg, d.Done(), empty, 250*time.Millisecond, 0, "the hub has every fact of this hall", flog)
			doneMsg = "arbiter: this hall's games are all played and at the hub"
		case "hub":
			done = federationDone(ctx, &wg, d.Done(), fed.RosterDelivered, 250*time.Millisecond, 30*time.Second, "every hall has the last results", flog)
		}
	}
	if f, ok := testDirectors.Load(cfg); ok {
		f.(func(*director.Director))(d)
	}

	// Boards: the configured ports, or the demo's simulated boards.
	ports := make([]sensorboard.PortSpec, 0, len(cfg.Boards.Ports))
	var dgtPorts driver.Config
	var busLines []driver.Line
	for _, p := range cfg.Boards.Ports {
		switch p.Protocol {
		case config.ProtocolDGTBus:
			busLines = append(busLines, busLine(p))
		case config.ProtocolDGT:
			if p.Path != "" {
				dgtPorts.Paths = append(dgtPorts.Paths, p.Path)
			} else {
				dgtPorts.Globs = append(dgtPorts.Globs, p.Glob)
			}
		default:
			ports = append(ports, sensorboard.PortSpec{Path: p.Path, Glob: p.Glob, VID: p.USB.VID, PID: p.USB.PID, SerialNumber: p.USB.Serial})
		}
	}
	hub := cfg.Federation.Role == "hub" // no boards: the halls play the games
	if len(cfg.Boards.Ports) == 0 && !hub {
		dir, err := os.MkdirTemp("", "arbiter-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		dm, glob, err := demo.New(d, demoConfig(cfg), filepath.Join(dir, "boards"), log.With("part", "demo"))
		if err != nil {
			return err
		}
		d.Watch(dm)
		d.AutoResume(true)
		ports = append(ports, sensorboard.PortSpec{Glob: glob})
		dgtPorts.Paths = append(dgtPorts.Paths, dm.DGTPaths()...)
		wg.Go(func() { _ = dm.Run(ctx) })
		defer func() {
			st := dm.Stats()
			fmt.Fprintf(cmd.OutOrStdout(), "demo: %d moves played, %d read right, %d misread, %d made again, %d games abandoned\n",
				st.Played, st.Read, st.Misread, st.Retried, st.Abandoned)
		}()
	} else {
		for _, a := range cfg.Boards.Assign {
			if err := assign(d, a); err != nil {
				return withCode(exitConfig, err)
			}
		}
	}

	raw := db.NewRawLog(store.DefaultRawFlush)
	d.SetRawLog(raw)
	var rawErr error
	rawDone := make(chan struct{})
	go func() { rawErr = raw.Run(ctx); close(rawDone) }()
	wall := time.Now
	drv, err := sensorboard.New(sensorboard.Config{
		Ports:  ports,
		Baud:   cfg.Boards.Baud,
		Scan:   cfg.Boards.Scan,
		Now:    d.Now,
		Logger: log.With("part", "boards"),
		Handler: func(e board.Event) {
			d.BoardEvent(ctx, e)
		},
		Raw: func(f sensorboard.RawFrame) uint64 {
			if f.Board == "" {
				return 0
			}
			seq, err := raw.AppendFrame(store.Frame{BoardID: f.Board, HostNs: int64(f.Host), Wall: wall(), Data: f.Wire,
				Protocol: sensorboard.Protocol, Sent: f.Sent})
			if err != nil {
				log.Error("raw log", "board", f.Board, "err", err)
				return 0
			}
			return seq
		},
	})
	if err != nil {
		return withCode(exitConfig, err)
	}
	dgtDrv, err := startDGT(ctx, dgtPorts, cfg.Boards, d, raw, log.With("part", "dgt"))
	if err != nil {
		return withCode(exitConfig, err)
	}
	busDrv, err := startDGTBus(ctx, busLines, cfg.Boards, d, raw, log.With("part", "dgt-bus"))
	if err != nil {
		return withCode(exitConfig, err)
	}
	if err := keepReplaySettings(db, dgtDrv, busDrv); err != nil {
		return err
	}
	if !hub {
		d.SetSender(newSenders(drv, dgtDrv, busDrv))
		wg.Go(func() { _ = drv.Run(ctx) })
		if dgtDrv != nil {
			wg.Go(func() { _ = dgtDrv.Run(ctx) })
		}
		if busDrv != nil {
			wg.Go(func() { _ = busDrv.Run(ctx) })
		}
	}

	// The web pages.
	site := web.New(d, webConfig(cfg), log.With("part", "web"))
	// On the site, so it gets its security headers. The site serves
	// /metrics itself, only for http.metrics_allow.
	site.Handle("GET /healthz", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := health(db, raw, backupErr); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	}))
	srv := web.NewServer(site, web.Timeouts{}) // every timeout set; ends the live streams on Shutdown
	wg.Go(func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("web server", "err", err)
			cancel()
		}
	})
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(cmd.OutOrStdout(), "arbiter: %s is live at %s\n", cfg.Event.Name, url)
	log.Info("serving", "url", url)
	// The live rounds pushed to broadcast services (broadcast.push).
	wg.Go(func() { _ = push.Run(ctx, d.Hub().Subscribe) })

	// SIGHUP reloads what can change safely: the log level and the logins.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	wg.Go(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				next, err := config.Load(cfgPath, cmd.Flags())
				if err == nil {
					err = checkWeb(next, log)
				}
				if err != nil {
					log.Error("reload refused", "err", err)
					continue
				}
				_ = level.UnmarshalText([]byte(next.Log.Level))
				site.SetUsers(webUsers(next))
				log.Info("configuration reloaded", "level", next.Log.Level, "users", len(next.Console.Users))
			}
		}
	})

	if exitWhenDone {
		wg.Go(func() {
			select {
			case <-done:
				fmt.Fprintln(cmd.OutOrStdout(), doneMsg)
				cancel()
			case <-ctx.Done():
			}
		})
	}
	runErr := d.Run(ctx) // returns when ctx ends, clocks paused and stored
	shutdown, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	_ = srv.Shutdown(shutdown)
	cancel()
	wg.Wait()
	<-rawDone
	log.Info("stopped")
	return errors.Join(runErr, stoppedUnstored(cmd.ErrOrStderr(), log, db, d, raw, rawErr))
}

// testHookOpened, when set by a test, is given the database serve opened.
var testHookOpened func(*store.DB)

// testDirectors, filled by tests, maps a configuration to a function that
// is given the director serve made for it, before the event runs.
var testDirectors sync.Map // *config.Config -> func(*director.Director)

// health is what /healthz reports: nil, or why the event is not safe.
func health(db *store.DB, raw *store.RawLog, backupErr *atomic.Pointer[error]) error {
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
	return nil
}

// startBackups serves consistent copies on the backup socket beside the
// database (for "arbiter db backup" while the event runs) and, when
// backup.dir is set, writes automatic backups. The returned pointer holds
// the last automatic backup's error, nil while they work.
func startBackups(ctx context.Context, wg *sync.WaitGroup, cfg *config.Config, db *store.DB, log *slog.Logger) *atomic.Pointer[error] {
	var last atomic.Pointer[error]
	if ln, err := backup.Listen(db); err != nil {
		log.Warn("no backup socket: \"arbiter db backup\" will not work while the event runs", "err", err)
	} else {
		wg.Go(func() { backup.Serve(ctx, ln, db, log) })
	}
	if cfg.Backup.Dir == "" {
		return &last
	}
	auto := &backup.Auto{DB: db, Dir: cfg.Backup.Dir, Every: cfg.Backup.Every, Keep: cfg.Backup.Keep, Now: time.Now, Log: log,
		Failed: func(err error) {
			if err == nil {
				last.Store(nil)
			} else {
				last.Store(&err)
			}
		}}
	wg.Go(func() { auto.Run(ctx) })
	log.Info("automatic backups", "dir", cfg.Backup.Dir, "every", cfg.Backup.Every, "keep", cfg.Backup.Keep)
	return &last
}

func assign(d *director.Director, a config.Assignment) error {
	for _, id := range d.TournamentIDs() {
		t, err := d.DB().Tournament(id)
		if err == nil && t.Name == a.Tournament {
			_, err := d.AddTable(id, a.Board)
			return err
		}
	}
	return fmt.Errorf("boards.assign: no tournament %q", a.Tournament)
}
