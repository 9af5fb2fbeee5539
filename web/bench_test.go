package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"arbiter/rules"
)

// BenchmarkPages measures the pages every viewer fetches on each move: the
// live table fragment, the game viewer fragment and the event page.
func BenchmarkPages(b *testing.B) {
	e := newEvent(b)
	e.move("e2", "e4", rules.White, 0, 1)
	gid := e.live().GameID
	for _, path := range []string{"/fragment/table/B1", fmt.Sprintf("/fragment/game/%d", gid), "/", "/api/v1/tables", fmt.Sprintf("/tournaments/%d/standings", e.chess)} {
		b.Run(path, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				e.site.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d", path, rec.Code)
				}
			}
		})
	}
}
