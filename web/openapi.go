package web

import (
	_ "embed"
	"net/http"
)

// openAPI describes the JSON API (OpenAPI 3.1): every route under
// /api/v1 and every response, with the schemas a test checks the real
// responses against.
//
//go:embed openapi.json
var openAPI []byte

// serveOpenAPI serves the API's description.
func serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=300")
	_, _ = w.Write(openAPI)
}
