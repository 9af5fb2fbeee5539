package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

// errUsage marks errors in flags or arguments.
var errUsage = errors.New("usage")

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "arbiter",
		Short:         "Run over-the-board tournaments on sensor boards",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w: %v (see %s --help)", errUsage, err, c.CommandPath())
	})
	root.AddCommand(newVersionCmd(), newPerftCmd(), newDBCmd(), newServeCmd(),
		newPairCmd(), newCheckCmd(), newGenerateCmd(), newStandingsCmd(), newPortsCmd(), newSimulateCmd(), newExportCmd(), newReplayCmd(), newHashPasswordCmd())
	root.AddCommand(newImportCmd(), newPreflightCmd(), newRehearseCmd())
	return root
}
