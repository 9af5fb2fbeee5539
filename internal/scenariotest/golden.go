package scenariotest

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Golden compares got with the golden file at path: where they differ,
// the test fails with the difference, and where the file is missing, with
// how to write it. With the -rewrite test flag the file is written with
// got instead, where it differs (its directory made if need be), as Run
// rewrites a scenario file's expectations: review the diff.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	golden(t, path, got, *rewrite)
}

func golden(t testing.TB, path string, got []byte, rewrite bool) {
	t.Helper()
	want, err := os.ReadFile(path)
	if rewrite {
		if err == nil && bytes.Equal(want, got) {
			return
		}
		if err := writeFile(path, got); err != nil {
			t.Fatalf("scenariotest: rewrite: %v", err)
		}
		t.Logf("scenariotest: rewrote %s", path)
		return
	}
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("scenariotest: golden file %s is missing: go test -run '%s' -rewrite writes it", path, t.Name())
	}
	if err != nil {
		t.Fatalf("scenariotest: %v", err)
	}
	assert.Equal(t, string(want), string(got), "%s differs from its golden file: go test -run '%s' -rewrite writes it (review the diff)", path, t.Name())
}

// writeFile writes data to path, keeping the file's permissions if it
// exists.
func writeFile(path string, data []byte) error {
	perm := fs.FileMode(0o644)
	if info, err := os.Stat(path); err == nil {
		perm = info.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, perm)
}

// Rewriting reports whether the tests run with -rewrite. A test whose
// golden file is made by other means than the code it checks (a
// reference implementation, a recording) makes it again then, and hands
// it to Golden.
func Rewriting() bool { return *rewrite }
