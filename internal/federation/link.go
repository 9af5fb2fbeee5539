package federation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
)

// Every hall says hello to the hub every HelloEvery, by a request on its
// own subject (LinkSubject), and the hub answers. The hello carries what
// the hall is (its daemon, its blocks of boards, the mistakes it found in
// its own configuration against the hub's), and how far its stream goes;
// the answer what the hub found wrong about the hall (a name it does not
// know, a name two daemons use, boards another hall plays) and the last
// of the hall's facts it stored. So each side sees the link and the other
// side's view of it, and a mistake found on one side is told on both.

// HelloEvery is how often a hall says hello to the hub.
const HelloEvery = 2 * time.Second

// LinkSubject is the subject of hall's hellos.
func LinkSubject(hall string) string { return "arbiter-link." + hall }

// Hello is what a hall tells the hub every HelloEvery.
type Hello struct {
	Hall string `json:"hall"`
	// Instance is new at each start of the hall's daemon; Host and
	// Started tell the daemon apart for people.
	Instance string    `json:"instance"`
	Host     string    `json:"host,omitempty"`
	Started  time.Time `json:"started"`
	// Blocks are the boards the hall plays, by tournament.
	Blocks []Block `json:"blocks,omitempty"`
	// Rounds are how many rounds the hall has, by tournament.
	Rounds map[uint64]int `json:"rounds,omitempty"`
	// Problems are the mistakes the hall found (its configuration against
	// the hub's roster).
	Problems []Mistake `json:"problems,omitempty"`
	// Stream is the last sequence of the hall's stream; Waiting the facts
	// the hub does not have yet, the oldest of which has waited Lag.
	Stream  uint64        `json:"stream"`
	Waiting int           `json:"waiting"`
	Lag     time.Duration `json:"lag"`
	// Via is "client port" when the hall says hello through the hub's
	// client port, its hub_url naming it instead of the leaf port: the
	// hub is told of the mistake, the link is not up.
	Via string `json:"via,omitempty"`
}

// ViaClientPort is a Hello's Via when it came through the hub's client
// port.
const ViaClientPort = "client port"

// Block is the boards a hall plays of a tournament's rounds: First to
// Last.
type Block struct {
	Tournament  uint64 `json:"tournament"`
	First, Last int
}

// overlaps reports whether two blocks share a board of a tournament.
func (b Block) overlaps(o Block) bool {
	return b.Tournament == o.Tournament && b.First <= o.Last && o.First <= b.Last
}

// String is "boards 3–4 of tournament 1".
func (b Block) String() string {
	if b.First == b.Last {
		return fmt.Sprintf("board %d of tournament %d", b.First, b.Tournament)
	}
	return fmt.Sprintf("boards %d–%d of tournament %d", b.First, b.Last, b.Tournament)
}

// Welcome is the hub's answer to a hello.
type Welcome struct {
	// Known is whether the hall is one of the hub's.
	Known bool `json:"known"`
	// Problems are the mistakes the hub found about the hall.
	Problems []Mistake `json:"problems,omitempty"`
	// Taken is the sequence, in the hall's stream, of the last of the
	// hall's facts the hub stored; TakenAt when.
	Taken   uint64    `json:"taken"`
	TakenAt time.Time `json:"takenAt,omitzero"`
}

// DecodeHello reads a hello and checks that it is the hall's of its
// subject.
func DecodeHello(subject string, data []byte) (Hello, error) {
	var h Hello
	if err := json.Unmarshal(data, &h); err != nil {
		return h, fmt.Errorf("hello on %s: %w", subject, err)
	}
	if err := ValidName(h.Hall); err != nil {
		return h, fmt.Errorf("hello on %s: hall: %w", subject, err)
	}
	if LinkSubject(h.Hall) != subject {
		return h, fmt.Errorf("hello on %s: from hall %q", subject, h.Hall)
	}
	if h.Instance == "" {
		return h, fmt.Errorf("hello on %s: no instance", subject)
	}
	return h, nil
}

