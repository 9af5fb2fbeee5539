package export

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter/rules"
	"arbiter/rules/chess"
	"arbiter/rules/kvaa"
	"arbiter/rules/shogi"
	"arbiter/rules/shogi/kifu"
	"arbiter/rules/tavreli"
	"arbiter/rules/tensor"
	"arbiter/store"
)

// The per-game record writers. Each turns the replayed game into its
// package's record type and lets that package write it, so the notation is
// always the game's own.

// The formats of this package's games, each game's usual one first.
func init() {
	text := "text/plain; charset=utf-8"
	pgn := Format{Name: "pgn", Ext: "pgn", MediaType: "application/x-chess-pgn; charset=utf-8", Title: "PGN"}
	RegisterFormat(chess.Name, pgn, pgnRecord(chess.NewRecord, ""))
	RegisterFormat(tensor.Name, pgn, pgnRecord(tensor.NewRecord, "Tensor"))
	RegisterFormat(tavreli.Name, Format{Name: "latin", Ext: "tav", MediaType: text, Title: "Tavreli record, Latin files"},
		func(s *Sheet, r *Replayed) (string, error) { return tavreliRecord(s, r, false) })
	RegisterFormat(tavreli.Name, Format{Name: "cyrillic", Ext: "tav", MediaType: text, Title: "Tavreli record, Cyrillic files",
		Suffix: "-cyrillic"}, func(s *Sheet, r *Replayed) (string, error) { return tavreliRecord(s, r, true) })
	RegisterFormat(shogi.Name, Format{Name: "kif", Ext: "kifu", MediaType: text, Title: "KIF (UTF-8)"},
		shogiRecord(func(rec *kifu.Record) (string, error) { return kifu.WriteKIF(rec, kifu.KIFOptions{}) }))
	RegisterFormat(shogi.Name, Format{Name: "csa", Ext: "csa", MediaType: text, Title: "CSA", Separator: "/\n"},
		shogiRecord(kifu.WriteCSA))
	RegisterFormat(shogi.Name, Format{Name: "ki2", Ext: "ki2u", MediaType: text, Title: "KI2 (UTF-8)"},
		shogiRecord(kifu.WriteKI2))
	RegisterFormat(kvaa.Name, Format{Name: "kvaa", Ext: "kvaa", MediaType: text, Title: "Kvaa record"}, kvaaText)
}

// date is the PGN-style date of a game, "????.??.??" when unknown.
func date(s *Sheet) string {
	if s.Game.Started.IsZero() {
		return "????.??.??"
	}
	return s.Game.Started.UTC().Format("2006.01.02")
}

// round is the round tag: "3", "3.2" with the board, "-" outside a tournament.
func round(s *Sheet) string {
	if s.Game.Round == 0 {
		return "-"
	}
	if s.Game.BoardNo > 0 {
		return fmt.Sprintf("%d.%d", s.Game.Round, s.Game.BoardNo)
	}
	return strconv.Itoa(s.Game.Round)
}

// eventTag names the event and the tournament.
func eventTag(s *Sheet) string {
	switch {
	case s.Event != "" && s.Tournament != "":
		return s.Event + ": " + s.Tournament
	case s.Tournament != "":
		return s.Tournament
	}
	return s.Event
}

// resultToken is "1-0", "0-1", "1/2-1/2" or "*".
func resultToken(o rules.Outcome) string {
	if !o.Over() {
		return "*"
	}
	return o.Result.String()
}

// FormatClock writes a clock reading as H:MM:SS, the [%clk] form.
func FormatClock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	d = d.Truncate(time.Second)
	h := d / time.Hour
	m := (d % time.Hour) / time.Minute
	sec := (d % time.Minute) / time.Second
	return fmt.Sprintf("%d:%02d:%02d", h, m, sec)
}

