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

// The move reader, the tables and the offline replay speak only the
// neutral boundary: none of their (non-test) files imports a driver, so a
// new board protocol touches none of them. Tests are exempt: they drive
// simulated boards.
func TestNoDriverImportsBehindTheBoundary(t *testing.T) {
	for _, pkg := range []string{"arbiter", "director", "replay"} {
		t.Run(pkg, func(t *testing.T) {
			files, err := filepath.Glob(filepath.Join("..", pkg, "*.go"))
			require.NoError(t, err)
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
