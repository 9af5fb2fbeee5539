package web

import (
	"encoding/xml"
	"io"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"arbiter/rules"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The piece sets are embedded and well formed; every piece the stylesheet
// draws exists; a white piece has a dark outline, so it stands out on a
// light square; every kind of every game has a drawing.
func TestPieceSets(t *testing.T) {
	css, err := fs.ReadFile(assets, "static/app.css")
	require.NoError(t, err)
	used := map[string]bool{}
	for _, m := range regexp.MustCompile(`url\(([^)]*)\)`).FindAllStringSubmatch(string(css), -1) {
		assert.NotContains(t, m[1], ":", "the stylesheet loads nothing from elsewhere: %s", m[1])
		used[m[1]] = true
	}
	for name := range used {
		data, err := fs.ReadFile(assets, "static/"+name)
		require.NoError(t, err, "the stylesheet draws %s", name)
		d := xml.NewDecoder(strings.NewReader(string(data)))
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			require.NoError(t, err, "%s is well-formed XML", name)
		}
		if strings.HasPrefix(name, "pieces/w") {
			assert.Regexp(t, `fill="#fff" stroke="#111"`, string(data), "%s: a white piece outlined in black", name)
		}
	}
	// Every kind the games use has a drawing for both sides (shogi's are
	// one shape with the piece's character on it).
	for _, game := range rules.Games() {
		facts := rules.FactsOf(game)
		if facts.Glyphed() {
			assert.True(t, used["pieces/shogi.svg"])
			continue
		}
		for kind := range facts.Pieces {
			for _, side := range []string{"first", "second"} {
				assert.Contains(t, string(css), ".pc."+side+".k"+kind+"{background-image:url(pieces/", "%s %s %s", game, side, kind)
			}
		}
	}
}
