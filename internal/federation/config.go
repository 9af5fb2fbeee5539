package federation

import (
	"errors"
	"fmt"
	"maps"
	neturl "net/url"
	"os"
	"slices"
	"strings"

	"golang.org/x/crypto/bcrypt"
)

// Config is a daemon's part in a multi-hall event: the federation section
// of its configuration. A single-hall event leaves it empty (no Role).
type Config struct {
	// Role is RoleHall (publish this hall's facts, play the hub's rounds),
	// RoleHub (gather every hall's, pair the rounds) or "" (no
	// federation).
	Role Role `mapstructure:"role"`
	// Hall is this hall's name (role hall): letters, digits, '-', '_'.
	Hall string `mapstructure:"hall"`
	// URL is a NATS server to use (nats:// or tls://); empty: the daemon
	// embeds one, listening on Listen and keeping its streams in StoreDir.
	URL      string `mapstructure:"url"`
	Listen   string `mapstructure:"listen"`
	StoreDir string `mapstructure:"store_dir"`
	// LeafListen (embedded hub) accepts the halls' leaf node links;
	// HubURL (embedded hall) is the hub's leaf node address, with the
	// hall's name and password (nats-leaf://east:secret@hq.example:7422,
	// or tls://… when the hub's leaf port has a certificate).
	LeafListen string `mapstructure:"leaf_listen"`
	HubURL     string `mapstructure:"hub_url"`
	// Halls (hub) are the halls whose streams the hub sources; each hall's
	// JetStream domain is its name.
	Halls []string `mapstructure:"halls"`
	// FirstBoard (hall) is the event's board number the hall's first table
	// of each tournament plays: its table n plays board first_board+n-1 of
	// the rounds the hub pairs.
	FirstBoard int `mapstructure:"first_board"`
	// HallPasswords (embedded hub) are the bcrypt hashes of the halls'
	// passwords for their leaf node links, by hall: given, each hall must
	// have one and may use only its own subjects.
	HallPasswords map[string]string `mapstructure:"hall_passwords"`
	// TLSCert and TLSKey (embedded hub) are the leaf node port's
	// certificate and key; TLSCA (hall, or a client of URL) is the
	// authority trusted for the hub's certificate (or URL's server's).
	TLSCert string `mapstructure:"tls_cert"`
	TLSKey  string `mapstructure:"tls_key"`
	TLSCA   string `mapstructure:"tls_ca"`
}

// DefaultFirstBoard is a hall's first board unless the configuration says
// otherwise.
const DefaultFirstBoard = 1

// Problem is one thing wrong with a Config: the key within the section
// ("hall_passwords.east"), the value given and why it is refused. A
// problem never shows a password.
type Problem struct {
	Key, Value, Why string
}

// problems collects a Config's problems in the order found.
type problems []Problem

func (ps *problems) add(key string, value any, why string, args ...any) {
	*ps = append(*ps, Problem{Key: key, Value: fmt.Sprint(value), Why: fmt.Sprintf(why, args...)})
}

// Check returns every problem of the section: a role it does not know,
// what the role needs and does not have, keys of the other role, a
// password given in plain text, addresses that cannot be used and files
// that cannot be read. An empty Role has none.
func (c Config) Check() []Problem {
	if c.Role == "" {
		return nil
	}
	var ps problems
	r, ok := roles[c.Role]
	if !ok {
		ps.add("role", c.Role, "want %s, or nothing for a single-hall event", strings.Join(roleNames(), ", "))
		return ps
	}
	r.check(c, &ps)
	for _, kp := range [][2]string{{"tls_cert", c.TLSCert}, {"tls_key", c.TLSKey}, {"tls_ca", c.TLSCA}} {
		if _, err := os.Stat(kp[1]); kp[1] != "" && err != nil {
			ps.add(kp[0], kp[1], "cannot read it: %v", err)
		}
	}
	if c.URL != "" {
		ps.url("url", c.URL, "nats", "tls")
		return ps
	}
	if why := addrProblem(c.Listen); why != "" {
		ps.add("listen", c.Listen, "%s", why)
	}
	if c.StoreDir == "" {
		ps.add("store_dir", c.StoreDir, "the embedded NATS server needs a directory for its streams (or give url)")
	}
	return ps
}

// checkHall checks what a hall needs (its name, the hub's address, its
// first board) and refuses the hub's keys.
func checkHall(c Config, ps *problems) {
	if err := ValidName(c.Hall); err != nil {
		ps.add("hall", c.Hall, "a hall needs its name: %v", err)
	}
	switch {
	case c.URL == "" && c.HubURL == "":
		ps.add("hub_url", "", "a hall needs the hub's leaf node address (nats-leaf://%s:PASSWORD@hq.example:7422, or tls://… if the hub's leaf port has a certificate), or url: a NATS server linked to the hub", c.Hall)
	case c.URL == "":
		ps.url("hub_url", c.HubURL, "nats-leaf", "tls")
	case c.HubURL != "":
		ps.add("hub_url", redactURL(c.HubURL), "with url, the hall's own NATS server links to the hub (its leafnodes remotes), not the daemon: leave hub_url out")
	}
	if c.FirstBoard < 1 {
		ps.add("first_board", c.FirstBoard, "must be 1 or more (the board the hall's first table plays)")
	}
	for _, k := range []struct{ key, value string }{
		{"leaf_listen", c.LeafListen}, {"tls_cert", c.TLSCert}, {"tls_key", c.TLSKey},
	} {
		if k.value != "" {
			ps.add(k.key, k.value, "is a hub's key, not a hall's")
		}
	}
	if len(c.Halls) > 0 {
		ps.add("halls", strings.Join(c.Halls, ", "), "is a hub's key, not a hall's")
	}
	if len(c.HallPasswords) > 0 {
		ps.add("hall_passwords", "(hidden)", "is a hub's key, not a hall's: a hall gives its password in hub_url")
	}
}

