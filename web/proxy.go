package web

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// netList is a list of networks from the configuration
// (http.trusted_proxies, http.metrics_allow).
type netList []netip.Prefix

// loopback is where /metrics may be read from unless http.metrics_allow
// says otherwise.
var loopback = netList{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// parseNets reads networks given as CIDRs ("10.0.0.0/8") or single
// addresses ("192.168.1.10"), and names each entry it cannot read as an
// element of field (a field of Config).
func parseNets(field string, list []string) (netList, []Problem) {
	var nets netList
	var problems []Problem
	for i, s := range list {
		s = strings.TrimSpace(s)
		if p, err := netip.ParsePrefix(s); err == nil {
			nets = append(nets, p.Masked())
			continue
		}
		if a, err := netip.ParseAddr(s); err == nil {
			nets = append(nets, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		problems = append(problems, Problem{Field: fmt.Sprintf("%s[%d]", field, i), Value: s,
			Why: "want a network such as 10.0.0.0/8 or an address such as 192.168.1.10"})
	}
	return nets, problems
}

func (l netList) contains(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range l {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// peer is the address of the other end of the request's connection.
func peer(r *http.Request) netip.Addr {
	if ap, err := netip.ParseAddrPort(r.RemoteAddr); err == nil {
		return ap.Addr().Unmap()
	}
	h, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		h = r.RemoteAddr
	}
	a, _ := netip.ParseAddr(h)
	return a.Unmap()
}

// proxied reports whether the request came through a trusted proxy.
func (s *Site) proxied(r *http.Request) bool {
	return s.trusted.contains(peer(r))
}

// clientAddr is the address of the client: the peer, or, when the peer is
// a trusted proxy, the nearest address of X-Forwarded-For that is not
// itself a trusted proxy. A header from anyone else is ignored, so a
// stranger cannot pick the address the login limit counts against.
func (s *Site) clientAddr(r *http.Request) netip.Addr {
	client := peer(r)
	if !s.trusted.contains(client) {
		return client
	}
	hops := r.Header.Values("X-Forwarded-For")
	for i := len(hops) - 1; i >= 0; i-- {
		parts := strings.Split(hops[i], ",")
		for j := len(parts) - 1; j >= 0; j-- {
			a, ok := parseHop(parts[j])
			if !ok {
				return client // a hop we cannot read: stop at the last one we trust
			}
			client = a
			if !s.trusted.contains(a) {
				return a
			}
		}
	}
	return client
}

// parseHop reads one X-Forwarded-For entry: an address, maybe with a port.
func parseHop(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	return netip.Addr{}, false
}

// client is the client's address as text, for the login limit and logs.
func (s *Site) client(r *http.Request) string {
	if a := s.clientAddr(r); a.IsValid() {
		return a.String()
	}
	return r.RemoteAddr
}

// secure reports whether the browser reached the site over HTTPS: directly,
// through a trusted proxy that says so, or always when configured
// (http.secure_cookies). Cookies set on such a request are Secure.
func (s *Site) secure(r *http.Request) bool {
	if r.TLS != nil || s.secureCookies {
		return true
	}
	if !s.proxied(r) {
		return false
	}
	protos := strings.Split(r.Header.Get("X-Forwarded-Proto"), ",")
	return strings.EqualFold(strings.TrimSpace(protos[0]), "https")
}

// metricsAllowed reports whether a request may read /metrics: its client
// is in http.metrics_allow (loopback by default). A request forwarded by a
// proxy that is not trusted is refused, whatever its peer: behind such a
// proxy on this machine every stranger would look like loopback.
func (s *Site) metricsAllowed(r *http.Request) bool {
	if !s.proxied(r) && (r.Header.Get("X-Forwarded-For") != "" || r.Header.Get("Forwarded") != "") {
		return false
	}
	return s.metricsAllow.contains(s.clientAddr(r))
}

// Handle serves h at pattern (as http.ServeMux reads it) with the site's
// security headers: for the daemon's /healthz.
func (s *Site) Handle(pattern string, h http.Handler) { s.mux.Handle(pattern, h) }
