package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"arbiter/export"
)

// Live feeds for broadcasters: /feed/{tournament}/{round}.{ext} is every
// game of a round as one multi-game record (PGN for chess and Tensor
// chess, KIF, CSA or KI2 for shogi, the Tavreli and Kvaa records), the
// file that lichess broadcasts and other viewers poll the way they poll
// DGT LiveChess output. Polls are cheap for both sides: an ETag on the
// content answers an unchanged feed with 304, no-cache makes every
// viewer ask, and CORS lets a page on another site read it.

// feedFile serves one round's feed.
func (s *Site) feedFile(w http.ResponseWriter, r *http.Request) {
	feedHeaders(w)
	id, err := pathID(r, "tournament")
	if err != nil {
		s.feedFail(w, r, err)
		return
	}
	round, ext, err := feedName(r.PathValue("file"))
	if err != nil {
		s.feedFail(w, r, err)
		return
	}
	t, err := s.tournament(id)
	if err != nil {
		s.feedFail(w, r, err)
		return
	}
	f, err := export.RoundFormat(t.Game, ext)
	if err != nil {
		s.feedFail(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := export.WriteRound(&buf, s.d.DB(), s.d.Name(), id, round, f.Name); err != nil {
		s.feedFail(w, r, err)
		return
	}
	sum := sha256.Sum256(buf.Bytes())
	tag := `"` + hex.EncodeToString(sum[:16]) + `"`
	h := w.Header()
	h.Set("ETag", tag)
	if etagMatch(r.Header.Get("If-None-Match"), tag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", f.MediaType)
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(buf.Bytes())
}

// feedFail answers a failed poll in plain text, which a broadcaster's
// log shows as it is.
func (s *Site) feedFail(w http.ResponseWriter, r *http.Request, err error) {
	status := statusOf(err)
	msg := err.Error()
	if status >= 500 {
		s.log.Error("feed request failed", "path", r.URL.Path, "err", err)
		msg = "internal error: " + msg
	}
	http.Error(w, msg, status)
}

// feedPreflight answers a browser's CORS preflight of a feed request (a
// script that sends If-None-Match itself needs one).
func (s *Site) feedPreflight(w http.ResponseWriter, _ *http.Request) {
	feedHeaders(w)
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "If-None-Match")
	h.Set("Access-Control-Max-Age", "86400")
	w.WriteHeader(http.StatusNoContent)
}

// feedHeaders are the headers of every feed answer, errors included, so a
// viewer on another site can read why a poll failed.
func feedHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Expose-Headers", "ETag")
	h.Set("Cache-Control", "no-cache")
}

// feedName splits a feed's file name "3.pgn" into the round number and
// the extension.
func feedName(name string) (int, string, error) {
	num, ext, ok := strings.Cut(name, ".")
	n, err := strconv.Atoi(num)
	if !ok || ext == "" || err != nil || n < 1 || num != strconv.Itoa(n) {
		return 0, "", fmt.Errorf("%w: feed %q is not ROUND.FORMAT, e.g. 3.pgn", errBadRequest, name)
	}
	return n, ext, nil
}

// etagMatch reports whether an If-None-Match header names tag: "*" or a
// list of entity tags, compared weakly (RFC 9110 13.1.2).
func etagMatch(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == tag {
			return true
		}
	}
	return false
}
