package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"

	"arbiter/board"
	"arbiter/internal/config"
	"arbiter/rules"
	"arbiter/rules/chess"
	"arbiter/store"
)

// A board protocol known only to this file: a chess board that speaks
// lines of text. It registers itself as a protocol's package does, and
// nothing else in the program is told of it: the configuration takes its
// keys, serve starts its driver on the port that names it, the daemon
// plays its moves, and "arbiter replay" reads its raw log again.
//
// The lines, from the board:
//
//	hello ID           the board's handshake
//	board S            the whole board: 64 letters in square order, '.' empty
//	sq N P             square N now holds piece P ('.': empty)
//	PRESS first|second a clock press (PRESS is boards.test_lines.press)
const lineProtocol = "test-lines"

func init() {
	board.Register(board.Protocol{
		Name:     lineProtocol,
		Title:    "a test board speaking lines of text",
		Section:  "test_lines",
		Settings: func() board.Settings { return &lineSettings{Press: "press"} },
		PortKeys: func() board.PortSettings { return &linePort{} },
		Start: func(s board.Setup) (board.Driver, error) {
			return &lineDriver{s: s, press: s.Settings.(*lineSettings).Press, boards: map[string]chan struct{}{}}, nil
		},
		Replayer: func(cfg board.ReplayConfig) board.Replayer {
			return &lineReplayer{cfg: cfg, dec: lineDecoder{press: string(cfg.Setting)}}
		},
	})
}

// lineSettings are the protocol's section boards.test_lines.
type lineSettings struct {
	// Press is the word of a clock press.
	Press string `mapstructure:"press"`
}

func (s *lineSettings) Check() []board.KeyProblem {
	if s.Press == "" || strings.ContainsAny(s.Press, " \t") {
		return []board.KeyProblem{{Key: "press", Value: s.Press, Why: "want one word"}}
	}
	return nil
}

// linePort is the protocol's own key of a port: the board expected on it.
type linePort struct {
	Board string `mapstructure:"board"`
}

func (p *linePort) Check(protocol string) []board.KeyProblem {
	if p.Board != "" && protocol != lineProtocol {
		return []board.KeyProblem{{Key: "board", Value: p.Board, Why: "only a port of protocol " + lineProtocol + " names its board"}}
	}
	return nil
}

// lineWires are the boards' cables, by the path of their port.
var lineWires sync.Map // string -> *io.PipeReader

// lineDecoder turns a board's lines into events, and keeps the board's
// state to answer a request for it; the driver and the replayer share it.
type lineDecoder struct {
	press   string
	info    *board.Info
	squares [64]board.SquareState
}

var lineCaps = board.CapHeight | board.CapIdentity | board.CapColor

// take reads one line at host.
func (d *lineDecoder) take(line string, host time.Duration) ([]board.Event, error) {
	f := strings.Fields(line)
	e := board.Event{Host: host, At: host}
	switch {
	case len(f) == 2 && f[0] == "hello":
		d.info = &board.Info{ID: f[1], Protocol: lineProtocol, Caps: lineCaps, MaxHeight: 1, Width: 8, Height: 8, Cells: 64}
		e.Kind, e.Info = board.EventHello, d.info
		return []board.Event{e}, nil
	case len(f) == 2 && f[0] == "board" && len(f[1]) == 64:
		for i := range d.squares {
			d.squares[i] = square(f[1][i])
		}
		return []board.Event{d.snapshot(host)}, nil
	case len(f) == 3 && f[0] == "sq" && len(f[2]) == 1:
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 0 || n >= 64 {
			return nil, fmt.Errorf("square %q", f[1])
		}
		d.squares[n] = square(f[2][0])
		e.Kind, e.Square, e.Height, e.Top = board.EventSquare, rules.Square(n), int(d.squares[n].Height), d.squares[n].Top
		return []board.Event{e}, nil
	case len(f) == 2 && f[0] == d.press && (f[1] == "first" || f[1] == "second"):
		e.Kind, e.Button, e.Pressed, e.Side = board.EventButton, board.ButtonClock, true, board.SideFirst
		if f[1] == "second" {
			e.Side = board.SideSecond
		}
		return []board.Event{e}, nil
	}
	return nil, fmt.Errorf("line %q", line)
}

func square(c byte) board.SquareState {
	if c == '.' {
		return board.SquareState{}
	}
	p := rules.Piece{Color: rules.White, Kind: rules.Kind(strings.ToUpper(string(c))[0])}
	if c >= 'a' && c <= 'z' {
		p.Color = rules.Black
	}
	return board.SquareState{Height: 1, Top: board.Sensor{Caps: lineCaps}.Identify(p)}
}

