package export

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"arbiter/clock"
	"arbiter/rules"
	"arbiter/rules/chess"
	"arbiter/rules/kvaa"
	"arbiter/rules/shogi"
	"arbiter/rules/shogi/kifu"
	"arbiter/rules/tavreli"
	"arbiter/rules/tensor"
	"arbiter/store"
)

// The way back: game records read into what the store holds, for games
// played without a sensor board and for archives. Each format's own
// reader reads the record; the moves are then replayed with the game's
// rules, as the exports replay them, so what is stored is always legal.

// Imported is one game read from a record file, its moves checked legal
// under its rules: the game as the store keeps it (without an ID, a
// tournament or player start numbers) and its moves.
type Imported struct {
	Game  store.Game
	Moves []store.Move
	// Round and Board are what the record's Round tag ("3" or "3.2") and
	// Board tag say, 0 when it does not say.
	Round, Board int
}

// ErrRecordFormat is returned for a file whose extension names no record
// format.
var ErrRecordFormat = errors.New("not a record format")

// recordReader reads the records of one file extension.
type recordReader struct {
	ext string // lower case, without the dot
	// ownEncoding: the format's reader detects the file's encoding
	// itself (shogi's Shift_JIS); the others get UTF-8 text.
	ownEncoding bool
	// open names the game a file holds (a PGN file: chess, or Tensor
	// chess by its Variant tag) and returns the reader of its games.
	open func(data []byte) (game string, read readFunc)
}

// readFunc reads the games of a record file; ext is the file's extension
// with its dot (".csa"), options the rule options to read them under.
type readFunc func(ext string, data []byte, options string) ([]rawGame, error)

// readers are the record readers, in the order an error lists them.
var readers []recordReader

// registerReader adds the reader of the record files with extension ext
// (without the dot).
func registerReader(ext string, open func(data []byte) (string, readFunc)) {
	readers = append(readers, recordReader{ext: ext, open: open})
}

// one opens the files of an extension that holds a single game.
func one(game string, read readFunc) func([]byte) (string, readFunc) {
	return func([]byte) (string, readFunc) { return game, read }
}

// The readers of this package's games.
func init() {
	registerReader("pgn", func(data []byte) (string, readFunc) {
		if bytes.Contains(data, []byte(`[Variant "Tensor"]`)) {
			return tensor.Name, readPGN(func(r io.Reader) ([]chess.Imported, error) {
				g, err := tensor.New(nil)
				if err != nil {
					return nil, err
				}
				return g.ImportPGN(r)
			})
		}
		return chess.Name, readPGN(chess.ImportPGN)
	})
	registerReader("tav", one(tavreli.Name, func(_ string, data []byte, options string) ([]rawGame, error) {
		return readTavreli(data, options)
	}))
	shogiRead := func(ext string, data []byte, _ string) ([]rawGame, error) { return readShogi(ext, data) }
	for _, ext := range []string{"kif", "kifu", "ki2", "ki2u", "csa"} {
		registerReader(ext, one(shogi.Name, shogiRead))
		readers[len(readers)-1].ownEncoding = true
	}
	registerReader("kvaa", one(kvaa.Name, func(_ string, data []byte, _ string) ([]rawGame, error) { return readKvaa(data) }))
}

// readerOf returns the reader of a file by its name's extension.
func readerOf(name string) (recordReader, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(name), "."))
	exts := make([]string, len(readers))
	for i, r := range readers {
		if r.ext == ext {
			return r, nil
		}
		exts[i] = "." + r.ext
	}
	want := strings.Join(exts, ", ")
	if n := len(exts); n > 1 {
		want = strings.Join(exts[:n-1], ", ") + " or " + exts[n-1]
	}
	return recordReader{}, fmt.Errorf("%s: extension %q: want %s: %w", name, ext, want, ErrRecordFormat)
}

