package freeport_test

import (
	"net"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/freeport"
)

// A port handed out is free, below the kernel's ephemeral range (where a
// listener on port 0 is never given it), and not handed out again.
func TestPortsAreFreeOnceAndBelowTheEphemeralRange(t *testing.T) {
	seen := map[int]bool{}
	for range 50 {
		p := freeport.Port(t)
		assert.False(t, seen[p], "port %d handed out twice", p)
		seen[p] = true
		l, err := net.Listen("tcp", freeport.Addr(t))
		require.NoError(t, err)
		zero, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		assert.False(t, seen[zero.Addr().(*net.TCPAddr).Port], "port 0 was given a port handed out")
		zero.Close()
		l.Close()
	}
}