func tavreliRecord(s *Sheet, r *Replayed, cyrillic bool) (string, error) {
	start, ok := r.Start.(*tavreli.Position)
	g, gok := r.Game.(*tavreli.Game)
	if !ok || !gok {
		return "", fmt.Errorf("not a Tavreli game: %T", r.Start)
	}
	rec := &tavreli.Record{
		Tags: []tavreli.Tag{
			{Name: "Event", Value: eventTag(s)}, {Name: "Date", Value: date(s)}, {Name: "Round", Value: round(s)},
			{Name: "White", Value: s.Game.First}, {Name: "Black", Value: s.Game.Second},
		},
		Start:  start.Board(),
		Result: resultToken(r.Outcome),
	}
	if s.Game.TimeControl != "" {
		rec.SetTag("TimeControl", s.Game.TimeControl)
	}
	if r.Outcome.Over() && r.Outcome.Reason != rules.NoReason {
		rec.SetTag("Termination", r.Outcome.Reason.String())
	}
	mergeKept(s, rec.Tag, rec.SetTag)
	if t, ok := rec.Tag("Termination"); ok && !knownReason(t, r.Outcome) {
		rec.Tags = slices.DeleteFunc(rec.Tags, func(t tavreli.Tag) bool { return t.Name == "Termination" })
	}
	clocks, timed := remaining(s, r)
	for i, m := range r.Moves {
		mv, ok := m.(tavreli.Move)
		if !ok {
			return "", fmt.Errorf("ply %d: not a Tavreli move: %T", i+1, m)
		}
		p := tavreli.Ply{Move: mv}
		if timed {
			p.Comment = "[%clk " + FormatClock(clocks[i]) + "]"
		}
		rec.Plies = append(rec.Plies, p)
	}
	alpha := tavreli.Latin
	if cyrillic {
		alpha = tavreli.Cyrillic
	}
	return rec.Format(alpha, g.Array()), nil
}

// shogiRecord is the writer of a shogi record format: the record built
// here, written by write.
func shogiRecord(write func(*kifu.Record) (string, error)) Writer {
	return func(s *Sheet, r *Replayed) (string, error) { return shogiText(s, r, write) }
}

func shogiText(s *Sheet, r *Replayed, write func(*kifu.Record) (string, error)) (string, error) {
	rec := &kifu.Record{Start: s.Game.StartPosition}
	rec.Meta = kifu.Meta{
		Event: eventTag(s), Sente: s.Game.First, Gote: s.Game.Second,
		StartTime: s.Game.Started, EndTime: s.Game.Ended,
	}
	if s.Game.TimeControl != "" {
		rec.Meta.Note = "time control " + s.Game.TimeControl
		rec.Meta.MainTime, rec.Meta.Byoyomi, rec.Meta.Increment = shogiTimes(s.Game.TimeControl)
	}
	if s.Game.Round > 0 {
		rec.Meta.Extra = append(rec.Meta.Extra, kifu.Header{Key: "Round", Value: round(s)})
	}
	// Each move's time in whole seconds, as the formats write it, so that
	// KIF's running totals are the sums of the times its lines show.
	used := moveTimes(s)
	for i, m := range r.Moves {
		rec.Moves = append(rec.Moves, kifu.RecordMove{USI: m.String(), Time: used[i].Truncate(time.Second)})
	}
	rec.End = shogiTerminal(r.Outcome)
	return write(rec)
}

// shogiTerminal maps a result onto the terminal event of shogi records.
func shogiTerminal(o rules.Outcome) kifu.Terminal {
	if !o.Over() {
		return kifu.Terminal{}
	}
	winner, decisive := o.Winner()
	loser := winner.Other()
	if !decisive {
		switch o.Reason {
		case rules.Repetition:
			return kifu.Terminal{Kind: kifu.Sennichite}
		case rules.Impasse:
			return kifu.Terminal{Kind: kifu.JishogiDraw}
		case rules.MoveCountRule:
			return kifu.Terminal{Kind: kifu.MoveLimit}
		}
		return kifu.Terminal{Kind: kifu.DrawGame}
	}
	switch o.Reason {
	case rules.Checkmate:
		return kifu.Terminal{Kind: kifu.Mate, Side: loser}
	case rules.Time:
		return kifu.Terminal{Kind: kifu.TimeUp, Side: loser}
	case rules.IllegalMove, rules.PerpetualCheck:
		return kifu.Terminal{Kind: kifu.FoulLoss, Side: loser}
	case rules.Impasse:
		return kifu.Terminal{Kind: kifu.EnteringKingWin, Side: winner}
	}
	// Resignation, and decisions the formats have no word for (an
	// arbiter's decision, a forfeit) are written as the loser's
	// resignation, the only decisive event that needs no position.
	return kifu.Terminal{Kind: kifu.Resign, Side: loser, Comment: o.Reason.String()}
}

// pgnRecord is the PGN writer of a chess-family game: newRecord is the
// game's own record maker (its SAN), and variant, when not empty, the
// Variant tag a record without one gets.
func pgnRecord(newRecord func(*chess.Position, []rules.Move, []time.Duration) (*chess.Record, error), variant string) Writer {
	return func(s *Sheet, r *Replayed) (string, error) { return pgnText(s, r, newRecord, variant) }
}

