package federation

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arbiter/store"
)

// A hub keeps the event in its database, and in its NATS store the
// pairings it published, the roster it keeps and every hall's facts. When
// the database is lost, everything is still in the store: started with
// Rebuild, the hub takes its rounds back from its pairings bucket, its
// players and its arbiters' results from its roster bucket, and every
// hall's facts again from its stream, with a new consumer. When its NATS
// store is lost too, the halls still have everything: each keeps a
// mirror of the two buckets and its own stream; the hub makes its buckets
// again from a hall's mirrors (keeping their sequences, by which the
// halls' mirrors go on) and sources the halls' streams from their start.

// ErrRebuild refuses to start a hub whose database and NATS store do not
// go together (one lost): it must be started with Rebuild.
var ErrRebuild = errors.New("the hub's database and its NATS store do not go together")

// RebuildWait bounds how long a hub whose NATS store was lost waits for a
// hall to link, from whose mirrors it makes its buckets again.
const RebuildWait = 2 * time.Minute

// HubDurable is the name of the hub inbox's consumer of the hub stream. A
// rebuild deletes it, so that it is made again from the stream's start.
const HubDurable = "arbiter-hub"

// hubState is what a hub's database and NATS store hold of the event.
type hubState struct {
	rounds    int  // rounds in the database
	games     int  // games of the halls in the database
	bucket    bool // the pairings bucket exists
	published int  // rounds in the pairings bucket
}

// readHubState reads what the hub's database and NATS store hold.
func readHubState(ctx context.Context, js jetstream.JetStream, db *store.DB) (hubState, error) {
	var s hubState
	ts, err := db.Tournaments()
	if err != nil {
		return s, err
	}
	for _, t := range ts {
		rs, err := db.Rounds(t.ID)
		if err != nil {
			return s, err
		}
		s.rounds += len(rs)
	}
	games, err := db.HallGames()
	if err != nil {
		return s, err
	}
	s.games = len(games)
	kv, err := js.KeyValue(ctx, PairingsBucket)
	switch {
	case errors.Is(err, jetstream.ErrBucketNotFound):
		return s, nil
	case err != nil:
		return s, fmt.Errorf("pairings bucket: %w", err)
	}
	s.bucket = true
	st, err := kv.Status(ctx)
	if err != nil {
		return s, fmt.Errorf("pairings bucket: %w", err)
	}
	s.published = int(st.Values())
	return s, nil
}

// checkHubState refuses a hub whose database lost what its NATS store
// holds (rounds published), or whose NATS store lost what its database
// holds (the halls' games it sourced), unless it rebuilds.
func checkHubState(s hubState, rebuild bool) error {
	switch {
	case rebuild:
		return nil
	case s.rounds == 0 && s.published > 0:
		return fmt.Errorf("%w: the database has no round, but the NATS store (federation.store_dir) holds %d rounds the hub published: the database was lost. Start the hub with --rebuild to rebuild it from the store and the halls' streams, or give a new store_dir for a new event", ErrRebuild, s.published)
	case s.games > 0 && !s.bucket:
		return fmt.Errorf("%w: the database has %d rounds and %d games of the halls, but the NATS store (federation.store_dir) is new: it was lost. Start the hub with --rebuild to take the pairings and the roster back from the halls' mirrors and their facts from their streams", ErrRebuild, s.rounds, s.games)
	}
	return nil
}

// rebuild is a hub's rebuild: what it restored, for its report.
type rebuild struct {
	n       *Node
	started time.Time
	from    string // the hall whose mirrors gave the buckets back, if any
	rounds  int
	players int
	// results are the rounds' results as the roster bucket kept them
	// before the rebuild, set again once the halls' facts are in.
	results []RoundResults
	notes   []string
}

// restoreBuckets makes the hub's pairings and roster buckets again from
// the mirrors of a hall that answers (the one whose pairings mirror is the
// furthest), waiting up to RebuildWait: each is made a mirror of the
// hall's, which keeps the sequences the halls' mirrors go by, and once it
// has all of it, the hub's own bucket.
func (rb *rebuild) restoreBuckets(ctx context.Context) error {
	n := rb.n
	ctx, cancel := context.WithTimeout(ctx, RebuildWait)
	defer cancel()
	var hall string
	for hall == "" {
		var best uint64
		for _, h := range n.o.Halls {
			if seq, ok := mirrorLast(ctx, n.nc, h, PairingsBucket); ok && (hall == "" || seq > best) {
				hall, best = h, seq
			}
		}
		if hall != "" {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("no hall answered within %v: start the halls (they keep the pairings and the roster the hub lost)", RebuildWait)
		case <-time.After(time.Second):
		}
	}
	for _, b := range []struct{ bucket, what, description string }{
		{PairingsBucket, "pairings", "rounds paired by the hub; written by the hub only"},
		{RosterBucket, "roster", "players and results kept by the hub; written by the hub only"},
	} {
		if err := restoreBucket(ctx, n.js, hall, b.bucket, b.what, b.description); err != nil {
			return err
		}
	}
	rb.from = hall
	n.o.Log.Info("federation rebuild: the pairings and roster buckets taken back from a hall's mirrors", "hall", hall)
	return nil
}

