package config

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"arbiter/internal/names"
	"arbiter/pairing/tiebreak"
)

// MaxNameLen is the longest name, in characters, of an event, tournament,
// player or login. Pages, scoresheets and TRF files have no room for more.
const MaxNameLen = names.MaxLen

// nameProblem says what is wrong with a name shown on pages and written to
// exports, or "" if nothing (names.Check): empty, too long, not UTF-8, or
// holding a control character (NUL, CR, LF, tab...), a bidirectional
// override that makes the name read differently from what it is (U+202E)
// or an invisible character (a zero-width space).
func nameProblem(name string) string {
	if err := names.Check(name); err != nil {
		return err.Error()
	}
	return ""
}

// listenProblem says what is wrong with a listen address, or "" if
// nothing. It resolves nothing: a host name is checked for its form, and
// serve binds the address before it opens the database.
func listenProblem(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Sprintf("want host:port, e.g. 127.0.0.1:8080 or 0.0.0.0:8080 (%v)", err)
	}
	if n, err := strconv.ParseUint(port, 10, 16); err != nil {
		if _, err := net.LookupPort("tcp", port); err != nil || port == "" {
			return fmt.Sprintf("port %q is not a number from 0 to 65535", port)
		}
	} else if n > 65535 {
		return fmt.Sprintf("port %q is not a number from 0 to 65535", port)
	}
	if host == "" || net.ParseIP(host) != nil {
		return ""
	}
	if h, zone, ok := strings.Cut(host, "%"); ok && net.ParseIP(h) != nil && zone != "" {
		return ""
	}
	if !validHostname(host) {
		return fmt.Sprintf("host %q is neither an IP address nor a host name", host)
	}
	return ""
}

// validHostname checks the form of a DNS name (RFC 1123 labels).
func validHostname(h string) bool {
	h = strings.TrimSuffix(h, ".")
	if h == "" || len(h) > 253 {
		return false
	}
	for label := range strings.SplitSeq(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
				return false
			}
		}
	}
	return true
}

// knownTieBreaks lists the tie-break names package tiebreak knows.
var knownTieBreaks = func() string {
	var names []string
	for k := tiebreak.Kind(1); !strings.HasPrefix(k.String(), "Kind("); k++ {
		names = append(names, k.String())
	}
	return strings.Join(names, ", ")
}()

// tieBreakProblem says what is wrong with one entry of a tie-break list,
// or "" if nothing. An entry may hold several tie-breaks ("BH/C1 BH").
func tieBreakProblem(text string) string {
	if strings.TrimSpace(text) == "" {
		return "empty tie-break"
	}
	specs, err := tiebreak.ParseSpecs(text)
	if err == nil {
		return ""
	}
	if len(specs) == 0 && !strings.ContainsAny(strings.TrimSpace(text), ",; \t") {
		_, err = tiebreak.ParseSpec(text) // the same error, without "tie-break 1: "
	}
	name, _, _ := strings.Cut(strings.TrimSpace(text), "/")
	if _, nerr := tiebreak.ParseSpec(name); nerr != nil {
		return fmt.Sprintf("%v (known: %s)", err, knownTieBreaks)
	}
	return err.Error()
}

// feasibility is what a tournament's player count allows of its rounds.
type feasibility struct {
	// impossible: the rounds cannot all be paired, whatever the results.
	impossible bool
	// doubtful: some results leave a round without a pairing.
	doubtful bool
	why      string
}

// isSwiss reports the Swiss systems.
func isSwiss(system string) bool { return strings.HasPrefix(system, "swiss") }

