//go:build tools

// Package deps pins modules that packages still being written will import,
// so that parallel work on those packages never has to edit go.mod at once.
package deps

import (
	_ "github.com/creack/pty"
	_ "github.com/spf13/cobra"
	_ "github.com/spf13/viper"
	_ "github.com/stretchr/testify/require"
	_ "go.bug.st/serial"
	_ "go.bug.st/serial/enumerator"
	_ "go.etcd.io/bbolt"
	_ "golang.org/x/text/encoding/japanese"
)
