// Package config loads and checks the daemon's configuration: the YAML
// file (or the embedded default), ARBITER_* environment variables and
// command-line flags, in increasing order of precedence.
package config

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/url"
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
	Backup      Backup       `mapstructure:"backup"`
	Tournaments []Tournament `mapstructure:"tournaments"`
	Broadcast   Broadcast    `mapstructure:"broadcast"`
	Federation  Federation   `mapstructure:"federation"`

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

// Boards configures real sensor boards.
type Boards struct {
	Ports  []Port        `mapstructure:"ports"`
	Baud   int           `mapstructure:"baud"`
	Scan   time.Duration `mapstructure:"scan"`
	Assign []Assignment  `mapstructure:"assign"`
	// DGT tunes the DGT e-boards (ports with protocol dgt).
	DGT DGT `mapstructure:"dgt"`
}

// The board protocols a port may speak (Port.Protocol).
const (
	// ProtocolSensorboard is our own boards' protocol, the default.
	ProtocolSensorboard = "sensorboard"
	// ProtocolDGT is DGT's e-board protocol (USB, serial and Bluetooth
	// boards at 9600 8N1).
	ProtocolDGT = "dgt"
	// ProtocolDGTBus is a line of DGT e-boards in bus mode: many boards
	// on one serial port, each by its bus address (DGT's tournament
	// set-up).
	ProtocolDGTBus = "dgt-bus"
)

// MaxBusAddress is the highest DGT bus address (14 bits); 0 addresses
// every board and is no board's own.
const MaxBusAddress = 1<<14 - 1

// DGT tunes the DGT e-boards.
type DGT struct {
	// WhiteRight seats White at the clock's right display (default: the
	// left one).
	WhiteRight bool `mapstructure:"white_right"`
	// Settle is how long a board's field updates must be quiet before its
	// position is taken (0: 250 ms, DGT's USB scan time; Bluetooth boards
	// scan at half speed and want 500 ms or more).
	Settle time.Duration `mapstructure:"settle"`
	// BusPoll is how often every board of a bus line (protocol dgt-bus)
	// is asked for its changes (0: 2 s, DGT's "every few seconds").
	BusPoll time.Duration `mapstructure:"bus_poll"`
}

// Port selects serial ports by exactly one of path, glob or USB identity.
type Port struct {
	// Protocol is what the board on the port speaks: "sensorboard" (our
	// boards, the default when empty), "dgt" (a DGT e-board, found by
	// path or glob) or "dgt-bus" (a line of DGT e-boards in bus mode,
	// found by path or glob).
	Protocol string `mapstructure:"protocol"`
	Path     string `mapstructure:"path"`
	Glob     string `mapstructure:"glob"`
	USB      USB    `mapstructure:"usb"`
	// Addresses are the bus addresses of the boards expected on a dgt-bus
	// line (1 to MaxBusAddress); the boards not listed that answer DGT's
	// ping join too.
	Addresses []int `mapstructure:"addresses"`
}

