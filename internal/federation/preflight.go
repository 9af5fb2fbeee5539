package federation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Level says how a preflight finding bears on the event.
type Level uint8

// Levels of a finding.
const (
	LevelOK      Level = iota // ready
	LevelWarning              // the event can run; worth a look
	LevelError                // the event cannot run as configured
)

// Finding is one line of a federation preflight: an item ("hub_url",
// "tournament 1"), what was found and, for a warning or an error, what to
// do.
type Finding struct {
	Item   string
	Level  Level
	Text   string
	Advice string
}

// ViaPreflight is a Hello's Via when a preflight says it: the hub answers
// whether it knows the hall, and takes it for no daemon of the hall.
const ViaPreflight = "preflight"

// Preflight checks a daemon's federation settings against the world
// before the event, within timeout (0: 10 s): in a hall, it links to the
// hub with the hall's credentials, as the hall will (through a NATS
// server of its own for the check, or the hall's server at url), says
// hello, and compares the hub's roster with tournaments, the hall's own
// as its configuration gives them, numbered from 1 in its order; on a
// hub, that the leaf port can be listened on and the certificate read.
// Nothing is written anywhere.
func Preflight(ctx context.Context, c Config, tournaments []Tournament, timeout time.Duration) []Finding {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	switch c.Role {
	case RoleHall:
		return hallPreflight(ctx, c, tournaments, timeout)
	case RoleHub:
		return hubPreflight(c)
	}
	return nil
}

// hubPreflight checks that a hub's leaf port is free and its certificate
// readable.
func hubPreflight(c Config) []Finding {
	var out []Finding
	if c.URL == "" && c.LeafListen != "" {
		ln, err := net.Listen("tcp", c.LeafListen)
		if err != nil {
			out = append(out, Finding{Item: "leaf_listen", Level: LevelError, Text: fmt.Sprintf("cannot listen on %s: %v", c.LeafListen, err),
				Advice: "another program (a hub already running?) has the port, or the address is not this machine's"})
		} else {
			ln.Close()
			out = append(out, Finding{Item: "leaf_listen", Text: "the halls' port " + c.LeafListen + " is free"})
		}
	}
	if c.TLSCert != "" {
		if _, err := hubTLS(c.TLSCert, c.TLSKey); err != nil {
			out = append(out, Finding{Item: "tls_cert", Level: LevelError, Text: err.Error(), Advice: "give the leaf port's certificate and its key, both PEM"})
		} else {
			out = append(out, Finding{Item: "tls_cert", Text: "the leaf port's certificate and key are read"})
		}
	}
	return out
}

