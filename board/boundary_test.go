package board_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/internal/imports"
)

// The move reader, the tables, the offline replay, the configuration, the
// demo, the rehearsals, the preflight checks and serve speak only the
// neutral boundary and its registry: none of their (non-test) files
// imports a driver, so a new board protocol touches none of them. Tests
// are exempt: they drive simulated boards; so is cmd/arbiter's main.go,
// which imports each protocol once. The preflight checks tell a port
// another process holds by hardware/serialport's error, which every
// driver opens its ports with: no protocol's.
func TestNoDriverImportsBehindTheBoundary(t *testing.T) {
	files := map[string][]string{"cmd/arbiter": {"serve.go", "daemon.go", "drivers.go", "wiring.go", "rehearse.go", "rehearsal.go", "preflight.go"}}
	allowed := map[string]string{"internal/preflight": "arbiter/hardware/serialport"}
	for _, pkg := range []string{"arbiter", "director", "replay", "internal/config", "demo", "cmd/arbiter", "internal/preflight"} {
		t.Run(pkg, func(t *testing.T) {
			imps, err := imports.Of(filepath.Join("..", pkg), files[pkg]...)
			require.NoError(t, err)
			for _, imp := range imps {
				if imp.Path == allowed[pkg] {
					continue
				}
				if imp.Path == "arbiter/hardware" || strings.HasPrefix(imp.Path, "arbiter/hardware/") {
					t.Errorf("%s: imports %s: %s may import only the board boundary (arbiter/board), not a driver",
						imp.Pos, imp.Path, pkg)
				}
			}
		})
	}
}
