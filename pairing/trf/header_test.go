package trf

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tournament-section records the reader keeps as Extra are written back
// in the header, before the players; other unknown lines after them.
func TestHeaderRecordsStayInTheHeader(t *testing.T) {
	in := "012 Open\n062 2\n092 Swiss Dutch\n001    1      A                                                               0.0\n" +
		"202 BH/C1 SB\n### comment\n112 FA Deputy\n001    2      B                                                               0.0\n"
	tour, err := Parse([]byte(in))
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, tour.Write(&buf))
	var codes []string
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		codes = append(codes, l[:3])
	}
	assert.Equal(t, []string{"012", "062", "092", "202", "112", "001", "001", "###"}, codes, buf.String())
}
