package federation

import (
	"context"
	"fmt"
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
