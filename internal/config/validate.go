package config

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/clock"
	"arbiter/internal/names"
	"arbiter/pairing/trf"
	"arbiter/rules"
)

// problems collects what is wrong with a configuration, in the order
// found.
type problems []Problem

// add adds a problem of key: its value, and why it is refused (a format
// with args).
func (ps *problems) add(key string, value any, why string, args ...any) {
	*ps = append(*ps, Problem{Key: key, Value: fmt.Sprint(value), Why: fmt.Sprintf(why, args...)})
}

// name refuses a name that nameProblem refuses.
func (ps *problems) name(key, name string) {
	if why := nameProblem(name); why != "" {
		ps.add(key, name, "%s", why)
	}
}

// keys adds a protocol's problems, their keys after prefix.
func (ps *problems) keys(prefix string, kps []board.KeyProblem) {
	for _, p := range kps {
		*ps = append(*ps, Problem{Key: prefix + p.Key, Value: p.Value, Why: p.Why})
	}
}

// Validate checks every setting and returns every problem found. Each
// section checks itself; the boards' protocols check theirs through their
// registrations (board.Protocol).
func (c *Config) Validate() []Problem {
	var ps problems
	c.Event.check(&ps)
	c.HTTP.check(&ps)
	c.Log.check(&ps)
	c.Console.check(&ps)
	c.Boards.check(&ps)
	c.Backup.check(&ps)
	c.Demo.check(&ps)
	names := map[string]bool{}
	for i, t := range c.Tournaments {
		key := fmt.Sprintf("tournaments[%d]", i)
		t.check(&ps, key, names)
		names[t.Name] = true
		ps = append(ps, t.dateProblems(key, c.Event)...)
	}
	c.Boards.checkAssign(&ps, names)
	ps = append(ps, c.Broadcast.problems(names)...)
	ps = append(ps, federationProblems(c.Federation)...)
	return ps
}

func (e Event) check(ps *problems) {
	ps.name("event.name", e.Name)
	*ps = append(*ps, e.problems()...)
	if e.Database == "" {
		ps.add("event.database", e.Database, "must name a file")
	}
}

func (h HTTP) check(ps *problems) {
	if why := listenProblem(h.Listen); why != "" {
		ps.add("http.listen", h.Listen, "%s", why)
	}
}

func (l Log) check(ps *problems) {
	if !slices.Contains([]string{"debug", "info", "warn", "error"}, l.Level) {
		ps.add("log.level", l.Level, "want debug, info, warn or error")
	}
	if !slices.Contains([]string{"text", "json"}, l.Format) {
		ps.add("log.format", l.Format, "want text or json")
	}
}

func (c Console) check(ps *problems) {
	seen := map[string]bool{}
	for i, u := range c.Users {
		key := fmt.Sprintf("console.users[%d]", i)
		ps.name(key+".name", u.Name)
		if seen[u.Name] {
			ps.add(key+".name", u.Name, "given twice")
		}
		seen[u.Name] = true
		if len(u.Password) < 4 {
			ps.add(key+".password", "(hidden)", "must have at least 4 characters")
		}
	}
}

func (b Backup) check(ps *problems) {
	if b.Dir != "" && b.Every < time.Second {
		ps.add("backup.every", b.Every, "must be at least 1s")
	}
	if b.Keep < 1 {
		ps.add("backup.keep", b.Keep, "must be at least 1")
	}
}

func (d Demo) check(ps *problems) {
	if d.Boards < 0 || d.Boards > 64 {
		ps.add("demo.boards", d.Boards, "must be between 0 and 64")
	}
	if d.Speed <= 0 || d.Speed > 1000 {
		ps.add("demo.speed", d.Speed, "must be above 0 and at most 1000")
	}
	if d.Plies < 2 {
		ps.add("demo.plies", d.Plies, "must be at least 2")
	}
	if d.Faults < 0 || d.Faults > 1 {
		ps.add("demo.faults", d.Faults, "must be between 0 and 1")
	}
	for i, name := range d.BoardsOf {
		key := fmt.Sprintf("demo.boards_of[%d]", i)
		switch p, ok := board.Lookup(name); {
		case !ok || name == "":
			ps.add(key, name, "unknown protocol; known: %s", strings.Join(board.ProtocolNames(), ", "))
		case p.Simulate == nil:
			ps.add(key, name, "the %s protocol has no simulated board", p.Name)
		}
	}
}

