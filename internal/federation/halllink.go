package federation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	neturl "net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"arbiter/store"
)

// hallLink watches a hall's link to the hub: it says hello every
// HelloEvery, learns from its NATS server's log and from the hub's answers
// what is wrong, raises an alert for each new mistake and keeps the
// link's state.
type hallLink struct {
	n        *Node
	instance string
	host     string
	started  time.Time

	mu      sync.Mutex
	nats    map[string]seen    // mistakes the server logged, by key
	lastErr string             // the last error the server logged of the link
	ever    bool               // whether the hub ever answered
	absent  bool               // whether the hub's silence was alerted
	side    *nats.Conn         // to the hub's client port, named by mistake
	hub     []Mistake          // mistakes the hub found, at its last answer
	own     map[string]Mistake // mistakes the hall found, by key
	linked  bool
	since   time.Time
	welcome Welcome
	waiting int
	lag     time.Duration
	alerts  alerter
}

func newHallLink(n *Node) linker {
	host, _ := os.Hostname()
	id, _ := randomPassword()
	return &hallLink{n: n, instance: id[:16], host: host, started: time.Now(),
		nats: map[string]seen{}, own: map[string]Mistake{}}
}

// hallMistake says what a line the hall's NATS server logged at level
// tells of a mistake in the link to the hub (Key "" if nothing).
func hallMistake(hall string, level slog.Level, line string) Mistake {
	if level < slog.LevelError {
		return Mistake{}
	}
	switch {
	case strings.Contains(line, "Authorization Violation"):
		return Mistake{Key: "credentials", Text: fmt.Sprintf("the hub refused this hall's name and password (hub_url): is %q one of the hub's federation.halls, and is the password in hub_url the one whose hash the hub keeps?", hall)}
	case strings.Contains(line, "attempted to connect to wrong port"):
		return Mistake{Key: "port", Text: "hub_url names a port of the hub that is not its leaf port (its client port, federation.listen?): give the port of the hub's federation.leaf_listen"}
	case strings.Contains(line, "Duplicate Remote LeafNode Connection"):
		return Mistake{Key: "duplicate", Text: fmt.Sprintf("another daemon links to the hub as hall %q: each link pushes the other out, and the facts of one of them do not reach the hub; give each hall a name of its own", hall)}
	case strings.Contains(line, "lid:") && (strings.Contains(line, "TLS") || strings.Contains(line, "tls:") || strings.Contains(line, "x509")):
		_, why, _ := strings.Cut(line, " - lid:")
		if _, rest, ok := strings.Cut(why, " - "); ok {
			why = rest
		}
		return Mistake{Key: "tls", Text: fmt.Sprintf("the TLS of the link to the hub fails (%s): hub_url is tls://… when the hub's leaf port has a certificate (with tls_ca, the authority that signed it) and nats-leaf://… when it has none", why)}
	}
	return Mistake{}
}

func (l *hallLink) serverLine(level slog.Level, line string) {
	m := hallMistake(l.n.o.Hall, level, line)
	l.mu.Lock()
	defer l.mu.Unlock()
	if level >= slog.LevelWarn && (strings.Contains(line, "leafnode") || strings.Contains(line, "lid:")) {
		l.lastErr = line
	}
	if m.Key != "" {
		l.nats[m.Key] = seen{m, time.Now()}
	}
}

// setOwn records a mistake the hall found (Text "": none any more about
// its Key).
func (l *hallLink) setOwn(m Mistake) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if m.Text == "" {
		delete(l.own, m.Key)
	} else {
		l.own[m.Key] = m
	}
}

