package preflight

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// lichessPush is the path of a lichess broadcast round's push: POST
// /api/broadcast/round/{id}/push.
var lichessPush = regexp.MustCompile(`^/api/broadcast/round/([^/]+)/push$`)

// Broadcast checks each broadcast push without publishing anything: the
// endpoint answers, and accepts the token. A lichess round's push
// (/api/broadcast/round/{id}/push) is checked with lichess's list of the
// broadcast rounds the token's user may push to (GET
// /api/broadcast/my-rounds): the token is refused, or the round is among
// them and writable, or not. Of any other endpoint only its server is
// asked (GET /, without the token): a push endpoint may take any request
// to its address as a push.
func Broadcast(ctx context.Context, in Input) []Finding {
	var out []Finding
	for i, p := range in.Config.Broadcast.Push {
		item := fmt.Sprintf("broadcast.push[%d]", i)
		round := p.Round
		if round == 0 {
			round = 1
		}
		raw := strings.ReplaceAll(p.URL, "{round}", strconv.Itoa(round))
		u, err := url.Parse(raw)
		if err != nil {
			out = append(out, Finding{Item: item, Level: Error, Text: err.Error()})
			continue
		}
		token := p.PushToken()
		if m := lichessPush.FindStringSubmatch(u.Path); m != nil && !strings.Contains(p.URL, "{round}") {
			out = append(out, lichessRound(ctx, in, item, u, m[1], token))
			continue
		}
		out = append(out, endpoint(ctx, in, item, u, token))
	}
	return out
}

// myRound is one line of lichess's /api/broadcast/my-rounds.
type myRound struct {
	Round struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"round"`
	Tour struct {
		Name string `json:"name"`
	} `json:"tour"`
	Study struct {
		Writeable bool `json:"writeable"`
	} `json:"study"`
}

// lichessRound checks that the token may push to the lichess broadcast
// round id.
func lichessRound(ctx context.Context, in Input, item string, push *url.URL, id, token string) Finding {
	if token == "" {
		return Finding{Item: item, Level: Error, Text: "no token: lichess takes a round's push only with a token of the study:write scope",
			Advice: "Create a token at https://lichess.org/account/oauth/token with the study:write scope, and give it in token_env."}
	}
	list := url.URL{Scheme: push.Scheme, Host: push.Host, Path: "/api/broadcast/my-rounds", RawQuery: "nb=300"}
	resp, err := get(ctx, in, list.String(), token, "application/x-ndjson")
	if err != nil {
		return Finding{Item: item, Level: Error, Text: fmt.Sprintf("%s does not answer: %v", push.Host, err),
			Advice: "Check the venue's internet connection and the address."}
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return Finding{Item: item, Level: Error, Text: fmt.Sprintf("%s refuses the token (%s)", push.Host, resp.Status),
			Advice: "The token is wrong, revoked or lacks the study:write scope: create another."}
	case resp.StatusCode/100 != 2:
		return Finding{Item: item, Level: Error, Text: fmt.Sprintf("%s answers %s to the list of the token's broadcast rounds", push.Host, resp.Status)}
	}
	sc := bufio.NewScanner(io.LimitReader(resp.Body, 8<<20))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var r myRound
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.Round.ID != id {
			continue
		}
		name := strings.TrimSpace(r.Tour.Name + " / " + r.Round.Name)
		if !r.Study.Writeable {
			return Finding{Item: item, Level: Error, Text: fmt.Sprintf("the token accepted, but its user may not push to round %s (%s)", id, name),
				Advice: "Make the token's user a contributor of the broadcast, or use the owner's token."}
		}
		return Finding{Item: item, Level: OK, Text: fmt.Sprintf("%s accepts the token for round %s (%s); nothing was pushed", push.Host, id, name)}
	}
	return Finding{Item: item, Level: Error, Text: fmt.Sprintf("the token accepted, but round %s is not among the broadcast rounds its user may push to", id),
		Advice: "Check the round's id in the url (the broadcast round's page shows it), and that the token's user is a contributor."}
}

// endpoint checks that the server of a push address answers, with a GET
// of its root that carries no token: a push endpoint other than
// lichess's may take any request to its address as a push, and its
// tokens cannot be checked without one.
func endpoint(ctx context.Context, in Input, item string, u *url.URL, token string) Finding {
	root := url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/"}
	resp, err := get(ctx, in, root.String(), "", "")
	if err != nil {
		return Finding{Item: item, Level: Error, Text: fmt.Sprintf("%s does not answer: %v", u.Host, err),
			Advice: "Check the address and the network."}
	}
	resp.Body.Close()
	text := fmt.Sprintf("%s answers (%s to GET /)", u.Host, resp.Status)
	if token == "" {
		return Finding{Item: item, Level: Warning, Text: text + "; no token is configured",
			Advice: "Give token_env if the endpoint wants one."}
	}
	return Finding{Item: item, Level: Warning, Text: text + "; its token cannot be checked without a push, which preflight does not make",
		Advice: "The console and the log say whether the first push is accepted."}
}

// get sends a GET with the token.
func get(ctx context.Context, in Input, addr, token, accept string) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, in.timeout())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, addr, nil)
	if err != nil {
		cancel()
		return nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := in.client().Do(req)
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// cancelBody ends a request's context with its body.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}
