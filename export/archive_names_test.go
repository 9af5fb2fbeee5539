package export_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/export"
	"arbiter/pairing/trf"
)

// failingReporter fails every TRF with a message holding a name's newline.
type failingReporter struct{}

func (failingReporter) TRF(uint64) (*trf.Tournament, error) {
	return nil, errors.New("player \"Ivanov\nIvan\r\x00\" broke it")
}

// TestArchiveErrorsOneLineEach: ERRORS.txt lists one problem per line
// whatever the names in the messages hold.
func TestArchiveErrorsOneLineEach(t *testing.T) {
	f := newFixture(t)
	var buf bytes.Buffer
	require.NoError(t, export.Archive(&buf, f.db, "Export test", failingReporter{}))
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	var text string
	for _, zf := range zr.File {
		if zf.Name == "ERRORS.txt" {
			rc, err := zf.Open()
			require.NoError(t, err)
			data, err := io.ReadAll(rc)
			require.NoError(t, err)
			text = string(data)
		}
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	require.Len(t, lines, 1+len(cases), text)
	for _, l := range lines[1:] {
		assert.Contains(t, l, `player "Ivanov Ivan  " broke it`, "each control character a space")
	}
}
