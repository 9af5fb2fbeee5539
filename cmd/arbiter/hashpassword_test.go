package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"

	"arbiter/internal/config"
)

func TestHashPassword(t *testing.T) {
	tests := []struct {
		stdin    string
		password string // what the printed hash must accept
		code     int
	}{
		{"a venue password\n", "a venue password", exitOK},
		{"no line end", "no line end", exitOK},
		{"crlf\r\nsecond line\n", "crlf", exitOK},
		{" spaces kept \n", " spaces kept ", exitOK},
		{"", "", exitUsage},
		{"\n", "", exitUsage},
		{strings.Repeat("x", 73) + "\n", "", exitUsage},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		root := newRootCmd()
		root.SetArgs([]string{"hash-password"})
		root.SetIn(strings.NewReader(tt.stdin))
		root.SetOut(&out)
		root.SetErr(&errOut)
		err := root.ExecuteContext(context.Background())
		code := exitOK
		if err != nil {
			code = exitCode(err)
		}
		require.Equal(t, tt.code, code, "%q: %v", tt.stdin, err)
		if tt.code != exitOK {
			assert.Empty(t, out.String())
			continue
		}
		hash := strings.TrimSuffix(out.String(), "\n")
		assert.True(t, strings.HasPrefix(hash, "$2a$"), hash)
		assert.NoError(t, bcrypt.CompareHashAndPassword([]byte(hash), []byte(tt.password)), "%q", tt.stdin)
		assert.NotContains(t, out.String()+errOut.String(), tt.password, "the password is not echoed")
	}
}

// An event reachable by strangers does not start with the demo login, or
// with no login: exit 3, a message naming the key, and nothing opened.
func TestServeRefusesTheDemoLoginBeyondLoopback(t *testing.T) {
	dir := t.TempDir()
	noUsers := filepath.Join(dir, "nousers.yaml")
	require.NoError(t, os.WriteFile(noUsers, []byte(`event: {name: "Real event", database: "x.db"}
boards:
  ports: [{glob: "/dev/ttyACM*"}]
console:
  users: []
`), 0o600))
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"--listen", "0.0.0.0:0"}, []string{`console.users[0].password`, `demo password "arbiter"`, "http.listen = 0.0.0.0:0"}},
		{[]string{"--listen", ":8080"}, []string{"demo password"}},
		{[]string{"--config", noUsers}, []string{"console.users", "needs at least one arbiter login"}},
	}
	for _, tt := range tests {
		db := filepath.Join(dir, "event.db")
		args := append([]string{"serve", "--database", db}, tt.args...)
		var out, errOut bytes.Buffer
		root := newRootCmd()
		root.SetArgs(args)
		root.SetOut(&out)
		root.SetErr(&errOut)
		err := root.ExecuteContext(context.Background())
		require.Error(t, err, "%v", args)
		assert.Equal(t, exitConfig, exitCode(err), "%v: %v", args, err)
		for _, w := range tt.want {
			assert.Contains(t, err.Error(), w, "%v", args)
		}
		assert.NoFileExists(t, db, "nothing opened")
	}

	// The built-in demo on loopback starts with chief/arbiter.
	cfg, err := config.Load("", nil)
	require.NoError(t, err)
	assert.NoError(t, checkWeb(cfg, slog.New(slog.DiscardHandler)))
}
