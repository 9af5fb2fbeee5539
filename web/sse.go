package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sync"
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

// feedRing is how many events the live feed keeps: a stream that falls
// further behind than this is dropped, and its page reloads.
const feedRing = 1024

// slotWrite bounds how long a stream may hold a writer's slot (see
// liveFeed.slots): a client whose connection has taken nothing for this
// long, its socket buffer full, is dropped as slow.
const slotWrite = 5 * time.Second

// feedWriters is how many live streams may write at once.
const feedWriters = 64

// liveFeed is the one hub subscription behind all the live streams of a
// site. Each update is encoded once, in its public and its console form,
// into a ring of frames that every stream reads from its own position: a
// stream holds no queue of its own and no goroutine besides its handler's,
// so thousands of spectators cost little more than their connections.
type liveFeed struct {
	once sync.Once
	mu   sync.RWMutex
	ring [feedRing]liveFrame
	// next is the id of the next frame; ids start at 1.
	next uint64
	// wake is closed, and replaced, when a frame is added.
	wake chan struct{}
	// slots lets only feedWriters streams write at once. A new event
	// wakes every stream; without it, thousands of them would be
	// runnable together, each with a write to make, and a board's
	// session would queue behind them all. The others wait parked. A
	// client whose socket is full holds a slot for slotWrite at most, so
	// it takes feedWriters such clients to delay the others.
	slots chan struct{}
}

// liveFrame is one encoded event.
type liveFrame struct {
	id   uint64
	kind string
	// at is the update's own time (for a move, when it was made).
	at time.Time
	// public is the event as the public pages get it, full as the console
	// gets it (the same bytes unless the public one holds back details).
	public, full []byte
}

func newLiveFeed() *liveFeed {
	return &liveFeed{next: 1, wake: make(chan struct{}), slots: make(chan struct{}, feedWriters)}
}

// start subscribes the feed to the hub, once; the feed runs until the site
// shuts down.
func (s *Site) startFeed() {
	s.feed.once.Do(func() {
		updates, stop := s.d.Hub().Subscribe()
		go s.runFeed(updates, stop)
	})
}

// runFeed encodes every update into the ring. If the hub drops the feed
// (it fell behind), every stream is told to reload and the feed
// subscribes again.
func (s *Site) runFeed(updates <-chan director.Update, stop func()) {
	for {
		select {
		case <-s.closing:
			stop()
			return
		case u, ok := <-updates:
			if !ok {
				s.log.Warn("live feed: the hub dropped it; every page reloads")
				s.feed.add(director.Update{Kind: "reload", Data: struct{}{}})
				updates, stop = s.d.Hub().Subscribe()
				continue
			}
			s.feed.add(u)
			s.stats.sent.Inc()
		}
	}
}

// add encodes u as the next frame and wakes the streams.
func (f *liveFeed) add(u director.Update) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := f.next
	fr := liveFrame{id: id, kind: u.Kind, at: u.At, full: encodeEvent(id, u)}
	fr.public = fr.full
	if u.Kind == "alert" && u.Data != nil {
		u.Data = nil
		fr.public = encodeEvent(id, u)
	}
	f.ring[id%feedRing] = fr
	f.next++
	close(f.wake)
	f.wake = make(chan struct{})
}

// head returns the id of the next frame and the channel closed when it
// comes.
func (f *liveFeed) head() (uint64, <-chan struct{}) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.next, f.wake
}

// since appends to buf the frames from id from on, and returns the channel
// closed when the next one comes. lost reports that frames after from have
// already left the ring.
func (f *liveFeed) since(from uint64, buf []liveFrame) (frames []liveFrame, wake <-chan struct{}, lost bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	if f.next > feedRing && from < f.next-feedRing {
		return buf, f.wake, true
	}
	for id := from; id < f.next; id++ {
		buf = append(buf, f.ring[id%feedRing])
	}
	return buf, f.wake, false
}

