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
)

// The record writers of the five games of the program. Each turns the
// played game into its package's record type and lets that package write
// it, so the notation is always the game's own. They are registered with
// their games (rules.RegisterFormat), as a game's own package registers
// its formats; a new game's package registers its own.

// The formats of the five games, each game's usual one first.
func init() {
	text := "text/plain; charset=utf-8"
	pgn := rules.Format{Name: "pgn", Ext: "pgn", MediaType: "application/x-chess-pgn; charset=utf-8", Title: "PGN"}
	rules.RegisterFormat(chess.Name, pgn, pgnRecord(chess.NewRecord, ""))
	rules.RegisterFormat(tensor.Name, pgn, pgnRecord(tensor.NewRecord, "Tensor"))
	rules.RegisterFormat(tavreli.Name, rules.Format{Name: "latin", Ext: "tav", MediaType: text, Title: "Tavreli record, Latin files"},
		func(r *rules.Record) (string, error) { return tavreliRecord(r, false) })
	rules.RegisterFormat(tavreli.Name, rules.Format{Name: "cyrillic", Ext: "tav", MediaType: text, Title: "Tavreli record, Cyrillic files",
		Suffix: "-cyrillic"}, func(r *rules.Record) (string, error) { return tavreliRecord(r, true) })
	rules.RegisterFormat(shogi.Name, rules.Format{Name: "kif", Ext: "kifu", MediaType: text, Title: "KIF (UTF-8)"},
		shogiRecord(func(rec *kifu.Record) (string, error) { return kifu.WriteKIF(rec, kifu.KIFOptions{}) }))
	rules.RegisterFormat(shogi.Name, rules.Format{Name: "csa", Ext: "csa", MediaType: text, Title: "CSA", Separator: "/\n"},
		shogiRecord(kifu.WriteCSA))
	rules.RegisterFormat(shogi.Name, rules.Format{Name: "ki2", Ext: "ki2u", MediaType: text, Title: "KI2 (UTF-8)"},
		shogiRecord(kifu.WriteKI2))
	rules.RegisterFormat(kvaa.Name, rules.Format{Name: "kvaa", Ext: "kvaa", MediaType: text, Title: "Kvaa record"}, kvaaText)
}

// date is the PGN-style date of a game, "????.??.??" when unknown.
func date(r *rules.Record) string {
	if r.Started.IsZero() {
		return "????.??.??"
	}
	return r.Started.UTC().Format("2006.01.02")
}

// round is the round tag: "3", "3.2" with the board, "-" outside a tournament.
func round(r *rules.Record) string {
	if r.Round == 0 {
		return "-"
	}
	if r.Board > 0 {
		return fmt.Sprintf("%d.%d", r.Round, r.Board)
	}
	return strconv.Itoa(r.Round)
}