// ReadGames reads every game of a record file, the format given by the
// file name's extension (.pgn chess, or Tensor chess by its Variant tag;
// .tav Tavreli; .kif/.kifu/.ki2/.ki2u/.csa shogi; .kvaa Kvaa), under the
// rule options given
// (a tournament's; "" for the game's defaults). A game that cannot be
// read, or whose moves are not legal, is an error naming the game (from
// 1 in the file) and, for a move, its number and its text as written.
//
// Files are read as other tools write them: a UTF-8 byte order mark is
// skipped, CRLF (and CR) line ends are read as LF, and a file that is not
// UTF-8 is read as Windows-1252 (which Latin-1's text is), with a warning
// that says so; shogi records detect their own encoding (Shift_JIS).
func ReadGames(name string, data []byte, options string) (games []Imported, warnings []string, err error) {
	rd, err := readerOf(name)
	if err != nil {
		return nil, nil, err
	}
	if !rd.ownEncoding {
		data, warnings = decodeText(name, data)
	}
	game, read := rd.open(data)
	raws, err := read(strings.ToLower(filepath.Ext(name)), data, options)
	if err != nil {
		return nil, warnings, fmt.Errorf("%s: %w", name, err)
	}
	if len(raws) == 0 {
		return nil, warnings, fmt.Errorf("%s: no game in the file", name)
	}
	out := make([]Imported, 0, len(raws))
	for i, r := range raws {
		// Outside a tournament, the record's own rules (a Kvaa record's
		// tags); in one, the tournament's.
		opts := options
		if opts == "" {
			opts = r.options
		}
		imp, err := r.build(game, opts)
		if err != nil {
			return nil, warnings, fmt.Errorf("%s: game %d: %w", name, i+1, err)
		}
		out = append(out, imp)
	}
	return out, warnings, nil
}

// decodeText makes a record file's text UTF-8 with LF line ends: without
// a byte order mark, CRLF and CR read as LF, and a file that is not UTF-8
// decoded as Windows-1252 (a warning says so).
func decodeText(name string, data []byte) ([]byte, []string) {
	var warnings []string
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if !utf8.Valid(data) {
		if dec, err := charmap.Windows1252.NewDecoder().Bytes(data); err == nil {
			data = dec
			warnings = append(warnings, fmt.Sprintf("%s: not UTF-8: read as Windows-1252 (Latin-1); check the names", name))
		}
	}
	if bytes.IndexByte(data, '\r') >= 0 {
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
		data = bytes.ReplaceAll(data, []byte("\r"), []byte("\n"))
	}
	return data, warnings
}

// rawGame is a game as a format's reader gives it, before the replay.
type rawGame struct {
	start string   // the start position's text, "" for the initial one
	moves []string // the moves, in a form the game's ParseMove reads
	texts []string // the moves as written, for errors
	used  []time.Duration
	// clocks[i] is the mover's clock after move i when known[i].
	clocks []time.Duration
	known  []bool

	first, second, timeControl string
	result, reason             string // stored forms; "" unknown
	round, board               string
	started, ended             time.Time
	// tags are the record's tags that the fields above do not hold.
	tags []store.Tag
	// options are the rule options the record gives, "" for the game's
	// defaults.
	options string
}

// keptTags returns a record's tags but those its game's fields hold
// (derived), to keep with the game.
func keptTags[T any](tags []T, tag func(T) (string, string), derived ...string) []store.Tag {
	var out []store.Tag
	for _, t := range tags {
		name, value := tag(t)
		if !slices.Contains(derived, name) {
			out = append(out, store.Tag{Name: name, Value: value})
		}
	}
	return out
}

// moveNumber writes ply as a move number: "12." for the first mover's,
// "12..." for the second's.
func moveNumber(ply int) string {
	if ply%2 == 1 {
		return fmt.Sprintf("%d.", (ply+1)/2)
	}
	return fmt.Sprintf("%d...", ply/2)
}

// build replays the game with its rules and makes the store's records.
func (r rawGame) build(game, options string) (Imported, error) {
	rg, err := rules.NewFromText(game, options)
	if err != nil {
		return Imported{}, err
	}
	pos, start, err := r.startPosition(rg)
	if err != nil {
		return Imported{}, err
	}
	imp := Imported{Game: store.Game{Game: game, Options: options, StartPosition: start, First: r.first, Second: r.second,
		TimeControl: r.timeControl, Started: r.started, Ended: r.ended, Tags: r.tags}}
	history, err := r.replay(pos, &imp)
	if err != nil {
		return Imported{}, err
	}
	imp.Game.Result, imp.Game.Reason = r.ending(history)
	imp.Round, imp.Board = roundTag(r.round)
	if b, err := strconv.Atoi(strings.TrimSpace(r.board)); err == nil && b > 0 {
		imp.Board = b
	}
	return imp, nil
}

