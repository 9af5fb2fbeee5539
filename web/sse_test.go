package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/rules"
	"arbiter/store"
)

// streams is the number of live streams the site has open.
func (e *event) streams() int { return int(testutil.ToFloat64(e.site.stats.streams)) }

// nextWithID returns the id and data of the stream's next event of kind.
func (s *sse) nextWithID(t *testing.T, kind string) (string, string) {
	t.Helper()
	var id, ev, data string
	deadline := time.AfterFunc(10*time.Second, func() { s.resp.Body.Close() })
	defer deadline.Stop()
	for {
		line, err := s.r.ReadString('\n')
		require.NoError(t, err, "stream ended before a %s event", kind)
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "id: "):
			id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "event: "):
			ev = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = strings.TrimPrefix(line, "data: ")
		case line == "" && ev != "":
			if ev == kind {
				return id, data
			}
			id, ev, data = "", "", ""
		}
	}
}

// Every stream reads the one live feed: the hub has one subscriber however
// many pages are open, each update is encoded once, and every stream gets
// the same event with the same id.
func TestLiveFeedSharedByStreams(t *testing.T) {
	e := newEvent(t)
	var streams []*sse
	for range 20 {
		streams = append(streams, openSSE(t, e.client(), "/events"))
	}
	c := e.client()
	c.login("chief", "arbiter")
	console := openSSE(t, c, "/console/events")
	e.waitFor("21 streams", func() bool { return e.streams() == 21 })
	assert.Equal(t, 1, e.d.Hub().Subscribers(), "one hub subscription for all streams")

	sent := testutil.ToFloat64(e.site.stats.sent)
	e.move("e2", "e4", rules.White, 0, 1)
	id, data := console.nextWithID(t, "move")
	require.NotEmpty(t, id, "events carry an id")
	assert.Contains(t, data, `"notation":"e4"`)
	for i, s := range streams {
		got, gotData := s.nextWithID(t, "move")
		assert.Equal(t, id, got, "stream %d", i)
		assert.Equal(t, data, gotData, "stream %d", i)
	}
	assert.Less(t, testutil.ToFloat64(e.site.stats.sent)-sent, 10.0, "encoded once per update, not per stream")
}

