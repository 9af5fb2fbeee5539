package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"arbiter/internal/backup"
	"arbiter/store"
)

// openDB opens the event database, mapping a database held by a running
// daemon and a damaged file to their own exit codes.
func openDB(path string, readOnly bool) (*store.DB, error) {
	return openDBWith(path, &store.Options{ReadOnly: readOnly})
}

func openDBWith(path string, opts *store.Options) (*store.DB, error) {
	db, err := store.Open(path, opts)
	switch {
	case errors.Is(err, store.ErrLocked):
		return nil, withCode(exitDBLocked, err)
	case errors.Is(err, store.ErrEmpty):
		return nil, withCode(exitDamaged, fmt.Errorf("%w\nThe file was left untouched. A new event starts only in a file that does not exist: "+
			"remove %s to start afresh, or restore the latest backup (README, \"Restoring a backup\")", err, path))
	case errors.Is(err, store.ErrCorrupt):
		return nil, withCode(exitDamaged, fmt.Errorf("%w\nThe file was left untouched. Run \"arbiter db check --database %s\" for the full report, "+
			"then restore the latest backup (README, \"Restoring a backup\")", err, path))
	}
	return db, err
}

// withDB runs f on the opened database and closes it.
func withDB(path string, readOnly bool, f func(db *store.DB) error) error {
	db, err := openDB(path, readOnly)
	if err != nil {
		return err
	}
	defer db.Close()
	return f(db)
}

func newDBCmd() *cobra.Command {
	var path string
	cmd := &cobra.Command{
		Use:   "db",
		Short: "Maintain the event database: backup, check, compact, export, import",
	}
	cmd.PersistentFlags().StringVar(&path, "database", "arbiter-event.db", "the event database")

	backup := &cobra.Command{
		Use:   "backup FILE",
		Short: "Write a consistent copy of the database while the event goes on",
		Long: `backup writes a consistent copy of the database to FILE (which must not
exist). While a daemon runs the event on the database, the copy comes from
the daemon through its backup socket beside the database (DATABASE.backup.sock);
otherwise the file is read directly. The copy is checked before it is put in
place. To restore it, see "Restoring a backup" in the README.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := context.WithTimeout(cmd.Context(), 10*time.Minute)
			defer cancel()
			err := backup.Fetch(ctx, path, args[0])
			if err == nil {
				fmt.Fprintf(cmd.OutOrStdout(), "backup of %s written to %s (from the running daemon)\n", path, args[0])
				return nil
			}
			if !errors.Is(err, backup.ErrNoDaemon) {
				return err
			}
			return withDB(path, true, func(db *store.DB) error {
				if err := db.Backup(args[0]); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "backup of %s written to %s\n", path, args[0])
				return nil
			})
		},
	}
	check := &cobra.Command{
		Use:   "check",
		Short: "Verify the database page by page and record by record",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// Open without the full check: Check reports every problem.
			db, err := openDBWith(path, &store.Options{ReadOnly: true, NoVerify: true})
			if err != nil {
				return err
			}
			defer db.Close()
			if err := db.Check(); err != nil {
				return withCode(exitMismatch, fmt.Errorf("%s is damaged:\n%w\nRestore the latest backup (README, \"Restoring a backup\"), or export what can still be read with \"arbiter db export\"", path, err))
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: ok\n", path)
			return nil
		},
	}
	compact := &cobra.Command{
		Use:   "compact FILE",
		Short: "Write a compacted copy of the database to FILE",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withDB(path, true, func(db *store.DB) error {
				if err := db.Compact(args[0]); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "compacted copy of %s written to %s\n", path, args[0])
				return nil
			})
		},
	}
	export := &cobra.Command{
		Use:   "export FILE",
		Short: "Export the whole event, raw sensor logs included, to a portable file",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withDB(path, true, func(db *store.DB) error {
				f, err := os.OpenFile(args[0], os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
				if err != nil {
					return err
				}
				if err := db.Export(f); err != nil {
					f.Close()
					os.Remove(args[0])
					return err
				}
				return f.Close()
			})
		},
	}
	imp := &cobra.Command{
		Use:   "import FILE",
		Short: "Import an exported event into a new, empty database",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := os.Open(args[0])
			if err != nil {
				return err
			}
			defer f.Close()
			return withDB(path, false, func(db *store.DB) error {
				if err := db.Import(f); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s imported into %s\n", args[0], path)
				return nil
			})
		},
	}
	cmd.AddCommand(backup, check, compact, export, imp)
	return cmd
}