// LoopbackListen reports whether a listen address reaches this machine
// only: a loopback address or localhost. An empty host listens everywhere.
func LoopbackListen(listen string) bool {
	h, _, err := net.SplitHostPort(listen)
	if err != nil {
		return false
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(h)
	return err == nil && a.Unmap().IsLoopback()
}

// check checks tournament t at key; names are the tournaments' names
// before it.
func (t Tournament) check(ps *problems, key string, names map[string]bool) {
	if why := nameProblem(t.Name); why != "" {
		ps.add(key+".name", t.Name, "%s", why)
	} else if names[t.Name] {
		ps.add(key+".name", t.Name, "two tournaments have this name")
	}
	opts, err := rules.ParseOptions(t.Options)
	if err != nil {
		ps.add(key+".options", t.Options, "%v", err)
	} else if _, err := rules.New(t.Game, opts); err != nil {
		ps.add(key+".game", t.Game+" "+t.Options, "%v", err)
	}
	if !slices.Contains([]string{"swiss-dutch", "swiss-dutch-2017", "round-robin", "double-round-robin"}, t.System) {
		ps.add(key+".system", t.System, "want swiss-dutch, swiss-dutch-2017, round-robin or double-round-robin")
	}
	if t.Rounds < 1 || t.Rounds > 99 {
		ps.add(key+".rounds", t.Rounds, "must be between 1 and 99")
	} else if f := t.feasibility(); f.impossible {
		ps.add(key+".rounds", t.Rounds, "%s", f.why)
	}
	for j, tb := range t.TieBreaks {
		if why := tieBreakProblem(tb); why != "" {
			ps.add(fmt.Sprintf("%s.tiebreaks[%d]", key, j), tb, "%s", why)
		}
	}
	t.checkPlay(ps, key)
	t.checkPlayers(ps, key)
}

// checkPlay checks how tournament t at key is played: time controls,
// acceleration, byes, touch-move and illegal moves.
func (t Tournament) checkPlay(ps *problems, key string) {
	if t.TimeControl != "" {
		if _, err := clock.Parse(t.TimeControl); err != nil {
			ps.add(key+".time_control", t.TimeControl, "%v", err)
		}
	}
	if t.Accelerated != "" && t.Accelerated != "baku" {
		ps.add(key+".accelerated", t.Accelerated, "want baku or nothing")
	}
	if t.Accelerated != "" && !strings.HasPrefix(t.System, "swiss") {
		ps.add(key+".accelerated", t.Accelerated, "only a Swiss is accelerated")
	}
	if t.HalfPointByes < 0 || t.HalfPointByes > t.Rounds {
		ps.add(key+".half_point_byes", t.HalfPointByes, "must be between 0 and the number of rounds")
	}
	for r, tc := range t.RoundTimeControls {
		if r < 1 || r > t.Rounds {
			ps.add(fmt.Sprintf("%s.round_time_controls.%d", key, r), tc, "no such round: the tournament has %d", t.Rounds)
		}
		if _, err := clock.Parse(tc); err != nil && tc != "-" {
			ps.add(fmt.Sprintf("%s.round_time_controls.%d", key, r), tc, "%v", err)
		}
	}
	if t.TouchMove != "" {
		if _, err := arbiter.ParseTouchMove(t.TouchMove); err != nil {
			ps.add(key+".touch_move", t.TouchMove, "%v", err)
		}
	}
	if t.IllegalMove != "" {
		if _, err := arbiter.ParseIllegalMove(t.IllegalMove); err != nil {
			ps.add(key+".illegal_move", t.IllegalMove, "%v", err)
		}
	}
}

// checkPlayers checks the players of tournament t at key: those listed,
// or those of its players_trf file, which must exist and read as a TRF
// file. Two players of one tournament may not have the same name
// (names.Key: the case, runs of white space and the Unicode form of an
// accent do not tell players apart).
func (t Tournament) checkPlayers(ps *problems, key string) {
	if len(t.Players) > 0 && t.PlayersTRF != "" {
		ps.add(key+".players_trf", t.PlayersTRF, "give players or players_trf, not both")
	}
	if t.PlayersTRF != "" && len(t.Players) == 0 {
		t.checkPlayersTRF(ps, key+".players_trf")
	}
	seen := map[string]int{}
	for j, p := range t.Players {
		pkey := fmt.Sprintf("%s.players[%d].name", key, j)
		if why := nameProblem(p.Name); why != "" {
			ps.add(pkey, p.Name, "%s", why)
		} else if k, ok := seen[names.Key(p.Name)]; ok {
			ps.add(pkey, p.Name, "two players of %q have this name (players[%d] and players[%d]); tell them apart, e.g. by a middle initial or club", t.Name, k, j)
		} else {
			seen[names.Key(p.Name)] = j
		}
		if p.Rating < 0 || p.Rating > 4000 {
			ps.add(fmt.Sprintf("%s.players[%d].rating", key, j), p.Rating, "must be between 0 and 4000")
		}
		for _, pr := range p.problems() {
			ps.add(fmt.Sprintf("%s.players[%d].%s", key, j, pr.Key), pr.Value, "%s", pr.Why)
		}
	}
}

// checkPlayersTRF checks the players_trf file of tournament t at key: it
// is read and parsed here, so that a file that is missing or is not a TRF
// file is refused with the rest of the configuration, before anything is
// opened or written.
func (t Tournament) checkPlayersTRF(ps *problems, key string) {
	data, err := os.ReadFile(t.PlayersTRF)
	if err != nil {
		why := "cannot read the file"
		if errors.Is(err, os.ErrNotExist) {
			why = "no such file"
			if !filepath.IsAbs(t.PlayersTRF) {
				if wd, err := os.Getwd(); err == nil {
					why += " (a relative path is read from the folder arbiter runs in, " + wd + ")"
				}
			}
		}
		ps.add(key, t.PlayersTRF, "%s: %v", why, err)
		return
	}
	f, err := trf.Parse(data)
	if err != nil {
		ps.add(key, t.PlayersTRF, "not a TRF file: %v", err)
		return
	}
	if len(f.Players) == 0 {
		ps.add(key, t.PlayersTRF, "the file lists no player (001 records)")
	}
	seen := map[string]trf.Player{}
	for _, p := range f.Players {
		if why := nameProblem(p.Name); why != "" {
			ps.add(key, t.PlayersTRF, "player %d %q: the name %s", p.ID, p.Name, why)
		} else if q, ok := seen[names.Key(p.Name)]; ok {
			ps.add(key, t.PlayersTRF, "players %d (%q) and %d (%q) have the same name; tell them apart, e.g. by a middle initial or club", q.ID, q.Name, p.ID, p.Name)
		} else {
			seen[names.Key(p.Name)] = p
		}
	}
}