// startPosition returns the position the game starts from, and its text
// to store: "" when it is the game's initial position.
func (r rawGame) startPosition(rg rules.Game) (pos rules.Position, start string, err error) {
	pos = rg.Start()
	if r.start == "" {
		return pos, "", nil
	}
	if pos, err = rg.ParsePosition(r.start); err != nil {
		return nil, "", fmt.Errorf("start position %q: %w", r.start, err)
	}
	if pos.String() != rg.Start().String() {
		start = r.start
	}
	return pos, start, nil
}

// replay plays the moves from pos, appending the store's moves, with the
// clocks as last known for each side, to imp, and returns the positions
// from pos to the last.
func (r rawGame) replay(pos rules.Position, imp *Imported) ([]rules.Position, error) {
	history := []rules.Position{pos}
	var clocks [2]time.Duration
	for i, text := range r.moves {
		ply := i + 1
		written := text
		if i < len(r.texts) && r.texts[i] != "" {
			written = r.texts[i]
		}
		side := pos.Turn()
		m, next, err := rules.PlayText(pos, text)
		if err != nil {
			return nil, fmt.Errorf("move %s %s: %w", moveNumber(ply), written, err)
		}
		if i < len(r.known) && r.known[i] {
			clocks[side] = r.clocks[i]
		}
		mv := store.Move{Ply: ply, Notation: pos.FormatMove(m), Canonical: m.String(), Position: next.String(),
			ClockFirst: clocks[rules.First], ClockSecond: clocks[rules.Second]}
		if i < len(r.used) {
			mv.Used = r.used[i]
		}
		imp.Moves = append(imp.Moves, mv)
		pos = next
		history = append(history, pos)
	}
	return history, nil
}

// ending returns the stored result and reason of a game whose positions
// were history: none while the record says the game goes on. Without a
// reason in the record, the final position may say why: a checkmate, a
// stalemate.
func (r rawGame) ending(history []rules.Position) (result, reason string) {
	res, ok := rules.ParseResult(r.result)
	if !ok || res == rules.Ongoing {
		return "", ""
	}
	if r.reason != "" {
		return r.result, r.reason
	}
	last := history[len(history)-1]
	if o := last.Outcome(history[:len(history)-1]); o.Over() && o.Result == res {
		return r.result, o.Reason.String()
	}
	return r.result, ""
}

// roundTag reads a Round tag: "3" round 3, "3.2" round 3 board 2.
func roundTag(s string) (round, board int) {
	rs, bs, _ := strings.Cut(strings.TrimSpace(s), ".")
	if n, err := strconv.Atoi(rs); err == nil && n > 0 {
		round = n
		if b, err := strconv.Atoi(bs); err == nil && b > 0 {
			board = b
		}
	}
	return round, board
}

// recordDate reads a PGN-style date, "2026.11.21"; zero when unknown.
func recordDate(s string) time.Time {
	d, err := time.Parse("2006.01.02", strings.TrimSpace(s))
	if err != nil {
		return time.Time{}
	}
	return d
}

// recordTimeControl is the stored form of a record's time control: the
// text, when the clock reads it (a PGN tag's seconds form, our own
// records' text), else "".
func recordTimeControl(s string) string {
	if _, err := clock.Parse(s); err != nil || s == "?" {
		return ""
	}
	return s
}

// pgnReasons are the reasons the PGN Termination tag says by itself.
var pgnReasons = map[string]rules.Reason{
	"time forfeit": rules.Time, "rules infraction": rules.IllegalMove,
	"adjudication": rules.ArbiterDecision, "abandoned": rules.Forfeit,
}

// reasonOf is a stored reason from the Reason tag our records write, or
// from what the record's own termination word says.
func reasonOf(reasonTag string, word func() (rules.Reason, bool)) string {
	if r, ok := rules.ParseReason(reasonTag); ok && reasonTag != "" {
		return r.String()
	}
	if r, ok := word(); ok {
		return r.String()
	}
	return ""
}

// readPGN reads PGN files of a chess-family game with its importer.
func readPGN(importPGN func(io.Reader) ([]chess.Imported, error)) readFunc {
	return func(_ string, data []byte, _ string) ([]rawGame, error) { return pgnGames(importPGN, data) }
}

