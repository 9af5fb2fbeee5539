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
	if err != nil {
		return nil, refused(err, path, "Run \"arbiter db check --database "+path+"\" for the full report, then restore the latest backup (README, \"Restoring a backup\")")
	}
	return db, nil
}

// refused maps an error of store.Open on the file at path to its exit
// code, with what to do; advice is what to do about a damaged file that
// is neither empty nor of damaged meta pages.
func refused(err error, path, advice string) error {
	var meta *store.MetaError
	switch {
	case errors.Is(err, store.ErrLocked):
		return withCode(exitDBLocked, err)
	case errors.Is(err, store.ErrEmpty):
		return withCode(exitDamaged, fmt.Errorf("%w\nThe file was left untouched. A new event starts only in a file that does not exist: "+
			"remove %s to start afresh, or restore the latest backup (README, \"Restoring a backup\")", err, path))
	case errors.As(err, &meta) && meta.Lossless():
		return withCode(exitDamaged, fmt.Errorf("%w\nThe file was left untouched. Only bytes bbolt does not read are damaged: "+
			"\"arbiter db repair --database %s\" repairs it without loss, keeping the original aside", err, path))
	case errors.As(err, &meta) && meta.Repairable():
		return withCode(exitDamaged, fmt.Errorf("%w\nThe file was left untouched: opened as it is, it would go back to the previous transaction without a word. "+
			"Restore the newest backup (README, \"Restoring a backup\"), or accept the previous transaction knowingly: "+
			"\"arbiter db repair --database %s\" says what it would lose, and with --accept-previous repairs the file, keeping the original aside", err, path))
	case errors.Is(err, store.ErrForeign):
		return withCode(exitDamaged, fmt.Errorf("%w\nThe file was left untouched: check that --database names the event's file (%s)", err, path))
	case errors.Is(err, store.ErrTooNew):
		return withCode(exitDamaged, fmt.Errorf("%w\nThe file was left untouched: run it with the newer arbiter that wrote it", err))
	case errors.Is(err, store.ErrCorrupt):
		return withCode(exitDamaged, fmt.Errorf("%w\nThe file was left untouched. %s", err, advice))
	}
	return err
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
		Short: "Maintain the event database: backup, check, compact, export, import, repair",
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
			db, err := store.Open(path, &store.Options{ReadOnly: true, NoVerify: true})
			if err != nil {
				return refused(err, path, "Restore the latest backup (README, \"Restoring a backup\")")
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
	cmd.AddCommand(backup, check, compact, export, imp, newRepairCmd(&path))
	return cmd
}

func newRepairCmd(path *string) *cobra.Command {
	var acceptPrevious bool
	var out string
	cmd := &cobra.Command{
		Use:   "repair",
		Short: "Repair a database whose meta page is damaged, saying first what it loses",
		Long: `repair rewrites the meta pages of a database that serve and db check refuse
because one of its two meta pages is damaged. bbolt keeps two, written in
turn; opened as it is, such a file silently goes back to the previous
transaction. repair says what that loses (the records the last transaction
wrote: "game 38 move 41 Ne1") and writes nothing unless --accept-previous
is given. When only bytes bbolt does not read are damaged, nothing is lost
and no flag is needed. The repaired file is checked page by page and record
by record; it is written to --output, or in place of the database after
the original is kept aside as DATABASE.damaged-TIME. Restoring the newest
backup is the other way (README, "Restoring a backup"). Records damaged
inside (their checksums fail) cannot be repaired: restore a backup.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := store.Repair(*path, store.RepairOptions{AcceptPrevious: acceptPrevious, Out: out, Now: time.Now()})
			if r != nil {
				if werr := r.WriteText(cmd.OutOrStdout()); werr != nil {
					return werr
				}
			}
			switch {
			case errors.Is(err, store.ErrLocked):
				return withCode(exitDBLocked, fmt.Errorf("%w: stop the daemon first", err))
			case errors.Is(err, store.ErrLossyRepair):
				return withCode(exitDamaged, fmt.Errorf("nothing was written: %w", err))
			case err != nil:
				return refused(err, *path, "Restore the newest backup (README, \"Restoring a backup\")")
			case r.Damage != nil:
				return nil
			}
			// The meta pages are intact: whatever else is wrong is not
			// for a repair.
			db, err := store.Open(*path, &store.Options{ReadOnly: true, NoVerify: true})
			if err != nil {
				return refused(err, *path, "Restore the newest backup (README, \"Restoring a backup\")")
			}
			defer db.Close()
			if err := db.Check(); err != nil {
				return withCode(exitMismatch, fmt.Errorf("%s is damaged beyond its meta pages:\n%w\nA repair cannot mend that: restore the newest backup (README, \"Restoring a backup\")", *path, err))
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: ok\n", *path)
			return nil
		},
	}
	cmd.Flags().BoolVar(&acceptPrevious, "accept-previous", false, "go back to the previous transaction when the last one's meta page is damaged, losing what it wrote")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the repaired copy here and leave the database untouched")
	return cmd
}
