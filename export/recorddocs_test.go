package export_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/export"
)

// docExamples returns the fenced examples of a record-format document
// that are whole records (they start with a tag).
func docExamples(t *testing.T, path string) []string {
	t.Helper()
	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []string
	for _, m := range regexp.MustCompile("(?s)```\n(.*?)```").FindAllStringSubmatch(string(doc), -1) {
		if strings.HasPrefix(m[1], "[Event") {
			out = append(out, m[1])
		}
	}
	return out
}

// The Tavreli and Kvaa formats' documents, which a third party writes a
// parser from, hold examples that our own importer reads as the document
// says.
func TestRecordDocuments(t *testing.T) {
	tav := docExamples(t, filepath.Join("..", "rules", "tavreli", "RECORD.md"))
	require.Len(t, tav, 1)
	games, _, err := export.ReadGames("doc.tav", []byte(tav[0]), "")
	require.NoError(t, err)
	require.Len(t, games, 1)
	assert.Equal(t, "Ivan Petrov", games[0].Game.First)
	assert.Equal(t, "1-0", games[0].Game.Result)
	assert.Equal(t, "resignation", games[0].Game.Reason)
	assert.Len(t, games[0].Moves, 10)

	kvaa := docExamples(t, filepath.Join("..", "rules", "kvaa", "RECORD.md"))
	require.Len(t, kvaa, 1)
	games, _, err = export.ReadGames("doc.kvaa", []byte(kvaa[0]), "")
	require.NoError(t, err)
	require.Len(t, games, 1)
	assert.Equal(t, "Musu Kollie", games[0].Game.First)
	assert.Equal(t, "1-0", games[0].Game.Result)
	assert.Len(t, games[0].Moves, 12)

	// The short games under each placement variant.
	doc, err := os.ReadFile(filepath.Join("..", "rules", "kvaa", "RECORD.md"))
	require.NoError(t, err)
	variants := regexp.MustCompile("- `(4\\.5\\.1\\.\\d)`: `([^`]+)`").FindAllStringSubmatch(string(doc), -1)
	require.Len(t, variants, 4)
	for _, v := range variants {
		rec := "[South \"S\"]\n[North \"N\"]\n[Placement \"" + v[1] + "\"]\n\n" + v[2] + "\n"
		_, _, err := export.ReadGames("variant.kvaa", []byte(rec), "")
		assert.NoError(t, err, "placement %s: %s", v[1], v[2])
	}
}