func pgnGames(importPGN func(io.Reader) ([]chess.Imported, error), data []byte) ([]rawGame, error) {
	imps, err := importPGN(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	out := make([]rawGame, 0, len(imps))
	for _, imp := range imps {
		rec := imp.Record
		tag := func(n string) string { v, _ := rec.Tag(n); return v }
		r := rawGame{first: tag("White"), second: tag("Black"), round: tag("Round"), board: tag("Board"),
			started: recordDate(tag("Date")), result: rec.Result}
		// The start to the second, which PGN's UTC tags give.
		if d := recordDate(tag("UTCDate")); !d.IsZero() {
			r.started = d
			if at, err := time.Parse("15:04:05", tag("UTCTime")); err == nil {
				r.started = d.Add(at.Sub(at.Truncate(24 * time.Hour)))
			}
		}
		r.timeControl = recordTimeControl(tag("TimeControl"))
		if own := tag("ArbiterTimeControl"); own != "" {
			r.timeControl = recordTimeControl(own)
		}
		r.reason = reasonOf(tag("Reason"), func() (rules.Reason, bool) { x, ok := pgnReasons[tag("Termination")]; return x, ok })
		r.tags = keptTags(rec.Tags, func(t chess.Tag) (string, string) { return t.Name, t.Value },
			"White", "Black", "Result", "FEN", "SetUp", "Board", "Reason", "ArbiterTimeControl", "UTCDate", "UTCTime")
		if _, ok := rec.Tag("FEN"); ok {
			r.start = imp.Start.String()
		}
		for i, m := range imp.Moves {
			r.moves = append(r.moves, m.String())
			rm := rec.Moves[i]
			r.texts = append(r.texts, rm.Text)
			r.clocks = append(r.clocks, rm.Clock)
			r.known = append(r.known, rm.HasClock)
		}
		out = append(out, r)
	}
	return out, nil
}

// clk reads a [%clk H:MM:SS] comment.
var clk = regexp.MustCompile(`\[%clk\s+(\d+):(\d\d):(\d\d(?:\.\d+)?)\]`)

func clockOf(comment string) (time.Duration, bool) {
	m := clk.FindStringSubmatch(comment)
	if m == nil {
		return 0, false
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	s, _ := strconv.ParseFloat(m[3], 64)
	return time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute + time.Duration(s*float64(time.Second)), true
}

// splitRecords splits a text of several tag-headed games (Tavreli and
// Kvaa records, like PGN) into one text per game: a game starts at a tag
// line that follows movetext.
func splitRecords(text string) []string {
	var out []string
	var cur strings.Builder
	moves := false
	for _, line := range strings.SplitAfter(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") && moves {
			out = append(out, cur.String())
			cur.Reset()
			moves = false
		}
		if t != "" && !strings.HasPrefix(t, "[") {
			moves = true
		}
		cur.WriteString(line)
	}
	if strings.TrimSpace(cur.String()) != "" {
		out = append(out, cur.String())
	}
	return out
}

func readTavreli(data []byte, options string) ([]rawGame, error) {
	rg, err := rules.NewFromText(tavreli.Name, options)
	if err != nil {
		return nil, err
	}
	g, ok := rg.(*tavreli.Game)
	if !ok {
		return nil, fmt.Errorf("not a Tavreli game: %T", rg)
	}
	var out []rawGame
	for i, text := range splitRecords(string(data)) {
		rec, err := tavreli.ParseGameWith(text, tavreli.RecordOptions{Array: g.Array()})
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", i+1, err)
		}
		tag := func(n string) string { v, _ := rec.Tag(n); return v }
		r := rawGame{first: tag("White"), second: tag("Black"), round: tag("Round"), board: tag("Board"),
			started: recordDate(tag("Date")), result: rec.Result, start: tag("TFEN"),
			timeControl: recordTimeControl(tag("TimeControl"))}
		r.reason = reasonOf(tag("Termination"), func() (rules.Reason, bool) { return 0, false })
		r.tags = keptTags(rec.Tags, func(t tavreli.Tag) (string, string) { return t.Name, t.Value },
			"White", "Black", "Result", "TFEN", "Board")
		for _, p := range rec.Plies {
			r.moves = append(r.moves, p.Move.String())
			r.texts = append(r.texts, p.Text)
			c, ok := clockOf(p.Comment)
			r.clocks = append(r.clocks, c)
			r.known = append(r.known, ok)
		}
		out = append(out, r)
	}
	return out, nil
}