// eventTag names the event and the tournament.
func eventTag(r *rules.Record) string {
	switch {
	case r.Event != "" && r.Tournament != "":
		return r.Event + ": " + r.Tournament
	case r.Tournament != "":
		return r.Tournament
	}
	return r.Event
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

func tavreliRecord(r *rules.Record, cyrillic bool) (string, error) {
	start, ok := r.Start.(*tavreli.Position)
	g, gok := r.Game.(*tavreli.Game)
	if !ok || !gok {
		return "", fmt.Errorf("not a Tavreli game: %T", r.Start)
	}
	rec := &tavreli.Record{
		Tags: []tavreli.Tag{
			{Name: "Event", Value: eventTag(r)}, {Name: "Date", Value: date(r)}, {Name: "Round", Value: round(r)},
			{Name: "White", Value: r.First.Name}, {Name: "Black", Value: r.Second.Name},
		},
		Start:  start.Board(),
		Result: resultToken(r.Outcome),
	}
	if r.TimeControl != "" {
		rec.SetTag("TimeControl", r.TimeControl)
	}
	if r.Outcome.Over() && r.Outcome.Reason != rules.NoReason {
		rec.SetTag("Termination", r.Outcome.Reason.String())
	}
	mergeKept(r, rec.Tag, rec.SetTag)
	if t, ok := rec.Tag("Termination"); ok && !knownReason(t, r.Outcome) {
		rec.Tags = slices.DeleteFunc(rec.Tags, func(t tavreli.Tag) bool { return t.Name == "Termination" })
	}
	clocks, timed := r.Clocks, r.Clocks != nil
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
func shogiRecord(write func(*kifu.Record) (string, error)) rules.RecordWriter {
	return func(r *rules.Record) (string, error) { return shogiText(r, write) }
}

func shogiText(r *rules.Record, write func(*kifu.Record) (string, error)) (string, error) {
	// The start is the game's own: a custom position, or its rules' start
	// (a handicap, 駒落ち), which its records write as such.
	rec := &kifu.Record{Start: r.Start.String()}
	rec.Meta = kifu.Meta{
		Event: eventTag(r), Sente: r.First.Name, Gote: r.Second.Name,
		StartTime: r.Started, EndTime: r.Ended,
	}
	if r.TimeControl != "" {
		rec.Meta.Note = "time control " + r.TimeControl
		rec.Meta.MainTime, rec.Meta.Byoyomi, rec.Meta.Increment = shogiTimes(r.TimeControl)
	}
	if r.Round > 0 {
		rec.Meta.Extra = append(rec.Meta.Extra, kifu.Header{Key: "Round", Value: round(r)})
	}
	// Each move's time in whole seconds, as the formats write it, so that
	// KIF's running totals are the sums of the times its lines show.
	for i, m := range r.Moves {
		rec.Moves = append(rec.Moves, kifu.RecordMove{USI: m.String(), Time: r.Used[i].Truncate(time.Second)})
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
	case rules.DeclarationFailed:
		// The declarer's foul in the formats; the comment keeps the reason.
		return kifu.Terminal{Kind: kifu.FoulLoss, Side: loser, Comment: o.Reason.String()}
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
func pgnRecord(newRecord func(*chess.Position, []rules.Move, []time.Duration) (*chess.Record, error), variant string) rules.RecordWriter {
	return func(r *rules.Record) (string, error) { return pgnText(r, newRecord, variant) }
}

// pgnText writes r as PGN with newRecord (the game's SAN), the tags the
// stored game and its kept tags give, and Variant when variant is set.
func pgnText(r *rules.Record, newRecord func(*chess.Position, []rules.Move, []time.Duration) (*chess.Record, error),
	variant string) (string, error) {
	start, ok := r.Start.(*chess.Position)
	if !ok {
		return "", fmt.Errorf("not a chess-family position: %T", r.Start)
	}
	rec, err := newRecord(start, r.Moves, r.Clocks)
	if err != nil {
		return "", err
	}
	rec.Tags = append(pgnTags(r), rec.Tags...)
	if variant != "" {
		if _, ok := rec.Tag("Variant"); !ok {
			rec.SetTag("Variant", variant)
		}
	}
	if r.TimeControl != "" {
		// The standard's form in seconds, which PGN readers parse; a
		// control it cannot say is "?", with the stored text beside it.
		tc, ok := PGNTimeControl(r.TimeControl)
		rec.SetTag("TimeControl", tc)
		if !ok {
			rec.SetTag("ArbiterTimeControl", r.TimeControl)
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
	mergeKept(r, rec.Tag, rec.SetTag)
	settleTermination(rec, r.Outcome)
	var b strings.Builder
	if err := chess.WritePGN(&b, rec); err != nil {
		return "", err
	}
	return b.String(), nil
}

// pgnTags returns the tags a PGN record of r starts with: the roster but
// its result, the board, the event's date, the start time in UTC and the
// players'.
func pgnTags(r *rules.Record) []chess.Tag {
	tags := []chess.Tag{
		{Name: "Event", Value: eventTag(r)}, {Name: "Site", Value: "?"}, {Name: "Date", Value: date(r)},
		{Name: "Round", Value: round(r)}, {Name: "White", Value: r.First.Name}, {Name: "Black", Value: r.Second.Name},
	}
	if r.Board > 0 {
		tags = append(tags, chess.Tag{Name: "Board", Value: strconv.Itoa(r.Board)})
	}
	if !r.EventDate.IsZero() {
		tags = append(tags, chess.Tag{Name: "EventDate", Value: r.EventDate.UTC().Format("2006.01.02")})
	}
	tags = append(tags, utcTags(r.Started)...)
	tags = append(tags, playerTags("White", r.First)...)
	return append(tags, playerTags("Black", r.Second)...)
}

// settleTermination makes the Termination agree with the outcome: a
// decided game whose reason is unknown ended normally as far as the
// record can tell; one still running is unterminated.
func settleTermination(rec *chess.Record, o rules.Outcome) {
	switch t, ok := rec.Tag("Termination"); {
	case o.Over() && (!ok || t == "unterminated"):
		rec.SetTag("Termination", "normal")
	case !o.Over() && ok && t != "unterminated":
		rec.SetTag("Termination", "unterminated")
	}
}

func kvaaText(r *rules.Record) (string, error) {
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
		kvaa.Tag{Name: "Event", Value: tagSafe(eventTag(r))}, kvaa.Tag{Name: "Date", Value: date(r)},
		kvaa.Tag{Name: "Round", Value: round(r)},
		kvaa.Tag{Name: "South", Value: tagSafe(r.First.Name)}, kvaa.Tag{Name: "North", Value: tagSafe(r.Second.Name)})
	if r.TimeControl != "" {
		// The game's own time control, not the rules' default (D-24
		// writes it "base+increment" in seconds); one that form cannot
		// say is kept in our own tag.
		tc, ok := PGNTimeControl(r.TimeControl)
		if ok && !strings.Contains(tc, "+") {
			tc += "+0"
		}
		if _, err := kvaa.ParseTimeControl(tc); ok && err == nil {
			setKvaaTag(rec, "TimeControl", tc)
		} else {
			setKvaaTag(rec, "ArbiterTimeControl", tagSafe(r.TimeControl))
		}
	}
	if clocks := r.Clocks; clocks != nil {
		for i, c := range clocks {
			rec.Comments = append(rec.Comments, kvaa.Comment{Before: i + 1, Text: "[%clk " + FormatClock(c) + "]"})
		}
	}
	mergeKept(r, rec.Tag, func(name, value string) { setKvaaTag(rec, name, tagSafe(value)) })
	// A kept Termination agrees with the result, or goes.
	if t, ok := rec.Tag("Termination"); ok && (t == string(kvaa.Unterminated)) == r.Outcome.Over() {
		rec.Tags = slices.DeleteFunc(rec.Tags, func(t kvaa.Tag) bool { return t.Name == "Termination" })
	}
	return rec.Format()
}

// mergeKept adds the tags kept from the record a game was imported from
// (rules.Record.Tags) to the tags a writer made (have, set): each fills a
// tag the writer did not write or wrote unknown ("?", "-", "????.??.??");
// for a game outside any tournament the record's Event, Site and Round
// are the game's own and replace the writer's.
func mergeKept(r *rules.Record, have func(string) (string, bool), set func(name, value string)) {
	for _, t := range r.Tags {
		cur, ok := have(t.Name)
		switch {
		case !ok, cur == "", cur == "?", cur == "-", cur == "????.??.??":
		case r.Tournament == "" && (t.Name == "Event" || t.Name == "Site" || t.Name == "Round"):
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
func kvaaTermination(r *rules.Record) kvaa.Termination {
	if r.Outcome.Reason == rules.NoReason {
		return "" // the record does not say why
	}
	if p, ok := r.Last().(*kvaa.Position); ok {
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
func playerTags(side string, p rules.RecordPlayer) []chess.Tag {
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
