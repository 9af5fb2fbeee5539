package federation

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"arbiter/store"
)

// LinkGrace is how long after its start the hub waits for each of its
// halls to say hello before it raises an alert about one that has not.
const LinkGrace = time.Minute

// helloGone is how long after a hall's last hello the hub takes its link
// for down.
const helloGone = 3 * HelloEvery

// hubLinks watches the halls' links on the hub: it answers their hellos,
// learns from its NATS server's log which links it refused, finds the
// mistakes that only the hub can see (a name it does not know, a name two
// daemons use, boards two halls play), raises an alert for each new one
// and keeps each hall's state.
type hubLinks struct {
	n       *Node
	started time.Time

	mu     sync.Mutex
	halls  map[string]*hubHall // the configured halls and the strangers
	anon   map[string]seen     // mistakes of links that gave no hall's name
	alerts alerter             // by hall + ":" + key
	absent map[string]bool     // halls alerted for never saying hello
}

// hubHall is what the hub knows of one hall's link.
type hubHall struct {
	known   bool
	nats    map[string]seen  // mistakes the server logged, by key
	hellos  map[string]Hello // by instance: the last hello of each daemon
	heard   map[string]time.Time
	last    Hello     // the last hello heard
	ahead   []Mistake // rounds the hall has and the hub has not
	linked  bool
	since   time.Time
	taken   uint64
	takenAt time.Time
}

func newHubLinks(n *Node) linker {
	l := &hubLinks{n: n, started: time.Now(), halls: map[string]*hubHall{}, anon: map[string]seen{}, absent: map[string]bool{}}
	for _, h := range n.o.Halls {
		l.hall(h).known = true
	}
	return l
}

// hall returns the state of hall h, made if new; l.mu is held.
func (l *hubLinks) hall(h string) *hubHall {
	s, ok := l.halls[h]
	if !ok {
		s = &hubHall{nats: map[string]seen{}, hellos: map[string]Hello{}, heard: map[string]time.Time{}}
		l.halls[h] = s
	}
	return s
}

var (
	authFailure = regexp.MustCompile(`^(\S+) - lid:\d+ - authentication error - User "([^"]*)"`)
	authNoName  = regexp.MustCompile(`^(\S+) - lid:\d+ - authentication error$`)
	tlsFailure  = regexp.MustCompile(`^(\S+) - lid:\d+ - TLS leafnode handshake error: (.*)$`)
	duplicate   = regexp.MustCompile(`Duplicate Remote LeafNode Connection.*(?:user:|Remote: )([A-Za-z0-9_-]+)`)
)

