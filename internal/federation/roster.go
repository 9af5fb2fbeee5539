package federation

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arbiter/store"
)

// RosterBucket is the JetStream key-value bucket through which the hub
// hands the halls what its arbiters decide about the players and the
// rounds: late entries, withdrawals, requested byes, the end of a
// tournament, and the result of every board (the halls' results as the
// hub holds them, and those its arbiters set: forfeits, corrections). Like
// the pairings bucket it has one writer, the hub, and each hall reads a
// mirror of it in its own JetStream domain; the hub writes each key only
// over the revision it last read or wrote.
const RosterBucket = "ARBITER_ROSTER"

// PlayersKey is the key of a tournament's players in the roster bucket:
// t<tournament>.players.
func PlayersKey(tournament uint64) string { return fmt.Sprintf("t%d.players", tournament) }

// ResultsKey is the key of a round's results in the roster bucket:
// t<tournament>.r<round>.results.
func ResultsKey(tournament uint64, round int) string {
	return fmt.Sprintf("t%d.r%d.results", tournament, round)
}

// Tournament is one of a daemon's tournaments as its own configuration
// gives it, to be compared with what the hub keeps.
type Tournament struct {
	// ID is the tournament's ID in the daemon's store.
	ID     uint64
	Name   string
	Game   string
	System string
	// Players are the players' names, start number 1 first.
	Players []string
}

// Roster is the value of a tournament's players key: every player as the
// hub has them (start numbers from 1, in order), and the round after which
// the hub's arbiter ended the tournament (0: it plays all its rounds).
type Roster struct {
	TournamentID uint64 `json:"tournamentId"`
	// Tournament, Game and System are the tournament's name, game and
	// pairing system: a hall checks that its tournament of this ID is the
	// same.
	Tournament string `json:"tournament"`
	Game       string `json:"game,omitempty"`
	System     string `json:"system,omitempty"`
	// Tournaments is how many tournaments the hub has.
	Tournaments int            `json:"tournaments,omitempty"`
	EndedAfter  int            `json:"endedAfter,omitempty"`
	Players     []store.Player `json:"players"`
}

// RoundResults is the value of a round's results key: the result of each
// board of the round that has one on the hub.
type RoundResults struct {
	TournamentID uint64        `json:"tournamentId"`
	Tournament   string        `json:"tournament"` // its name, for the logs
	Round        int           `json:"round"`
	Boards       []BoardResult `json:"boards"`
}

// BoardResult is the result of one board as the hub stored it on its
// pairing ("1-0", "+/-", "bye", "H"…), with its game's result and reason
// if it has a game.
type BoardResult struct {
	Board      int    `json:"board"`
	Result     string `json:"result"`
	GameResult string `json:"gameResult,omitempty"`
	Reason     string `json:"reason,omitempty"`
	// Hall is the hall whose game the board's is ("" if the hub's own:
	// its arbiter set the result).
	Hall string `json:"hall,omitempty"`
}

// RosterEntry is one decoded value of the roster bucket: Players or
// Results.
type RosterEntry struct {
	Players *Roster
	Results *RoundResults
}

// DecodeRosterEntry reads a value of the roster bucket and checks that it
// is what its key names: a tournament's players numbered 1 to n, or a
// round's results with each board once.
func DecodeRosterEntry(key string, data []byte) (RosterEntry, error) {
	var e RosterEntry
	tid, round, ok := parseRosterKey(key)
	if !ok {
		return e, fmt.Errorf("roster %s: not a key of the roster bucket (t<n>.players or t<n>.r<n>.results)", key)
	}
	if round == 0 {
		var r Roster
		if err := json.Unmarshal(data, &r); err != nil {
			return e, fmt.Errorf("roster %s: %w", key, err)
		}
		if r.TournamentID != tid {
			return e, fmt.Errorf("roster %s: holds the players of tournament %d", key, r.TournamentID)
		}
		for i, p := range r.Players {
			if p.ID != i+1 || p.TournamentID != tid || strings.TrimSpace(p.Name) == "" {
				return e, fmt.Errorf("roster %s: entry %d is player %d %q of tournament %d: want player %d of tournament %d, named",
					key, i+1, p.ID, p.Name, p.TournamentID, i+1, tid)
			}
		}
		if r.EndedAfter < 0 {
			return e, fmt.Errorf("roster %s: ended after round %d", key, r.EndedAfter)
		}
		e.Players = &r
		return e, nil
	}
	var r RoundResults
	if err := json.Unmarshal(data, &r); err != nil {
		return e, fmt.Errorf("roster %s: %w", key, err)
	}
	if r.TournamentID != tid || r.Round != round {
		return e, fmt.Errorf("roster %s: holds the results of round %d of tournament %d", key, r.Round, r.TournamentID)
	}
	seen := map[int]bool{}
	for _, b := range r.Boards {
		if b.Board < 1 || seen[b.Board] || b.Result == "" {
			return e, fmt.Errorf("roster %s: board %d (%q) is not a board of its own with a result", key, b.Board, b.Result)
		}
		seen[b.Board] = true
	}
	e.Results = &r
	return e, nil
}

