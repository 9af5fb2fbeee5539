// Package config loads and checks the daemon's configuration: the YAML
// file (or the embedded default), ARBITER_* environment variables and
// command-line flags, in increasing order of precedence.
package config

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"

	"arbiter/configs"
	"arbiter/internal/federation"
)

// Config is the whole configuration.
type Config struct {
	Event       Event        `mapstructure:"event"`
	HTTP        HTTP         `mapstructure:"http"`
	Console     Console      `mapstructure:"console"`
	Log         Log          `mapstructure:"log"`
	Boards      Boards       `mapstructure:"boards"`
	Demo        Demo         `mapstructure:"demo"`
	Backup      Backup       `mapstructure:"backup"`
	Tournaments []Tournament `mapstructure:"tournaments"`
	Broadcast   Broadcast    `mapstructure:"broadcast"`
	// Federation joins the daemon to a multi-hall event over NATS
	// JetStream (package federation checks its own section); a
	// single-hall event leaves it out.
	Federation federation.Config `mapstructure:"federation"`

	// Source names where the configuration came from, for logs.
	Source string `mapstructure:"-"`

	// warnings are what Load noticed that does not stop a start; lines
	// are the lines of the file's keys, for them.
	warnings []Problem
	lines    lines
}

// Event names the event and its database, and says what the records
// (the TRF report's header) tell about it.
type Event struct {
	Name     string `mapstructure:"name"`
	Database string `mapstructure:"database"`
	// City and Federation (a FIDE code such as "NOR") are where the event
	// is held.
	City       string `mapstructure:"city"`
	Federation string `mapstructure:"federation"`
	// ChiefArbiter and DeputyArbiters name the arbiters, as the TRF report
	// lists them (e.g. "IA Jane Doe").
	ChiefArbiter   string   `mapstructure:"chief_arbiter"`
	DeputyArbiters []string `mapstructure:"deputy_arbiters"`
	// StartDate and EndDate are the event's first and last days,
	// YYYY-MM-DD.
	StartDate string `mapstructure:"start_date"`
	EndDate   string `mapstructure:"end_date"`
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

// Backup configures automatic backups of the running event's database.
type Backup struct {
	// Dir is the folder backups are written to; empty turns them off.
	Dir string `mapstructure:"dir"`
	// Every is how often a backup is written.
	Every time.Duration `mapstructure:"every"`
	// Keep is how many of the newest backups are kept.
	Keep int `mapstructure:"keep"`
}

// Demo configures the simulated boards of the demo event and of
// rehearsals.
type Demo struct {
	// Enabled puts simulated boards, played by simulated people, on the
	// event: the built-in demo sets it. Without it no game is ever played
	// but on a real board (or entered by the arbiter).
	Enabled bool    `mapstructure:"enabled"`
	Boards  int     `mapstructure:"boards"`
	Speed   float64 `mapstructure:"speed"`
	Faults  float64 `mapstructure:"faults"`
	Seed    uint64  `mapstructure:"seed"`
	// Plies is the most moves a demo game lasts before one side resigns.
	Plies int `mapstructure:"plies"`
	// DGT puts one simulated DGT e-board in the first chess tournament.
	DGT bool `mapstructure:"dgt"`
	// BoardsOf puts one simulated board of each protocol listed on a
	// table of the first chess tournament (after the DGT board), read
	// through its protocol's driver as a real one would be.
	BoardsOf []string `mapstructure:"boards_of"`
}

// Broadcast configures pushing live rounds to broadcast services.
type Broadcast struct {
	Push []Push `mapstructure:"push"`
}

// Push sends a tournament's round feed (its PGN for chess) to a
// lichess-broadcast-compatible endpoint on every change.
type Push struct {
	// URL is where the round is POSTed; "{round}" in it is replaced by the
	// round number. Without Round the URL must hold "{round}".
	URL        string `mapstructure:"url"`
	Tournament string `mapstructure:"tournament"`
	// Round limits the push to one round (a lichess broadcast has a URL
	// per round); 0 pushes every round.
	Round int `mapstructure:"round"`
	// Token is sent as "Authorization: Bearer"; TokenEnv names an
	// environment variable holding it instead, to keep it out of the file.
	Token    string `mapstructure:"token"`
	TokenEnv string `mapstructure:"token_env"`
	// Format is the feed's record format; empty: the game's usual one.
	Format string `mapstructure:"format"`
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
	// Accelerated is the acceleration of a Swiss: "" or "baku".
	Accelerated string `mapstructure:"accelerated"`
	// HalfPointByes is how many half-point byes a player may request.
	HalfPointByes int `mapstructure:"half_point_byes"`
	// RoundTimeControls overrides TimeControl for single rounds.
	RoundTimeControls map[int]string `mapstructure:"round_time_controls"`
	// RoundDates are the scheduled days of the rounds, round 1 first,
	// YYYY-MM-DD; a round without one is dated by its pairing.
	RoundDates []string `mapstructure:"round_dates"`
}

// Player is a participant given in the configuration. Besides the name,
// what the records carry when given: the rating, the FIDE id, the title
// (GM, IM, FM, CM, WGM, WIM, WFM, WCM), the federation (a FIDE code such
// as "NOR") and the date of birth (Birth, YYYY-MM-DD) or its year.
type Player struct {
	Name       string `mapstructure:"name"`
	Rating     int    `mapstructure:"rating"`
	FideID     string `mapstructure:"fide_id"`
	Title      string `mapstructure:"title"`
	Federation string `mapstructure:"federation"`
	BirthYear  int    `mapstructure:"birth_year"`
	Birth      string `mapstructure:"birth"`
}

// Problem is one thing wrong with a configuration.
type Problem struct {
	Key   string
	Value string
	Why   string
	// Line is the line of the key in the configuration file, 0 when the
	// value did not come from the file (or the problem has no key there).
	Line int
	// From names where the value came from when not the file, e.g.
	// "environment ARBITER_HTTP_LISTEN" or "flag --listen".
	From string
}

func (p Problem) String() string {
	where := ""
	switch {
	case p.From != "":
		where = p.From + ": "
	case p.Line > 0:
		where = fmt.Sprintf("line %d: ", p.Line)
	}
	return fmt.Sprintf("%s%s = %q: %s", where, p.Key, p.Value, p.Why)
}

// Error lists every problem of an invalid configuration.
type Error struct {
	Source   string
	Problems []Problem
}

func (e *Error) Error() string {
	var b strings.Builder
	noun := "problems"
	if len(e.Problems) == 1 {
		noun = "problem"
	}
	fmt.Fprintf(&b, "invalid configuration %s (%d %s):", e.Source, len(e.Problems), noun)
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return b.String()
}

// envPrefix starts every environment variable of the configuration.
const envPrefix = "ARBITER"

// scalars are the defaults of keys that a file need not give.
var scalars = map[string]any{
	"event.name":     "arbiter event",
	"event.database": "arbiter-event.db",
	"http.listen":    "127.0.0.1:8080",
	"log.level":      "info",
	"log.format":     "text",
	"boards.scan":    "1s",
	"demo.enabled":   false,
	"demo.boards":    0,
	"demo.speed":     8.0,
	"demo.faults":    0.01,
	"demo.seed":      1,
	"demo.plies":     80,
	"demo.dgt":       true,
	"backup.dir":     "",
	"backup.every":   "10m",
	"backup.keep":    24,
	// An environment variable alone sets a key only if it has a default.
	"http.secure_cookies": false,
	// Federation: none unless a role is given.
	"federation.role":        "",
	"federation.listen":      "127.0.0.1:4222",
	"federation.first_board": federation.DefaultFirstBoard,
}

// flagKeys are the flags of serve that set a key.
var flagKeys = map[string]string{"listen": "http.listen", "database": "event.database", "log-level": "log.level"}

// Load reads the configuration at path, or the embedded default when path
// is empty, then applies ARBITER_* environment variables and the flags of
// fs that were set (flag "listen" sets http.listen, "database" sets
// event.database, "log-level" sets log.level). The result is validated:
// an invalid configuration, or a file that cannot be read, returns an
// *Error that lists every problem. Load opens nothing but the file.
func Load(path string, fs *pflag.FlagSet) (*Config, error) {
	if path == "" {
		return Parse(configs.Default, "(built-in demo)", fs)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		why := "cannot read the configuration file"
		if errors.Is(err, os.ErrNotExist) {
			why = "no such configuration file"
		}
		return nil, &Error{Source: path, Problems: []Problem{{Key: "(file)", Value: path,
			Why: fmt.Sprintf("%s (read configuration: %v)", why, err)}}}
	}
	return Parse(data, path, fs)
}

// Parse is Load for the YAML text of a file; source names it in messages.
// Every key of the text must be known, and every problem is listed: unknown
// keys (with the nearest known one), values of the wrong type, and what
// Validate finds, each with its line in the text or the variable or flag
// that set it.
func Parse(data []byte, source string, fs *pflag.FlagSet) (*Config, error) {
	fail := func(ps ...Problem) error { return &Error{Source: source, Problems: ps} }
	doc, p := parseYAML(data, source)
	if p != nil {
		return nil, fail(*p)
	}
	v, err := newViper()
	if err != nil {
		return nil, err
	}
	if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
		return nil, fail(Problem{Key: "(file)", Value: filepath.Base(source), Why: "not valid YAML: " + err.Error()})
	}
	// After viper's reading, which refuses excessive aliasing.
	where, problems := checkKeys(doc, reflect.TypeFor[Config]())
	from := applySources(v, fs)
	c, bad, ps := decode(v)
	problems = append(problems, ps...)
	c.Source = source
	for _, p := range c.Validate() {
		if _, ok := enclosing(bad, p.Key); !ok {
			problems = append(problems, p)
		}
	}
	for i := range problems {
		p := &problems[i]
		if p.Line != 0 || p.From != "" {
			continue
		}
		if f, ok := enclosing(from, p.Key); ok {
			p.From = f
		} else {
			p.Line = where.line(p.Key)
		}
	}
	if len(problems) > 0 {
		// In the order of the file; what came from elsewhere last.
		slices.SortStableFunc(problems, func(a, b Problem) int {
			return cmp.Compare(lineOrLast(a.Line), lineOrLast(b.Line))
		})
		return nil, fail(problems...)
	}
	c.warnings = envWarnings(environ())
	c.lines = where
	return c, nil
}

