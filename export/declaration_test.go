package export_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/export"
	"arbiter/rules"
)

// A shogi game lost by a failed entering-king declaration says so (issue
// 35 §5): its records write the declarer's foul (KIF 反則負け) and keep the
// reason, which reads back as "declaration", not "illegal-move".
func TestShogiDeclarationResult(t *testing.T) {
	f := newFixture(t)
	g := f.games["shogi"]
	o := rules.Loss(rules.First, rules.DeclarationFailed)
	require.NoError(t, f.db.SetResult(g.ID, o.Result.String(), o.Reason.String(), started, nil))
	s, err := export.Load(f.db, "Export test", g.ID)
	require.NoError(t, err)
	for _, format := range []string{"kif", "ki2", "csa"} {
		var buf bytes.Buffer
		require.NoError(t, s.Write(&buf, format))
		if format == "kif" {
			assert.Contains(t, buf.String(), "反則負け")
		}
		games, _, err := export.ReadGames("x."+format, buf.Bytes(), s.Game.Options)
		require.NoError(t, err, format)
		require.Len(t, games, 1)
		assert.Equal(t, "0-1", games[0].Game.Result, format)
		assert.Equal(t, "declaration", games[0].Game.Reason, format)
	}
}