// stream writes the live feed's frames to a client as they come, the
// public ones or, full, those with every update's data; it sends a
// heartbeat when a beat passed without news, and ends when the client
// goes, falls too far behind or stops reading, or the site closes.
func (s *Site) stream(w http.ResponseWriter, r *http.Request, full bool) {
	rc := http.NewResponseController(w)
	if err := s.openStream(w, rc); err != nil {
		return
	}
	s.startFeed()
	s.stats.streams.Inc()
	defer s.stats.streams.Dec()
	next, wake := s.feed.head()
	if err := helloStream(w, rc); err != nil {
		return
	}
	beat := time.NewTicker(s.heartbeat)
	defer beat.Stop()
	var batch []liveFrame
	// sent is set when events went out since the last beat: a stream
	// with news needs no heartbeat, and thousands of streams save a
	// write each.
	sent := false
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.closing:
			return
		case <-beat.C:
			if sent {
				sent = false
				continue
			}
			if err := s.beat(w, r, rc); err != nil {
				return
			}
		case <-wake:
			if !s.takeSlot(r) {
				return
			}
			err := s.sendFrames(w, r, rc, full, &next, &batch, &wake)
			<-s.feed.slots
			if err != nil {
				return
			}
			sent = true
		}
	}
}

// openStream sets a live stream's headers and its first write deadline.
// The stream outlives the server's request timeouts: it keeps its own
// deadline per write instead, so a client that stops reading is dropped.
func (s *Site) openStream(w http.ResponseWriter, rc *http.ResponseController) error {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	if err := liftDeadlines(rc); err != nil {
		s.log.Warn("live stream: lift deadlines", "err", err)
		return err
	}
	return streamDeadline(rc, s.streamWrite)
}

// helloStream opens a live stream: it tells the client how soon to
// reconnect, and flushes the headers so it knows the stream is open.
func helloStream(w http.ResponseWriter, rc *http.ResponseController) error {
	w.WriteHeader(http.StatusOK)
	if _, err := fmt.Fprint(w, "retry: 2000\n: hello\n\n"); err != nil {
		return err
	}
	return rc.Flush()
}

// beat writes a heartbeat to a live stream that had no news since the
// last.
func (s *Site) beat(w http.ResponseWriter, r *http.Request, rc *http.ResponseController) error {
	if err := streamDeadline(rc, s.streamWrite); err != nil {
		return err
	}
	if _, err := fmt.Fprint(w, ": beat\n\n"); err != nil {
		s.streamFailed(r, err)
		return err
	}
	if err := rc.Flush(); err != nil {
		s.streamFailed(r, err)
		return err
	}
	return nil
}

// takeSlot waits for one of the feed's slots for writing to a stream; it
// reports false if the request or the site ended first.
func (s *Site) takeSlot(r *http.Request) bool {
	select {
	case s.feed.slots <- struct{}{}:
		return true
	case <-r.Context().Done():
		return false
	case <-s.closing:
		return false
	}
}

// sendFrames writes the frames after *next to the stream, and flushes;
// a stream too far behind is told to reload and ended (errSlow).
func (s *Site) sendFrames(w http.ResponseWriter, r *http.Request, rc *http.ResponseController, full bool, next *uint64, batch *[]liveFrame, wake *<-chan struct{}) error {
	var lost bool
	*batch, *wake, lost = s.feed.since(*next, (*batch)[:0])
	if err := streamDeadline(rc, min(s.streamWrite, slotWrite)); err != nil {
		return err
	}
	if lost {
		// This client fell a whole ring behind: its page reloads to
		// catch up.
		s.stats.dropped.Inc()
		s.log.Info("live stream: slow client dropped", "client", s.client(r), "behind", feedRing)
		_, _ = fmt.Fprint(w, "event: reload\ndata: {}\n\n")
		_ = rc.Flush()
		return errSlow
	}
	for _, fr := range *batch {
		data := fr.public
		if full {
			data = fr.full
		}
		if _, err := w.Write(data); err != nil {
			s.streamFailed(r, err)
			return err
		}
		*next = fr.id + 1
	}
	if err := rc.Flush(); err != nil {
		s.streamFailed(r, err)
		return err
	}
	return nil
}

// errSlow ends a stream whose client fell too far behind.
var errSlow = errors.New("live stream: client too far behind")

// streamFailed notes why a write to a live stream failed: a client that
// stopped reading for the whole write deadline is dropped with a log line;
// one that went away is not news.
func (s *Site) streamFailed(r *http.Request, err error) {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		s.stats.dropped.Inc()
		s.log.Info("live stream: slow client dropped", "client", s.client(r), "err", err)
	}
}

// encodeEvent encodes one update as a server-sent event with its id. JSON
// has no raw newlines, so the data is one line.
func encodeEvent(id uint64, u director.Update) []byte {
	data, err := json.Marshal(u)
	if err != nil {
		data = []byte(`{"kind":"reload"}`)
		u.Kind = "reload"
	}
	return fmt.Appendf(nil, "id: %d\nevent: %s\ndata: %s\n\n", id, sanitizeEventName(u.Kind), data)
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