// checkHub checks what a hub needs (its halls, their password hashes, its
// certificate and its leaf port) and refuses the halls' keys.
func checkHub(c Config, ps *problems) {
	seen := map[string]int{}
	for i, h := range c.Halls {
		key := fmt.Sprintf("halls[%d]", i)
		if err := ValidName(h); err != nil {
			ps.add(key, h, "%v", err)
		} else if j, ok := seen[h]; ok {
			ps.add(key, h, "this hall is listed twice (halls[%d] and [%d])", j, i)
		} else if h == LocalUser {
			ps.add(key, h, "%q is the name of the hub daemon's own user: give the hall another name", LocalUser)
		} else {
			seen[h] = i
		}
	}
	if len(c.Halls) == 0 {
		ps.add("halls", "", "a hub needs the names of the halls it gathers")
	}
	if len(c.HallPasswords) > 0 {
		for _, h := range c.Halls {
			if c.HallPasswords[h] == "" {
				ps.add("hall_passwords."+h, "", "every hall needs a password once one has")
			}
		}
		for _, h := range slices.Sorted(maps.Keys(c.HallPasswords)) {
			if !slices.Contains(c.Halls, h) {
				ps.add("hall_passwords."+h, "", "%q is not one of federation.halls", h)
			} else if p := c.HallPasswords[h]; p != "" {
				if _, err := bcrypt.Cost([]byte(p)); err != nil {
					ps.add("hall_passwords."+h, "(hidden)", "is not a bcrypt hash: give the hash \"arbiter hash-password\" prints for the hall's password, never the password itself")
				}
			}
		}
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		ps.add("tls_key", c.TLSKey, "give both tls_cert and tls_key, or neither")
	}
	if c.URL == "" && c.LeafListen != "" {
		if why := addrProblem(c.LeafListen); why != "" {
			ps.add("leaf_listen", c.LeafListen, "%s", why)
		}
	}
	if c.URL == "" && c.LeafListen == "" {
		ps.add("leaf_listen", "", "an embedded hub needs the address where its halls link (0.0.0.0:7422)")
	}
	if c.Hall != "" {
		ps.add("hall", c.Hall, "is a hall's key, not a hub's")
	}
	if c.HubURL != "" {
		ps.add("hub_url", redactURL(c.HubURL), "is a hall's key, not a hub's")
	}
	if c.FirstBoard != DefaultFirstBoard {
		ps.add("first_board", c.FirstBoard, "is a hall's key, not a hub's")
	}
	if c.URL == "" && c.TLSCA != "" {
		ps.add("tls_ca", c.TLSCA, "is a hall's key (or a client's of url), not an embedded hub's: give the hub tls_cert and tls_key")
	}
}

// url refuses a NATS address that does not parse or is not of one of
// schemes; the problem never shows its password.
func (ps *problems) url(key, raw string, schemes ...string) {
	u, err := neturl.Parse(raw)
	var ue *neturl.Error
	switch {
	case errors.As(err, &ue):
		ps.add(key, redactURL(raw), "%v", ue.Err)
	case err != nil:
		ps.add(key, redactURL(raw), "%v", err)
	case !slices.Contains(schemes, u.Scheme) || u.Host == "":
		ps.add(key, u.Redacted(), "must be a %s address with a host", strings.Join(schemes, ":// or ")+"://")
	}
}

// addrProblem says what is wrong with a host:port address of the
// embedded server, or "".
func addrProblem(addr string) string {
	if _, _, err := splitHostPort(addr); err != nil {
		return fmt.Sprintf("want host:port, e.g. 127.0.0.1:4222 or 0.0.0.0:7422 (%v)", err)
	}
	return ""
}

// redactURL hides the password of an address that may not parse, so that
// a problem shown or logged never carries it: what lies between "//" and
// the last "@" after it becomes "***".
func redactURL(raw string) string {
	_, rest, ok := strings.Cut(raw, "//")
	if !ok {
		return raw
	}
	at := strings.LastIndex(rest, "@")
	if at < 0 {
		return raw
	}
	return raw[:len(raw)-len(rest)] + "***" + rest[at:]
}

// ValidName checks a hall name: it is a NATS subject token, a stream name
// and a JetStream domain, so letters, digits, '-' and '_' only, at most
// 32 of them.
func ValidName(name string) error {
	if name == "" {
		return errors.New("empty name")
	}
	if len(name) > 32 {
		return fmt.Errorf("name %q is longer than 32 characters", name)
	}
	for i, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Errorf("name %q: character %q at %d is not a letter, digit, '-' or '_'", name, r, i)
		}
	}
	return nil
}
