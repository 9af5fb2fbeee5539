package config_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"

	"arbiter/internal/config"
	"arbiter/internal/federation"
)

const fedBase = `event: {name: Federation test}
tournaments:
  - name: Open
    game: chess
    system: round-robin
    rounds: 3
    players: [{name: Ann}, {name: Bob}, {name: Cid}, {name: Dan}]
`

func loadFederation(t *testing.T, section string) (*config.Config, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fed.yaml")
	require.NoError(t, os.WriteFile(path, []byte(fedBase+section), 0o600))
	return config.Load(path, nil)
}

func TestFederation(t *testing.T) {
	c, err := loadFederation(t, "")
	require.NoError(t, err)
	assert.Empty(t, c.Federation.Role, "a single hall needs no federation")

	c, err = loadFederation(t, `federation: {role: hall, hall: east, store_dir: /var/lib/arbiter/nats, hub_url: "nats-leaf://hq.example:7422"}
`)
	require.NoError(t, err)
	assert.Equal(t, federation.Config{Role: federation.RoleHall, Hall: "east", Listen: "127.0.0.1:4222", StoreDir: "/var/lib/arbiter/nats",
		HubURL: "nats-leaf://hq.example:7422", FirstBoard: 1}, c.Federation)

	c, err = loadFederation(t, `federation: {role: hub, url: "tls://nats.example:4222", halls: [east, west]}
`)
	require.NoError(t, err)
	assert.Equal(t, []string{"east", "west"}, c.Federation.Halls)

	east, west := hash(t, "a"), hash(t, "b")
	c, err = loadFederation(t, `federation: {role: hub, store_dir: x, leaf_listen: "0.0.0.0:7422", halls: [east, west], hall_passwords: {east: "`+east+`", west: "`+west+`"}}
`)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"east": east, "west": west}, c.Federation.HallPasswords)
}

// hash is a bcrypt hash of password, at the lowest cost.
func hash(t *testing.T, password string) string {
	t.Helper()
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	require.NoError(t, err)
	return string(h)
}

