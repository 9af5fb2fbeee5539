// Package config loads and checks the daemon's configuration: the YAML
// file (or the embedded default), ARBITER_* environment variables and
// command-line flags, in increasing order of precedence.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"arbiter/arbiter"
	"arbiter/clock"
	"arbiter/configs"
	"arbiter/rules"
)

// Config is the whole configuration.
type Config struct {
	Event       Event        `mapstructure:"event"`
	HTTP        HTTP         `mapstructure:"http"`
	Console     Console      `mapstructure:"console"`
	Log         Log          `mapstructure:"log"`
	Boards      Boards       `mapstructure:"boards"`
	Demo        Demo         `mapstructure:"demo"`
	Tournaments []Tournament `mapstructure:"tournaments"`

	// Source names where the configuration came from, for logs.
	Source string `mapstructure:"-"`
}

// Event names the event and its database.
type Event struct {
	Name     string `mapstructure:"name"`
	Database string `mapstructure:"database"`
}

// HTTP configures the web server.
type HTTP struct {
	Listen string `mapstructure:"listen"`
	// TrustedProxies are the reverse proxies (CIDRs or addresses) whose
	// X-Forwarded-For and X-Forwarded-Proto headers are believed.
	TrustedProxies []string `mapstructure:"trusted_proxies"`
	// SecureCookies marks the session cookie Secure on every request.
	SecureCookies bool `mapstructure:"secure_cookies"`
	// MetricsAllow are the clients (CIDRs or addresses) that may read
	// /metrics; empty means loopback only.
	MetricsAllow []string `mapstructure:"metrics_allow"`
}

// Console lists the arbiter logins.
type Console struct {
	Users []User `mapstructure:"users"`
}

// User is one arbiter login.
type User struct {
	Name     string `mapstructure:"name"`
	Password string `mapstructure:"password"`
}

// Log configures structured logging.
type Log struct {
	Level  string `mapstructure:"level"`
	Format string `mapstructure:"format"`
}

// Boards configures real sensor boards.
type Boards struct {
	Ports  []Port        `mapstructure:"ports"`
	Baud   int           `mapstructure:"baud"`
	Scan   time.Duration `mapstructure:"scan"`
	Assign []Assignment  `mapstructure:"assign"`
}

// Port selects serial ports by exactly one of path, glob or USB identity.
type Port struct {
	Path string `mapstructure:"path"`
	Glob string `mapstructure:"glob"`
	USB  USB    `mapstructure:"usb"`
}

// USB identifies a USB serial device; empty fields match anything.
type USB struct {
	VID    string `mapstructure:"vid"`
	PID    string `mapstructure:"pid"`
	Serial string `mapstructure:"serial"`
}

// Assignment binds a board to a tournament table.
type Assignment struct {
	Board      string `mapstructure:"board"`
	Tournament string `mapstructure:"tournament"`
	Table      int    `mapstructure:"table"`
}

// Demo configures the simulated boards of the demo event.
type Demo struct {
	Boards int     `mapstructure:"boards"`
	Speed  float64 `mapstructure:"speed"`
	Faults float64 `mapstructure:"faults"`
	Seed   uint64  `mapstructure:"seed"`
	// Plies is the most moves a demo game lasts before one side resigns.
	Plies int `mapstructure:"plies"`
}

// Tournament is one tournament of the event.
type Tournament struct {
	Name        string   `mapstructure:"name"`
	Game        string   `mapstructure:"game"`
	Options     string   `mapstructure:"options"`
	System      string   `mapstructure:"system"`
	Rounds      int      `mapstructure:"rounds"`
	TimeControl string   `mapstructure:"time_control"`
	TieBreaks   []string `mapstructure:"tiebreaks"`
	TouchMove   string   `mapstructure:"touch_move"`
	IllegalMove string   `mapstructure:"illegal_move"`
	AutoPair    bool     `mapstructure:"auto_pair"`
	Players     []Player `mapstructure:"players"`
	PlayersTRF  string   `mapstructure:"players_trf"`
}

// Player is a participant given in the configuration.
type Player struct {
	Name   string `mapstructure:"name"`
	Rating int    `mapstructure:"rating"`
}