// parseRosterKey reads a roster key: its tournament and round (0 for the
// players key).
func parseRosterKey(key string) (tournament uint64, round int, ok bool) {
	parts := strings.Split(key, ".")
	if len(parts) < 2 || len(parts) > 3 || !strings.HasPrefix(parts[0], "t") {
		return 0, 0, false
	}
	tid, err := strconv.ParseUint(parts[0][1:], 10, 64)
	if err != nil || tid == 0 {
		return 0, 0, false
	}
	if len(parts) == 2 {
		return tid, 0, parts[1] == "players" && PlayersKey(tid) == key
	}
	if parts[2] != "results" || !strings.HasPrefix(parts[1], "r") {
		return 0, 0, false
	}
	r, err := strconv.Atoi(parts[1][1:])
	if err != nil || r < 1 || ResultsKey(tid, r) != key {
		return 0, 0, false
	}
	return tid, r, true
}

// EnsureRoster creates (or opens) the hub's roster bucket.
func EnsureRoster(ctx context.Context, js jetstream.JetStream) (jetstream.KeyValue, error) {
	return ensureHubBucket(ctx, js, RosterBucket, "roster", "players and results kept by the hub; written by the hub only")
}

// MirrorRoster creates (or opens) hall's read-only mirror of the hub's
// roster bucket, which lives in JetStream domain hubDomain; the mirror is
// delivered on the hall's own subjects (DeliverPrefix).
func MirrorRoster(ctx context.Context, js jetstream.JetStream, hall, hubDomain string) (jetstream.KeyValue, error) {
	return mirrorHubBucket(ctx, js, hall, hubDomain, RosterBucket, "roster", "mirror of the hub's players and results")
}

// ErrRosterChanged is returned when a key of the roster bucket was written
// by someone other than the hub since the hub last read or wrote it.
var ErrRosterChanged = errors.New("the roster bucket was written by someone other than the hub")

// RosterWriter is the hub's writer of the roster bucket: it writes every
// tournament's players and every round's results of the hub's store that
// changed, at start, after each Notify and every Poll.
type RosterWriter struct {
	DB  *store.DB
	KV  jetstream.KeyValue
	Log *slog.Logger
	// Poll is how often Run looks at the store without a Notify (0: 5s).
	Poll time.Duration

	wake wake
	mu   sync.Mutex         // one Publish at a time
	last map[string]written // what the hub wrote (or found) last, by key
}

// written is a value of the roster bucket at its revision.
type written struct {
	rev  uint64
	data []byte
}

// Notify tells a running RosterWriter that players or results changed.
// It never blocks.
func (w *RosterWriter) Notify() { w.wake.notify() }

// Run writes the roster until ctx ends. A key that cannot be written is
// logged and tried again; one written by someone else raises an alert once
// and is written over (the hub keeps the roster).
func (w *RosterWriter) Run(ctx context.Context) error {
	return bucketWriter{db: w.DB, log: w.Log, poll: w.Poll, what: "roster", bucket: RosterBucket,
		changed: ErrRosterChanged, wake: &w.wake, publish: w.Publish,
		advice: "someone other than the hub wrote the roster: check the halls' credentials; the hub writes it again",
	}.run(ctx)
}

