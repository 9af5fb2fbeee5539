package serialport

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync"
	"time"
)

// Watch serves the ports of a driver's configuration until ctx ends: every
// path in paths, and every path a pattern in globs matches now or later
// (looked for again every scan), gets a call of serve of its own, in a
// goroutine, once. serve keeps its port until ctx ends, reopening it after
// an unplug. Watch returns once every serve has returned.
//
// A pattern that cannot be read is logged at each look and skipped.
func Watch(ctx context.Context, paths, globs []string, scan time.Duration, log *slog.Logger, serve func(ctx context.Context, path string)) {
	var wg sync.WaitGroup
	defer wg.Wait()
	served := map[string]bool{}
	for {
		for _, p := range Find(paths, globs, log) {
			if !served[p] {
				served[p] = true
				wg.Go(func() { serve(ctx, p) })
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(scan):
		}
	}
}

// Find returns paths, then what each pattern in globs matches now. A
// pattern that cannot be read is logged and skipped.
func Find(paths, globs []string, log *slog.Logger) []string {
	out := append([]string(nil), paths...)
	for _, g := range globs {
		m, err := filepath.Glob(g)
		if err != nil {
			log.Error("port pattern", "glob", g, "err", err)
			continue
		}
		out = append(out, m...)
	}
	return out
}