// Problem is one thing wrong with a configuration.
type Problem struct {
	Key   string
	Value string
	Why   string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s = %q: %s", p.Key, p.Value, p.Why)
}

// Error lists every problem of an invalid configuration.
type Error struct {
	Source   string
	Problems []Problem
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "invalid configuration %s (%d problems):", e.Source, len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return b.String()
}

// scalars are the keys that may be set from the environment or flags;
// each has a default so that viper passes environment-only values to
// Unmarshal.
var scalars = map[string]any{
	"event.name":     "arbiter event",
	"event.database": "arbiter-event.db",
	"http.listen":    "127.0.0.1:8080",
	"log.level":      "info",
	"log.format":     "text",
	"boards.baud":    115200,
	"boards.scan":    "1s",
	"demo.boards":    3,
	"demo.speed":     8.0,
	"demo.faults":    0.01,
	"demo.seed":      1,
	"demo.plies":     80,
}

// Load reads the configuration at path, or the embedded default when path
// is empty, then applies ARBITER_* environment variables and the flags of
// fs that were set (flag "listen" sets http.listen, "database" sets
// event.database, "log-level" sets log.level). The result is validated:
// an invalid configuration returns an *Error that lists every problem.
func Load(path string, fs *pflag.FlagSet) (*Config, error) {
	v := viper.New()
	v.SetConfigType("yaml")
	for k, d := range scalars {
		v.SetDefault(k, d)
	}
	v.SetEnvPrefix("ARBITER")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()
	source := "(built-in demo)"
	if path == "" {
		if err := v.ReadConfig(bytes.NewReader(configs.Default)); err != nil {
			return nil, fmt.Errorf("embedded configuration: %w", err)
		}
	} else {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("read configuration: %w", err)
		}
		if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
			return nil, &Error{Source: path, Problems: []Problem{{Key: "(file)", Value: filepath.Base(path), Why: "not valid YAML: " + err.Error()}}}
		}
		source = path
	}
	if fs != nil {
		for flag, key := range map[string]string{"listen": "http.listen", "database": "event.database", "log-level": "log.level"} {
			if f := fs.Lookup(flag); f != nil && f.Changed {
				v.Set(key, f.Value.String())
			}
		}
	}
	var c Config
	if err := v.Unmarshal(&c); err != nil {
		return nil, &Error{Source: source, Problems: []Problem{{Key: "(file)", Value: source, Why: err.Error()}}}
	}
	c.Source = source
	if problems := c.Validate(); len(problems) > 0 {
		return nil, &Error{Source: source, Problems: problems}
	}
	return &c, nil
}