func (d *lineDecoder) snapshot(host time.Duration) board.Event {
	s := &board.Snapshot{Squares: append([]board.SquareState(nil), d.squares[:]...)}
	return board.Event{Kind: board.EventSnapshot, Snapshot: s, Host: host, At: host}
}

// lineDriver runs the boards of the configured ports: each port's lines
// and the daemon's requests for a board's state are taken on the port's
// goroutine, one at a time.
type lineDriver struct {
	s     board.Setup
	press string

	mu     sync.Mutex
	boards map[string]chan struct{} // a board's requests for its state, by id
}

func (d *lineDriver) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for _, p := range d.s.Ports {
		r, ok := lineWires.Load(p.Path)
		if !ok {
			d.s.Logger.Warn("no such port", "path", p.Path)
			continue
		}
		stop := context.AfterFunc(ctx, func() { r.(*io.PipeReader).Close() })
		defer stop()
		wg.Go(func() { d.serve(ctx, p, r.(*io.PipeReader)) })
	}
	wg.Wait()
	return nil
}

func (d *lineDriver) serve(ctx context.Context, p board.Port, r io.Reader) {
	lines := make(chan string)
	go func() {
		defer close(lines)
		for sc := bufio.NewScanner(r); sc.Scan(); {
			lines <- sc.Text()
		}
	}()
	dec := lineDecoder{press: d.press}
	want := p.Keys.(*linePort).Board
	resync := make(chan struct{}, 1)
	emit := func(e board.Event, seq uint64) {
		e.Board, e.Port, e.RawSeq = dec.info.ID, p.Path, seq
		d.s.Handler(e)
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-resync:
			emit(dec.snapshot(d.s.Now()), 0)
		case line, ok := <-lines:
			if !ok {
				return
			}
			host := d.s.Now()
			evs, err := dec.take(line, host)
			switch {
			case err != nil:
				d.s.Logger.Warn("bad line", "err", err)
				continue
			case dec.info == nil:
				continue // before the handshake: no board to log it under
			case want != "" && dec.info.ID != want:
				d.s.Logger.Warn("another board on the port", "want", want, "board", dec.info.ID)
				continue
			}
			d.mu.Lock()
			d.boards[dec.info.ID] = resync
			d.mu.Unlock()
			seq := d.s.Raw(dec.info.ID, board.Record{Host: host, Data: []byte(line)})
			for _, e := range evs {
				emit(e, seq)
			}
		}
	}
}

func (d *lineDriver) Owns(id string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.boards[id]
	return ok
}

func (d *lineDriver) Show(string, board.Message) error { return nil }

func (d *lineDriver) Resync(id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	select {
	case d.boards[id] <- struct{}{}:
	default: // one is on its way
	}
	return nil
}

// ReplaySetting keeps the press word: a replay reads the log with it.
func (d *lineDriver) ReplaySetting() []byte { return []byte(d.press) }

// lineReplayer reads a board's raw log again.
type lineReplayer struct {
	cfg   board.ReplayConfig
	dec   lineDecoder
	stats board.ReplayStats
}

func (r *lineReplayer) emit(evs []board.Event, seq uint64) {
	for _, e := range evs {
		e.Board, e.Port, e.RawSeq = r.dec.info.ID, r.cfg.Port, seq
		r.cfg.Emit(e)
	}
}

func (r *lineReplayer) Connect(string, time.Duration) {}
func (r *lineReplayer) Disconnect(time.Duration)      {}
func (r *lineReplayer) Feed(rec board.Record) {
	evs, err := r.dec.take(string(rec.Data), rec.Host)
	if err != nil {
		r.stats.Bad++
		if r.cfg.Bad != nil {
			r.cfg.Bad(rec.Seq, rec.Host, err)
		}
		return
	}
	r.stats.Frames++
	r.emit(evs, rec.Seq)
}
func (r *lineReplayer) Next() time.Duration { return 1<<63 - 1 }
func (r *lineReplayer) Tick(time.Duration)  {}
func (r *lineReplayer) RequestState(now time.Duration) {
	r.stats.Requests++
	r.emit([]board.Event{r.dec.snapshot(now)}, 0)
}
func (r *lineReplayer) Info() *board.Info { return r.dec.info }
func (r *lineReplayer) Handshake(rec board.Record) bool {
	return strings.HasPrefix(string(rec.Data), "hello ")
}
func (r *lineReplayer) Assume(info board.Info, _ board.Record) error {
	r.dec.info = &info
	return nil
}
func (r *lineReplayer) Stats() board.ReplayStats { return r.stats }

