package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/rules"
)

// openAPIDoc is the embedded description, parsed.
type openAPIDoc struct {
	OpenAPI string `json:"openapi"`
	Paths   map[string]map[string]struct {
		Responses map[string]any `json:"responses"`
	} `json:"paths"`
}

func parseOpenAPI(t *testing.T) openAPIDoc {
	t.Helper()
	var doc openAPIDoc
	require.NoError(t, json.Unmarshal(openAPI, &doc), "openapi.json is JSON")
	require.Equal(t, "3.1.0", doc.OpenAPI)
	return doc
}

// apiPatterns lists the API's routes as the mux has them.
func apiPatterns() []string {
	out := []string{apiVersion}
	for _, rt := range apiRoutes {
		out = append(out, apiVersion+rt.Path)
	}
	return out
}

// The document names every route of the API and nothing else, and no
// API route is registered outside the table it is checked against.
func TestOpenAPIDescribesEveryRoute(t *testing.T) {
	doc := parseOpenAPI(t)
	routes := apiPatterns()
	for _, p := range routes {
		assert.Contains(t, doc.Paths, p, "route %s is missing from openapi.json", p)
	}
	for p, ops := range doc.Paths {
		assert.Contains(t, routes, p, "openapi.json describes %s, which is no route", p)
		assert.Equal(t, []string{"get"}, mapsKeys(ops), p)
	}
	// The mux serves each described path by that very pattern.
	s := newEvent(t).site
	for p := range doc.Paths {
		req := httptest.NewRequest(http.MethodGet, strings.ReplaceAll(p, "{id}", "1"), nil)
		_, pattern := s.mux.Handler(req)
		assert.Equal(t, "GET "+p, pattern)
	}
	// A route registered by hand, outside apiRoutes, would escape the
	// document: the sources hold no "/api" route pattern.
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	pattern := regexp.MustCompile(`^"(GET|POST|PUT|PATCH|DELETE|HEAD) /api(/|")`)
	fset := gotoken.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "api.go" { // api.go registers apiRoutes
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == gotoken.STRING && pattern.MatchString(lit.Value) {
				t.Errorf("%s: API route %s registered outside apiRoutes (api.go), so openapi.json cannot be checked for it", fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
	}
}

func mapsKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// responseSchemas compiles the schema of every documented response.
func responseSchemas(t *testing.T, doc openAPIDoc) map[string]*jsonschema.Schema {
	t.Helper()
	raw, err := jsonschema.UnmarshalJSON(bytes.NewReader(openAPI))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	require.NoError(t, c.AddResource("openapi.json", raw))
	esc := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1") }
	out := map[string]*jsonschema.Schema{}
	for p, ops := range doc.Paths {
		for code := range ops["get"].Responses {
			ref := fmt.Sprintf("openapi.json#/paths/%s/get/responses/%s/content/application~1json/schema", esc(p), code)
			sch, err := c.Compile(ref)
			require.NoError(t, err, "%s %s", p, code)
			out[p+" "+code] = sch
		}
	}
	return out
}

// camelCase is the API's one naming style; map keys may be numbers.
var camelCase = regexp.MustCompile(`^([a-z][a-zA-Z0-9]*|[0-9]+)$`)

// checkKeys reports every object key of v not in camelCase.
func checkKeys(t *testing.T, where string, v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			assert.Regexp(t, camelCase, k, "%s: key %q is not camelCase", where, k)
			checkKeys(t, where+"."+k, x)
		}
	case []any:
		for i, x := range v {
			checkKeys(t, where+"["+strconv.Itoa(i)+"]", x)
		}
	}
}

