package web

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// axeVersion is the axe-core the browser tests install: pinned, so a new
// release's rules do not fail the build unannounced.
const axeVersion = "4.14.1"

var axeScript struct {
	once sync.Once
	src  string
}

// axeSource returns axe-core's script, installed with npm into the user's
// cache (ARBITER_AXE names the script instead). Without npm the test
// skips, and fails when CI is set.
func axeSource(t *testing.T) string {
	t.Helper()
	axeScript.once.Do(func() {
		path := os.Getenv("ARBITER_AXE")
		if path == "" {
			path = filepath.Join(npmPackage(t, "axe-core", axeVersion), "node_modules", "axe-core", "axe.min.js")
		}
		b, err := os.ReadFile(path)
		require.NoError(t, err, "axe-core")
		axeScript.src = string(b)
	})
	require.NotEmpty(t, axeScript.src, "axe-core could not be loaded")
	return axeScript.src
}

// axeViolation is one rule axe-core finds broken, with where.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any  `json:"target"`
		HTML   string `json:"html"`
	} `json:"nodes"`
}

// axeRun runs axe-core (WCAG 2.x A and AA rules, and best practices) on the
// page shown and returns its violations.
func axeRun(t *testing.T, p *tab) []axeViolation {
	t.Helper()
	if v, err := p.eval(`typeof axe === "object"`); err != nil || v != true {
		_, err := p.eval(axeSource(t) + "\n;true")
		require.NoError(t, err, "inject axe-core")
	}
	v, err := p.eval(`axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(r.violations))`)
	require.NoError(t, err, "axe.run")
	var out []axeViolation
	require.NoError(t, json.Unmarshal([]byte(fmt.Sprint(v)), &out))
	return out
}

// axeCheck fails the test for every critical or serious violation axe-core
// finds on the page shown, named by the page, the rule and the elements.
// It returns the count of violating elements by impact.
func axeCheck(t *testing.T, p *tab, name string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	var bad, others []string
	for _, v := range axeRun(t, p) {
		counts[v.Impact] += len(v.Nodes)
		if v.Impact != "critical" && v.Impact != "serious" {
			others = append(others, fmt.Sprintf("%s (%s, %d)", v.ID, v.Impact, len(v.Nodes)))
			continue
		}
		var where []string
		for i, n := range v.Nodes {
			if i == 5 {
				where = append(where, fmt.Sprintf("… %d more", len(v.Nodes)-i))
				break
			}
			where = append(where, fmt.Sprint(n.Target))
		}
		bad = append(bad, fmt.Sprintf("%s (%s, %d elements): %s: %s", v.ID, v.Impact, len(v.Nodes), v.Help, strings.Join(where, " ")))
	}
	t.Logf("axe %s: %v %s", name, counts, strings.Join(others, ", "))
	if len(bad) > 0 {
		t.Errorf("%s: axe-core finds %d critical or serious violations:\n%s", name, len(bad), strings.Join(bad, "\n"))
	}
	return counts
}