// Validate checks every setting and returns every problem found.
func (c *Config) Validate() []Problem {
	var ps []Problem
	add := func(key string, value any, why string, args ...any) {
		ps = append(ps, Problem{Key: key, Value: fmt.Sprint(value), Why: fmt.Sprintf(why, args...)})
	}
	if strings.TrimSpace(c.Event.Name) == "" {
		add("event.name", c.Event.Name, "must not be empty")
	}
	if c.Event.Database == "" {
		add("event.database", c.Event.Database, "must name a file")
	}
	if _, _, err := net.SplitHostPort(c.HTTP.Listen); err != nil {
		add("http.listen", c.HTTP.Listen, "want host:port (%v)", err)
	}
	if !slices.Contains([]string{"debug", "info", "warn", "error"}, c.Log.Level) {
		add("log.level", c.Log.Level, "want debug, info, warn or error")
	}
	if !slices.Contains([]string{"text", "json"}, c.Log.Format) {
		add("log.format", c.Log.Format, "want text or json")
	}
	seenUser := map[string]bool{}
	for i, u := range c.Console.Users {
		key := fmt.Sprintf("console.users[%d]", i)
		if u.Name == "" {
			add(key+".name", u.Name, "must not be empty")
		}
		if seenUser[u.Name] {
			add(key+".name", u.Name, "given twice")
		}
		seenUser[u.Name] = true
		if len(u.Password) < 4 {
			add(key+".password", "(hidden)", "must have at least 4 characters")
		}
	}
	if c.Boards.Baud <= 0 {
		add("boards.baud", c.Boards.Baud, "must be positive")
	}
	if c.Boards.Scan <= 0 {
		add("boards.scan", c.Boards.Scan, "must be a positive duration such as 1s")
	}
	for i, p := range c.Boards.Ports {
		n := 0
		for _, set := range []bool{p.Path != "", p.Glob != "", p.USB != (USB{})} {
			if set {
				n++
			}
		}
		if n != 1 {
			add(fmt.Sprintf("boards.ports[%d]", i), fmt.Sprintf("%+v", p), "give exactly one of path, glob or usb")
		}
		if p.Glob != "" {
			if _, err := filepath.Match(p.Glob, ""); err != nil {
				add(fmt.Sprintf("boards.ports[%d].glob", i), p.Glob, "bad pattern: %v", err)
			}
		}
	}
	if c.Demo.Boards < 0 || c.Demo.Boards > 64 {
		add("demo.boards", c.Demo.Boards, "must be between 0 and 64")
	}
	if c.Demo.Speed <= 0 || c.Demo.Speed > 1000 {
		add("demo.speed", c.Demo.Speed, "must be above 0 and at most 1000")
	}
	if c.Demo.Plies < 2 {
		add("demo.plies", c.Demo.Plies, "must be at least 2")
	}
	if c.Demo.Faults < 0 || c.Demo.Faults > 1 {
		add("demo.faults", c.Demo.Faults, "must be between 0 and 1")
	}
	names := map[string]bool{}
	for i, t := range c.Tournaments {
		key := fmt.Sprintf("tournaments[%d]", i)
		if t.Name == "" {
			add(key+".name", t.Name, "must not be empty")
		} else if names[t.Name] {
			add(key+".name", t.Name, "two tournaments have this name")
		}
		names[t.Name] = true
		opts, err := rules.ParseOptions(t.Options)
		if err != nil {
			add(key+".options", t.Options, "%v", err)
		} else if _, err := rules.New(t.Game, opts); err != nil {
			add(key+".game", t.Game+" "+t.Options, "%v", err)
		}
		if !slices.Contains([]string{"swiss-dutch", "swiss-dutch-2017", "round-robin", "double-round-robin"}, t.System) {
			add(key+".system", t.System, "want swiss-dutch, swiss-dutch-2017, round-robin or double-round-robin")
		}
		if t.Rounds < 1 || t.Rounds > 99 {
			add(key+".rounds", t.Rounds, "must be between 1 and 99")
		}
		if t.TimeControl != "" {
			if _, err := clock.Parse(t.TimeControl); err != nil {
				add(key+".time_control", t.TimeControl, "%v", err)
			}
		}
		if t.TouchMove != "" {
			if _, err := arbiter.ParseTouchMove(t.TouchMove); err != nil {
				add(key+".touch_move", t.TouchMove, "%v", err)
			}
		}
		if t.IllegalMove != "" {
			if _, err := arbiter.ParseIllegalMove(t.IllegalMove); err != nil {
				add(key+".illegal_move", t.IllegalMove, "%v", err)
			}
		}
		if len(t.Players) > 0 && t.PlayersTRF != "" {
			add(key+".players_trf", t.PlayersTRF, "give players or players_trf, not both")
		}
		for j, p := range t.Players {
			if strings.TrimSpace(p.Name) == "" {
				add(fmt.Sprintf("%s.players[%d].name", key, j), p.Name, "must not be empty")
			}
			if p.Rating < 0 || p.Rating > 4000 {
				add(fmt.Sprintf("%s.players[%d].rating", key, j), p.Rating, "must be between 0 and 4000")
			}
		}
	}
	for i, a := range c.Boards.Assign {
		key := fmt.Sprintf("boards.assign[%d]", i)
		if a.Board == "" {
			add(key+".board", a.Board, "must name a board id")
		}
		if !names[a.Tournament] {
			add(key+".tournament", a.Tournament, "no tournament has this name")
		}
		if a.Table < 1 {
			add(key+".table", a.Table, "must be at least 1")
		}
	}
	return ps
}

// IsInvalid reports whether err is a configuration error.
func IsInvalid(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
