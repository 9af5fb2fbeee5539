// Package kifu reads and writes shogi game records: KIF and KI2 (UTF-8
// or Shift_JIS) and CSA V2.2 (also reading V3.0), through one [Record]
// type that holds the start position, the moves in USI with their times,
// the terminal event and the metadata (spec 5).
package kifu

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/width"

	"arbiter/rules"
	"arbiter/rules/shogi"
)

// Record is a game record that KIF, KI2 and CSA read and write (spec 5):
// the start position, the moves with the time each took, the terminal
// event and the metadata.
type Record struct {
	// Start is the start position in SFEN; empty means the even game.
	Start string
	Moves []RecordMove
	End   Terminal
	Meta  Meta
}

// RecordMove is one move of a record.
type RecordMove struct {
	USI     string        // the move in USI
	Time    time.Duration // time the move took; whole seconds in files
	Comment string        // free text attached to the move
}

// TerminalKind is how a recorded game ended (spec 5.6).
type TerminalKind uint8

// The terminal events.
const (
	NoTerminal      TerminalKind = iota // the record stops without an event
	Resign                              // Side resigned
	Mate                                // Side (to move) is mated
	TimeUp                              // Side lost on time
	FoulLoss                            // Side committed a foul and lost
	Sennichite                          // fourfold repetition, a draw
	JishogiDraw                         // impasse, a draw
	EnteringKingWin                     // Side won by declaration
	Abort                               // interrupted
	MoveLimit                           // the move limit was reached, a draw
	DrawGame                            // another draw (CSA %HIKIWAKE)
)

var terminalNames = [...]string{
	NoTerminal: "none", Resign: "resign", Mate: "mate", TimeUp: "time-up", FoulLoss: "foul",
	Sennichite: "sennichite", JishogiDraw: "jishogi", EnteringKingWin: "declaration",
	Abort: "abort", MoveLimit: "max-moves", DrawGame: "draw",
}

// String returns the kind's stable name.
func (k TerminalKind) String() string {
	if int(k) < len(terminalNames) {
		return terminalNames[k]
	}
	return "terminal(" + strconv.Itoa(int(k)) + ")"
}

// Terminal is the event that ended a recorded game.
type Terminal struct {
	Kind TerminalKind
	// Side is the loser for Resign, Mate, TimeUp and FoulLoss, and the winner
	// for EnteringKingWin; it is unused for draws and aborts.
	Side    rules.Color
	Time    time.Duration // time spent before the event, if known
	Comment string        // e.g. the attempted illegal move of a foul
}

// Outcome returns the result the terminal event gives.
func (t Terminal) Outcome() rules.Outcome {
	switch t.Kind {
	case Resign:
		return rules.Loss(t.Side, rules.Resignation)
	case Mate:
		return rules.Loss(t.Side, rules.Checkmate)
	case TimeUp:
		return rules.Loss(t.Side, rules.Time)
	case FoulLoss:
		return rules.Loss(t.Side, rules.IllegalMove)
	case Sennichite:
		return rules.Draw(rules.Repetition)
	case JishogiDraw:
		return rules.Draw(rules.Impasse)
	case EnteringKingWin:
		return rules.Win(t.Side, rules.Impasse)
	case MoveLimit:
		return rules.Draw(rules.MoveCountRule)
	case DrawGame:
		return rules.Draw(rules.ArbiterDecision)
	}
	return rules.Outcome{}
}

// TerminalOf returns the terminal event that records the outcome o, the
// inverse of [Terminal.Outcome]. Decisive results the formats have no word
// for (an arbiter's decision, a forfeit) are written as the loser's
// resignation with the reason as the comment; perpetual check is the
// checker's foul (spec 2.8 F9); a win by impasse is a declaration win.
func TerminalOf(o rules.Outcome) Terminal {
	winner, decisive := o.Winner()
	switch {
	case !o.Over():
		return Terminal{}
	case !decisive:
		switch o.Reason {
		case rules.Repetition:
			return Terminal{Kind: Sennichite}
		case rules.Impasse:
			return Terminal{Kind: JishogiDraw}
		case rules.MoveCountRule:
			return Terminal{Kind: MoveLimit}
		}
		return Terminal{Kind: DrawGame}
	}
	loser := winner.Other()
	switch o.Reason {
	case rules.Resignation:
		return Terminal{Kind: Resign, Side: loser}
	case rules.Checkmate:
		return Terminal{Kind: Mate, Side: loser}
	case rules.Time:
		return Terminal{Kind: TimeUp, Side: loser}
	case rules.IllegalMove, rules.PerpetualCheck:
		return Terminal{Kind: FoulLoss, Side: loser}
	case rules.DeclarationFailed:
		// A failed declaration is the declarer's foul in the formats
		// (KIF 反則負け, CSA a wrong %KACHI); the comment keeps the reason.
		return Terminal{Kind: FoulLoss, Side: loser, Comment: o.Reason.String()}
	case rules.Impasse:
		return Terminal{Kind: EnteringKingWin, Side: winner}
	}
	return Terminal{Kind: Resign, Side: loser, Comment: o.Reason.String()}
}