// hallPreflight links to the hub as the hall will, and compares the
// rosters.
func hallPreflight(ctx context.Context, c Config, own []Tournament, timeout time.Duration) []Finding {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	nc, mistakes, closeLink, err := preflightLink(c)
	if err != nil {
		return []Finding{{Item: "hub_url", Level: LevelError, Text: err.Error(), Advice: "check the hub's address and that it runs"}}
	}
	defer closeLink()
	var out []Finding
	hub, err := jetstream.NewWithDomain(nc, HubDomain)
	var entries []jetstream.KeyValueEntry
	for err == nil {
		if kv, kerr := hub.KeyValue(ctx, RosterBucket); kerr == nil {
			if e, rerr := readAll(ctx, kv); rerr == nil && complete(e) {
				entries = e
				break
			}
		}
		if len(mistakes()) > 0 {
			err = errors.New("the link is refused")
			break
		}
		select {
		case <-ctx.Done():
			err = ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
	if err != nil {
		for _, m := range mistakes() {
			out = append(out, Finding{Item: "hub_url", Level: LevelError, Text: m.Text})
		}
		if len(out) == 0 {
			out = append(out, Finding{Item: "hub_url", Level: LevelError, Text: "the hub does not answer: " + err.Error(),
				Advice: "is the hub running, and does hub_url name its leaf port with this hall's name and password?"})
		}
		return out
	}
	out = append(out, Finding{Item: "hub_url", Text: "linked to the hub with this hall's name and password"})
	if w, err := preflightHello(ctx, nc, c.Hall); err != nil {
		out = append(out, Finding{Item: "hall", Level: LevelWarning, Text: "the hub does not answer hellos: " + err.Error(),
			Advice: "is the hub's daemon running (not only its NATS server)?"})
	} else if !w.Known {
		out = append(out, Finding{Item: "hall", Level: LevelError, Text: fmt.Sprintf("the hub does not know hall %q", c.Hall),
			Advice: "give the hall one of the names of the hub's federation.halls"})
	}
	return append(out, compareRosters(own, entries)...)
}

// compareRosters compares the hall's tournaments with the hub's roster,
// a finding a tournament.
func compareRosters(own []Tournament, entries []jetstream.KeyValueEntry) []Finding {
	var out []Finding
	hubIDs := map[uint64]bool{}
	for _, e := range entries {
		re, err := DecodeRosterEntry(e.Key(), e.Value())
		if err != nil || re.Players == nil {
			continue
		}
		r := *re.Players
		hubIDs[r.TournamentID] = true
		var t *Tournament
		for i := range own {
			if own[i].ID == r.TournamentID {
				t = &own[i]
			}
		}
		item := fmt.Sprintf("tournament %d", r.TournamentID)
		switch m := compareRoster(t, r); {
		case m.Text == "":
			out = append(out, Finding{Item: item, Text: fmt.Sprintf("%q: the hub's, with the same %d players in the same order", r.Tournament, len(t.Players))})
		case m.Warning:
			out = append(out, Finding{Item: item, Level: LevelWarning, Text: m.Text})
		default:
			out = append(out, Finding{Item: item, Level: LevelError, Text: m.Text})
		}
	}
	for _, t := range own {
		if !hubIDs[t.ID] {
			out = append(out, Finding{Item: fmt.Sprintf("tournament %d", t.ID), Level: LevelError,
				Text: fmt.Sprintf("this hall's tournament %q is not at the hub", t.Name), Advice: "give the hall the event's configuration"})
		}
	}
	return out
}

// preflightHello says hello to the hub as a preflight.
func preflightHello(ctx context.Context, nc *nats.Conn, hall string) (Welcome, error) {
	host, _ := os.Hostname()
	data, err := json.Marshal(Hello{Hall: hall, Instance: ViaPreflight, Host: host, Started: time.Now(), Via: ViaPreflight})
	if err != nil {
		return Welcome{}, err
	}
	rctx, cancel := context.WithTimeout(ctx, HelloEvery)
	defer cancel()
	reply, err := nc.RequestWithContext(rctx, LinkSubject(hall), data)
	if err != nil {
		return Welcome{}, err
	}
	var w Welcome
	return w, json.Unmarshal(reply.Data, &w)
}

// preflightLink links to the hub as the hall will: through a NATS server
// of its own for the check (named apart from the hall's, which may run),
// linked by hub_url; or through the hall's own server at url. It returns
// a client connection, the mistakes the check's server logged so far, and
// how to close it all.
func preflightLink(c Config) (*nats.Conn, func() []Mistake, func(), error) {
	if c.URL != "" {
		var opts []nats.Option
		if c.TLSCA != "" {
			opts = append(opts, nats.RootCAs(c.TLSCA))
		}
		nc, err := nats.Connect(c.URL, opts...)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("the hall's NATS server (url): %w", err)
		}
		return nc, func() []Mistake { return nil }, nc.Close, nil
	}
	var mu sync.Mutex
	seenMistakes := map[string]Mistake{}
	watch := func(level slog.Level, line string) {
		if m := hallMistake(c.Hall, level, line); m.Key != "" {
			mu.Lock()
			seenMistakes[m.Key] = m
			mu.Unlock()
		}
	}
	leafTLS, err := hallTLS(c.TLSCA)
	if err != nil {
		return nil, nil, nil, err
	}
	srv, err := StartServer(ServerConfig{Name: c.Hall + "-preflight", Listen: "127.0.0.1:0", NoJetStream: true,
		LeafRemotes: []string{c.HubURL}, LeafTLS: leafTLS, Watch: watch})
	if err != nil {
		return nil, nil, nil, err
	}
	stop := func() {
		srv.Shutdown()
		srv.WaitForShutdown()
	}
	nc, err := nats.Connect(srv.ClientURL())
	if err != nil {
		stop()
		return nil, nil, nil, err
	}
	mistakes := func() []Mistake {
		mu.Lock()
		defer mu.Unlock()
		var out []Mistake
		for _, m := range seenMistakes {
			out = append(out, m)
		}
		return sortMistakes(out)
	}
	return nc, mistakes, func() { nc.Close(); stop() }, nil
}

// FindingsText writes findings one a line, for a test or a log.
func FindingsText(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		level := [...]string{"ok", "warning", "error"}[f.Level]
		fmt.Fprintf(&b, "%s %s: %s", level, f.Item, f.Text)
		if f.Advice != "" {
			fmt.Fprintf(&b, " (%s)", f.Advice)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