// Publish writes the players and results of every tournament of the store
// that are not in the bucket as they are.
func (w *RosterWriter) Publish(ctx context.Context) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.last == nil {
		w.last = map[string]written{}
	}
	ts, err := w.DB.Tournaments()
	if err != nil {
		return fmt.Errorf("federation roster: %w", err)
	}
	halls, err := w.DB.HallGames()
	if err != nil {
		return fmt.Errorf("federation roster: %w", err)
	}
	var errs []error
	for _, t := range ts {
		players, err := w.DB.Players(t.ID)
		if err != nil {
			return fmt.Errorf("federation roster: %w", err)
		}
		r := Roster{TournamentID: t.ID, Tournament: t.Name, Game: t.Game, System: t.System, Tournaments: len(ts),
			EndedAfter: t.EndedAfter, Players: players}
		if err := w.put(ctx, PlayersKey(t.ID), r); err != nil {
			errs = append(errs, err)
		}
		rounds, err := w.DB.Rounds(t.ID)
		if err != nil {
			return fmt.Errorf("federation roster: %w", err)
		}
		for _, r := range rounds {
			rr, err := w.results(t, r, halls)
			if err != nil {
				return err
			}
			if err := w.put(ctx, ResultsKey(t.ID, r.Number), rr); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// results are the results of round r of t as the hub's store has them;
// halls names the hall of each game a hall played.
func (w *RosterWriter) results(t store.Tournament, r store.Round, halls map[uint64]string) (RoundResults, error) {
	rr := RoundResults{TournamentID: t.ID, Tournament: t.Name, Round: r.Number, Boards: []BoardResult{}}
	for _, p := range r.Pairings {
		if p.Result == "" {
			continue
		}
		b := BoardResult{Board: p.Board, Result: p.Result}
		if p.GameID != 0 {
			g, err := w.DB.Game(p.GameID)
			if err != nil {
				return rr, fmt.Errorf("federation roster: round %d of %s board %d: %w", r.Number, t.Name, p.Board, err)
			}
			b.GameResult, b.Reason, b.Hall = g.Result, g.Reason, halls[p.GameID]
		}
		rr.Boards = append(rr.Boards, b)
	}
	slices.SortFunc(rr.Boards, func(a, b BoardResult) int { return cmp.Compare(a.Board, b.Board) })
	return rr, nil
}

// put writes v at key unless the bucket holds it already: over the
// revision the hub last read or wrote, or as a new key.
func (w *RosterWriter) put(ctx context.Context, key string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("roster %s: %w", key, err)
	}
	last, known := w.last[key]
	if known && bytes.Equal(last.data, data) {
		return nil
	}
	if !known {
		e, err := w.KV.Get(ctx, key)
		switch {
		case errors.Is(err, jetstream.ErrKeyNotFound):
		case err != nil:
			return fmt.Errorf("roster %s: %w", key, err)
		default:
			last = written{rev: e.Revision(), data: e.Value()}
			w.last[key] = last
			if bytes.Equal(last.data, data) {
				return nil
			}
		}
	}
	var rev uint64
	if last.rev == 0 {
		rev, err = w.KV.Create(ctx, key, data)
	} else {
		rev, err = w.KV.Update(ctx, key, data, last.rev)
	}
	if err != nil {
		delete(w.last, key) // read it again next time
		if errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			return fmt.Errorf("roster %s: not at revision %d: %w", key, last.rev, ErrRosterChanged)
		}
		return fmt.Errorf("roster %s: %w", key, err)
	}
	w.last[key] = written{rev: rev, data: data}
	return nil
}