// lockedBuffer is a log sink for tests.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A client that stops reading is dropped after the write deadline, with a
// log line, while the others keep receiving every event.
func TestSlowStreamDropped(t *testing.T) {
	e := newEvent(t)
	var logs lockedBuffer
	e.site.log = slog.New(slog.NewTextHandler(&logs, nil))
	e.site.streamWrite = 300 * time.Millisecond
	good := openSSE(t, e.client(), "/events")

	// The slow client: a raw connection with a tiny receive buffer that
	// never reads past the headers.
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	require.NoError(t, conn.(*net.TCPConn).SetReadBuffer(4096))
	_, err = fmt.Fprintf(conn, "GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	status, err := bufio.NewReader(conn).ReadString('\n')
	require.NoError(t, err)
	require.Contains(t, status, "200")
	e.waitFor("both streams", func() bool { return e.streams() == 2 })

	// Big updates fill the slow client's socket.
	big := strings.Repeat("x", 64<<10)
	for i := range 200 {
		e.d.Hub().Publish(director.Update{Kind: "clock", Table: "B1", At: time.Now(), Data: fmt.Sprintf("%d %s", i, big)})
		_, data := good.nextWithID(t, "clock")
		require.True(t, strings.HasPrefix(data, `{"kind":"clock","table":"B1","at":`), data[:40])
		require.Contains(t, data, fmt.Sprintf(`"data":"%d x`, i), "the reading client gets every event in order")
	}
	e.waitFor("the slow stream to be dropped", func() bool { return e.streams() == 1 })
	assert.Equal(t, 1.0, testutil.ToFloat64(e.site.stats.dropped))
	assert.Contains(t, logs.String(), "live stream: slow client dropped")
}

// A stream that falls a whole ring behind the feed is told to reload.
func TestLiveFeedRing(t *testing.T) {
	f := newLiveFeed()
	from, wake := f.head()
	require.Equal(t, uint64(1), from)
	for i := range feedRing {
		f.add(director.Update{Kind: "move", Game: uint64(i + 1)})
	}
	select {
	case <-wake:
	default:
		t.Fatal("adding a frame wakes the streams")
	}
	frames, _, lost := f.since(from, nil)
	require.False(t, lost)
	require.Len(t, frames, feedRing)
	assert.Equal(t, "id: 1\nevent: move\ndata: {\"kind\":\"move\",\"game\":1,\"at\":\"0001-01-01T00:00:00Z\"}\n\n", string(frames[0].public))
	assert.Equal(t, uint64(feedRing), frames[feedRing-1].id)

	f.add(director.Update{Kind: "alert", Data: map[string]string{"message": "secret"}})
	_, _, lost = f.since(from, nil)
	assert.True(t, lost, "frame 1 has left the ring")
	frames, _, lost = f.since(2, nil)
	require.False(t, lost)
	last := frames[len(frames)-1]
	assert.NotContains(t, string(last.public), "secret", "the public pages do not see alerts' details")
	assert.Contains(t, string(last.full), "secret")
}

// A stream with news sends no heartbeat; an idle one does.
func TestHeartbeatOnlyWhenIdle(t *testing.T) {
	e := newEvent(t)
	s := openSSE(t, e.client(), "/events")
	e.waitFor("the stream", func() bool { return e.streams() == 1 })
	lines := make(chan string, 1024)
	go func() {
		defer close(lines)
		for {
			l, err := s.r.ReadString('\n')
			if err != nil {
				return
			}
			lines <- l
		}
	}()
	// News every 50 ms for 1.2 s, with beats due every 200 ms.
	stop := time.After(1200 * time.Millisecond)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	events, beats := 0, 0
	for busy := true; busy; {
		select {
		case <-tick.C:
			e.d.Hub().Publish(director.Update{Kind: "clock", Table: "B1", At: time.Now()})
		case l := <-lines:
			switch {
			case strings.HasPrefix(l, "event: clock"):
				events++
			case strings.HasPrefix(l, ": beat"):
				beats++
			}
		case <-stop:
			busy = false
		}
	}
	assert.Greater(t, events, 10)
	assert.Zero(t, beats, "no heartbeat while events flow")
	// Idle: the beat comes.
	deadline := time.After(2 * time.Second)
	for {
		select {
		case l := <-lines:
			if strings.HasPrefix(l, ": beat") {
				return
			}
		case <-deadline:
			t.Fatal("no heartbeat on an idle stream")
		}
	}
}

// A burst of updates as large as one batch of a federation hub's catch-up
// (the moves of 500 facts, published as one commit is told) reaches a
// stream whole, each once and in order: the feed keeps up with it rather
// than being dropped and making every page reload.
func TestLiveFeedTakesACatchUpBurst(t *testing.T) {
	e := newEvent(t)
	s := openSSE(t, e.client(), "/events")
	e.waitFor("1 stream", func() bool { return e.streams() == 1 })
	const burst = 500
	for ply := 1; ply <= burst; ply++ {
		e.d.Hub().Publish(director.Update{Kind: "move", Game: 7, At: time.Now(),
			Data: store.Move{GameID: 7, Ply: ply, Notation: "e4", Position: strings.Repeat("p", 64)}})
	}
	var plies []int
	deadline := time.AfterFunc(10*time.Second, func() { s.resp.Body.Close() })
	defer deadline.Stop()
	for len(plies) < burst {
		line, err := s.r.ReadString('\n')
		require.NoError(t, err, "the stream ended after %d moves", len(plies))
		require.NotEqual(t, "event: reload\n", line, "the stream was told to reload after %d moves", len(plies))
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			var u struct {
				Data store.Move `json:"data"`
			}
			require.NoError(t, json.Unmarshal([]byte(data), &u))
			plies = append(plies, u.Data.Ply)
		}
	}
	for i, p := range plies {
		require.Equal(t, i+1, p, "each move once, in order")
	}
}