// lineEvent is an event on one board of the test protocol, as its file
// gives it: the protocol's section and port key, next to the others.
func lineEvent(t *testing.T, dir, extra string) string {
	t.Helper()
	hash, err := bcrypt.GenerateFromPassword([]byte("a venue password"), bcrypt.MinCost)
	require.NoError(t, err)
	return fmt.Sprintf(`event: {name: "Line boards", database: %q}
http: {listen: "127.0.0.1:0"}
log: {level: warn}
console:
  users: [{name: chief, password: %q}]
boards:
  scan: 200ms
  ports:
    - {path: %q, protocol: test-lines, board: LINE-1}
  test_lines:
    press: tick
%stournaments:
  - name: Club
    game: chess
    system: swiss-dutch
    rounds: 1
    time_control: "15m+10s"
    tiebreaks: [BH]
    auto_pair: true
    players: [{name: Ana}, {name: Ben}]
`, filepath.Join(dir, "event.db"), hash, filepath.Join(dir, "line0"), extra)
}

// The configuration checks the test protocol's keys as its own: a wrong
// value, a misspelt key of its section and its port key on another
// protocol's port are refused, with their lines.
func TestTestProtocolKeysValidated(t *testing.T) {
	dir := t.TempDir()
	_, err := config.Parse([]byte(lineEvent(t, dir, "")), "line.yaml", nil)
	require.NoError(t, err)
	bad := strings.Replace(lineEvent(t, dir, "    presss: tock\n    press: \"two words\"\n  assign: []\n"), "    press: tick\n", "", 1)
	bad = strings.Replace(bad, "  ports:\n", "  ports:\n    - {glob: \"/dev/ttyACM*\", board: LINE-2}\n", 1)
	_, err = config.Parse([]byte(bad), "line.yaml", nil)
	require.Error(t, err)
	for _, want := range []string{
		`line 9: boards.ports[0].board = "LINE-2": only a port of protocol test-lines names its board`,
		`line 12: boards.test_lines.presss = "tock": unknown key; did you mean press?`,
		`line 13: boards.test_lines.press = "two words": want one word`,
	} {
		assert.Contains(t, err.Error(), want)
	}
}

// A protocol registered in a test file is configured, started, played and
// replayed as the real ones: its board's move is stored, and "arbiter
// replay" reads the board's raw log with the setting the driver kept.
func TestTestProtocolPlaysAndReplays(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "line.yaml")
	require.NoError(t, os.WriteFile(path, []byte(lineEvent(t, dir, "")), 0o600))
	cfg, err := config.Load(path, nil)
	require.NoError(t, err)
	r, w := io.Pipe()
	lineWires.Store(cfg.Boards.Ports[0].Path, r)
	t.Cleanup(func() { lineWires.Delete(cfg.Boards.Ports[0].Path) })

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	directorOf := serveDirectors(t, cfg)
	_, _, errc := startServe(t, ctx, cfg, false)
	d := directorOf(cfg)
	send := func(line string) {
		t.Helper()
		_, err := fmt.Fprintln(w, line)
		require.NoError(t, err)
	}
	var start strings.Builder
	v := chess.Start().View()
	for i := range 64 {
		if p, ok := v.Top(rules.Square(i)); ok {
			start.WriteString(p.String())
		} else {
			start.WriteByte('.')
		}
	}
	send("hello LINE-1")
	send("board " + start.String())
	require.Eventually(t, func() bool {
		tbl, ok := d.Table("LINE-1")
		return ok && tbl.Live().GameID != 0 && tbl.Live().Health == "active" && tbl.Live().Clock[0].Running
	}, time.Minute, 10*time.Millisecond, "the board's game did not start")
	tbl, _ := d.Table("LINE-1")
	game := tbl.Live().GameID
	send("sq 12 .") // e2
	send("sq 28 P") // e4
	send("tick first")
	require.Eventually(t, func() bool { return tbl.Live().Plies == 1 }, time.Minute, 10*time.Millisecond,
		"the move was not taken: %+v", tbl.Live())
	cancel()
	require.NoError(t, <-errc)

	db, err := store.Open(cfg.Event.Database, &store.Options{ReadOnly: true})
	require.NoError(t, err)
	moves, err := db.Moves(game)
	require.NoError(t, err)
	setting, err := db.Setting("replay/" + lineProtocol)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	require.Len(t, moves, 1)
	assert.Equal(t, "e4", moves[0].Notation)
	assert.Equal(t, "tick", string(setting), "the driver's setting is kept with the event")

	code, report := runCLI(t, "replay", "--database", cfg.Event.Database, "--all")
	assert.Equal(t, exitOK, code, report)
	assert.Contains(t, report, "game 1 (chess) on board LINE-1")
	assert.Contains(t, report, "OK: the replay gives the stored moves")
}