// String writes the port entry as the file gives it: "path: /dev/ttyUSB0,
// glob: /dev/ttyACM*", or "(empty)".
func (p Port) String() string {
	var parts []string
	add := func(key, v string) {
		if v != "" {
			parts = append(parts, key+": "+v)
		}
	}
	add("path", p.Path)
	add("glob", p.Glob)
	add("usb.vid", p.USB.VID)
	add("usb.pid", p.USB.PID)
	add("usb.serial", p.USB.Serial)
	if len(parts) == 0 {
		return "(empty)"
	}
	return strings.Join(parts, ", ")
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

// Backup configures automatic backups of the running event's database.
type Backup struct {
	// Dir is the folder backups are written to; empty turns them off.
	Dir string `mapstructure:"dir"`
	// Every is how often a backup is written.
	Every time.Duration `mapstructure:"every"`
	// Keep is how many of the newest backups are kept.
	Keep int `mapstructure:"keep"`
}

// Demo configures the simulated boards of the demo event.
type Demo struct {
	Boards int     `mapstructure:"boards"`
	Speed  float64 `mapstructure:"speed"`
	Faults float64 `mapstructure:"faults"`
	Seed   uint64  `mapstructure:"seed"`
	// Plies is the most moves a demo game lasts before one side resigns.
	Plies int `mapstructure:"plies"`
	// DGT puts one simulated DGT e-board in the first chess tournament.
	DGT bool `mapstructure:"dgt"`
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

// Federation joins the daemon to a multi-hall event over NATS JetStream;
// a single-hall event leaves it out.
type Federation struct {
	// Role is "hall" (publish this hall's facts), "hub" (gather every
	// hall's) or "" (no federation).
	Role string `mapstructure:"role"`
	// Hall is this hall's name (role hall): letters, digits, '-', '_'.
	Hall string `mapstructure:"hall"`
	// URL is a NATS server to use (nats:// or tls://); empty: the daemon
	// embeds one, listening on Listen and keeping its streams in StoreDir.
	URL      string `mapstructure:"url"`
	Listen   string `mapstructure:"listen"`
	StoreDir string `mapstructure:"store_dir"`
	// LeafListen (embedded hub) accepts the halls' leaf node links;
	// HubURL (embedded hall) is the hub's leaf node address.
	LeafListen string `mapstructure:"leaf_listen"`
	HubURL     string `mapstructure:"hub_url"`
	// Halls (hub) are the halls whose streams the hub sources; each hall's
	// JetStream domain is its name.
	Halls []string `mapstructure:"halls"`
	// FirstBoard (hall) is the event's board number the hall's first table
	// of each tournament plays: its table n plays board first_board+n-1 of
	// the rounds the hub pairs.
	FirstBoard int `mapstructure:"first_board"`
	// HallPasswords (embedded hub) are the halls' passwords or bcrypt
	// hashes for their leaf node links, by hall: given, each hall must
	// have one and may use only its own subjects. A hall gives its own in
	// hub_url (nats-leaf://east:secret@hq.example:7422).
	HallPasswords map[string]string `mapstructure:"hall_passwords"`
	// TLSCert and TLSKey (embedded hub) are the leaf node port's
	// certificate and key; TLSCA (hall) is the authority the hall trusts
	// for the hub's certificate (and for url's server).
	TLSCert string `mapstructure:"tls_cert"`
	TLSKey  string `mapstructure:"tls_key"`
	TLSCA   string `mapstructure:"tls_ca"`
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
	"boards.baud":    115200,
	"boards.scan":    "1s",
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
	"federation.first_board": 1,
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
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fail(Problem{Key: "(file)", Value: filepath.Base(source), Why: "not valid YAML: " + err.Error()})
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	switch {
	case root.Kind == 0 || root.Kind == yaml.DocumentNode || (root.Kind == yaml.ScalarNode && root.Tag == "!!null"):
		return nil, fail(Problem{Key: "(file)", Value: filepath.Base(source),
			Why: "the file is empty: give at least the event and its tournaments (configs/arbiter.yaml explains every key)"})
	case root.Kind != yaml.MappingNode:
		return nil, fail(Problem{Key: "(file)", Value: nodeText(root), Line: root.Line,
			Why: "the file must be a mapping of sections (event:, http:, tournaments: ...)"})
	}

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
	if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
		return nil, fail(Problem{Key: "(file)", Value: filepath.Base(source), Why: "not valid YAML: " + err.Error()})
	}
	// After viper's reading, which refuses excessive aliasing.
	where, problems := checkKeys(&doc, reflect.TypeFor[Config]())
	// Where a value came from, when not the file: the environment applies
	// to every key viper knows, even one given as a list in the file.
	// A variable for a section (ARBITER_EVENT) replaces the whole section.
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
	var c Config
	bad := map[string]bool{} // keys whose value could not be decoded
	if err := v.Unmarshal(&c, viper.DecodeHook(decodeHook)); err != nil {
		for _, p := range decodeErrors(err) {
			if p.Value == "" && p.Key != "(file)" {
				// The decoder does not always say what it was given.
				p.Value = fmt.Sprint(v.Get(p.Key))
			}
			problems = append(problems, p)
			bad[p.Key] = true
		}
	}
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
	return &c, nil
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
	return ""
}

// Validate checks every setting and returns every problem found.
func (c *Config) Validate() []Problem {
	var ps []Problem
	add := func(key string, value any, why string, args ...any) {
		ps = append(ps, Problem{Key: key, Value: fmt.Sprint(value), Why: fmt.Sprintf(why, args...)})
	}
	checkName := func(key, name string) {
		if why := nameProblem(name); why != "" {
			add(key, name, "%s", why)
		}
	}
	checkName("event.name", c.Event.Name)
	ps = append(ps, c.Event.problems()...)
	if c.Event.Database == "" {
		add("event.database", c.Event.Database, "must name a file")
	}
	if why := listenProblem(c.HTTP.Listen); why != "" {
		add("http.listen", c.HTTP.Listen, "%s", why)
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
		checkName(key+".name", u.Name)
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
			add(fmt.Sprintf("boards.ports[%d]", i), p.String(), "give exactly one of path, glob or usb")
		}
		if p.Glob != "" {
			if _, err := filepath.Match(p.Glob, ""); err != nil {
				add(fmt.Sprintf("boards.ports[%d].glob", i), p.Glob, "bad pattern: %v", err)
			}
		}
		switch p.Protocol {
		case "", ProtocolSensorboard:
		case ProtocolDGT, ProtocolDGTBus:
			if p.USB != (USB{}) {
				add(fmt.Sprintf("boards.ports[%d].usb", i), fmt.Sprintf("%+v", p.USB), "a DGT board is found by path or glob")
			}
		default:
			add(fmt.Sprintf("boards.ports[%d].protocol", i), p.Protocol, "unknown protocol; known: %s, %s, %s", ProtocolSensorboard, ProtocolDGT, ProtocolDGTBus)
		}
		ps = append(ps, p.addressProblems(fmt.Sprintf("boards.ports[%d]", i))...)
	}
	if c.Boards.DGT.Settle < 0 || c.Boards.DGT.Settle > 5*time.Second {
		add("boards.dgt.settle", c.Boards.DGT.Settle, "must be between 0 and 5s")
	}
	if p := c.Boards.DGT.BusPoll; p != 0 && (p < 50*time.Millisecond || p > 30*time.Second) {
		add("boards.dgt.bus_poll", p, "must be 0 (2s) or between 50ms and 30s")
	}
	if c.Backup.Dir != "" && c.Backup.Every < time.Second {
		add("backup.every", c.Backup.Every, "must be at least 1s")
	}
	if c.Backup.Keep < 1 {
		add("backup.keep", c.Backup.Keep, "must be at least 1")
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
		if why := nameProblem(t.Name); why != "" {
			add(key+".name", t.Name, "%s", why)
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
		} else if f := t.feasibility(); f.impossible {
			add(key+".rounds", t.Rounds, "%s", f.why)
		}
		for j, tb := range t.TieBreaks {
			if why := tieBreakProblem(tb); why != "" {
				add(fmt.Sprintf("%s.tiebreaks[%d]", key, j), tb, "%s", why)
			}
		}
		if t.TimeControl != "" {
			if _, err := clock.Parse(t.TimeControl); err != nil {
				add(key+".time_control", t.TimeControl, "%v", err)
			}
		}
		if t.Accelerated != "" && t.Accelerated != "baku" {
			add(key+".accelerated", t.Accelerated, "want baku or nothing")
		}
		if t.Accelerated != "" && !strings.HasPrefix(t.System, "swiss") {
			add(key+".accelerated", t.Accelerated, "only a Swiss is accelerated")
		}
		if t.HalfPointByes < 0 || t.HalfPointByes > t.Rounds {
			add(key+".half_point_byes", t.HalfPointByes, "must be between 0 and the number of rounds")
		}
		for r, tc := range t.RoundTimeControls {
			if r < 1 || r > t.Rounds {
				add(fmt.Sprintf("%s.round_time_controls.%d", key, r), tc, "no such round: the tournament has %d", t.Rounds)
			}
			if _, err := clock.Parse(tc); err != nil && tc != "-" {
				add(fmt.Sprintf("%s.round_time_controls.%d", key, r), tc, "%v", err)
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
		seenPlayer := map[string]int{}
		for j, p := range t.Players {
			pkey := fmt.Sprintf("%s.players[%d].name", key, j)
			if why := nameProblem(p.Name); why != "" {
				add(pkey, p.Name, "%s", why)
			} else if k, ok := seenPlayer[sameName(p.Name)]; ok {
				add(pkey, p.Name, "two players of %q have this name (players[%d] and players[%d]); tell them apart, e.g. by a middle initial or club", t.Name, k, j)
			} else {
				seenPlayer[sameName(p.Name)] = j
			}
			if p.Rating < 0 || p.Rating > 4000 {
				add(fmt.Sprintf("%s.players[%d].rating", key, j), p.Rating, "must be between 0 and 4000")
			}
			for _, pr := range p.problems() {
				add(fmt.Sprintf("%s.players[%d].%s", key, j, pr.Key), pr.Value, "%s", pr.Why)
			}
		}
		ps = append(ps, t.dateProblems(key, c.Event)...)
	}
	boardAt := map[string]int{}
	type table struct {
		tournament string
		n          int
	}
	tableAt := map[table]int{}
	for i, a := range c.Boards.Assign {
		key := fmt.Sprintf("boards.assign[%d]", i)
		if a.Board == "" {
			add(key+".board", a.Board, "must name a board id")
		} else if j, ok := boardAt[a.Board]; ok {
			add(key+".board", a.Board, "this board is assigned twice (boards.assign[%d] and [%d])", j, i)
		} else {
			boardAt[a.Board] = i
		}
		if !names[a.Tournament] {
			add(key+".tournament", a.Tournament, "no tournament has this name")
		}
		if a.Table < 1 {
			add(key+".table", a.Table, "must be at least 1")
		} else if j, ok := tableAt[table{a.Tournament, a.Table}]; ok {
			add(key+".table", a.Table, "table %d of %q has two boards (boards.assign[%d] and [%d])", a.Table, a.Tournament, j, i)
		} else {
			tableAt[table{a.Tournament, a.Table}] = i
		}
	}
	ps = append(ps, c.Broadcast.problems(names)...)
	ps = append(ps, c.Federation.problems()...)
	return ps
}

// problems checks the federation section.
func (f Federation) problems() []Problem {
	var ps []Problem
	add := func(key string, value any, why string, args ...any) {
		ps = append(ps, Problem{Key: key, Value: fmt.Sprint(value), Why: fmt.Sprintf(why, args...)})
	}
	natsURL := func(key, raw string, schemes ...string) {
		u, err := url.Parse(raw)
		var ue *url.Error
		switch {
		case errors.As(err, &ue):
			add(key, redactURL(raw), "%v", ue.Err)
		case err != nil:
			add(key, redactURL(raw), "%v", err)
		case !slices.Contains(schemes, u.Scheme) || u.Host == "":
			add(key, u.Redacted(), "must be a %s address with a host", strings.Join(schemes, ":// or ")+"://")
		}
	}
	switch f.Role {
	case "":
		return nil
	case "hall":
		if err := ValidHallName(f.Hall); err != nil {
			add("federation.hall", f.Hall, "a hall needs its name: %v", err)
		}
		if f.URL == "" && f.HubURL != "" {
			natsURL("federation.hub_url", f.HubURL, "nats-leaf", "tls")
		}
		if f.FirstBoard < 1 {
			add("federation.first_board", f.FirstBoard, "must be 1 or more (the board the hall's first table plays)")
		}
	case "hub":
		seen := map[string]int{}
		for i, h := range f.Halls {
			key := fmt.Sprintf("federation.halls[%d]", i)
			if err := ValidHallName(h); err != nil {
				add(key, h, "%v", err)
			} else if j, ok := seen[h]; ok {
				add(key, h, "this hall is listed twice (halls[%d] and [%d])", j, i)
			} else {
				seen[h] = i
			}
		}
		if len(f.Halls) == 0 {
			add("federation.halls", "", "a hub needs the names of the halls it gathers")
		}
		if len(f.HallPasswords) > 0 {
			for _, h := range f.Halls {
				if f.HallPasswords[h] == "" {
					add("federation.hall_passwords."+h, "", "every hall needs a password once one has")
				}
			}
			for _, h := range slices.Sorted(maps.Keys(f.HallPasswords)) {
				if !slices.Contains(f.Halls, h) {
					add("federation.hall_passwords."+h, "", "%q is not one of federation.halls", h)
				}
			}
		}
		if (f.TLSCert == "") != (f.TLSKey == "") {
			add("federation.tls_key", f.TLSKey, "give both tls_cert and tls_key, or neither")
		}
		if f.URL == "" && f.LeafListen != "" {
			if why := listenProblem(f.LeafListen); why != "" {
				add("federation.leaf_listen", f.LeafListen, "%s", why)
			}
		}
	default:
		add("federation.role", f.Role, "want hall, hub, or nothing for a single-hall event")
		return ps
	}
	for _, kp := range [][2]string{{"federation.tls_cert", f.TLSCert}, {"federation.tls_key", f.TLSKey}, {"federation.tls_ca", f.TLSCA}} {
		if _, err := os.Stat(kp[1]); kp[1] != "" && err != nil {
			add(kp[0], kp[1], "cannot read it: %v", err)
		}
	}
	if f.URL != "" {
		natsURL("federation.url", f.URL, "nats", "tls")
		return ps
	}
	if why := listenProblem(f.Listen); why != "" {
		add("federation.listen", f.Listen, "%s", why)
	}
	if f.StoreDir == "" {
		add("federation.store_dir", f.StoreDir, "the embedded NATS server needs a directory for its streams (or give url)")
	}
	return ps
}

// IsInvalid reports whether err is a configuration error.
func IsInvalid(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

// problems checks the broadcast pushes; names are the tournaments' names.
func (b Broadcast) problems(names map[string]bool) []Problem {
	var ps []Problem
	add := func(key string, value any, why string, args ...any) {
		ps = append(ps, Problem{Key: key, Value: fmt.Sprint(value), Why: fmt.Sprintf(why, args...)})
	}
	for i, p := range b.Push {
		key := fmt.Sprintf("broadcast.push[%d]", i)
		u, err := url.Parse(strings.ReplaceAll(p.URL, "{round}", "1"))
		switch {
		case err != nil:
			add(key+".url", p.URL, "%v", err)
		case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
			add(key+".url", p.URL, "must be an http:// or https:// address")
		case p.Round == 0 && !strings.Contains(p.URL, "{round}"):
			add(key+".url", p.URL, "give round, or put {round} in the address: every round goes to its own address")
		}
		if !names[p.Tournament] {
			add(key+".tournament", p.Tournament, "no tournament has this name")
		}
		if p.Round < 0 || p.Round > 99 {
			add(key+".round", p.Round, "must be between 1 and 99, or 0 for every round")
		}
		if p.Token != "" && p.TokenEnv != "" {
			add(key+".token", "(hidden)", "give token or token_env, not both")
		}
	}
	return ps
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

// ValidHallName checks a hall name: it is a NATS subject token and a
// stream name, so letters, digits, '-' and '_' only.
func ValidHallName(name string) error {
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