// RosterDelivered reports whether the mirror of the roster bucket in each
// hall's JetStream domain (Hall.Domain) that is linked to the hub holds
// the hub's last value: a mirror keeps its origin's sequence numbers. A
// hall that is not linked (no responders: its daemon ended, or its link is
// down) is left out: nothing reaches it now anyway. A linked hall that
// does not answer within a second has not.
func RosterDelivered(ctx context.Context, js jetstream.JetStream, halls []Hall) (bool, error) {
	stream := "KV_" + RosterBucket
	s, err := js.Stream(ctx, stream)
	if err != nil {
		return false, fmt.Errorf("roster bucket: %w", err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return false, fmt.Errorf("roster bucket: %w", err)
	}
	for _, h := range halls {
		hall, err := jetstream.NewWithDomain(js.Conn(), h.Domain)
		if err != nil {
			return false, fmt.Errorf("hall %s: %w", h.Name, err)
		}
		hctx, cancel := context.WithTimeout(ctx, time.Second)
		ms, err := hall.Stream(hctx, stream)
		var mi *jetstream.StreamInfo
		if err == nil {
			mi, err = ms.Info(hctx)
		}
		cancel()
		if errors.Is(err, nats.ErrNoResponders) {
			continue
		}
		if err != nil || mi.State.LastSeq < info.State.LastSeq {
			return false, nil
		}
	}
	return true, nil
}

// RosterFollower is a hall's reader of the roster: the latest value of
// each key is given to ApplyPlayers or ApplyResults, a tournament's
// players before its results and rounds in order. A value refused is
// tried again every second (its round may not have reached the hall yet);
// a newer value of its key replaces it.
type RosterFollower struct {
	KV           jetstream.KeyValue
	ApplyPlayers func(context.Context, Roster) error
	ApplyResults func(context.Context, RoundResults) error
	Log          *slog.Logger

	failing map[string]time.Time // key -> since when its value is refused
}

// WarnAfter is how long a roster value may wait for what it follows (a
// round's results for the round, from the pairings bucket) before the
// wait is logged as a warning.
const WarnAfter = 10 * time.Second

// Run follows the bucket until ctx ends.
func (f *RosterFollower) Run(ctx context.Context) error {
	if f.Log == nil {
		f.Log = slog.Default()
	}
	w, err := f.KV.WatchAll(ctx)
	if err != nil {
		return fmt.Errorf("federation roster: watch: %w", err)
	}
	defer func() { _ = w.Stop() }()
	pending := map[string]jetstream.KeyValueEntry{}
	retry := time.NewTicker(time.Second)
	defer retry.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e, ok := <-w.Updates():
			if !ok {
				return errors.New("federation roster: the watch ended")
			}
			take(pending, e)
			// Take in what else is there first: the latest of each key.
			for more := true; more; {
				select {
				case e, ok := <-w.Updates():
					more = ok
					take(pending, e)
				default:
					more = false
				}
			}
		case <-retry.C:
		}
		f.apply(ctx, pending)
	}
}

// take keeps e, a value put, as its key's latest.
func take(pending map[string]jetstream.KeyValueEntry, e jetstream.KeyValueEntry) {
	if e != nil && e.Operation() == jetstream.KeyValuePut {
		pending[e.Key()] = e
	}
}

// apply applies the pending values in order and removes from pending
// those applied or refused for good.
func (f *RosterFollower) apply(ctx context.Context, pending map[string]jetstream.KeyValueEntry) {
	type item struct {
		e          jetstream.KeyValueEntry
		tid        uint64
		round      int
		rosterItem RosterEntry
	}
	var items []item
	for key, e := range pending {
		re, err := DecodeRosterEntry(key, e.Value())
		if err != nil {
			f.Log.Error("federation roster: value refused", "key", key, "revision", e.Revision(), "err", err)
			delete(pending, key)
			continue
		}
		tid, round, _ := parseRosterKey(key)
		items = append(items, item{e, tid, round, re})
	}
	slices.SortFunc(items, func(a, b item) int {
		return cmp.Or(cmp.Compare(a.tid, b.tid), cmp.Compare(a.round, b.round))
	})
	for _, it := range items {
		var err error
		if p := it.rosterItem.Players; p != nil {
			err = f.ApplyPlayers(ctx, *p)
		} else {
			err = f.ApplyResults(ctx, *it.rosterItem.Results)
		}
		if err != nil {
			if f.failing == nil {
				f.failing = map[string]time.Time{}
			}
			since, ok := f.failing[it.e.Key()]
			if !ok {
				since = time.Now()
				f.failing[it.e.Key()] = since
			}
			log := f.Log.Debug
			if time.Since(since) > WarnAfter {
				log = f.Log.Warn
			}
			log("federation roster: not applied yet", "key", it.e.Key(), "revision", it.e.Revision(), "waiting", time.Since(since).Round(time.Second), "err", err)
			continue
		}
		delete(f.failing, it.e.Key())
		f.Log.Debug("federation roster: applied", "key", it.e.Key(), "revision", it.e.Revision())
		delete(pending, it.e.Key())
	}
}