// parseYAML reads the YAML text of a file, which must be a mapping of
// sections; otherwise it returns the problem.
func parseYAML(data []byte, source string) (*yaml.Node, *Problem) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &Problem{Key: "(file)", Value: filepath.Base(source), Why: "not valid YAML: " + err.Error()}
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	switch {
	case root.Kind == 0 || root.Kind == yaml.DocumentNode || (root.Kind == yaml.ScalarNode && root.Tag == "!!null"):
		return nil, &Problem{Key: "(file)", Value: filepath.Base(source),
			Why: "the file is empty: give at least the event and its tournaments (configs/arbiter.yaml explains every key)"}
	case root.Kind != yaml.MappingNode:
		return nil, &Problem{Key: "(file)", Value: nodeText(root), Line: root.Line,
			Why: "the file must be a mapping of sections (event:, http:, tournaments: ...)"}
	}
	return &doc, nil
}

// newViper returns a viper with the defaults, every key bound to its
// ARBITER_* variable.
func newViper() (*viper.Viper, error) {
	v := viper.New()
	v.SetConfigType("yaml")
	for k, d := range scalars {
		v.SetDefault(k, d)
	}
	v.SetEnvPrefix(envPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()
	// Bind every key an environment variable can set, so that keys without
	// a default can be set from the environment alone too.
	for _, k := range envKeys(reflect.TypeFor[Config](), "") {
		if err := v.BindEnv(k); err != nil {
			return nil, fmt.Errorf("bind %s: %w", k, err)
		}
	}
	return v, nil
}

// applySources sets the keys the flags of fs set, and returns where each
// value came from when not the file: the environment applies to every key
// viper knows, even one given as a list in the file, and a variable for a
// section (ARBITER_EVENT) replaces the whole section.
func applySources(v *viper.Viper, fs *pflag.FlagSet) map[string]string {
	from := map[string]string{}
	for _, k := range v.AllKeys() {
		for i := range strings.Count(k, ".") + 1 {
			p := strings.Join(strings.Split(k, ".")[:i+1], ".")
			if os.Getenv(envName(p)) != "" { // viper ignores empty variables
				from[p] = "environment " + envName(p)
			}
		}
	}
	if fs != nil {
		for flag, key := range flagKeys {
			if f := fs.Lookup(flag); f != nil && f.Changed {
				v.Set(key, f.Value.String())
				from[key] = "flag --" + flag
			}
		}
	}
	return from
}

// decode decodes the configuration viper holds, the boards' protocols
// through their registrations. It returns the keys whose values could not
// be decoded, and a problem for each.
func decode(v *viper.Viper) (*Config, map[string]bool, []Problem) {
	var c Config
	var problems []Problem
	bad := map[string]bool{}
	var ps []Problem
	if err := v.Unmarshal(&c, viper.DecodeHook(decodeHook)); err != nil {
		ps = decodeErrors(err)
	}
	ps = append(ps, c.Boards.decodeProtocols(v.AllSettings())...)
	for _, p := range ps {
		if p.Value == "" && p.Key != "(file)" {
			// The decoder does not always say what it was given.
			p.Value = fmt.Sprint(v.Get(p.Key))
		}
		problems = append(problems, p)
		bad[p.Key] = true
	}
	return &c, bad, problems
}

func lineOrLast(line int) int {
	if line == 0 {
		return math.MaxInt
	}
	return line
}

// decodeErrors returns a problem for each key the decoder could not
// decode, with the value it was given where the decoder says.
func decodeErrors(err error) []Problem {
	var out []Problem
	var walk func(error)
	walk = func(err error) {
		switch e := err.(type) {
		case *mapstructure.DecodeError:
			// A key's error may hold the errors of the keys within it.
			n := len(out)
			walk(e.Unwrap())
			if len(out) == n {
				out = append(out, Problem{Key: e.Name(), Value: decodedValue(e), Why: e.Unwrap().Error()})
			}
		case interface{ Unwrap() []error }:
			for _, x := range e.Unwrap() {
				walk(x)
			}
		case interface{ Unwrap() error }:
			walk(e.Unwrap())
		}
	}
	walk(err)
	if len(out) == 0 {
		out = append(out, Problem{Key: "(file)", Why: err.Error()})
	}
	return out
}

// decodedValue is the value a decoder error names, or "".
func decodedValue(err error) string {
	var pe *mapstructure.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprint(pe.Value)
	}
	var ue *mapstructure.UnconvertibleTypeError
	if errors.As(err, &ue) {
		return fmt.Sprint(ue.Value)
	}
	var fe *fractionError
	if errors.As(err, &fe) {
		return fmt.Sprint(fe.value)
	}
	return ""
}

// IsInvalid reports whether err is a configuration error.
func IsInvalid(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

// PushTokenProblems lists the broadcast pushes whose token_env names an
// environment variable that is not set. Only the daemon, which pushes,
// needs the tokens: serve refuses these, while the commands that read the
// event (export, import) do not ask for them.
func (c *Config) PushTokenProblems() []Problem {
	var ps []Problem
	for i, p := range c.Broadcast.Push {
		if p.TokenEnv != "" && os.Getenv(p.TokenEnv) == "" {
			key := fmt.Sprintf("broadcast.push[%d].token_env", i)
			ps = append(ps, Problem{Key: key, Value: p.TokenEnv, Why: "the environment variable is not set: the push has no token", Line: c.lines.line(key)})
		}
	}
	return ps
}

// PushToken is the push's token: Token, or the value of TokenEnv.
func (p Push) PushToken() string {
	if p.TokenEnv != "" {
		return os.Getenv(p.TokenEnv)
	}
	return p.Token
}