// Meta is a record's descriptive data.
type Meta struct {
	Event, Site        string
	StartTime, EndTime time.Time // zero when unknown; written as local wall time
	Sente, Gote        string    // player names (下手/上手 in handicap games)
	MainTime           time.Duration
	Byoyomi            time.Duration
	Increment          time.Duration
	Opening            string
	Note               string
	// Extra keeps headers the formats have no field for, in file order.
	Extra []Header
}

// Header is one key and value of a record header.
type Header struct{ Key, Value string }

// startSFEN returns the record's start position.
func (r *Record) startSFEN() string {
	if r.Start == "" {
		return shogi.StartSFEN
	}
	return r.Start
}

// Replay plays the record's moves from its start position under g (nil
// means shogi with default options) and returns the start position
// followed by the position after each move, and the moves. The error names
// the first move that is not legal.
func (r *Record) Replay(g *shogi.Game) ([]*shogi.Position, []shogi.Move, error) {
	if g == nil {
		g = defaultGame
	}
	p, err := g.Position(r.startSFEN())
	if err != nil {
		return nil, nil, fmt.Errorf("record start: %w", err)
	}
	pos := make([]*shogi.Position, 0, len(r.Moves)+1)
	moves := make([]shogi.Move, 0, len(r.Moves))
	pos = append(pos, p)
	for i, rm := range r.Moves {
		var m shogi.Move
		if p, m, err = playText(p, rm.USI); err != nil {
			return nil, nil, fmt.Errorf("record move %d: %w", i+1, err)
		}
		pos = append(pos, p)
		moves = append(moves, m)
	}
	return pos, moves, nil
}

var defaultGame = mustGame()

func mustGame() *shogi.Game {
	g, err := shogi.NewGame(nil)
	if err != nil {
		panic("kifu: default shogi game: " + err.Error())
	}
	return g
}

// playText plays a move written in any notation the position reads.
func playText(p *shogi.Position, s string) (*shogi.Position, shogi.Move, error) {
	m, err := p.ParseMoveText(s)
	if err != nil {
		return nil, 0, err
	}
	q, err := p.PlayMove(m)
	if err != nil {
		return nil, 0, err
	}
	return q, m, nil
}

// startPosition returns the record's start position.
func (r *Record) startPosition() (*shogi.Position, error) {
	p, err := defaultGame.Position(r.startSFEN())
	if err != nil {
		return nil, fmt.Errorf("record start: %w", err)
	}
	return p, nil
}

// seconds truncates d to whole seconds, the unit of record files.
func seconds(d time.Duration) int64 { return int64(d / time.Second) }

const recordTimeLayout = "2006/01/02 15:04:05"

func formatRecordTime(t time.Time) string { return t.Format(recordTimeLayout) }

var reWeekday = regexp.MustCompile(`\s*[(（][^)）]*[)）]`)

// setTime sets *dst from a date header, or keeps the header in Extra when
// the date does not read, so that an odd date never loses a record.
func (m *Meta) setTime(dst *time.Time, key, value string) {
	t, err := parseRecordTime(value)
	if err != nil {
		m.Extra = append(m.Extra, Header{key, value})
		return
	}
	*dst = t
}

// parseRecordTime reads, as UTC wall time, "2025/04/01 10:00:00", also
// without seconds or time, with a weekday such as "(火)" after the date, and
// with "-" as the date separator.
func parseRecordTime(s string) (time.Time, error) {
	s = strings.TrimSpace(reWeekday.ReplaceAllString(width.Narrow.String(s), " "))
	s = strings.Join(strings.Fields(s), " ")
	for _, layout := range []string{recordTimeLayout, "2006/01/02 15:04", "2006/01/02", "2006-01-02 15:04:05", "2006-01-02T15:04:05"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("bad date %q: want YYYY/MM/DD HH:MM:SS", s)
}
