package replay

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"arbiter/arbiter"
	"arbiter/rules"
)

// Report is the outcome of a replay: the stored and the replayed moves side
// by side, and everything the replay noticed on the way.
type Report struct {
	GameID uint64
	Game   string // registered game name
	Board  string
	Caps   arbiter.Caps
	// Synthetic is set when the raw log held no HELLO of the board and the
	// handshake was made up from Options.Caps.
	Synthetic bool

	// The game's raw frames: FirstSeq..LastSeq, and how many frames from
	// the board's last HELLO before the game brought the link up to date.
	FirstSeq, LastSeq uint64
	Frames            int
	WarmUp            int
	// RestartSeq is the first frame after a daemon restart in the middle
	// of the game (0 if none): the replay stops there, and compares the
	// moves stored before it.
	RestartSeq uint64
	// ReadAfterRestart counts the last replayed moves before the restart
	// that the daemon stored only after it: made as the daemon stopped,
	// and read from the board when the next one resumed the game.
	ReadAfterRestart int
	Stats            ReaderStats

	// Plies pairs the stored and the replayed moves, one entry per ply of
	// the longer of the two.
	Plies []Ply
	// FirstDiff is the first ply whose stored and replayed moves differ
	// (a missing or extra move counts), 0 when none does.
	FirstDiff int

	// Alerts are the alerts (and recovery demands) the replay raised;
	// StoredAlerts counts the game's stored alerts by kind, for comparison.
	Alerts       []Alert
	StoredAlerts map[string]int
	Prompts      int

	// Corrupt lists the frames the decoder rejected.
	Corrupt []CorruptFrame

	// Actions lists the arbiter's stored actions and what applying them did.
	Actions []AppliedAction

	// Outcome is the replayed result; StoredResult and StoredReason the
	// stored one ("" while the game was unfinished).
	Outcome      rules.Outcome
	StoredResult string
	StoredReason string
}

// Ply is one ply of a report. A side is empty when it has no move there.
type Ply struct {
	Ply                  int
	Stored, Replayed     string // canonical move text
	StoredNotation       string
	ReplayedNotation     string
	StoredAt, ReplayedAt time.Duration // from the game's start
	StoredRaw, Raw       uint64        // raw frame that completed the move
	// The clocks of both sides after the move (zero without a clock).
	StoredClock, ReplayedClock [2]time.Duration
}

// Same reports whether the stored and the replayed move agree.
func (p Ply) Same() bool { return p.Stored == p.Replayed }

// Alert is an alert the replay raised.
type Alert struct {
	Kind    string
	Side    rules.Color
	At      time.Duration // from the game's start
	Ply     int           // the ply being played
	Message string
}

// CorruptFrame is a stored frame that does not decode. Live, the link
// healed such a loss by asking the board for a dump; a replay can only use
// the dumps that are in the log, so the plies from FromPly until the next
// dump (ToPly; 0 when none came) may read differently.
type CorruptFrame struct {
	Seq      uint64
	At       time.Duration // from the game's start
	Err      string
	FromPly  int
	ToPly    int
	HealedBy uint64 // raw sequence of the frame that completed the healing dump
}

// AppliedAction is an arbiter action applied during the replay.
type AppliedAction struct {
	ID     uint64
	What   string
	Data   string
	Ply    int
	Result string // what happened: "applied", "skipped: ...", or the error
}

// Missing returns the number of stored moves the replay did not make, and
// Extra the number of replayed moves that were not stored.
func (r *Report) Missing() int {
	n := 0
	for _, p := range r.Plies {
		if p.Replayed == "" {
			n++
		}
	}
	return n
}

// Extra returns the number of replayed moves beyond the stored ones.
func (r *Report) Extra() int {
	n := 0
	for _, p := range r.Plies {
		if p.Stored == "" {
			n++
		}
	}
	return n
}

// OK reports whether the replay gave exactly the stored moves.
func (r *Report) OK() bool { return r.FirstDiff == 0 }

// pair fills Plies and FirstDiff from the two move lists.
func (r *Report) pair(stored, replayed []Ply) {
	n := max(len(stored), len(replayed))
	r.Plies = make([]Ply, n)
	r.FirstDiff = 0
	for i := range n {
		p := Ply{Ply: i + 1}
		if i < len(stored) {
			s := stored[i]
			p.Stored, p.StoredNotation, p.StoredAt, p.StoredRaw, p.StoredClock = s.Stored, s.StoredNotation, s.StoredAt, s.StoredRaw, s.StoredClock
		}
		if i < len(replayed) {
			m := replayed[i]
			p.Replayed, p.ReplayedNotation, p.ReplayedAt, p.Raw, p.ReplayedClock = m.Replayed, m.ReplayedNotation, m.ReplayedAt, m.Raw, m.ReplayedClock
		}
		r.Plies[i] = p
		if !p.Same() && r.FirstDiff == 0 {
			r.FirstDiff = p.Ply
		}
	}
}