// host is the host of a host:port address (the port changes at each try).
func host(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

// hubMistake says what a line the hub's NATS server logged tells of a
// mistake in a hall's link: the hall it is about ("" for a link refused
// before it gave a name) and the mistake (Key "" if none).
func hubMistake(halls []string, line string) (string, Mistake) {
	if m := authNoName.FindStringSubmatch(line); m != nil {
		return "", Mistake{Key: "unnamed", Text: fmt.Sprintf("a daemon from %s was refused at the leaf port before it gave a hall's name: is its hub_url tls://… while the leaf port has no certificate (nats-leaf://… then)?", host(m[1]))}
	}
	if m := tlsFailure.FindStringSubmatch(line); m != nil {
		return "", Mistake{Key: "tls", Text: fmt.Sprintf("a daemon from %s failed the TLS of the leaf port (%s): does its tls_ca hold the authority that signed the hub's certificate?", host(m[1]), m[2])}
	}
	if m := authFailure.FindStringSubmatch(line); m != nil {
		from := host(m[1])
		if slices.Contains(halls, m[2]) {
			return m[2], Mistake{Key: "credentials", Text: fmt.Sprintf("hall %s tried to link with a wrong password (from %s): give it the password whose hash is its federation.hall_passwords", m[2], from)}
		}
		return m[2], Mistake{Key: "stranger", Text: fmt.Sprintf("a daemon tried to link as hall %q (from %s), which is not one of federation.halls (%s): check its federation.hall and hub_url", m[2], from, strings.Join(halls, ", "))}
	}
	if m := duplicate.FindStringSubmatch(line); m != nil {
		return m[1], Mistake{Key: "duplicate", Text: fmt.Sprintf("two daemons link as hall %s: each link pushes the other out, and the facts of one of them do not reach the hub; give each hall a name of its own", m[1])}
	}
	return "", Mistake{}
}

func (l *hubLinks) serverLine(_ slog.Level, line string) {
	hall, m := hubMistake(l.n.o.Halls, line)
	if m.Key == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if hall == "" {
		l.anon[m.Key] = seen{m, time.Now()}
		return
	}
	l.hall(hall).nats[m.Key] = seen{m, time.Now()}
}

// took records that the hub stored (or refused for good) the fact at seq
// of hall's stream.
func (l *hubLinks) took(hall string, seq uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.hall(hall)
	if seq > h.taken {
		h.taken, h.takenAt = seq, time.Now()
	}
}

func (l *hubLinks) run(ctx context.Context) {
	sub, err := l.n.nc.Subscribe(LinkSubject("*"), l.answer)
	if err != nil {
		l.n.o.Log.Error("federation link: the halls' hellos go unanswered", "err", err)
	} else {
		defer func() { _ = sub.Unsubscribe() }()
	}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		l.raise(time.Now())
	}
}

// answer takes a hall's hello and answers it.
func (l *hubLinks) answer(msg *nats.Msg) {
	h, err := DecodeHello(msg.Subject, msg.Data)
	if err != nil {
		l.n.o.Log.Warn("federation link: hello refused", "err", err)
		return
	}
	if h.Via == ViaPreflight {
		l.answerPreflight(msg, h)
		return
	}
	now := time.Now()
	ahead := l.ahead(h)
	l.mu.Lock()
	s := l.hall(h.Hall)
	s.ahead = ahead
	s.hellos[h.Instance], s.heard[h.Instance], s.last = h, now, h
	if !s.linked && h.Via == "" {
		s.linked, s.since = true, now
		l.n.o.Log.Info("federation link: hall says hello", "hall", h.Hall, "host", h.Host, "known", s.known)
	}
	w := Welcome{Known: s.known, Problems: l.found(h.Hall, now), Taken: s.taken, TakenAt: s.takenAt}
	l.mu.Unlock()
	data, err := json.Marshal(w)
	if err == nil {
		err = msg.Respond(data)
	}
	if err != nil {
		l.n.o.Log.Warn("federation link: answer", "hall", h.Hall, "err", err)
	}
}

// answerPreflight answers a preflight's hello: whether the hub knows the
// hall. The preflight is no daemon of the hall: nothing is recorded.
func (l *hubLinks) answerPreflight(msg *nats.Msg, h Hello) {
	data, err := json.Marshal(Welcome{Known: slices.Contains(l.n.o.Halls, h.Hall)})
	if err == nil {
		err = msg.Respond(data)
	}
	if err != nil {
		l.n.o.Log.Warn("federation link: answer a preflight", "hall", h.Hall, "err", err)
	}
	l.n.o.Log.Info("federation link: a preflight of hall said hello", "hall", h.Hall, "host", h.Host)
}

// ahead are the rounds a hall has that the hub has not: the hub lost its
// database and its NATS store, and was started afresh instead of rebuilt.
func (l *hubLinks) ahead(h Hello) []Mistake {
	mine, err := roundsOf(l.n.o.DB)
	if err != nil {
		l.n.o.Log.Error("federation link: the hub's rounds", "err", err)
		return nil
	}
	var out []Mistake
	for _, t := range slices.Sorted(maps.Keys(h.Rounds)) {
		if h.Rounds[t] > mine[t] {
			out = append(out, Mistake{Key: fmt.Sprintf("ahead:t%d", t), Text: fmt.Sprintf("hall %s has %d rounds of tournament %d, the hub %d: the hub lost its database and its NATS store? Stop it, put its database and federation.store_dir aside, and start it with --rebuild", h.Hall, h.Rounds[t], t, mine[t])})
		}
	}
	return out
}