// feasibility checks the rounds against the players given in the file.
// Nothing is said of a tournament whose players are not listed there.
//
// The rules, for n players (one more, a phantom, when n is odd: the bye is
// a game against it, and no player gets two):
//
//   - Without rematches, n players meet each other in at most n-1 rounds
//     (n rounded up to even); a Swiss of more rounds is impossible, and a
//     round robin has exactly that many (twice as many when double).
//   - After k rounds each player has met k others. While k < n/2, every
//     player still has at least n/2 possible opponents, and a graph in
//     which every vertex meets at least half the others has a perfect
//     matching (Dirac's theorem), so rounds 1 to n/2 can always be paired.
//   - A round has no pairing when the players split into two groups of odd
//     size in which everyone has met the whole other group: what is left
//     to play stays inside each group, and an odd group cannot be paired
//     off. See deadEnd for the first round where that can happen; from
//     that round on the configuration is warned about.
//
// The Dutch system's colour rules can in principle stop a Swiss between
// the two bounds; generated tournaments (pairing/generate) never stopped
// there in TestFeasibilityAgreesWithThePairingEngine, and are not warned
// about.
func (t Tournament) feasibility() feasibility {
	n := len(t.Players)
	if n == 0 || t.Rounds < 1 {
		return feasibility{}
	}
	even := n + n%2
	most := even - 1 // rounds in which everyone meets everyone once
	switch {
	case isSwiss(t.System):
		if n < 2 {
			return feasibility{impossible: true, why: fmt.Sprintf("a Swiss needs at least 2 players; %q has %d", t.Name, n)}
		}
		if t.Rounds > most {
			return feasibility{impossible: true, why: fmt.Sprintf(
				"%q has %d players, who can play at most %d rounds without a rematch (by then everyone has met everyone); "+
					"a Swiss of %d rounds cannot be paired: give at least %d players (%d to be sure of every round) or at most %d rounds",
				t.Name, n, most, t.Rounds, t.Rounds|1, 2*t.Rounds-1, most)}
		}
		if safe, stuck, a, b := deadEnd(even); t.Rounds >= stuck {
			return feasibility{doubtful: true, why: fmt.Sprintf(
				"%q has %d players for %d rounds: a pairing without a rematch is certain only up to round %d, "+
					"and some results leave none for round %d (when the players%s split into groups of %d and %d, "+
					"each player having met the whole other group); the tournament then stops until the arbiter "+
					"pairs by hand: give at least %d players or at most %d rounds",
				t.Name, n, t.Rounds, safe, stuck, phantom(n), a, b, 2*t.Rounds-1, stuck-1)}
		}
	case t.System == "round-robin" || t.System == "double-round-robin":
		want := most
		if t.System == "double-round-robin" {
			want *= 2
		}
		if n < 2 {
			return feasibility{impossible: true, why: fmt.Sprintf("a round robin needs at least 2 players; %q has %d", t.Name, n)}
		}
		if t.Rounds > want {
			return feasibility{impossible: true, why: fmt.Sprintf(
				"a %s of %d players has %d rounds, not %d: the rounds are fixed by the players", t.System, n, want, t.Rounds)}
		}
		if t.Rounds < want {
			return feasibility{doubtful: true, why: fmt.Sprintf(
				"a %s of %d players has %d rounds; with rounds: %d, %q stops before every player has met every other",
				t.System, n, want, t.Rounds, t.Name)}
		}
	}
	return feasibility{}
}

// deadEnd returns, for an even number of players (a phantom added to an
// odd field), the last round that is certain to be pairable without a
// rematch, the first round that some results leave without such a pairing,
// and the sizes of the two groups that make it so.
//
// With s = even/2: when s is odd, two groups of s who each met the whole
// other group have played s rounds, and round s+1 has no pairing (six
// players: round 4). When s is even, groups of s-1 and s+1 (the larger one
// having also played two games inside) have played s+1 rounds, and round
// s+2 has none. Round s+1 then always has one: what is left to play is
// (s-1)-regular, an odd degree, so no group of odd size can be closed off,
// and a regular graph of odd degree d on only 2d+2 vertices has no other
// way to lack a perfect matching (Tutte's condition needs at least three
// odd components of d+2 vertices or more).
func deadEnd(even int) (safe, stuck, a, b int) {
	s := even / 2
	if s%2 == 1 {
		return s, s + 1, s, s
	}
	return s, s + 2, s - 1, s + 1
}

// phantom says how the bye counts when n is odd.
func phantom(n int) string {
	if n%2 == 1 {
		return " (and the bye, as a phantom player)"
	}
	return ""
}

// Warnings returns what does not stop a start but deserves the arbiter's
// attention: tournaments whose rounds may not all be pairable, round
// robins whose rounds disagree with their players, and ARBITER_*
// environment variables that look like settings but set nothing.
// serve logs them at start.
func (c *Config) Warnings() []Problem {
	var ws []Problem
	for i, t := range c.Tournaments {
		if f := t.feasibility(); f.doubtful {
			key := fmt.Sprintf("tournaments[%d].rounds", i)
			ws = append(ws, Problem{Key: key, Value: strconv.Itoa(t.Rounds), Why: f.why, Line: c.lines.line(key)})
		}
	}
	return append(ws, c.warnings...)
}
