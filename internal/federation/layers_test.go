package federation_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/internal/imports"
)

// The federation sits beside the publishers, above the store: it takes
// its own configuration (federation.Config, which the daemon's
// configuration decodes and asks to check itself) and its hooks into the
// director as functions, and imports neither the daemon's configuration,
// nor the director, nor anything above.
func TestFederationImportsNothingAbove(t *testing.T) {
	imps, err := imports.Of(".")
	require.NoError(t, err)
	for _, imp := range imps {
		if strings.HasPrefix(imp.Path, "arbiter/") && imp.Path != "arbiter/store" {
			t.Errorf("%s: imports %s: the federation imports only arbiter/store of the project", imp.Pos, imp.Path)
		}
	}
}
