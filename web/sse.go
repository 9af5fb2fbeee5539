package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"arbiter/director"
)

// events streams live updates to the public pages as server-sent events:
// one event per hub update, named by its kind. Alerts are the console's
// business: the public stream tells only that one happened.
func (s *Site) events(w http.ResponseWriter, r *http.Request) {
	s.stream(w, r, false)
}

// consoleEvents streams every update with its data, alerts included.
func (s *Site) consoleEvents(w http.ResponseWriter, r *http.Request) {
	s.stream(w, r, true)
}

func (s *Site) stream(w http.ResponseWriter, r *http.Request, full bool) {
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	// The stream outlives the server's request timeouts: it keeps its own
	// deadline per write instead, so a client that stops reading is dropped.
	if err := liftDeadlines(rc); err != nil {
		s.log.Warn("live stream: lift deadlines", "err", err)
		return
	}
	if err := streamDeadline(rc, s.streamWrite); err != nil {
		return
	}
	updates, stop := s.d.Hub().Subscribe()
	defer stop()
	w.WriteHeader(http.StatusOK)
	// Tell the client how soon to reconnect, and flush the headers so it
	// knows the stream is open.
	if _, err := fmt.Fprint(w, "retry: 2000\n: hello\n\n"); err != nil {
		return
	}
	if err := rc.Flush(); err != nil {
		return
	}
	beat := time.NewTicker(s.heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.closing:
			return
		case <-beat.C:
			if err := streamDeadline(rc, s.streamWrite); err != nil {
				return
			}
			if _, err := fmt.Fprint(w, ": beat\n\n"); err != nil {
				return
			}
		case u, ok := <-updates:
			if err := streamDeadline(rc, s.streamWrite); err != nil {
				return
			}
			if !ok {
				// The hub dropped this slow subscriber: the page reloads
				// to catch up.
				_, _ = fmt.Fprint(w, "event: reload\ndata: {}\n\n")
				_ = rc.Flush()
				return
			}
			if !full && (u.Kind == "alert") {
				u.Data = nil
			}
			if err := writeEvent(w, u); err != nil {
				return
			}
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}

// writeEvent writes one update. JSON has no raw newlines, so the data is
// one line.
func writeEvent(w http.ResponseWriter, u director.Update) error {
	data, err := json.Marshal(u)
	if err != nil {
		data = []byte(`{"kind":"reload"}`)
		u.Kind = "reload"
	}
	_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", sanitizeEventName(u.Kind), data)
	return err
}

// sanitizeEventName keeps an event name on one line of safe characters.
func sanitizeEventName(k string) string {
	b := make([]byte, 0, len(k))
	for _, c := range []byte(k) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' {
			b = append(b, c)
		}
	}
	if len(b) == 0 {
		return "update"
	}
	return string(b)
}
