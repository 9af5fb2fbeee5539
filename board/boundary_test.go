package board_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The move reader, the tables, the offline replay, the configuration, the
// demo and serve speak only the neutral boundary and its registry: none of
// their (non-test) files imports a driver, so a new board protocol touches
// none of them. Tests are exempt: they drive simulated boards; so is
// cmd/arbiter's main.go, which imports each protocol once.
func TestNoDriverImportsBehindTheBoundary(t *testing.T) {
	serve := []string{"serve.go", "daemon.go", "drivers.go", "wiring.go"}
	for _, pkg := range []string{"arbiter", "director", "replay", "internal/config", "demo", "cmd/arbiter"} {
		t.Run(pkg, func(t *testing.T) {
			files, err := filepath.Glob(filepath.Join("..", pkg, "*.go"))
			require.NoError(t, err)
			if pkg == "cmd/arbiter" {
				files = files[:0]
				for _, f := range serve {
					files = append(files, filepath.Join("..", pkg, f))
				}
			}
			fset := token.NewFileSet()
			checked := 0
			for _, path := range files {
				if strings.HasSuffix(path, "_test.go") {
					continue
				}
				src, err := os.ReadFile(path)
				require.NoError(t, err)
				f, err := parser.ParseFile(fset, path, src, parser.ImportsOnly)
				require.NoError(t, err)
				checked++
				for _, imp := range f.Imports {
					p, err := strconv.Unquote(imp.Path.Value)
					require.NoError(t, err)
					if p == "arbiter/hardware" || strings.HasPrefix(p, "arbiter/hardware/") {
						t.Errorf("%s: imports %s: %s may import only the board boundary (arbiter/board), not a driver",
							fset.Position(imp.Pos()), p, pkg)
					}
				}
			}
			require.Positive(t, checked, "no Go files found in ../%s", pkg)
		})
	}
}
