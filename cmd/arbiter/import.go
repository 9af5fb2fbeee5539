package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"arbiter/director"
	"arbiter/export"
	"arbiter/internal/config"
	"arbiter/internal/names"
	"arbiter/store"
)

func newImportCmd() *cobra.Command {
	var (
		cfgPath, who, why string
		tournament        uint64
		round, board      int
	)
	cmd := &cobra.Command{
		Use:   "import --config F [--tournament ID --round N --board K] FILE...",
		Short: "Load game records (PGN, Tavreli, KIF/KI2/CSA, Kvaa) into the event's database",
		Long: `import reads game records and stores them in the event's database, for
games played without a sensor board and for archives. The format comes from
each file's extension: .pgn (chess; Tensor chess by its Variant tag), .tav
(Tavreli), .kif/.kifu/.ki2/.ki2u/.csa (shogi), .kvaa (Kvaa). A file may hold
several games.

Every move is checked legal under the game's rules. A game that cannot be
read or has an illegal move is reported with its file, its number in the
file, the move's number and text, and then nothing at all is stored: fix the
file and run the command again. Each game stored is audited.

With --tournament (its number, as in the API and "arbiter export"), the
games are the tournament's: their players are found by name among its
players, and each game goes to the board of round N (--round, else the
record's Round tag) where White (sente, south) plays Black; --board picks the
board when a single game is imported. The round must be paired and the game
not played yet; its result then counts in the standings. Without
--tournament the games are stored outside any tournament (an archive).

Run it on a stopped event: the daemon holds the database while it runs.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cfgPath == "" {
				return fmt.Errorf("%w: --config is required: the event's configuration names its database and tournaments", errUsage)
			}
			if tournament == 0 && (round != 0 || board != 0) {
				return fmt.Errorf("%w: --round and --board place games in a tournament: give --tournament", errUsage)
			}
			if round < 0 || board < 0 {
				return fmt.Errorf("%w: --round and --board count from 1", errUsage)
			}
			cfg, err := config.Load(cfgPath, cmd.Flags())
			if err != nil {
				return withCode(exitConfig, err)
			}
			files := make(map[string][]byte, len(args))
			for _, name := range args {
				data, err := os.ReadFile(name)
				if err != nil {
					return err
				}
				files[name] = data
			}
			return withDB(cfg.Event.Database, false, func(db *store.DB) error {
				// The event's tournaments and players, as serve makes them.
				if _, err := director.New(directorConfig(cfg), db, slog.New(slog.DiscardHandler)); err != nil {
					return err
				}
				imp := importer{db: db, who: who, why: why, round: round, board: board}
				if tournament != 0 {
					if err := imp.tournament(tournament); err != nil {
						return err
					}
				}
				return imp.run(cmd.OutOrStdout(), args, files, time.Now())
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfgPath, "config", "", "the event's configuration file")
	f.String("database", "", "the event database (default: the configuration's event.database)")
	f.Uint64Var(&tournament, "tournament", 0, "store the games in this tournament")
	f.IntVar(&round, "round", 0, "the tournament round of the games (default: the records' Round tag)")
	f.IntVar(&board, "board", 0, "the board of the game, when one game is imported")
	f.StringVar(&who, "who", "import", "who imports, for the audit log")
	f.StringVar(&why, "why", "", "why, for the audit log")
	return cmd
}

// importer places read games in the event: outside any tournament, or on
// the boards of a tournament's round.
type importer struct {
	db           *store.DB
	who, why     string
	round, board int
	// The tournament, when the games are its.
	tour    *store.Tournament
	players []store.Player
	rounds  []store.Round
}

// tournament loads the tournament the games go to.
func (imp *importer) tournament(id uint64) error {
	t, err := imp.db.Tournament(id)
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("--tournament %d: %w", id, err))
	}
	imp.tour = &t
	if imp.players, err = imp.db.Players(id); err != nil {
		return err
	}
	imp.rounds, err = imp.db.Rounds(id)
	return err
}

// planned is a game ready to be stored.
type planned struct {
	file  string
	n     int // in its file, from 1
	game  store.Game
	moves []store.Move
}

// run reads every file, places every game, and stores them all only if
// every one was read and placed.
func (imp *importer) run(w io.Writer, names []string, files map[string][]byte, now time.Time) error {
	options := ""
	if imp.tour != nil {
		options = imp.tour.Options
	}
	var (
		plans    []planned
		problems []string
	)
	for _, name := range names {
		games, warnings, err := export.ReadGames(name, files[name], options)
		for _, warning := range warnings {
			fmt.Fprintln(w, "warning:", warning)
		}
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for i, g := range games {
			p := planned{file: name, n: i + 1, game: g.Game, moves: g.Moves}
			if imp.tour != nil {
				if err := imp.place(&p, g); err != nil {
					problems = append(problems, fmt.Sprintf("%s: game %d: %v", name, i+1, err))
					continue
				}
			}
			plans = append(plans, p)
		}
	}
	if imp.tour != nil && imp.board != 0 && len(plans)+len(problems) > 1 {
		return fmt.Errorf("%w: --board places one game; the files hold more", errUsage)
	}
	seen := map[uint64]string{}
	for _, p := range plans {
		if p.game.ID == 0 {
			continue
		}
		at := fmt.Sprintf("%s game %d", p.file, p.n)
		if other, ok := seen[p.game.ID]; ok {
			problems = append(problems, fmt.Sprintf("%s: round %d board %d is also the board of %s", at, p.game.Round, p.game.BoardNo, other))
		}
		seen[p.game.ID] = at
	}
	if len(problems) > 0 {
		return fmt.Errorf("nothing was imported: %d problems:\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	for _, p := range plans {
		g := p.game
		data := fmt.Sprintf("%s game %d: %s - %s, %d moves", filepath.Base(p.file), p.n, g.First, g.Second, len(p.moves))
		if g.Result != "" {
			data += ", " + g.Result
		}
		a := &store.Action{Who: imp.who, What: "import", Why: imp.why, Data: data, At: now}
		if err := imp.db.ImportRecord(&g, p.moves, a); err != nil {
			return fmt.Errorf("%s: game %d: %w", p.file, p.n, err)
		}
		where := "outside any tournament"
		if g.TournamentID != 0 {
			where = fmt.Sprintf("%s round %d board %d", imp.tour.Name, g.Round, g.BoardNo)
		}
		result := g.Result
		if result == "" {
			result = "*"
		}
		fmt.Fprintf(w, "%s: game %d: stored as game %d, %s: %s - %s %s (%d moves)\n", p.file, p.n, g.ID, where, g.First, g.Second, result, len(p.moves))
	}
	return nil
}

// place puts a game read from a record on its board of the tournament:
// its players found by name, the board of its round where they play with
// these colours, whose game has not been played yet.
func (imp *importer) place(p *planned, g export.Imported) error {
	t := imp.tour
	if g.Game.Game != t.Game {
		return fmt.Errorf("a %s game, but %s plays %s", g.Game.Game, t.Name, t.Game)
	}
	if g.Game.Options != t.Options {
		return fmt.Errorf("the record was played under the options %q, but %s plays under %q", g.Game.Options, t.Name, t.Options)
	}
	first, err := imp.player(g.Game.First)
	if err != nil {
		return err
	}
	second, err := imp.player(g.Game.Second)
	if err != nil {
		return err
	}
	round := cmp.Or(imp.round, g.Round)
	if round == 0 {
		return errors.New("the record names no round (Round tag): give --round")
	}
	board := cmp.Or(imp.board, g.Board)
	i := slices.IndexFunc(imp.rounds, func(r store.Round) bool { return r.Number == round })
	if i < 0 {
		return fmt.Errorf("round %d of %s is not paired yet: pair it first, or import the game outside the tournament", round, t.Name)
	}
	var pairing *store.Pairing
	for j := range imp.rounds[i].Pairings {
		pr := &imp.rounds[i].Pairings[j]
		switch {
		case board != 0 && pr.Board != board:
		case pr.First == first.ID && pr.Second == second.ID:
			pairing = pr
		case pr.First == second.ID && pr.Second == first.ID:
			return fmt.Errorf("round %d board %d is paired with %s moving first, but the record has %s moving first", round, pr.Board, second.Name, first.Name)
		}
	}
	if pairing == nil {
		where := ""
		if board != 0 {
			where = fmt.Sprintf(" on board %d", board)
		}
		return fmt.Errorf("%s and %s do not play each other in round %d%s", first.Name, second.Name, round, where)
	}
	if pairing.GameID == 0 {
		return fmt.Errorf("round %d board %d has no game (a bye or a forfeit)", round, pairing.Board)
	}
	stored, err := imp.db.Game(pairing.GameID)
	if err != nil {
		return err
	}
	if stored.Result != "" {
		return fmt.Errorf("round %d board %d already has the result %s", round, pairing.Board, stored.Result)
	}
	if moves, err := imp.db.Moves(stored.ID); err != nil {
		return err
	} else if len(moves) > 0 {
		return fmt.Errorf("round %d board %d already has %d moves", round, pairing.Board, len(moves))
	}
	// The tournament's game, with what the record played.
	out := stored
	out.StartPosition, out.Result, out.Reason, out.Ended = g.Game.StartPosition, g.Game.Result, g.Game.Reason, g.Game.Ended
	out.Tags = g.Game.Tags
	if !g.Game.Started.IsZero() {
		out.Started = g.Game.Started
	}
	if out.TimeControl == "" {
		out.TimeControl = g.Game.TimeControl
	}
	p.game = out
	return nil
}

// player finds a tournament's player by name (names.Same: the case, runs
// of white space and the Unicode form of an accent do not tell names
// apart).
func (imp *importer) player(name string) (store.Player, error) {
	for _, p := range imp.players {
		if names.Same(p.Name, name) {
			return p, nil
		}
	}
	return store.Player{}, fmt.Errorf("%q is not a player of %s", name, imp.tour.Name)
}