func (l *hallLink) run(ctx context.Context) {
	t := time.NewTicker(HelloEvery)
	defer t.Stop()
	defer l.closeSide()
	for {
		l.hello(ctx)
		l.raise()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// closeSide closes the connection to the hub's client port, if any.
func (l *hallLink) closeSide() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.side != nil {
		l.side.Close()
		l.side = nil
	}
}

// viaClientPort says hello through the hub's client port, where the
// hall's hub_url leads by mistake (its server logged "wrong port"), so
// that the hub hears of the mistake: the hall's name and password are
// users of the hub's server there too. It returns the hub's answer.
func (l *hallLink) viaClientPort(ctx context.Context, h Hello) (Welcome, error) {
	l.mu.Lock()
	wrong := time.Since(l.nats["port"].at) <= problemFresh
	side := l.side
	l.mu.Unlock()
	if !wrong {
		l.closeSide()
		return Welcome{}, errors.New("no mistaken port")
	}
	if side == nil {
		u, err := neturl.Parse(l.n.o.HubURL)
		if err != nil {
			return Welcome{}, err
		}
		if u.Scheme == "nats-leaf" {
			u.Scheme = "nats"
		}
		opts := []nats.Option{nats.Name("arbiter hall " + l.n.o.Hall + " (hub_url names the client port)"), nats.MaxReconnects(0)}
		if l.n.o.TLSCA != "" {
			opts = append(opts, nats.RootCAs(l.n.o.TLSCA))
		}
		if side, err = nats.Connect(u.String(), opts...); err != nil {
			return Welcome{}, fmt.Errorf("the hub's client port: %w", err)
		}
		l.mu.Lock()
		l.side = side
		l.mu.Unlock()
	}
	h.Via = ViaClientPort
	data, err := json.Marshal(h)
	if err != nil {
		return Welcome{}, err
	}
	reply, err := side.RequestWithContext(ctx, LinkSubject(h.Hall), data)
	if err != nil {
		return Welcome{}, err
	}
	var w Welcome
	return w, json.Unmarshal(reply.Data, &w)
}

// hello says hello to the hub and takes its answer.
func (l *hallLink) hello(ctx context.Context) {
	n, o := l.n, l.n.o
	h := Hello{Hall: o.Hall, Instance: l.instance, Host: l.host, Started: l.started, Blocks: l.blocks()}
	if rounds, err := roundsOf(o.DB); err == nil {
		h.Rounds = rounds
	}
	l.mu.Lock()
	taken := l.welcome.Taken
	h.Problems = l.ownMistakes()
	l.mu.Unlock()
	var waiting int
	var lag time.Duration
	if s, err := n.js.Stream(ctx, HallStream(o.Hall)); err == nil {
		if info, err := s.Info(ctx); err == nil {
			h.Stream = info.State.LastSeq
		}
		if h.Stream > taken {
			waiting = int(h.Stream - taken)
			if m, err := s.GetMsg(ctx, taken+1); err == nil {
				lag = time.Since(m.Time)
			}
		}
	}
	if pending, err := pendingFacts(o.DB); err == nil {
		waiting += pending
	}
	h.Waiting, h.Lag = waiting, lag
	data, err := json.Marshal(h)
	if err != nil {
		o.Log.Error("federation link: hello", "err", err)
		return
	}
	rctx, cancel := context.WithTimeout(ctx, HelloEvery)
	defer cancel()
	reply, err := n.nc.RequestWithContext(rctx, LinkSubject(o.Hall), data)
	var w Welcome
	if err == nil {
		err = json.Unmarshal(reply.Data, &w)
	}
	if err != nil {
		side, serr := l.viaClientPort(rctx, h)
		l.mu.Lock()
		defer l.mu.Unlock()
		l.waiting, l.lag = waiting, lag
		l.hub = nil
		if serr == nil {
			l.hub = side.Problems
		}
		if l.linked {
			l.linked, l.since = false, time.Now()
			o.Log.Warn("federation link: the hub does not answer", "err", err)
		}
		return
	}
	l.closeSide()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.waiting, l.lag = waiting, lag
	if !l.linked {
		l.linked, l.since, l.ever = true, time.Now(), true
		o.Log.Info("federation link: the hub answers", "taken", w.Taken)
	}
	l.welcome, l.hub = w, w.Problems
}

// blocks are the boards the hall plays, by tournament: from its first
// board, one a table.
func (l *hallLink) blocks() []Block {
	if l.n.o.Boards == nil {
		return nil
	}
	last := map[uint64]int{}
	for _, b := range l.n.o.Boards() {
		if b.Tournament != 0 {
			last[b.Tournament] = max(last[b.Tournament], b.Table)
		}
	}
	var out []Block
	for _, t := range slices.Sorted(maps.Keys(last)) {
		first := l.n.o.FirstBoard
		out = append(out, Block{Tournament: t, First: first, Last: first + last[t] - 1})
	}
	return out
}

// ownMistakes are the mistakes the hall found itself. l.mu is held.
func (l *hallLink) ownMistakes() []Mistake {
	var out []Mistake
	for _, k := range slices.Sorted(maps.Keys(l.own)) {
		out = append(out, l.own[k])
	}
	return out
}

// problems are the mistakes current now: those the server logged lately,
// the hub's and the hall's own.
func (l *hallLink) problems() []Mistake {
	l.mu.Lock()
	defer l.mu.Unlock()
	ps := fresh(l.nats, time.Now())
	for _, m := range l.hub {
		m.Key = "hub:" + m.Key
		ps = append(ps, m)
	}
	return sortMistakes(append(ps, l.ownMistakes()...))
}

// raise raises an alert for each mistake that became current, and one if
// the hub has not answered within LinkGrace of the hall's start.
func (l *hallLink) raise() {
	now := l.problems()
	l.mu.Lock()
	if !l.ever && !l.absent && time.Since(l.started) > LinkGrace {
		l.absent = true
		why := ""
		if l.lastErr != "" {
			why = " (the link's last error: " + l.lastErr + ")"
		}
		msg := fmt.Sprintf("the hub has not answered since this hall started at %s%s", l.started.Format("15:04:05"), why)
		defer l.n.alert(store.Alert{Kind: KindLinkAlert, BoardID: "link:absent", Message: msg, At: time.Now(), Where: "link to the hub",
			Advice: "is the hub running, and does hub_url name its leaf port (federation.leaf_listen) with this hall's name and password, tls://… only if that port has a certificate? The hall plays on meanwhile"})
	}
	raise := l.alerts.news(now)
	l.mu.Unlock()
	for _, m := range raise {
		l.n.o.Log.Error("federation link: "+m.Text, "hall", l.n.o.Hall)
		l.n.alert(store.Alert{Kind: KindLinkAlert, BoardID: "link:" + m.Key, Message: m.Text, At: time.Now(), Where: "link to the hub",
			Advice: "correct the configuration named here and start the daemon again; the hub has this alert too"})
	}
}

func (l *hallLink) links() []LinkStatus {
	ps := l.problems()
	l.mu.Lock()
	defer l.mu.Unlock()
	return []LinkStatus{{Hall: l.n.o.Hall, Linked: l.linked, Since: l.since, Waiting: l.waiting, Lag: l.lag,
		Acknowledged: l.welcome.Taken, AcknowledgedAt: l.welcome.TakenAt, Problems: texts(ps)}}
}

func (l *hallLink) health() error { return healthOf(l.problems()) }

// pendingFacts counts the facts of the hall's games not yet in its
// stream.
func pendingFacts(db *store.DB) (int, error) {
	items, err := db.OutboxPending(0)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, it := range items {
		n += len(it.Moves)
		if !it.Cursor.Game {
			n++
		}
		if it.Game.Result != "" && !it.Cursor.Result {
			n++
		}
	}
	return n, nil
}

// roundsOf is how many rounds the store has, by tournament.
func roundsOf(db *store.DB) (map[uint64]int, error) {
	ts, err := db.Tournaments()
	if err != nil {
		return nil, err
	}
	out := map[uint64]int{}
	for _, t := range ts {
		rs, err := db.Rounds(t.ID)
		if err != nil {
			return nil, err
		}
		out[t.ID] = len(rs)
	}
	return out, nil
}
