package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The federation's configuration mistakes are refused when serve starts
// (exit 3), each with its key and why, before anything is opened: a
// password in plain text where the hub keeps hashes, a hall without the
// hub's address, and a hub's keys on a hall.
func TestServeRefusesFederationMistakes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	leaf := freeAddr(t)
	hub := fedHub(t, dir, leaf, "east")
	hub.federation = append(hub.federation[:len(hub.federation)-2], "hall_passwords: {east: secret-of-east}")
	noURL := fedHall(t, dir, "east", leaf, 1, 1)
	noURL.federation = []string{"role: hall", "hall: east", "store_dir: " + filepath.Join(dir, "nats-east")}
	mixed := fedHall(t, dir, "west", leaf, 1, 1)
	mixed.federation = append(mixed.federation, "leaf_listen: 0.0.0.0:7422", "halls: [east, west]")
	for _, tt := range []struct {
		daemon fedDaemon
		says   []string
	}{
		{hub, []string{"federation.hall_passwords.east", "not a bcrypt hash"}},
		{noURL, []string{"federation.hub_url", "a hall needs the hub's leaf node address"}},
		{mixed, []string{"federation.leaf_listen", "federation.halls", "is a hub's key, not a hall's"}},
	} {
		p := serveProc(t, tt.daemon)
		require.Equal(t, exitConfig, p.exit(t), "%s: %s", tt.daemon.name, p.log.String())
		for _, s := range tt.says {
			assert.Contains(t, p.log.String(), s, tt.daemon.name)
		}
		assert.NotContains(t, p.log.String(), "secret-of-east", "a password is never shown")
		assert.NoFileExists(t, filepath.Join(dir, tt.daemon.name+".db"), "nothing is opened")
	}
}
