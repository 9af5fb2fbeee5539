package rules_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/internal/imports"
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
			imps, err := imports.Of(filepath.Join("..", pkg))
			require.NoError(t, err)
			for _, imp := range imps {
				if strings.HasPrefix(imp.Path, "arbiter/rules/") {
					t.Errorf("%s: imports %s: %s may know the games only through package rules", imp.Pos, imp.Path, pkg)
				}
			}
		})
	}
}
