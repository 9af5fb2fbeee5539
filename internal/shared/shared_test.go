package shared_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/shared"
)

// recorder stands in for a test and records how it would have ended.
type recorder struct{ fatal, skip string }

func (r *recorder) Helper()                           {}
func (r *recorder) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }
func (r *recorder) Skipf(format string, args ...any)  { r.skip = fmt.Sprintf(format, args...) }

func TestMissingFailsInCI(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "corpus"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "corpus", "a.trf"), nil, 0o644))
	t.Setenv("ARBITER_SHARED", dir)
	for _, ci := range []string{"true", "1", "", "false"} {
		t.Run("CI="+ci, func(t *testing.T) {
			t.Setenv("CI", ci)
			inCI := ci == "true" || ci == "1"

			var r recorder
			assert.Equal(t, filepath.Join(dir, "corpus"), shared.Dir(&r, "corpus"))
			assert.Equal(t, []string{filepath.Join(dir, "corpus", "a.trf")}, shared.Files(&r, "corpus/*.trf"))
			assert.Equal(t, recorder{}, r, "present: the test goes on")

			for name, call := range map[string]func(shared.TB){
				"Dir":   func(tb shared.TB) { shared.Dir(tb, "no-such-corpus") },
				"Files": func(tb shared.TB) { shared.Files(tb, "corpus/*.kif") },
			} {
				var r recorder
				call(&r)
				if inCI {
					assert.NotEmpty(t, r.fatal, "%s: a missing file fails the test in CI", name)
					assert.Empty(t, r.skip, name)
				} else {
					assert.NotEmpty(t, r.skip, "%s: a missing file skips the test outside CI", name)
					assert.Empty(t, r.fatal, name)
				}
			}
		})
	}
}

func TestRootNextToModule(t *testing.T) {
	t.Setenv("ARBITER_SHARED", "")
	root, err := shared.Root()
	require.NoError(t, err)
	wd, err := os.Getwd()
	require.NoError(t, err)
	// internal/shared is two levels below the module root.
	assert.Equal(t, filepath.Join(wd, "..", "..", "..", "shared"), root)
}
