package main

import (
	"io"
	"net/http"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/federation/fedtest"
)

// metric is the value of a federation metric of hall at the daemon's
// /metrics (-1 if it has none).
func metric(t *testing.T, url, name, hall string) float64 {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`(?m)^` + name + `\{hall="` + hall + `"\} (\S+)$`).FindSubmatch(body)
	if m == nil {
		return -1
	}
	v, err := strconv.ParseFloat(string(m[1]), 64)
	require.NoError(t, err)
	return v
}

// consoleHas reports whether the console page of the daemon at url (c
// logged in) holds all of says.
func consoleHas(c *http.Client, url string, says ...string) bool {
	resp, err := c.Get(url + "/console")
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return containsAll(string(body), says)
}

// The link is visible on both sides (D8): the hall's console and the
// hub's show whether it is up and since when, the facts waiting to go,
// the last fact the hub acknowledged and the lag, and /metrics says the
// same. A cut shows as such while the hall plays on, its facts waiting
// and their lag growing, and is a warning in the hall's log, not an
// error; once the link is back the hub has every fact.
func TestFederationLinkVisible(t *testing.T) {
	if testing.Short() {
		t.Skip("plays in a hub and a hall, as processes, through a link it cuts")
	}
	t.Parallel()
	dir, leaf := t.TempDir(), freeAddr(t)
	hubD := fedHub(t, dir, leaf, "east")
	hubD.rounds, hubD.plies = 2, 60
	hub := serveProc(t, hubD)
	hubURL := hub.url(t)
	waitListening(t, hub, leaf)
	link := fedtest.NewLink(t, leaf)
	hallD := fedHall(t, dir, "east", link.Addr(), 1, 3)
	hallD.rounds, hallD.plies = 2, 60
	hall := serveProc(t, hallD)
	hallURL := hall.url(t)
	hallC, hubC := fedConsole(t, hallURL), fedConsole(t, hubURL)

	for _, d := range []struct {
		p   *proc
		url string
		c   *http.Client
	}{{hall, hallURL, hallC}, {hub, hubURL, hubC}} {
		d.p.waitFor(t, func() bool {
			return metric(t, d.url, "arbiter_federation_linked", "east") == 1 &&
				metric(t, d.url, "arbiter_federation_last_fact_acknowledged", "east") > 0 &&
				metric(t, d.url, "arbiter_federation_linked_since_seconds", "east") > 0
		}, "%s's metrics do not show the link up with facts acknowledged", d.p.name)
		d.p.waitFor(t, func() bool {
			return consoleHas(d.c, d.url, "<h2>Halls</h2>", `data-hall="east"`, "linked since", "Last fact at the hub")
		}, "%s's console does not show the link", d.p.name)
	}

	// Cut while a game is in play, so that facts keep coming in the hall.
	hall.waitFor(t, func() bool { return roundInPlay(hallURL, 1) || roundInPlay(hallURL, 2) }, "no game in play in the hall")
	link.Cut()
	hall.waitFor(t, func() bool {
		return metric(t, hallURL, "arbiter_federation_linked", "east") == 0 &&
			metric(t, hallURL, "arbiter_federation_facts_waiting", "east") > 0 &&
			metric(t, hallURL, "arbiter_federation_lag_seconds", "east") > 0
	}, "the hall's metrics do not show the cut link with facts waiting")
	hall.waitFor(t, func() bool { return consoleHas(hallC, hallURL, "not linked since") }, "the hall's console does not show the cut")
	hub.waitFor(t, func() bool { return metric(t, hubURL, "arbiter_federation_linked", "east") == 0 }, "the hub's metrics do not show the cut")
	hub.waitFor(t, func() bool { return consoleHas(hubC, hubURL, "not linked since") }, "the hub's console does not show the cut")
	hall.waitLog(t, `level=WARN msg="nats server: Error trying to connect as leafnode`, "a cut link is a warning in the hall's log")
	assert.NotRegexp(t, `level=ERROR msg="nats server: Error trying to connect as leafnode`, hall.log.String(), "a cut link is no error")
	code, body := healthz(t, hallURL+"/")
	assert.Equal(t, http.StatusOK, code, "a cut link is no mistake: %s", body)

	link.Restore()
	hall.waitFor(t, func() bool {
		return metric(t, hallURL, "arbiter_federation_linked", "east") == 1 &&
			metric(t, hallURL, "arbiter_federation_facts_waiting", "east") == 0 &&
			metric(t, hallURL, "arbiter_federation_lag_seconds", "east") == 0
	}, "the hall's facts do not all reach the hub once the link is back")
	hub.waitFor(t, func() bool {
		return metric(t, hubURL, "arbiter_federation_linked", "east") == 1 &&
			metric(t, hubURL, "arbiter_federation_last_fact_acknowledged", "east") >= metric(t, hallURL, "arbiter_federation_last_fact_acknowledged", "east")
	}, "the hub does not show the link back")
	hall.waitFor(t, func() bool { return consoleHas(hallC, hallURL, "linked since", ">0<") }, "the hall's console does not show the link back with nothing waiting")
}