func TestFederationProblems(t *testing.T) {
	tests := []struct {
		name, section, key, says string
	}{
		{"role", `{role: leader}`, "federation.role", "want hall, hub"},
		{"hall without name", `{role: hall, store_dir: x}`, "federation.hall", "a hall needs its name"},
		{"hall name", `{role: hall, hall: "east hall", store_dir: x}`, "federation.hall", "not a letter, digit"},
		{"no store dir", `{role: hall, hall: east}`, "federation.store_dir", "needs a directory"},
		{"bad url", `{role: hall, hall: east, url: "http://x:4222"}`, "federation.url", "nats:// or tls://"},
		{"bad hub url", `{role: hall, hall: east, store_dir: x, hub_url: "nats://x"}`, "federation.hub_url", "nats-leaf:// or tls://"},
		{"bad listen", `{role: hall, hall: east, store_dir: x, listen: "4222"}`, "federation.listen", "host:port"},
		{"hub without halls", `{role: hub, url: "nats://x:4222"}`, "federation.halls", "names of the halls"},
		{"hall twice", `{role: hub, url: "nats://x:4222", halls: [east, east]}`, "federation.halls[1]", "listed twice"},
		{"bad leaf listen", `{role: hub, store_dir: x, halls: [east], leaf_listen: "x"}`, "federation.leaf_listen", "host:port"},
		{"first board", `{role: hall, hall: east, store_dir: x, first_board: 0}`, "federation.first_board", "1 or more"},
		{"hall without password", `{role: hub, store_dir: x, halls: [east, west], hall_passwords: {east: s3cret}}`, "federation.hall_passwords.west", "every hall needs a password"},
		{"password of no hall", `{role: hub, store_dir: x, halls: [east], hall_passwords: {east: a, south: b}}`, "federation.hall_passwords.south", "not one of federation.halls"},
		{"cert without key", `{role: hub, store_dir: x, halls: [east], tls_cert: /etc/hostname}`, "federation.tls_key", "give both"},
		{"missing ca", `{role: hall, hall: east, store_dir: x, tls_ca: /no/such/ca.pem}`, "federation.tls_ca", "cannot read it"},
		{"typo", `{role: hub, url: "nats://x:4222", halls: [east], hals: [west]}`, "federation.hals", ""},
		{"plain-text password", `{role: hub, store_dir: x, leaf_listen: ":7422", halls: [east], hall_passwords: {east: s3cret}}`, "federation.hall_passwords.east", "not a bcrypt hash"},
		{"hall without hub_url", `{role: hall, hall: east, store_dir: x}`, "federation.hub_url", "a hall needs the hub's leaf node address"},
		{"hub_url beside url", `{role: hall, hall: east, url: "nats://127.0.0.1:4222", hub_url: "nats-leaf://hq:7422"}`, "federation.hub_url", "leave hub_url out"},
		{"hub's leaf port on a hall", `{role: hall, hall: east, store_dir: x, hub_url: "nats-leaf://hq:7422", leaf_listen: ":7422"}`, "federation.leaf_listen", "is a hub's key"},
		{"halls on a hall", `{role: hall, hall: east, store_dir: x, hub_url: "nats-leaf://hq:7422", halls: [east, west]}`, "federation.halls", "is a hub's key"},
		{"passwords on a hall", `{role: hall, hall: east, store_dir: x, hub_url: "nats-leaf://hq:7422", hall_passwords: {east: x}}`, "federation.hall_passwords", "a hall gives its password in hub_url"},
		{"certificate on a hall", `{role: hall, hall: east, store_dir: x, hub_url: "tls://hq:7422", tls_cert: /etc/hostname, tls_key: /etc/hostname}`, "federation.tls_cert", "is a hub's key"},
		{"hall name on a hub", `{role: hub, store_dir: x, leaf_listen: ":7422", halls: [east], hall: east}`, "federation.hall", "is a hall's key"},
		{"hub_url on a hub", `{role: hub, store_dir: x, leaf_listen: ":7422", halls: [east], hub_url: "nats-leaf://hq:7422"}`, "federation.hub_url", "is a hall's key"},
		{"first board on a hub", `{role: hub, store_dir: x, leaf_listen: ":7422", halls: [east], first_board: 21}`, "federation.first_board", "is a hall's key"},
		{"authority on an embedded hub", `{role: hub, store_dir: x, leaf_listen: ":7422", halls: [east], tls_ca: /etc/hostname}`, "federation.tls_ca", "not an embedded hub's"},
		{"embedded hub without leaf port", `{role: hub, store_dir: x, halls: [east]}`, "federation.leaf_listen", "where its halls link"},
		{"hall named as the hub's own user", `{role: hub, store_dir: x, leaf_listen: ":7422", halls: [arbiter]}`, "federation.halls[0]", "hub daemon's own user"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadFederation(t, "federation: "+tt.section+"\n")
			require.Error(t, err)
			var cerr *config.Error
			require.ErrorAs(t, err, &cerr)
			found := false
			for _, p := range cerr.Problems {
				if p.Key == tt.key {
					found = true
					assert.Contains(t, p.Why, tt.says)
				}
			}
			assert.True(t, found, "no problem with %s in %v", tt.key, err)
		})
	}
}

// A password given in plain text where a hash belongs is refused without
// being shown.
func TestFederationPlainPasswordNotShown(t *testing.T) {
	_, err := loadFederation(t, `federation: {role: hub, store_dir: x, leaf_listen: ":7422", halls: [east], hall_passwords: {east: Sup3rS3cret}}
`)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "federation.hall_passwords.east")
	assert.NotContains(t, err.Error(), "Sup3rS3cret")
}

// An address refused by the configuration is shown without its password,
// whether it parses or not.
func TestFederationURLProblemHidesPassword(t *testing.T) {
	for _, section := range []string{
		`{role: hall, hall: east, store_dir: x, hub_url: "nats://east:s3cr3t@hq:7422"}`,
		`{role: hall, hall: east, store_dir: x, hub_url: "nats-leaf://east:s3cr3t@hq:74x22"}`,
		`{role: hall, hall: east, url: "http://east:s3cr3t@hq:4222"}`,
		`{role: hall, hall: east, url: "nats://east:s3cr3t@hq:42%zz"}`,
	} {
		_, err := loadFederation(t, "federation: "+section+"\n")
		require.Error(t, err, section)
		assert.NotContains(t, err.Error(), "s3cr3t", section)
		assert.Contains(t, err.Error(), "hq", "the address is still named: %s", section)
	}
}

// A refused value is shown as the file gives it: a duration the decoder
// could not read, a port entry (not a Go struct).
func TestProblemShowsTheValueGiven(t *testing.T) {
	_, err := loadFederation(t, "boards:\n  scan: \"1 s\"\n  ports:\n    - {}\n    - {path: /dev/x, glob: \"/dev/y*\"}\n")
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, `boards.scan = "1 s"`)
	assert.Contains(t, msg, `boards.ports[0] = "(empty)"`)
	assert.Contains(t, msg, `boards.ports[1] = "path: /dev/x, glob: /dev/y*"`)
	assert.Contains(t, msg, "(3 problems)")
}