func pgnText(s *Sheet, r *Replayed, newRecord func(*chess.Position, []rules.Move, []time.Duration) (*chess.Record, error),
	variant string) (string, error) {
	clocks, _ := remaining(s, r)
	start, ok := r.Start.(*chess.Position)
	if !ok {
		return "", fmt.Errorf("not a chess-family position: %T", r.Start)
	}
	rec, err := newRecord(start, r.Moves, clocks)
	if err != nil {
		return "", err
	}
	tags := []chess.Tag{
		{Name: "Event", Value: eventTag(s)}, {Name: "Site", Value: "?"}, {Name: "Date", Value: date(s)},
		{Name: "Round", Value: round(s)}, {Name: "White", Value: s.Game.First}, {Name: "Black", Value: s.Game.Second},
	}
	if s.Game.BoardNo > 0 {
		tags = append(tags, chess.Tag{Name: "Board", Value: strconv.Itoa(s.Game.BoardNo)})
	}
	if !s.EventDate.IsZero() {
		tags = append(tags, chess.Tag{Name: "EventDate", Value: s.EventDate.UTC().Format("2006.01.02")})
	}
	tags = append(tags, utcTags(s.Game.Started)...)
	tags = append(tags, playerTags("White", s.First)...)
	tags = append(tags, playerTags("Black", s.Second)...)
	rec.Tags = append(tags, rec.Tags...)
	if variant != "" {
		if _, ok := rec.Tag("Variant"); !ok {
			rec.SetTag("Variant", variant)
		}
	}
	if s.Game.TimeControl != "" {
		// The standard's form in seconds, which PGN readers parse; a
		// control it cannot say is "?", with the stored text beside it.
		tc, ok := PGNTimeControl(s.Game.TimeControl)
		rec.SetTag("TimeControl", tc)
		if !ok {
			rec.SetTag("ArbiterTimeControl", s.Game.TimeControl)
		}
	}
	rec.Result = resultToken(r.Outcome)
	if r.Outcome.Over() && r.Outcome.Reason != rules.NoReason {
		rec.SetTag("Termination", chess.Termination(r.Outcome))
		// The standard's Termination says "normal" for a resignation, an
		// agreement, a claimed repetition or the 50-move rule alike: the
		// stored reason says which.
		rec.SetTag("Reason", r.Outcome.Reason.String())
	}
	mergeKept(s, rec.Tag, rec.SetTag)
	// The Termination agrees with the result: a decided game whose reason
	// is unknown ended normally as far as the record can tell; one still
	// running is unterminated.
	switch t, ok := rec.Tag("Termination"); {
	case r.Outcome.Over() && (!ok || t == "unterminated"):
		rec.SetTag("Termination", "normal")
	case !r.Outcome.Over() && ok && t != "unterminated":
		rec.SetTag("Termination", "unterminated")
	}
	var b strings.Builder
	if err := chess.WritePGN(&b, rec); err != nil {
		return "", err
	}
	return b.String(), nil
}

func kvaaText(s *Sheet, r *Replayed) (string, error) {
	start, ok := r.Start.(*kvaa.Position)
	if !ok {
		return "", fmt.Errorf("not a Kvaa position: %T", r.Start)
	}
	turns := make([]kvaa.Turn, len(r.Moves))
	for i, m := range r.Moves {
		t, ok := m.(kvaa.Turn)
		if !ok {
			return "", fmt.Errorf("ply %d: not a Kvaa turn: %T", i+1, m)
		}
		turns[i] = t
	}
	term := kvaa.Termination("")
	if r.Outcome.Over() {
		term = kvaaTermination(r)
	}
	rec := kvaa.NewRecord(start.Game(), turns, r.Outcome.Result, term,
		kvaa.Tag{Name: "Event", Value: tagSafe(eventTag(s))}, kvaa.Tag{Name: "Date", Value: date(s)},
		kvaa.Tag{Name: "Round", Value: round(s)},
		kvaa.Tag{Name: "South", Value: tagSafe(s.Game.First)}, kvaa.Tag{Name: "North", Value: tagSafe(s.Game.Second)})
	if s.Game.TimeControl != "" {
		// The game's own time control, not the rules' default (D-24
		// writes it "base+increment" in seconds); one that form cannot
		// say is kept in our own tag.
		tc, ok := PGNTimeControl(s.Game.TimeControl)
		if ok && !strings.Contains(tc, "+") {
			tc += "+0"
		}
		if _, err := kvaa.ParseTimeControl(tc); ok && err == nil {
			setKvaaTag(rec, "TimeControl", tc)
		} else {
			setKvaaTag(rec, "ArbiterTimeControl", tagSafe(s.Game.TimeControl))
		}
	}
	if clocks, timed := remaining(s, r); timed {
		for i, c := range clocks {
			rec.Comments = append(rec.Comments, kvaa.Comment{Before: i + 1, Text: "[%clk " + FormatClock(c) + "]"})
		}
	}
	mergeKept(s, rec.Tag, func(name, value string) { setKvaaTag(rec, name, tagSafe(value)) })
	// A kept Termination agrees with the result, or goes.
	if t, ok := rec.Tag("Termination"); ok && (t == string(kvaa.Unterminated)) == r.Outcome.Over() {
		rec.Tags = slices.DeleteFunc(rec.Tags, func(t kvaa.Tag) bool { return t.Name == "Termination" })
	}
	return rec.Format()
}