// WriteText writes the report for people: a summary, the plies, and the
// alerts, corrupt frames and actions.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	r.writeSummary(&b)
	r.writePlies(&b)
	r.writeAlerts(&b)
	r.writeCorrupt(&b)
	r.writeActions(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSummary writes the game, the frames, the verdict, a restart and
// the result.
func (r *Report) writeSummary(b *strings.Builder) {
	verdict := "OK: the replay gives the stored moves"
	if !r.OK() {
		verdict = fmt.Sprintf("DIFFERENT: first difference at ply %d (%d missing, %d extra)", r.FirstDiff, r.Missing(), r.Extra())
	}
	fmt.Fprintf(b, "game %d (%s) on board %s, caps %s", r.GameID, r.Game, r.Board, r.Caps)
	if r.Synthetic {
		b.WriteString(" (no HELLO in the log: caps as given)")
	}
	b.WriteByte('\n')
	fmt.Fprintf(b, "raw frames %d..%d: %d replayed after %d to bring the link up to date; %d bad, %d gaps, %d dumps, %d duplicates dropped\n",
		r.FirstSeq, r.LastSeq, r.Frames, r.WarmUp, r.Stats.Bad, r.Stats.Gaps, r.Stats.Dumps, r.Stats.Duplicate)
	fmt.Fprintf(b, "%s\n", verdict)
	if r.RestartSeq != 0 {
		fmt.Fprintf(b, "the daemon restarted at raw frame %d: the replay covers the %d moves before it", r.RestartSeq, len(r.Plies))
		if r.ReadAfterRestart > 0 {
			fmt.Fprintf(b, " (the last %d made as the daemon stopped, and stored when the next one read the board)", r.ReadAfterRestart)
		}
		b.WriteByte('\n')
	}
	stored := "*"
	if r.StoredResult != "" {
		stored = strings.TrimSpace(r.StoredResult + " " + r.StoredReason)
	}
	fmt.Fprintf(b, "result: stored %s, replayed %s\n", stored, r.Outcome)
}

// writePlies writes the stored and the replayed plies side by side, a
// difference marked.
func (r *Report) writePlies(b *strings.Builder) {
	if len(r.Plies) == 0 {
		return
	}
	b.WriteString("\nply  stored                     replayed\n")
	for _, p := range r.Plies {
		mark := " "
		if !p.Same() {
			mark = "!"
		}
		fmt.Fprintf(b, "%s%3d  %-26s %s\n", mark, p.Ply, plyText(p.Stored, p.StoredNotation, p.StoredAt, p.StoredRaw),
			plyText(p.Replayed, p.ReplayedNotation, p.ReplayedAt, p.Raw))
	}
}

// writeAlerts writes the alerts of the replay and their count by kind,
// beside the stored ones', and the prompts.
func (r *Report) writeAlerts(b *strings.Builder) {
	if len(r.Alerts) > 0 || len(r.StoredAlerts) > 0 {
		fmt.Fprintf(b, "\nalerts: %d in the replay (%s); stored: %s\n", len(r.Alerts), countText(r.alertKinds()), countText(r.StoredAlerts))
		for _, a := range r.Alerts {
			fmt.Fprintf(b, "  %8.3fs ply %d %s %s: %s\n", a.At.Seconds(), a.Ply, a.Kind, a.Side, a.Message)
		}
	}
	if r.Prompts > 0 {
		fmt.Fprintf(b, "prompts: %d\n", r.Prompts)
	}
}

// writeCorrupt writes the corrupt frames and the plies each may change.
func (r *Report) writeCorrupt(b *strings.Builder) {
	if len(r.Corrupt) == 0 {
		return
	}
	fmt.Fprintf(b, "\ncorrupt frames: %d\n", len(r.Corrupt))
	for _, c := range r.Corrupt {
		heal := "never healed: plies from %d on may read differently"
		args := []any{c.FromPly}
		if c.HealedBy != 0 {
			heal = "healed by the dump ending at raw frame %d: plies %d to %d may read differently"
			args = []any{c.HealedBy, c.FromPly, c.ToPly}
		}
		fmt.Fprintf(b, "  raw frame %d at %.3fs: %s; "+heal+"\n", append([]any{c.Seq, c.At.Seconds(), c.Err}, args...)...)
	}
}

// writeActions writes the arbiter's actions.
func (r *Report) writeActions(b *strings.Builder) {
	if len(r.Actions) == 0 {
		return
	}
	fmt.Fprintf(b, "\narbiter actions: %d\n", len(r.Actions))
	for _, a := range r.Actions {
		what := a.What
		if a.Data != "" {
			what += " " + a.Data
		}
		fmt.Fprintf(b, "  #%d ply %d %s: %s\n", a.ID, a.Ply, what, a.Result)
	}
}

func plyText(canon, notation string, at time.Duration, raw uint64) string {
	if canon == "" {
		return "-"
	}
	s := canon
	if notation != "" && notation != canon {
		s += " (" + notation + ")"
	}
	s += fmt.Sprintf(" %.3fs", at.Seconds())
	if raw != 0 {
		s += fmt.Sprintf(" #%d", raw)
	}
	return s
}

func (r *Report) alertKinds() map[string]int {
	m := map[string]int{}
	for _, a := range r.Alerts {
		m[a.Kind]++
	}
	return m
}

func countText(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
