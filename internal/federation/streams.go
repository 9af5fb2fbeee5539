package federation

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// HubStream is the hub's stream, sourcing every hall stream.
const HubStream = "ARBITER"

// DedupWindow is how long a hall stream remembers Nats-Msg-Ids. A fact
// republished later still reaches the hub once: the hub's store skips a
// fact it holds.
const DedupWindow = 10 * time.Minute

// HallStream is the name of a hall's stream.
func HallStream(hall string) string { return "ARBITER_" + hall }

// EnsureHallStream creates (or updates) the hall's stream of facts,
// subjects arbiter.<hall>.>, on disk.
func EnsureHallStream(ctx context.Context, js jetstream.JetStream, hall string) error {
	if err := ValidName(hall); err != nil {
		return fmt.Errorf("hall stream: %w", err)
	}
	_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:       HallStream(hall),
		Subjects:   []string{"arbiter." + hall + ".>"},
		Storage:    jetstream.FileStorage,
		Duplicates: DedupWindow,
	})
	if err != nil {
		return fmt.Errorf("hall stream %s: %w", HallStream(hall), err)
	}
	return nil
}

// Hall names a hall the hub sources, and its JetStream domain (empty: the
// hall stream is on the hub's own server).
type Hall struct {
	Name   string
	Domain string
}

// EnsureHubStream creates (or updates) the hub's stream sourcing the hall
// streams.
func EnsureHubStream(ctx context.Context, js jetstream.JetStream, halls []Hall) error {
	cfg := jetstream.StreamConfig{Name: HubStream, Storage: jetstream.FileStorage}
	for _, h := range halls {
		if err := ValidName(h.Name); err != nil {
			return fmt.Errorf("hub stream: hall: %w", err)
		}
		src := &jetstream.StreamSource{Name: HallStream(h.Name)}
		if h.Domain != "" {
			// Delivered on the hall's own subjects, which its credentials
			// allow it to send (HallPermissions).
			src.External = &jetstream.ExternalStream{APIPrefix: "$JS." + h.Domain + ".API", DeliverPrefix: DeliverPrefix + "." + h.Name}
		}
		cfg.Sources = append(cfg.Sources, src)
	}
	if _, err := js.CreateOrUpdateStream(ctx, cfg); err != nil {
		return fmt.Errorf("hub stream %s: %w", HubStream, err)
	}
	return nil
}

// StalledAfter is how long a hall stream's source may stay silent before
// ReviveSources restarts it: a live source hears a heartbeat every second.
const StalledAfter = 3 * time.Second

// ReviveSources restarts the hub stream's sources that are stalled (not
// active, or silent for StalledAfter) by taking them out of the stream's
// configuration and putting them back: the server then sets each up at
// once, from the last fact the hub stream holds of it, instead of after
// its own back-off (up to minutes once a link has failed a few times).
// Only the halls that answer are restarted: a hall still cut off is left to
// the server. It returns the halls whose sources it restarted.
func ReviveSources(ctx context.Context, js jetstream.JetStream) ([]string, error) {
	s, err := js.Stream(ctx, HubStream)
	if err != nil {
		return nil, fmt.Errorf("hub stream %s: %w", HubStream, err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("hub stream %s: %w", HubStream, err)
	}
	stalled := map[string]bool{}
	for _, si := range info.Sources {
		if (si.Active < 0 || si.Active > StalledAfter) && si.External != nil && answers(ctx, js, si.External.APIPrefix) {
			stalled[si.Name] = true
		}
	}
	if len(stalled) == 0 {
		return nil, nil
	}
	cfg := info.Config
	all := cfg.Sources
	var keep []*jetstream.StreamSource
	var halls []string
	for _, src := range all {
		if stalled[src.Name] {
			halls = append(halls, strings.TrimPrefix(src.Name, "ARBITER_"))
			continue
		}
		keep = append(keep, src)
	}
	cfg.Sources = keep
	if _, err := js.UpdateStream(ctx, cfg); err != nil {
		return nil, fmt.Errorf("hub stream %s: take out stalled sources: %w", HubStream, err)
	}
	cfg.Sources = all
	if _, err := js.UpdateStream(ctx, cfg); err != nil {
		return nil, fmt.Errorf("hub stream %s: put back sources: %w", HubStream, err)
	}
	return halls, nil
}

// answers reports whether the JetStream API at prefix answers within a
// second.
func answers(ctx context.Context, js jetstream.JetStream, prefix string) bool {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	other, err := jetstream.NewWithAPIPrefix(js.Conn(), prefix)
	if err != nil {
		return false
	}
	_, err = other.AccountInfo(ctx)
	return err == nil
}