// found are the mistakes about hall that the hub found itself: from its
// server's log, a name it does not know, two daemons of one name, boards
// another hall plays. l.mu is held.
func (l *hubLinks) found(hall string, now time.Time) []Mistake {
	s := l.halls[hall]
	ps := fresh(s.nats, now)
	live := l.live(s, now)
	if len(live) > 0 {
		ps = append(ps, s.ahead...)
	}
	if !s.known && len(live) > 0 {
		ps = append(ps, Mistake{Key: "stranger", Text: fmt.Sprintf("a daemon says hello as hall %q, which is not one of federation.halls (%s): check its federation.hall", hall, strings.Join(l.n.o.Halls, ", "))})
	}
	if slices.ContainsFunc(live, func(h Hello) bool { return h.Via == ViaClientPort }) {
		ps = append(ps, Mistake{Key: "port", Text: fmt.Sprintf("hall %s's hub_url names the hub's client port (federation.listen) instead of its leaf port (federation.leaf_listen, %s): the hall cannot link", hall, l.n.o.LeafListen)})
	}
	if len(live) > 1 {
		var who []string
		for _, h := range live {
			who = append(who, fmt.Sprintf("on %s since %s", h.Host, h.Started.Format("15:04:05")))
		}
		ps = append(ps, Mistake{Key: "duplicate", Text: fmt.Sprintf("two daemons link as hall %s (%s): give each hall a name of its own", hall, strings.Join(who, ", "))})
	}
	for _, b := range l.blocks(s, now) {
		for _, other := range slices.Sorted(maps.Keys(l.halls)) {
			if other == hall {
				continue
			}
			for _, ob := range l.blocks(l.halls[other], now) {
				if b.overlaps(ob) {
					ps = append(ps, Mistake{Key: "overlap:" + other, Text: fmt.Sprintf("halls %s and %s both play %s: give one of them another federation.first_board, so that each board is played in one hall", hall, other, overlap(b, ob))})
				}
			}
		}
	}
	return sortMistakes(ps)
}

// overlap is the boards two overlapping blocks share.
func overlap(a, b Block) Block {
	return Block{Tournament: a.Tournament, First: max(a.First, b.First), Last: min(a.Last, b.Last)}
}

// live are the last hellos of hall's daemons heard within helloGone, in
// the order they started. l.mu is held.
func (l *hubLinks) live(s *hubHall, now time.Time) []Hello {
	var out []Hello
	for id, at := range s.heard {
		if now.Sub(at) <= helloGone {
			out = append(out, s.hellos[id])
		}
	}
	slices.SortFunc(out, func(a, b Hello) int {
		return cmp.Or(a.Started.Compare(b.Started), cmp.Compare(a.Host, b.Host), cmp.Compare(a.Instance, b.Instance))
	})
	return out
}

// blocks are the boards a hall's live daemons play. l.mu is held.
func (l *hubLinks) blocks(s *hubHall, now time.Time) []Block {
	var out []Block
	for _, h := range l.live(s, now) {
		out = append(out, h.Blocks...)
	}
	return out
}

// problems are each hall's current mistakes, those it reported and those
// the hub found. l.mu is held.
func (l *hubLinks) problems(now time.Time) map[string][]Mistake {
	out := map[string][]Mistake{}
	for name, s := range l.halls {
		ps := l.found(name, now)
		for _, h := range l.live(s, now) {
			for _, p := range h.Problems {
				ps = append(ps, Mistake{Key: "hall:" + p.Key, Text: "hall " + name + ": " + p.Text, Warning: p.Warning})
			}
		}
		if len(ps) > 0 {
			out[name] = sortMistakes(ps)
		}
	}
	if ps := fresh(l.anon, now); len(ps) > 0 {
		out[""] = ps // under no hall's name
	}
	return out
}

