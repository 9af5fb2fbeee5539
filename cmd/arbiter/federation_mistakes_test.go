package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// fedLink is a hub and the halls of a test about their links: no round is
// paired, so nothing but the links is at work.
type fedLink struct {
	dir, leaf, client string
	hub               fedDaemon
}

// newFedLink sets up a hub for halls in a folder of its own; its client
// port (federation.listen) is client.
func newFedLink(t *testing.T, halls ...string) *fedLink {
	t.Helper()
	dir, leaf := t.TempDir(), freeAddr(t)
	hub := fedHub(t, dir, leaf, halls...)
	hub.autoPair = false
	client := strings.TrimPrefix(hub.federation[1], "listen: ")
	return &fedLink{dir: dir, leaf: leaf, client: client, hub: hub}
}

// hall is hall h of the test, playing boards boards from first, its
// hub_url with the given password at addr.
func (f *fedLink) hall(t *testing.T, h, password, addr string, first, boards int) fedDaemon {
	t.Helper()
	d := fedHall(t, f.dir, h, f.leaf, first, boards)
	d.autoPair = false
	for i, kv := range d.federation {
		if strings.HasPrefix(kv, "hub_url:") {
			d.federation[i] = fmt.Sprintf("hub_url: \"nats-leaf://%s:%s@%s\"", h, password, addr)
		}
	}
	return d
}

// start starts the hub and waits for its leaf port.
func (f *fedLink) start(t *testing.T) (*proc, string) {
	t.Helper()
	hub := serveProc(t, f.hub)
	url := hub.url(t)
	waitListening(t, hub, f.leaf)
	return hub, url
}

// A mistake in a hall's link is told on both sides: an open alert in the
// hall and on the hub, the reason on each one's /healthz, and the NATS
// server's own error in each one's log, at level ERROR.
func TestFederationMistakesToldOnBothSides(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a hub and its halls as processes")
	}
	t.Parallel()
	t.Run("wrong password", func(t *testing.T) {
		t.Parallel()
		f := newFedLink(t, "east")
		hub, hubURL := f.start(t)
		hall := serveProc(t, f.hall(t, "east", "not-the-secret", f.leaf, 1, 1))
		hallURL := hall.url(t)
		hall.waitAlert(t, fedConsole(t, hallURL), hallURL, "the hub refused this hall's name and password")
		hall.waitUnhealthy(t, hallURL, "federation:", "refused this hall's name and password")
		hall.waitLog(t, `level=ERROR msg="nats server: [^"]*Authorization Violation`, "the hall's log has the NATS server's error")
		hub.waitAlert(t, fedConsole(t, hubURL), hubURL, "hall east tried to link with a wrong password")
		hub.waitUnhealthy(t, hubURL, "hall east tried to link with a wrong password")
		hub.waitLog(t, `level=ERROR msg="nats server: [^"]*authentication error - User \\"east\\"`, "the hub's log has the NATS server's error")
	})
	t.Run("hall the hub does not know", func(t *testing.T) {
		t.Parallel()
		f := newFedLink(t, "east")
		hub, hubURL := f.start(t)
		hall := serveProc(t, f.hall(t, "south", "secret-of-south", f.leaf, 1, 1))
		hallURL := hall.url(t)
		hall.waitAlert(t, fedConsole(t, hallURL), hallURL, `is "south" one of the hub's federation.halls`)
		hall.waitUnhealthy(t, hallURL, "refused this hall's name and password")
		hub.waitAlert(t, fedConsole(t, hubURL), hubURL, `a daemon tried to link as hall "south"`, "not one of federation.halls (east)")
		hub.waitUnhealthy(t, hubURL, `hall "south"`)
	})
	t.Run("the hub's client port instead of its leaf port", func(t *testing.T) {
		t.Parallel()
		f := newFedLink(t, "east")
		hub, hubURL := f.start(t)
		hall := serveProc(t, f.hall(t, "east", "secret-of-east", f.client, 1, 1))
		hallURL := hall.url(t)
		hall.waitAlert(t, fedConsole(t, hallURL), hallURL, "hub_url names a port of the hub that is not its leaf port")
		hall.waitUnhealthy(t, hallURL, "not its leaf port")
		hall.waitLog(t, `level=ERROR msg="nats server: [^"]*attempted to connect to wrong port`, "the hall's log has the NATS server's error")
		hub.waitAlert(t, fedConsole(t, hubURL), hubURL, "hall east's hub_url names the hub's client port", f.leaf)
		hub.waitUnhealthy(t, hubURL, "hall east's hub_url names the hub's client port")
	})
	t.Run("a hall name used twice", func(t *testing.T) {
		t.Parallel()
		f := newFedLink(t, "east")
		hub, hubURL := f.start(t)
		first := serveProc(t, f.hall(t, "east", "secret-of-east", f.leaf, 1, 1))
		firstURL := first.url(t)
		twin := f.hall(t, "east", "secret-of-east", f.leaf, 2, 1)
		twin.name, twin.dir = "east", filepath.Join(f.dir, "twin")
		second := serveProc(t, twin)
		secondURL := second.url(t)
		for _, h := range []struct {
			p   *proc
			url string
		}{{first, firstURL}, {second, secondURL}} {
			h.p.waitAlert(t, fedConsole(t, h.url), h.url, `another daemon links to the hub as hall "east"`)
			h.p.waitUnhealthy(t, h.url, "another daemon links to the hub as hall")
		}
		hub.waitAlert(t, fedConsole(t, hubURL), hubURL, "two daemons link as hall east")
		hub.waitUnhealthy(t, hubURL, "two daemons link as hall east")
		hub.waitLog(t, `level=ERROR msg="nats server: [^"]*Duplicate Remote LeafNode Connection`, "the hub's log has the NATS server's error")
	})
	t.Run("overlapping blocks of boards", func(t *testing.T) {
		t.Parallel()
		f := newFedLink(t, "east", "west")
		hub, hubURL := f.start(t)
		east := serveProc(t, f.hall(t, "east", "secret-of-east", f.leaf, 1, 2))
		west := serveProc(t, f.hall(t, "west", "secret-of-west", f.leaf, 2, 1))
		eastURL, westURL := east.url(t), west.url(t)
		hub.waitAlert(t, fedConsole(t, hubURL), hubURL, "halls east and west both play board 2 of tournament 1")
		hub.waitUnhealthy(t, hubURL, "both play board 2")
		east.waitAlert(t, fedConsole(t, eastURL), eastURL, "halls east and west both play board 2 of tournament 1")
		west.waitAlert(t, fedConsole(t, westURL), westURL, "halls west and east both play board 2 of tournament 1")
		west.waitUnhealthy(t, westURL, "both play board 2")
	})
	_ = assert.True
}
