package export_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/internal/shared"
)

// outsideReaders are the npm packages other people read our records with,
// pinned: chess.js (strict), pgn-parser and tsshogi.
var outsideReaders = []string{"chess.js@1.4.0", "@mliebelt/pgn-parser@1.4.19", "tsshogi@2.2.0"}

// nodeReaders returns node and a node_modules folder holding
// outsideReaders, installed with npm into the user's cache the first time.
// Without node or npm it skips, and fails when CI is set: CI must check
// what outside readers make of our files.
func nodeReaders(t *testing.T) (node, modules string) {
	t.Helper()
	missing := func(format string, args ...any) {
		t.Helper()
		if shared.InCI() {
			t.Fatalf(format+" (CI is set: outside readers must check the records)", args...)
		}
		t.Skipf(format, args...)
	}
	node, nerr := exec.LookPath("node")
	npm, err := exec.LookPath("npm")
	if err != nil || nerr != nil {
		missing("node and npm are needed to run chess.js, pgn-parser and tsshogi")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "arbiter", "readers-"+strings.NewReplacer("@", "", "/", "-").Replace(strings.Join(outsideReaders, "_")))
	modules = filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, ".complete")); err == nil {
		return node, modules
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		missing("cache folder: %v", err)
	}
	args := append([]string{"install", "--prefix", dir, "--no-audit", "--no-fund"}, outsideReaders...)
	if out, err := exec.Command(npm, args...).CombinedOutput(); err != nil {
		missing("npm install %s: %v\n%s", strings.Join(outsideReaders, " "), err, out)
	}
	if err := os.WriteFile(filepath.Join(modules, ".complete"), nil, 0o644); err != nil {
		missing("cache folder: %v", err)
	}
	return node, modules
}

// runNode runs a script with node, the outside readers on its path, and
// returns what it printed.
func runNode(t *testing.T, script string, args ...string) (string, error) {
	t.Helper()
	node, modules := nodeReaders(t)
	cmd := exec.Command(node, append([]string{"-e", script, "--"}, args...)...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	out, err := cmd.CombinedOutput()
	return string(out), err
}
