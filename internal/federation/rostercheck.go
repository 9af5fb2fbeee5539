package federation

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"arbiter/store"
)

// The roster is the hub's: a hall takes each tournament's players from
// the hub by their start numbers there, and plays a round only once it
// has them. What its own configuration says is compared with the hub's
// when the hub's roster arrives, and a difference is told on both sides
// (an alert in the hall; the hall's hellos tell the hub, which raises its
// own):
//
//   - players in another order, spelt otherwise, or fewer of them (the
//     hub's late entries): the hall takes the hub's list. The hub pairs by
//     its start numbers, so only its list seats the right players at the
//     boards it paired; stopping the hall for a copy of the file that
//     differs would leave its boards idle while the hub's round runs.
//   - a tournament the hub has under another name, game or system, or not
//     at all, or more players in the hall's file than at the hub: the hall
//     refuses the tournament's rounds. A hall whose tournaments are not
//     the hub's has the wrong file; taking the hub's would put its boards
//     in another tournament or game. At start, when the hub answers, the
//     hall does not start at all (ErrRefused, exit 3).

// ErrRefused is the error of a hall whose configuration the hub's roster
// refuses: its tournaments are not the hub's.
var ErrRefused = errors.New("this hall's tournaments are not the hub's")

// ErrWaiting wraps the refusal of a round a hall cannot play yet (the
// hub's players have not reached it) or at all (its tournament is
// refused): it is retried quietly.
var ErrWaiting = errors.New("waiting")

// StartCheck bounds how long a hall waits at start for the hub's roster,
// to compare it with its own configuration before it plays; a hub that
// does not answer by then is compared with when it does.
const StartCheck = 10 * time.Second

// sameName is the form in which two player names are the same: case and
// runs of blanks do not tell players apart.
func sameName(name string) string {
	return strings.ToLower(strings.Join(strings.Fields(name), " "))
}

// compareRoster compares a hall's tournament t (nil: the hall has none
// with the hub's ID) with the hub's roster r. It returns the mistake
// (Key "": none): a tournament that is not the hub's, or players the
// hall would have to drop, refuse it; players otherwise listed are a
// warning (the hall takes the hub's).
func compareRoster(t *Tournament, r Roster) Mistake {
	key := fmt.Sprintf("roster:t%d", r.TournamentID)
	hub := fmt.Sprintf("%q (%s, %s)", r.Tournament, r.Game, r.System)
	if t == nil {
		return Mistake{Key: key, Text: fmt.Sprintf("the hub's tournament %d, %s, is not in this hall's configuration: this hall refuses its rounds; give the hall the event's configuration", r.TournamentID, hub)}
	}
	if t.Name != r.Tournament || t.Game != r.Game || t.System != r.System {
		return Mistake{Key: key, Text: fmt.Sprintf("tournament %d is %s at the hub but %q (%s, %s) in this hall's configuration: this hall refuses its rounds; give the hall the event's configuration (the same tournaments in the same order)",
			r.TournamentID, hub, t.Name, t.Game, t.System)}
	}
	if len(t.Players) > len(r.Players) {
		return Mistake{Key: key, Text: fmt.Sprintf("this hall's configuration lists %d players of %q, the hub %d: the hall cannot drop players, so it refuses the tournament's rounds; give it the hub's list and start it on a new database",
			len(t.Players), t.Name, len(r.Players))}
	}
	var diffs []string
	for i, name := range t.Players {
		if hubName := r.Players[i].Name; sameName(hubName) != sameName(name) {
			diffs = append(diffs, fmt.Sprintf("player %d is %s at the hub, %s here", i+1, hubName, name))
		}
	}
	if len(diffs) == 0 {
		return Mistake{}
	}
	const shown = 3
	if len(diffs) > shown {
		diffs = append(diffs[:shown], fmt.Sprintf("and %d more", len(diffs)-shown))
	}
	return Mistake{Key: key, Warning: true, Text: fmt.Sprintf("the players of %q differ from this hall's configuration (%s): this hall takes the hub's list, by which the hub pairs; correct the hall's file",
		t.Name, strings.Join(diffs, "; "))}
}

// rosterGuard stands between a hall's followers and its director: it
// compares each tournament's roster from the hub with the hall's own,
// passes the hub's players on unless the tournament is refused, and lets
// a round through only once its tournament's players are the hub's.
type rosterGuard struct {
	own  []Tournament
	link *hallLink

	mu      sync.Mutex
	taken   map[uint64]bool   // tournaments whose hub players the hall has
	refused map[uint64]string // tournaments refused, and why
}

func newRosterGuard(own []Tournament, link *hallLink) *rosterGuard {
	return &rosterGuard{own: own, link: link, taken: map[uint64]bool{}, refused: map[uint64]string{}}
}

// tournament is the hall's tournament of the hub's ID, nil if none.
func (g *rosterGuard) tournament(id uint64) *Tournament {
	for i := range g.own {
		if g.own[i].ID == id {
			return &g.own[i]
		}
	}
	return nil
}

