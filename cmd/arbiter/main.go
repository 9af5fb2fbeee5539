// Command arbiter runs over-the-board tournaments on sensor boards, and
// offers the toolkit around them: perft for every game, pairing, standings,
// exports and database maintenance.
//
// Run "arbiter help" for the list of commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	// The board protocols the daemon reads: one import each.
	_ "arbiter/hardware/certabo/plug"
	_ "arbiter/hardware/dgt/driver"
	_ "arbiter/hardware/millennium/plug"
	_ "arbiter/hardware/sensorboard/plug"
)

// Exit codes, stable for scripts.
const (
	exitOK       = 0
	exitError    = 1 // any failure not listed below
	exitUsage    = 2 // bad flags or arguments
	exitConfig   = 3 // the configuration is invalid
	exitDBLocked = 4 // the database is held by another daemon
	exitMismatch = 5 // a check found differences (replay, pairing check, db check)
	exitDamaged  = 6 // the database file is empty, truncated or damaged: it was left untouched
)

// codedError carries a specific exit code up to main.
type codedError struct {
	code int
	err  error
}

func (e *codedError) Error() string { return e.err.Error() }
func (e *codedError) Unwrap() error { return e.err }

func withCode(code int, err error) error {
	if err == nil {
		return nil
	}
	return &codedError{code, err}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:]))
}

func run(ctx context.Context, args []string) int {
	root := newRootCmd()
	root.SetArgs(args)
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "arbiter:", err)
		return exitCode(err)
	}
	return exitOK
}

// exitCode maps an error to the process exit code.
func exitCode(err error) int {
	var ce *codedError
	switch {
	case errors.As(err, &ce):
		return ce.code
	case errors.Is(err, errUsage):
		return exitUsage
	}
	return exitError
}
