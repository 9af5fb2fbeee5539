package rules_test

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

// The arbitration above the games knows them only through package rules:
// the move reader, the tables, the pages, the replay and the demo import
// no game's package (no type assertion on a game's position, no call of a
// game's own function), so a game's claims and records come with its
// registration (rules.Impasser, rules.Declarer, rules.RegisterFormat).
// Tests are exempt: they play the games.
func TestNoGameImportsAboveRules(t *testing.T) {
	for _, pkg := range []string{"arbiter", "director", "web", "replay", "demo"} {
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
					if strings.HasPrefix(p, "arbiter/rules/") {
						t.Errorf("%s: imports %s: %s may know the games only through package rules", fset.Position(imp.Pos()), p, pkg)
					}
				}
			}
			require.Positive(t, checked, "no Go files found in ../%s", pkg)
		})
	}
}