// check compares the hub's roster of a tournament with the hall's own and
// records the outcome; it reports whether the tournament is refused.
func (g *rosterGuard) check(r Roster) bool {
	m := compareRoster(g.tournament(r.TournamentID), r)
	if m.Key == "" {
		m.Key = fmt.Sprintf("roster:t%d", r.TournamentID)
	}
	g.link.setOwn(m)
	g.mu.Lock()
	defer g.mu.Unlock()
	if m.Text != "" && !m.Warning {
		g.refused[r.TournamentID] = m.Text
		return true
	}
	delete(g.refused, r.TournamentID)
	return false
}

// players wraps a hall's ApplyPlayers: a refused tournament's players are
// not taken (nor tried again: the hall's file must change).
func (g *rosterGuard) players(apply func(context.Context, Roster) error) func(context.Context, Roster) error {
	return func(ctx context.Context, r Roster) error {
		if g.check(r) {
			return nil
		}
		if err := apply(ctx, r); err != nil {
			return err
		}
		g.mu.Lock()
		g.taken[r.TournamentID] = true
		g.mu.Unlock()
		return nil
	}
}

// round wraps a hall's ApplyRound: a round waits for its tournament's
// players from the hub, and a refused tournament's rounds are left alone
// (the hall's alert says why; the hall takes them once started with the
// event's configuration), so that the other tournaments' go on.
func (g *rosterGuard) round(apply func(context.Context, store.Round) (bool, error)) func(context.Context, store.Round) (bool, error) {
	return func(ctx context.Context, r store.Round) (bool, error) {
		g.mu.Lock()
		why, refused := g.refused[r.TournamentID]
		taken := g.taken[r.TournamentID]
		g.mu.Unlock()
		switch {
		case refused:
			g.link.n.o.Log.Debug("federation pairings: round of a refused tournament left alone", "tournament", r.TournamentID, "round", r.Number, "why", why)
			return false, nil
		case !taken:
			return false, fmt.Errorf("round %d of tournament %d: the hub's players have not reached this hall yet: %w", r.Number, r.TournamentID, ErrWaiting)
		}
		return apply(ctx, r)
	}
}

// startCheck compares, at a hall's start, the hub's roster with the
// hall's configuration: read from the hub itself if it answers within
// StartCheck, else from the hall's mirror of it (empty on a first start
// cut off from the hub: the followers compare as the roster comes). A
// refused tournament is told to the hub at once, and the hall does not
// start (ErrRefused).
func (g *rosterGuard) startCheck(ctx context.Context, hub jetstream.JetStream, mirror jetstream.KeyValue) error {
	entries, fromHub := g.readHub(ctx, hub)
	if !fromHub {
		var err error
		if entries, err = readAll(ctx, mirror); err != nil {
			return fmt.Errorf("roster mirror: %w", err)
		}
	}
	hubIDs := map[uint64]bool{}
	var refused []string
	for _, e := range entries {
		re, err := DecodeRosterEntry(e.Key(), e.Value())
		if err != nil || re.Players == nil {
			continue
		}
		hubIDs[re.Players.TournamentID] = true
		if g.check(*re.Players) {
			refused = append(refused, g.refused[re.Players.TournamentID])
		}
	}
	if fromHub {
		for _, t := range g.own {
			if !hubIDs[t.ID] {
				m := Mistake{Key: fmt.Sprintf("roster:own-t%d", t.ID), Text: fmt.Sprintf("this hall's tournament %d, %q, is not at the hub: give the hall the event's configuration", t.ID, t.Name)}
				g.link.setOwn(m)
				refused = append(refused, m.Text)
			}
		}
	}
	if len(refused) == 0 {
		return nil
	}
	// Tell the hub, and raise the hall's alert, before stopping.
	g.link.hello(ctx)
	g.link.raise()
	return fmt.Errorf("%w: %s", ErrRefused, strings.Join(refused, "; "))
}

// complete reports whether entries hold the players of each of the hub's
// tournaments (the hub writes them one by one at its start).
func complete(entries []jetstream.KeyValueEntry) bool {
	ids := map[uint64]bool{}
	want := 0
	for _, e := range entries {
		if re, err := DecodeRosterEntry(e.Key(), e.Value()); err == nil && re.Players != nil {
			ids[re.Players.TournamentID] = true
			want = max(want, re.Players.Tournaments)
		}
	}
	return len(ids) > 0 && len(ids) >= want
}

// readHub reads the hub's roster bucket through the leaf link, trying
// until it answers or StartCheck passes; it reports whether it could.
func (g *rosterGuard) readHub(ctx context.Context, hub jetstream.JetStream) ([]jetstream.KeyValueEntry, bool) {
	ctx, cancel := context.WithTimeout(ctx, StartCheck)
	defer cancel()
	for {
		if kv, err := hub.KeyValue(ctx, RosterBucket); err == nil {
			if entries, err := readAll(ctx, kv); err == nil && complete(entries) {
				return entries, true
			}
		}
		select {
		case <-ctx.Done():
			return nil, false
		case <-time.After(250 * time.Millisecond):
		}
	}
}