// LinkStatus is the state of one hall's link to the hub, as a daemon sees
// it: a hall its own, the hub each hall's.
type LinkStatus struct {
	Hall string
	// Linked is whether the hub and the hall hear each other; Since is
	// when that last changed (zero: the link never came up since the
	// daemon started).
	Linked bool
	Since  time.Time
	// Waiting is how many of the hall's facts the hub does not have yet;
	// the oldest of them has waited Lag (0: none waits).
	Waiting int
	Lag     time.Duration
	// Acknowledged is the last of the hall's facts the hub stored (its
	// sequence in the hall's stream), at AcknowledgedAt.
	Acknowledged   uint64
	AcknowledgedAt time.Time
	// Problems are the mistakes in the way, for people; none if all is
	// well.
	Problems []string
}

// linker watches the links of a role: the hall's to the hub, or the hub's
// to each hall. It learns from the NATS server's log, raises an alert for
// each new mistake and says how the links are.
type linker interface {
	// serverLine takes a line the embedded NATS server logged at level.
	serverLine(level slog.Level, line string)
	// run says hello or answers the hellos until ctx ends.
	run(ctx context.Context)
	links() []LinkStatus
	health() error
}

// problemFresh is how long a mistake the NATS server logged stays current:
// the server tries the link again every second, and logs it again while
// it lasts.
const problemFresh = 10 * time.Second

// Mistake is something wrong with a link, for people: Text says what and
// what to do; Key stays the same while the mistake lasts (the text may
// name what changes, such as an address), so that it is alerted once.
type Mistake struct {
	Key  string `json:"key"`
	Text string `json:"text"`
	// Warning marks a mistake that stops nothing (a hall took the hub's
	// players over its own list): alerted, but /healthz stays ok.
	Warning bool `json:"warning,omitempty"`
}

// seen is a mistake as last seen.
type seen struct {
	Mistake
	at time.Time
}

// fresh returns the mistakes seen within problemFresh of now, by key.
func fresh(ps map[string]seen, now time.Time) []Mistake {
	var out []Mistake
	for _, p := range ps {
		if now.Sub(p.at) <= problemFresh {
			out = append(out, p.Mistake)
		}
	}
	sortMistakes(out)
	return out
}

// sortMistakes sorts mistakes by key and drops repeated keys.
func sortMistakes(ms []Mistake) []Mistake {
	slices.SortFunc(ms, func(a, b Mistake) int { return strings.Compare(a.Key, b.Key) })
	return slices.CompactFunc(ms, func(a, b Mistake) bool { return a.Key == b.Key })
}

// texts are the mistakes' texts.
func texts(ms []Mistake) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Text
	}
	return out
}

// healthOf is the error /healthz reports for the mistakes that are not
// warnings, nil if none.
func healthOf(ms []Mistake) error {
	ms = slices.DeleteFunc(slices.Clone(ms), func(m Mistake) bool { return m.Warning })
	if len(ms) == 0 {
		return nil
	}
	return errors.New("federation: " + strings.Join(texts(ms), "; "))
}

// alerter raises an alert for each mistake that becomes current, once
// while it lasts (by its key).
type alerter struct {
	alerted map[string]bool
}

// news returns the mistakes of now not current before, and forgets those
// no longer current (they are alerted again if they come back).
func (a *alerter) news(now []Mistake) []Mistake {
	if a.alerted == nil {
		a.alerted = map[string]bool{}
	}
	current := map[string]bool{}
	var out []Mistake
	for _, m := range now {
		current[m.Key] = true
		if !a.alerted[m.Key] {
			a.alerted[m.Key] = true
			out = append(out, m)
		}
	}
	for k := range a.alerted {
		if !current[k] {
			delete(a.alerted, k)
		}
	}
	return out
}

// KindLinkAlert is the kind of the alerts about a hall's link (a mistake
// told on both sides); KindRosterAlert of a hall's differences with the
// hub's roster. Each side raises its own: they are not among the facts a
// hall publishes.
const (
	KindLinkAlert   = "federation-link"
	KindRosterAlert = "federation-roster"
)
