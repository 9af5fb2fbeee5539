package scenariotest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failures is a testing.TB that keeps the failures, fatal or not, and
// ends the goroutine at a fatal one, as testing.T does.
type failures struct {
	testing.TB
	errors []string
	fatal  string
}

func (f *failures) Helper()             {}
func (f *failures) Logf(string, ...any) {}
func (f *failures) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *failures) Fatalf(format string, args ...any) {
	f.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// tryGolden runs golden in a goroutine of its own and returns what it
// failed with.
func tryGolden(t *testing.T, path, got string, rewrite bool) *failures {
	f := &failures{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		golden(f, path, []byte(got), rewrite)
	}()
	<-done
	return f
}

func TestGolden(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.golden")
	require.NoError(t, os.WriteFile(path, []byte("one\ntwo\n"), 0o600))

	f := tryGolden(t, path, "one\ntwo\n", false)
	assert.Empty(t, f.errors, "the same text passes")
	assert.Empty(t, f.fatal)

	f = tryGolden(t, path, "one\nthree\n", false)
	require.Len(t, f.errors, 1, "a different text fails, and the test goes on")
	assert.Contains(t, f.errors[0], "a.golden differs from its golden file")
	assert.Contains(t, f.errors[0], "-rewrite writes it")
	assert.Contains(t, f.errors[0], "+three", "the failure shows the difference")
	assert.Equal(t, "one\ntwo\n", read(t, path), "a failing comparison leaves the file alone")

	missing := filepath.Join(dir, "sub", "b.golden")
	f = tryGolden(t, missing, "x", false)
	assert.Contains(t, f.fatal, "sub/b.golden is missing: go test -run 'TestGolden' -rewrite writes it")
	assert.NoFileExists(t, missing)
}

func TestGoldenRewrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.golden")
	require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o600))

	f := tryGolden(t, path, "new\n", true)
	assert.Empty(t, f.errors)
	assert.Empty(t, f.fatal)
	assert.Equal(t, "new\n", read(t, path))
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the file keeps its permissions")
	assert.Empty(t, tryGolden(t, path, "new\n", false).errors, "the rewritten file passes")

	missing := filepath.Join(dir, "sub", "b.golden")
	f = tryGolden(t, missing, "made\n", true)
	assert.Empty(t, f.fatal)
	assert.Equal(t, "made\n", read(t, missing), "a missing file is written, its directory made")
}

func TestRead(t *testing.T) {
	f := Read(t, "testdata/echo.txt", arrows)
	require.NotEmpty(t, f.Commands)
	assert.Equal(t, "testdata/echo.txt:", f.Commands[0].Pos()[:len("testdata/echo.txt:")])

	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Read(rec, write(t, "> a\n"), arrows)
	}()
	<-done
	assert.Contains(t, rec.fatal, "s.txt:1: expected output \"> a\" follows no command")
}
