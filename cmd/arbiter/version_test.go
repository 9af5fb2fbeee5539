package main

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteVersion(t *testing.T) {
	stamped := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "arbiter", Version: "v1.4.0"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0197919abc"},
			{Key: "vcs.time", Value: "2026-11-25T21:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	tests := []struct {
		name      string
		bi        *debug.BuildInfo
		ver, date string
		want      []string
	}{
		{"stamped build", stamped, "", "", []string{"arbiter v1.4.0\n", "module:  arbiter\n", "commit:  0197919abc (modified)\n",
			"built:   2026-11-25T21:00:00Z (commit time)\n", "go:      go1.26.0\n"}},
		{"linker flags win", stamped, "v9.9.9", "2026-11-26T08:00:00Z", []string{"arbiter v9.9.9\n", "built:   2026-11-26T08:00:00Z\n"}},
		{"no VCS stamp", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "arbiter", Version: "(devel)"}}, "", "",
			[]string{"arbiter (devel)\n", "commit:  unknown (built without VCS information)\n", "built:   unknown\n"}},
		{"no build info", nil, "", "", []string{"arbiter (devel)\n", "go:      unknown\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, writeVersion(&buf, tt.bi, tt.ver, tt.date))
			for _, w := range tt.want {
				assert.Contains(t, buf.String(), w)
			}
		})
	}
}

func TestVersionCommand(t *testing.T) {
	code, out := runCLI(t, "version")
	require.Equal(t, exitOK, code)
	assert.True(t, strings.HasPrefix(out, "arbiter "), out)
	for _, w := range []string{"module:  arbiter\n", "commit:  ", "built:   ", "go:      go1."} {
		assert.Contains(t, out, w)
	}
}
