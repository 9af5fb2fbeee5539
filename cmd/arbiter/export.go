package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"arbiter/director"
	"arbiter/export"
	"arbiter/store"
)

func newExportCmd() *cobra.Command {
	var (
		path, out, format, event string
		game, tournament         uint64
	)
	cmd := &cobra.Command{
		Use:   "export --database DB [--game N --format F | --tournament N | --archive] [-o FILE]",
		Short: "Export scoresheets, tournament reports (TRF) and event archives",
		Long: `export writes records from the event database:
  --game N --format F    one game's scoresheet: latin or cyrillic (Tavreli),
                         kif, csa or ki2 (shogi), pgn (chess, Tensor), kvaa,
                         or html (a printable page for any game)
  --tournament N         the tournament as a TRF26 report
  (neither)              every record of the event as one zip archive
It reads a copy of the database safely while the daemon runs only through
"arbiter db backup"; run it on a backup or on a stopped event.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withDB(path, true, func(db *store.DB) error {
				w := cmd.OutOrStdout()
				if out != "" && out != "-" {
					f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
					if err != nil {
						return err
					}
					defer f.Close()
					w = f
				}
				rep := director.Reports{DB: db}
				switch {
				case game != 0:
					return exportGame(w, db, event, game, format)
				case tournament != 0:
					return export.WriteTRF(w, rep, tournament)
				}
				return export.Archive(w, db, event, rep)
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