// A real server with a small event answers every route of the API, and
// every answer, errors included, matches the document's schema for its
// status; every key is camelCase; and no unversioned /api path answers
// but with a 404.
func TestOpenAPIMatchesResponses(t *testing.T) {
	doc := parseOpenAPI(t)
	schemas := responseSchemas(t, doc)
	e := newEvent(t)
	e.move("e2", "e4", rules.White, 0, 1)
	e.irregularity()
	// The board is on a serial port: the console may see where, the
	// public may not.
	e.d.BoardEvent(e.ctx, board.Event{Kind: board.EventHello, Board: "B1", Port: "/dev/serial/by-id/usb-Arbiter_Board_B1-if00"})
	e.waitFor("the board's port", func() bool { return e.live().Port != "" })
	// An illegal move: Black's d-pawn jumps to d4; the table holds the
	// clock and prompts to put it back, and the game counts it.
	e.illegal("d7", "d4", rules.Black)
	anon := e.client()
	chief := e.client()
	chief.login("chief", "arbiter")
	gid := e.live().GameID
	other := gid + 1 // board 2 of round 1, played without a board
	type call struct {
		path   string // the documented path
		url    string
		status int
		anon   bool
	}
	calls := []call{
		{"/api/v1", "/api/v1", 200, true},
		{"/api/v1/openapi.json", "/api/v1/openapi.json", 200, true},
		{"/api/v1/event", "/api/v1/event", 200, true},
		{"/api/v1/tables", "/api/v1/tables", 200, true},
		{"/api/v1/tournaments", "/api/v1/tournaments", 200, true},
		{"/api/v1/tournaments/{id}", fmt.Sprintf("/api/v1/tournaments/%d", e.chess), 200, true},
		{"/api/v1/tournaments/{id}", fmt.Sprintf("/api/v1/tournaments/%d", e.tav), 200, true},
		{"/api/v1/tournaments/{id}", "/api/v1/tournaments/999", 404, true},
		{"/api/v1/tournaments/{id}", "/api/v1/tournaments/x", 400, true},
		{"/api/v1/tournaments/{id}/standings", fmt.Sprintf("/api/v1/tournaments/%d/standings", e.chess), 200, true},
		{"/api/v1/tournaments/{id}/standings", fmt.Sprintf("/api/v1/tournaments/%d/standings", e.tav), 200, true},
		{"/api/v1/tournaments/{id}/standings", "/api/v1/tournaments/999/standings", 404, true},
		{"/api/v1/tournaments/{id}/crosstable", fmt.Sprintf("/api/v1/tournaments/%d/crosstable", e.chess), 200, true},
		{"/api/v1/tournaments/{id}/crosstable", "/api/v1/tournaments/0/crosstable", 400, true},
		{"/api/v1/games", "/api/v1/games", 200, true},
		{"/api/v1/games", fmt.Sprintf("/api/v1/games?tournament=%d&round=1", e.chess), 200, true},
		{"/api/v1/games", fmt.Sprintf("/api/v1/games?tournament=%d", e.tav), 200, true},
		{"/api/v1/games", "/api/v1/games?round=x", 400, true},
		{"/api/v1/games/{id}", fmt.Sprintf("/api/v1/games/%d", gid), 200, true},
		{"/api/v1/games/{id}", fmt.Sprintf("/api/v1/games/%d", other), 200, true},
		{"/api/v1/games/{id}", "/api/v1/games/999", 404, true},
		{"/api/v1/games/{id}/board", fmt.Sprintf("/api/v1/games/%d/board", gid), 200, true},
		{"/api/v1/games/{id}/board", fmt.Sprintf("/api/v1/games/%d/board?ply=0", gid), 200, true},
		{"/api/v1/games/{id}/board", fmt.Sprintf("/api/v1/games/%d/board?ply=zz", gid), 400, true},
		{"/api/v1/console/alerts", "/api/v1/console/alerts", 200, false},
		{"/api/v1/console/alerts", "/api/v1/console/alerts?all=1", 200, false},
		{"/api/v1/console/alerts", "/api/v1/console/alerts", 401, true},
		{"/api/v1/console/actions", "/api/v1/console/actions", 200, false},
		{"/api/v1/console/actions", fmt.Sprintf("/api/v1/console/actions?game=%d", gid), 200, false},
		{"/api/v1/console/actions", "/api/v1/console/actions?game=x", 400, false},
		{"/api/v1/console/actions", "/api/v1/console/actions", 401, true},
		{"/api/v1/console/tables", "/api/v1/console/tables", 200, false},
		{"/api/v1/console/tables", "/api/v1/console/tables", 401, true},
	}
	called := map[string]bool{}
	for _, tt := range calls {
		t.Run(tt.url+" "+strconv.Itoa(tt.status), func(t *testing.T) {
			c := chief
			if tt.anon {
				c = anon
			}
			code, body, h := c.get(tt.url)
			require.Equal(t, tt.status, code, body)
			assert.Contains(t, h.Get("Content-Type"), "application/json")
			sch, ok := schemas[tt.path+" "+strconv.Itoa(code)]
			require.True(t, ok, "openapi.json has no %d response for %s", code, tt.path)
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(body))
			require.NoError(t, err)
			if err := sch.Validate(v); err != nil {
				t.Errorf("%s: the response does not match openapi.json: %v\n%s", tt.url, err, body)
			}
			if tt.path != "/api/v1/openapi.json" { // paths and media types are its keys
				checkKeys(t, tt.url, v)
			}
			// The venue machine's device paths are the console's only.
			if tt.anon {
				assert.NotContains(t, body, "/dev/", "%s shows a device path to the public", tt.url)
			} else if tt.path == "/api/v1/console/tables" {
				assert.Contains(t, body, `"port":"/dev/serial/by-id/usb-Arbiter_Board_B1-if00"`)
			}
			called[tt.path] = true

			// /api/v1 is the API: the unversioned path is none.
			old := strings.Replace(tt.url, "/api/v1", "/api", 1)
			code, _, _ = c.get(old)
			assert.Equal(t, http.StatusNotFound, code, old)
		})
	}
	for p := range doc.Paths {
		assert.True(t, called[p], "the test calls no route for %s", p)
	}
}
