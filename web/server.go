package web

import (
	"errors"
	"log/slog"
	"net/http"
	"time"
)

// Timeouts bound what one connection may hold of the server. The zero
// value of a field takes its default from DefaultTimeouts.
type Timeouts struct {
	// ReadHeader is how long a client may take to send a request's headers.
	ReadHeader time.Duration
	// Read is how long a client may take to send a whole request, body
	// included: a POST whose body trickles in is cut off after it.
	Read time.Duration
	// Write is how long the server may take to send a response, counted
	// from the end of the request's headers. The live streams lift it and
	// keep their own deadline per write (see Stream).
	Write time.Duration
	// Idle is how long a kept-alive connection may wait for its next
	// request.
	Idle time.Duration
	// Stream is how long one write of a live stream may take: a client
	// that stops reading is dropped after it.
	Stream time.Duration
}

// DefaultTimeouts are generous for a phone on a crowded venue Wi-Fi and
// short enough that idle or trickling connections do not pile up.
var DefaultTimeouts = Timeouts{
	ReadHeader: 10 * time.Second,
	Read:       30 * time.Second,
	Write:      60 * time.Second,
	Idle:       90 * time.Second,
	Stream:     30 * time.Second,
}

func (t Timeouts) withDefaults() Timeouts {
	d := DefaultTimeouts
	for _, f := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&t.ReadHeader, d.ReadHeader}, {&t.Read, d.Read}, {&t.Write, d.Write}, {&t.Idle, d.Idle}, {&t.Stream, d.Stream}} {
		if *f.v <= 0 {
			*f.v = f.def
		}
	}
	return t
}

// NewServer returns the http.Server of a site with every timeout set
// (zero fields of t take their defaults) and the site's streams ended on
// Shutdown.
func NewServer(s *Site, t Timeouts) *http.Server {
	t = t.withDefaults()
	s.streamWrite = t.Stream
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	srv.RegisterOnShutdown(s.Shutdown) // ends the live-update streams
	return srv
}

// liftDeadlines frees a live stream from the server's read and write
// timeouts, which are meant for requests that end: a write deadline left
// in place would cut the stream off once Timeouts.Write has passed. The
// stream sets its own deadline before every write (streamDeadline).
// Recorders and other writers without deadlines are fine as they are.
func liftDeadlines(rc *http.ResponseController) error {
	for _, set := range []func(time.Time) error{rc.SetReadDeadline, rc.SetWriteDeadline} {
		if err := set(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return err
		}
	}
	return nil
}

// streamDeadline gives the next write of a live stream d to complete.
func streamDeadline(rc *http.ResponseController, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	if err := rc.SetWriteDeadline(time.Now().Add(d)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}