// raise takes the links of halls silent for helloGone for down, and
// raises an alert for each mistake that became current and for each hall
// that never said hello within LinkGrace of the hub's start.
func (l *hubLinks) raise(now time.Time) {
	type alert struct{ hall, key, text, advice string }
	var raise []alert
	l.mu.Lock()
	for name, s := range l.halls {
		if s.linked && !slices.ContainsFunc(l.live(s, now), func(h Hello) bool { return h.Via == "" }) {
			s.linked, s.since = false, now
			l.n.o.Log.Warn("federation link: hall silent", "hall", name, "for", helloGone)
		}
		if s.known && len(s.heard) == 0 && now.Sub(l.started) > LinkGrace && !l.absent[name] {
			l.absent[name] = true
			raise = append(raise, alert{name, "absent", fmt.Sprintf("hall %s has not linked to the hub since the hub started at %s", name, l.started.Format("15:04:05")),
				fmt.Sprintf("is its daemon running, and does its hub_url name this hub's leaf port (%s) with the hall's name and password? A hall whose hub_url names another port of the hub says \"wrong port\" in its own alerts", l.n.o.LeafListen)})
		}
	}
	var all []Mistake
	for name, ps := range l.problems(now) {
		for _, p := range ps {
			all = append(all, Mistake{Key: name + ":" + p.Key, Text: p.Text, Warning: p.Warning})
		}
	}
	for _, m := range l.alerts.news(all) {
		hall, _, _ := strings.Cut(m.Key, ":")
		raise = append(raise, alert{hall, m.Key, m.Text, "correct the configuration named here (on the hub or in the hall) and start that daemon again; the hall has this alert too"})
	}
	l.mu.Unlock()
	for _, a := range raise {
		l.n.o.Log.Error("federation link: "+a.text, "hall", a.hall)
		where := "hall " + a.hall
		if a.hall == "" {
			where = "the hub's leaf port"
		}
		l.n.alert(store.Alert{Kind: KindLinkAlert, BoardID: "link:" + a.hall + ":" + a.key, Where: where,
			Message: a.text, Advice: a.advice, At: now})
	}
}

func (l *hubLinks) links() []LinkStatus {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	problems := l.problems(now)
	names := slices.Clone(l.n.o.Halls)
	for _, name := range slices.Sorted(maps.Keys(l.halls)) {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	out := make([]LinkStatus, 0, len(names))
	for _, name := range names {
		s := l.hall(name)
		ls := LinkStatus{Hall: name, Linked: s.linked, Since: s.since, Acknowledged: s.taken, AcknowledgedAt: s.takenAt, Problems: texts(problems[name])}
		if h := s.last; h.Instance != "" {
			ls.Lag = h.Lag
			if h.Stream > s.taken {
				ls.Waiting = int(h.Stream - s.taken)
			}
		}
		out = append(out, ls)
	}
	return out
}

func (l *hubLinks) health() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var all []Mistake
	for name, ps := range l.problems(time.Now()) {
		for _, p := range ps {
			all = append(all, Mistake{Key: name + ":" + p.Key, Text: p.Text, Warning: p.Warning})
		}
	}
	return healthOf(sortMistakes(all))
}

// hallStream is how far a hall's stream goes, as its last hello said, and
// how far the hub took it.
type hallStream struct {
	linked        bool
	stream, taken uint64
}

// streams are the configured halls' streams.
func (l *hubLinks) streams() map[string]hallStream {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]hallStream{}
	for _, name := range l.n.o.Halls {
		s := l.hall(name)
		linked := slices.ContainsFunc(l.live(s, now), func(h Hello) bool { return h.Via == "" })
		out[name] = hallStream{linked: linked, stream: s.last.Stream, taken: s.taken}
	}
	return out
}
