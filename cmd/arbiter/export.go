package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"arbiter/director"
	"arbiter/export"
	"arbiter/internal/config"
	"arbiter/store"
)

func newExportCmd() *cobra.Command {
	var (
		path, out, format, event, cfgPath string
		game, tournament                  uint64
	)
	cmd := &cobra.Command{
		Use:   "export --database DB [--config F] [--game N --format F | --tournament N | --archive] [-o FILE]",
		Short: "Export scoresheets, tournament reports (TRF) and event archives",
		Long: `export writes records from the event database:
  --game N --format F    one game's scoresheet: latin or cyrillic (Tavreli),
                         kif, csa or ki2 (shogi), pgn (chess, Tensor), kvaa,
                         or html (a printable page for any game)
  --tournament N         the tournament as a TRF26 report
  (neither)              every record of the event as one zip archive
With --config, the TRF reports' header (city, federation, arbiters, dates)
comes from the event's configuration, and the event's name from it unless
--event gives one.
It reads a copy of the database safely while the daemon runs only through
"arbiter db backup"; run it on a backup or on a stopped event.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out != "" && out != "-" {
				// Refuse an existing file before the database is opened.
				if _, err := os.Lstat(out); err == nil {
					return fmt.Errorf("%s: %w (exports never overwrite)", out, fs.ErrExist)
				}
			}
			ev := export.Event{}
			if cfgPath != "" {
				cfg, err := config.Load(cfgPath, nil)
				if err != nil {
					return withCode(exitConfig, err)
				}
				ev = exportEvent(cfg)
			}
			if event != "" || cfgPath == "" {
				ev.Name = event
			}
			event = ev.Name
			return withDB(path, true, func(db *store.DB) error {
				write := func(w io.Writer) error {
					rep := export.WithEvent(director.Reports{DB: db}, db, ev)
					switch {
					case game != 0:
						return exportGame(w, db, event, game, format)
					case tournament != 0:
						return export.WriteTRF(w, rep, tournament)
					}
					return export.Archive(w, db, event, rep)
				}
				if out == "" || out == "-" {
					return write(cmd.OutOrStdout())
				}
				return writeNewFile(out, write)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&path, "database", "arbiter-event.db", "the event database")
	f.StringVarP(&out, "output", "o", "", "the file to write (default: standard output; never overwritten)")
	f.Uint64Var(&game, "game", 0, "export this game")
	f.StringVar(&format, "format", "", "the game's format (default: its first)")
	f.Uint64Var(&tournament, "tournament", 0, "export this tournament's TRF report")
	f.StringVar(&event, "event", "", "event name for the records' headers")
	f.StringVar(&cfgPath, "config", "", "the event's configuration, for the TRF header and the event's name")
	return cmd
}

func exportGame(w io.Writer, db *store.DB, event string, id uint64, format string) error {
	s, err := export.Load(db, event, id)
	if err != nil {
		return err
	}
	if format == "html" {
		return s.WriteHTML(w)
	}
	if format == "" {
		fs := export.Formats(s.Game.Game)
		if len(fs) == 0 {
			return fmt.Errorf("game %d: no format for %s", id, s.Game.Game)
		}
		format = fs[0].Name
	}
	if _, err := export.LookupFormat(s.Game.Game, format); err != nil {
		var names []string
		for _, f := range export.Formats(s.Game.Game) {
			names = append(names, f.Name)
		}
		return fmt.Errorf("%w: --format %q: %s games have %s, html", errUsage, format, s.Game.Game, strings.Join(names, ", "))
	}
	return s.Write(w, format)
}

// writeNewFile writes a file that must not exist yet, all or nothing: the
// content goes to a temporary file in the same folder, which takes the
// name only once complete and synced. A failed export leaves nothing
// behind, so the corrected command can run at once; an existing file is
// never replaced.
func writeNewFile(path string, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer func() {
		tmp.Close() // a second Close after success only reports ErrClosed
		// After a link the temporary name is only a second name; after a
		// failure it is the whole half-written file. Either way it goes.
		if rmErr := os.Remove(tmp.Name()); rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) && err == nil {
			err = fmt.Errorf("export: remove %s: %w", tmp.Name(), rmErr)
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("export: write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("export: write %s: %w", path, err)
	}
	// A hard link gives the file its name only if the name is free, in
	// one step; where links are not supported, rename after a check.
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s: %w (exports never overwrite)", path, fs.ErrExist)
		}
		if _, statErr := os.Lstat(path); statErr == nil {
			return fmt.Errorf("%s: %w (exports never overwrite)", path, fs.ErrExist)
		}
		if err := os.Rename(tmp.Name(), path); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	return nil
}