// mergeKept adds the tags kept from the record a game was imported from
// (store.Game.Tags) to the tags a writer made (have, set): each fills a
// tag the writer did not write or wrote unknown ("?", "-", "????.??.??");
// for a game outside any tournament the record's Event, Site and Round
// are the game's own and replace the writer's.
func mergeKept(s *Sheet, have func(string) (string, bool), set func(name, value string)) {
	for _, t := range s.Game.Tags {
		cur, ok := have(t.Name)
		switch {
		case !ok, cur == "", cur == "?", cur == "-", cur == "????.??.??":
		case s.Game.TournamentID == 0 && (t.Name == "Event" || t.Name == "Site" || t.Name == "Round"):
		default:
			continue
		}
		set(t.Name, t.Value)
	}
}

// knownReason reports whether a record's Termination word agrees with
// the outcome: a reason's name for a decided game.
func knownReason(word string, o rules.Outcome) bool {
	r, ok := rules.ParseReason(word)
	return ok && o.Over() && r != rules.NoReason
}

// setKvaaTag sets a tag of a Kvaa record, in its place if it has it.
func setKvaaTag(rec *kvaa.Record, name, value string) {
	for i := range rec.Tags {
		if rec.Tags[i].Name == name {
			rec.Tags[i].Value = value
			return
		}
	}
	rec.Tags = append(rec.Tags, kvaa.Tag{Name: name, Value: value})
}

// kvaaTermination is the record's termination code of a stored result:
// the rules' own code when the final position ends the game that way,
// otherwise the code of the stored reason.
func kvaaTermination(r *Replayed) kvaa.Termination {
	if r.Outcome.Reason == rules.NoReason {
		return "" // the record does not say why
	}
	if p, ok := r.last().(*kvaa.Position); ok {
		history := append([]rules.Position{r.Start}, r.After...)
		history = history[:len(history)-1]
		if o, t := p.End(history); o.Over() && t.Reason() == r.Outcome.Reason {
			return t
		}
	}
	for _, t := range []kvaa.Termination{kvaa.CapturedAll, kvaa.Blocked, kvaa.NoProgress, kvaa.RepetitionEnd,
		kvaa.TimeForfeit, kvaa.Resigned, kvaa.Agreed, kvaa.Forfeited} {
		if t.Reason() == r.Outcome.Reason {
			return t
		}
	}
	return kvaa.Termination(r.Outcome.Reason.String())
}

// tagSafe replaces the quotes a Kvaa tag value cannot hold; the record
// writer makes the value one line.
func tagSafe(s string) string { return strings.ReplaceAll(s, `"`, "'") }

// utcTags are the PGN UTCDate and UTCTime of a game's start, which
// broadcasts show; a start at exactly midnight is a record's date without
// its time (an imported one), and has no UTCTime.
func utcTags(started time.Time) []chess.Tag {
	if started.IsZero() {
		return nil
	}
	u := started.UTC()
	tags := []chess.Tag{{Name: "UTCDate", Value: u.Format("2006.01.02")}}
	if !u.Equal(u.Truncate(24 * time.Hour)) {
		tags = append(tags, chess.Tag{Name: "UTCTime", Value: u.Format("15:04:05")})
	}
	return tags
}

// playerTags are the PGN tags of what the tournament knows of a player:
// WhiteElo, WhiteTitle and WhiteFideId (side "White"), those known.
func playerTags(side string, p store.Player) []chess.Tag {
	var tags []chess.Tag
	if p.Rating > 0 {
		tags = append(tags, chess.Tag{Name: side + "Elo", Value: strconv.Itoa(p.Rating)})
	}
	if p.Title != "" {
		tags = append(tags, chess.Tag{Name: side + "Title", Value: p.Title})
	}
	if p.FideID != "" {
		tags = append(tags, chess.Tag{Name: side + "FideId", Value: p.FideID})
	}
	return tags
}