// mirrorLast is the last sequence of hall's mirror of bucket, and whether
// the hall answered.
func mirrorLast(ctx context.Context, nc *nats.Conn, hall, bucket string) (uint64, bool) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	hjs, err := jetstream.NewWithDomain(nc, hall)
	if err != nil {
		return 0, false
	}
	s, err := hjs.Stream(ctx, "KV_"+bucket)
	if err != nil {
		return 0, false
	}
	info, err := s.Info(ctx)
	if err != nil {
		return 0, false
	}
	return info.State.LastSeq, true
}

// restoreBucket makes the hub's bucket again as a mirror of hall's mirror
// of it, waits until it has everything, and makes it the hub's own.
func restoreBucket(ctx context.Context, js jetstream.JetStream, hall, bucket, what, description string) error {
	src := &jetstream.StreamSource{Name: bucket, External: &jetstream.ExternalStream{
		APIPrefix: "$JS." + hall + ".API", DeliverPrefix: DeliverPrefix + "." + hall + ".restore-" + what}}
	if _, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: bucket, History: 5, Storage: jetstream.FileStorage,
		Description: description, Mirror: src}); err != nil {
		return fmt.Errorf("%s bucket from hall %s: %w", what, hall, err)
	}
	want, ok := mirrorLast(ctx, js.Conn(), hall, bucket)
	if !ok {
		return fmt.Errorf("%s bucket from hall %s: the hall does not answer", what, hall)
	}
	name := "KV_" + bucket
	for {
		s, err := js.Stream(ctx, name)
		if err != nil {
			return fmt.Errorf("%s bucket: %w", what, err)
		}
		info, err := s.Info(ctx)
		if err != nil {
			return fmt.Errorf("%s bucket: %w", what, err)
		}
		if info.State.LastSeq >= want {
			cfg := info.Config
			cfg.Mirror, cfg.MirrorDirect = nil, false
			cfg.Subjects = []string{"$KV." + bucket + ".>"}
			if _, err := js.UpdateStream(ctx, cfg); err != nil {
				return fmt.Errorf("%s bucket: make the mirror of hall %s the hub's own: %w", what, hall, err)
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s bucket from hall %s: has %d of %d: %w", what, hall, info.State.LastSeq, want, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// restoreStore puts back into the hub's database the rounds of its
// pairings bucket and the players of its roster bucket, each tournament's
// players first.
func (rb *rebuild) restoreStore(ctx context.Context, pairings, roster jetstream.KeyValue) error {
	o := rb.n.o
	rosterEntries, err := readAll(ctx, roster)
	if err != nil {
		return fmt.Errorf("roster bucket: %w", err)
	}
	for _, e := range rosterEntries {
		re, err := DecodeRosterEntry(e.Key(), e.Value())
		if err != nil {
			return err
		}
		if re.Results != nil {
			rb.results = append(rb.results, *re.Results)
			continue
		}
		changed, err := o.RestorePlayers(ctx, *re.Players)
		if err != nil {
			return fmt.Errorf("the players of %s: %w", re.Players.Tournament, err)
		}
		if changed {
			rb.players++
		}
	}
	entries, err := readAll(ctx, pairings)
	if err != nil {
		return fmt.Errorf("pairings bucket: %w", err)
	}
	rounds := make([]PairedRound, 0, len(entries))
	for _, e := range entries {
		pr, err := DecodeRound(e.Key(), e.Value())
		if err != nil {
			return err
		}
		rounds = append(rounds, pr)
	}
	slices.SortFunc(rounds, func(a, b PairedRound) int {
		if a.Round.TournamentID != b.Round.TournamentID {
			return int(a.Round.TournamentID) - int(b.Round.TournamentID)
		}
		return a.Round.Number - b.Round.Number
	})
	for _, pr := range rounds {
		applied, err := o.RestoreRound(ctx, pr.Round)
		if err != nil {
			return fmt.Errorf("round %d of %s: %w", pr.Round.Number, pr.Tournament, err)
		}
		if applied {
			rb.rounds++
		}
	}
	return nil
}

// forgetInbox deletes the inbox's consumer, so that the inbox reads the
// hub stream again from its start.
func forgetInbox(ctx context.Context, js jetstream.JetStream) error {
	err := js.DeleteConsumer(ctx, HubStream, HubDurable)
	if err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) && !errors.Is(err, jetstream.ErrStreamNotFound) {
		return fmt.Errorf("the inbox's consumer: %w", err)
	}
	return nil
}

// finish waits until the inbox has every fact each hall had when it
// first said hello after the rebuild began (halls that do not link
// within RebuildWait are named in the report: their facts come when they
// link), sets again the results the hub's arbiters set (as the roster
// bucket kept them), and reports what the rebuild did: in the log, to
// Rebuilt and in the audit log.
func (rb *rebuild) finish(ctx context.Context, links *hubLinks) {
	o := rb.n.o
	deadline := time.After(RebuildWait)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	targets := map[string]uint64{}
	var missing []string
wait:
	for {
		missing = missing[:0]
		for hall, st := range links.streams() {
			if _, ok := targets[hall]; !ok && st.linked {
				targets[hall] = st.stream
			}
			if target, ok := targets[hall]; !ok || st.taken < target {
				missing = append(missing, hall)
			}
		}
		if len(missing) == 0 {
			break
		}
		select {
		case <-ctx.Done():
			return
		case <-deadline:
			break wait
		case <-t.C:
		}
	}
	slices.Sort(missing)
	set, waiting := 0, 0
	for _, r := range rb.results {
		s, w, err := o.RestoreResults(ctx, r)
		set, waiting = set+s, waiting+w
		if err != nil {
			o.Log.Error("federation rebuild: results", "tournament", r.Tournament, "round", r.Round, "err", err)
			rb.notes = append(rb.notes, fmt.Sprintf("the results of %s round %d could not all be set again (%v)", r.Tournament, r.Round, err))
		}
	}
	summary, err := rb.summary(set, waiting, missing)
	if err != nil {
		o.Log.Error("federation rebuild: summary", "err", err)
		return
	}
	o.Log.Info("federation rebuild done", "summary", summary, "took", time.Since(rb.started).Round(time.Millisecond))
	if err := o.DB.AddAction(&store.Action{Who: "arbiter serve --rebuild", What: "rebuild",
		Why: "the hub's database was lost", Data: summary, At: time.Now()}); err != nil {
		o.Log.Error("federation rebuild: audit", "err", err)
	}
	if o.Rebuilt != nil {
		o.Rebuilt(summary)
	}
}

// summary says what the rebuild did.
func (rb *rebuild) summary(set, waiting int, missing []string) (string, error) {
	db := rb.n.o.DB
	halls, err := db.HallGames()
	if err != nil {
		return "", err
	}
	moves, results := 0, 0
	for id := range halls {
		g, err := db.Game(id)
		if err != nil {
			return "", err
		}
		if g.Result != "" {
			results++
		}
		ms, err := db.Moves(id)
		if err != nil {
			return "", err
		}
		moves += len(ms)
	}
	alerts, err := db.HallAlerts()
	if err != nil {
		return "", err
	}
	actions, err := db.Actions(0)
	if err != nil {
		return "", err
	}
	hallActions := 0
	for _, a := range actions {
		if strings.Contains(a.Who, " (hall ") {
			hallActions++
		}
	}
	var b strings.Builder
	if rb.from != "" {
		fmt.Fprintf(&b, "the pairings and the roster taken back from hall %s's mirrors; ", rb.from)
	}
	fmt.Fprintf(&b, "%d rounds restored, the players of %d tournaments taken again; from the halls' streams: %d games, %d moves, %d results, %d alerts, %d actions; %d results of the hub's arbiters set again",
		rb.rounds, rb.players, len(halls), moves, results, len(alerts), hallActions, set)
	if waiting > 0 {
		fmt.Fprintf(&b, "; %d boards wait for their hall's result", waiting)
	}
	if len(missing) > 0 {
		fmt.Fprintf(&b, "; not linked: %s (their facts come when they link)", strings.Join(missing, ", "))
	}
	for _, note := range rb.notes {
		b.WriteString("; " + note)
	}
	return b.String(), nil
}
