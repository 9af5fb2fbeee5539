// Package shared finds the project's read-only reference files (rules,
// seeds, the pairing corpus) for tests. They live in ../shared next to the
// repository, outside it, so a checkout may lack them: a test then skips
// on a developer's machine, and fails when CI is set (CI=true), so that
// a CI run can never pass by testing nothing.
//
// ARBITER_SHARED names another folder to use instead of ../shared.
package shared

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// TB is the part of testing.TB the helpers use.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
}

// Dir returns the path of name (a file or folder, e.g. "pairing-corpus")
// in the shared folder, or ends the test when it is missing: Skip
// normally, Fatal under CI.
func Dir(t TB, name string) string {
	t.Helper()
	p, err := Lookup(name)
	if err != nil {
		missing(t, err)
		return ""
	}
	return p
}

// Files returns the files of the shared folder matching pattern (as in
// filepath.Glob, relative to the shared folder, e.g.
// "pairing-corpus/*.trf"), or ends the test when there are none.
func Files(t TB, pattern string) []string {
	t.Helper()
	root, err := Root()
	if err != nil {
		missing(t, err)
		return nil
	}
	files, err := filepath.Glob(filepath.Join(root, pattern))
	if err != nil {
		t.Fatalf("shared files %q: %v", pattern, err)
		return nil
	}
	if len(files) == 0 {
		missing(t, fmt.Errorf("no shared file matches %s in %s", pattern, root))
	}
	return files
}

// Lookup returns the path of name in the shared folder, or an error
// naming where it was looked for.
func Lookup(name string) (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	p := filepath.Join(root, name)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("shared file %s: %w", name, err)
	}
	return p, nil
}

// Root returns the shared folder: $ARBITER_SHARED, or ../shared next to
// the module root (the folder of go.mod above the working directory).
func Root() (string, error) {
	if dir := os.Getenv("ARBITER_SHARED"); dir != "" {
		return dir, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("shared folder: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(dir), "shared"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("shared folder: no go.mod above the working directory")
		}
		dir = parent
	}
}

// InCI reports whether the CI variable says the tests run in CI.
func InCI() bool {
	ci, _ := strconv.ParseBool(os.Getenv("CI"))
	return ci
}

func missing(t TB, err error) {
	t.Helper()
	if InCI() {
		t.Fatalf("%v (CI is set: the shared files must be present)", err)
		return
	}
	t.Skipf("%v", err)
}