func readKvaa(data []byte) ([]rawGame, error) {
	var out []rawGame
	for i, text := range splitRecords(string(data)) {
		rec, err := kvaa.ParseRecord(text)
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", i+1, err)
		}
		if _, _, err := rec.Replay(); err != nil {
			return nil, fmt.Errorf("game %d: %w", i+1, err)
		}
		r := rawGame{}
		if cfg, err := rec.Config(); err == nil && cfg.String() != kvaa.DefaultConfig().String() {
			r.options = cfg.String() // the rules the record was played under
		}
		tag := func(n string) string { v, _ := rec.Tag(n); return v }
		r.first, r.second, r.round, r.board = tag("South"), tag("North"), tag("Round"), tag("Board")
		r.started = recordDate(tag("Date"))
		r.tags = keptTags(rec.Tags, func(t kvaa.Tag) (string, string) { return t.Name, t.Value },
			"South", "North", "Result", "Board", "ArbiterTimeControl")
		if rec.Result != rules.Ongoing {
			r.result = rec.Result.String()
		}
		if t := tag("Termination"); t != "" {
			if reason := kvaa.Termination(t).Reason(); reason != rules.NoReason {
				r.reason = reason.String()
			}
		}
		for _, t := range rec.Turns {
			r.moves = append(r.moves, t.String())
		}
		r.clocks = make([]time.Duration, len(rec.Turns))
		r.known = make([]bool, len(rec.Turns))
		for _, c := range rec.Comments {
			if d, ok := clockOf(c.Text); ok && c.Before >= 1 && c.Before <= len(rec.Turns) {
				r.clocks[c.Before-1], r.known[c.Before-1] = d, true
			}
		}
		out = append(out, r)
	}
	return out, nil
}

func readShogi(ext string, data []byte) ([]rawGame, error) {
	read, texts := shogiTexts(ext, data)
	var out []rawGame
	for i, text := range texts {
		rec, err := read(text)
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", i+1, err)
		}
		out = append(out, shogiGame(rec))
	}
	return out, nil
}

// shogiTexts returns the reader of a shogi record's format, by its file
// extension, and the texts of the record's games: several games of a CSA
// file are separated by a line holding "/".
func shogiTexts(ext string, data []byte) (read func([]byte) (*kifu.Record, error), texts [][]byte) {
	switch ext {
	case ".ki2", ".ki2u":
		return kifu.ReadKI2, [][]byte{data}
	case ".csa":
		var cur []byte
		for _, line := range bytes.SplitAfter(data, []byte("\n")) {
			if string(bytes.TrimSpace(line)) == "/" {
				texts = append(texts, cur)
				cur = nil
				continue
			}
			cur = append(cur, line...)
		}
		if len(bytes.TrimSpace(cur)) > 0 {
			texts = append(texts, cur)
		}
		return kifu.ReadCSA, texts
	}
	return kifu.ReadKIF, [][]byte{data}
}

// shogiGame is a shogi record's game before the replay.
func shogiGame(rec *kifu.Record) rawGame {
	m := rec.Meta
	r := rawGame{first: m.Sente, second: m.Gote, started: m.StartTime, ended: m.EndTime, start: rec.Start}
	for _, h := range m.Extra {
		if h.Key == "Round" {
			r.round = h.Value
		}
	}
	if tc, ok := strings.CutPrefix(m.Note, "time control "); ok {
		r.timeControl = recordTimeControl(tc)
	} else if m.MainTime > 0 || m.Byoyomi > 0 {
		r.timeControl = shogiControl(m.MainTime, m.Byoyomi, m.Increment)
	}
	if o := rec.End.Outcome(); o.Over() {
		r.result, r.reason = o.Result.String(), o.Reason.String()
		// Our records keep a reason the formats have no word for
		// (a forfeit, an arbiter's decision) as the event's comment.
		if why, ok := rules.ParseReason(strings.TrimSpace(rec.End.Comment)); ok {
			r.reason = why.String()
		}
	}
	for _, mv := range rec.Moves {
		r.moves = append(r.moves, mv.USI)
		r.used = append(r.used, mv.Time)
	}
	return r
}

// shogiControl is the clock's text of a shogi record's time headers.
func shogiControl(main, byoyomi, increment time.Duration) string {
	text := strconv.FormatInt(int64(main/time.Second), 10)
	if increment > 0 {
		text += "+" + strconv.FormatInt(int64(increment/time.Second), 10)
	}
	if byoyomi > 0 {
		text += ":byo=" + strconv.FormatInt(int64(byoyomi/time.Second), 10)
	}
	return recordTimeControl(text)
}
