package main

import (
	"archive/zip"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"arbiter/clock"
	"arbiter/demo"
	"arbiter/director"
	"arbiter/export"
	"arbiter/internal/config"
	"arbiter/pairing/tiebreak"
	"arbiter/rules"
	"arbiter/store"
)

// A rehearsal is an event played on simulated boards from start to end,
// and a report of what an arbiter would have met: the built-in demo (the
// rehearsal of configs/arbiter.yaml on its own database) and "arbiter
// rehearse" (an organiser's configuration, on a scratch database) are
// the same run. The simulated boards stand in for the configured ports'
// boards, or are the demo's own (package demo).

// rehearsal is what a run on simulated boards keeps for its report.
type rehearsal struct {
	// title starts the report's lines: "demo" or "rehearsal".
	title string
	// rounds stops the run once every tournament has played this many
	// rounds (or all of its own); 0: every round.
	rounds int
	// dir is the scratch folder of "arbiter rehearse", where the exports
	// go; "" writes none.
	dir string
	// pushes records the broadcast pushes and their answers; nil without
	// pushes.
	pushes *pushRecorder
	// notes say what of the configuration was not rehearsed as it is.
	notes []string

	mu sync.Mutex
	// byHand counts the games on no board whose results the rehearsal
	// entered, by tournament and round.
	byHand map[roundKey]int
	// stop is when the run began to stop (zero while it runs).
	stop time.Time
}

// stopping records that the run begins to stop at t.
func (r *rehearsal) stopping(t time.Time) {
	r.mu.Lock()
	r.stop = t
	r.mu.Unlock()
}

// roundKey names a tournament's round (or table).
type roundKey struct {
	tournament uint64
	round      int
}

// handResults are the results the rehearsal enters for the games on no
// board, in turn: what scoresheets say.
var handResults = []rules.Outcome{rules.Win(rules.First, rules.Resignation), rules.Draw(rules.Agreement), rules.Win(rules.Second, rules.Resignation)}

// enterByHand plays the arbiter for the games of d's rounds that have no
// table (the configured ports hold fewer boards than a round has games):
// once a round's games on tables are over, the games on no table get
// their results, as an arbiter enters them from the scoresheets.
func (r *rehearsal) enterByHand(ctx context.Context, d *director.Director) {
	tables := map[roundKey]bool{} // a tournament's table numbers
	for _, l := range d.Tables() {
		tables[roundKey{l.Tournament, l.Number}] = true
	}
	for _, id := range d.TournamentIDs() {
		rounds, err := d.DB().Rounds(id)
		if err != nil {
			continue
		}
		for _, rd := range rounds {
			var waiting []uint64
			onTables := false
			for _, p := range rd.Pairings {
				if p.Second == 0 || p.Result != "" {
					continue
				}
				if tables[roundKey{id, p.Board}] {
					onTables = true
					break
				}
				waiting = append(waiting, p.GameID)
			}
			if onTables {
				continue
			}
			for _, g := range waiting {
				o := handResults[g%uint64(len(handResults))]
				if err := d.SetResult(ctx, g, o, "rehearsal", "a game on no board: its result from the scoresheet"); err != nil {
					continue // taken up again at the next look
				}
				r.mu.Lock()
				if r.byHand == nil {
					r.byHand = map[roundKey]int{}
				}
				r.byHand[roundKey{id, rd.Number}]++
				r.mu.Unlock()
			}
		}
	}
}

// enterByHandWhilePlaying runs enterByHand every 250 ms until ctx ends.
func (r *rehearsal) enterByHandWhilePlaying(ctx context.Context, wg *sync.WaitGroup, d *director.Director) {
	wg.Go(func() {
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			r.enterByHand(ctx, d)
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	})
}

// handCount returns how many results of a tournament's round the
// rehearsal entered by hand.
func (r *rehearsal) handCount(id uint64, round int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byHand[roundKey{id, round}]
}

// roundsDone returns a channel closed once every tournament of d has
// played r.rounds rounds (or every round it has), every game with its
// result.
func (r *rehearsal) roundsDone(ctx context.Context, wg *sync.WaitGroup, d *director.Director) <-chan struct{} {
	done := make(chan struct{})
	wg.Go(func() {
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			if r.played(d) {
				close(done)
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	})
	return done
}

// played reports whether every tournament has played its rounds.
func (r *rehearsal) played(d *director.Director) bool {
	for _, id := range d.TournamentIDs() {
		t, err := d.DB().Tournament(id)
		if err != nil {
			return false
		}
		rounds, err := d.DB().Rounds(id)
		if err != nil {
			return false
		}
		want := t.PlayedRounds()
		if r.rounds > 0 {
			want = min(want, r.rounds)
		}
		if len(rounds) < want {
			return false
		}
		for _, rd := range rounds[:want] {
			for _, p := range rd.Pairings {
				if p.Result == "" {
					return false
				}
			}
		}
	}
	return true
}

// report writes what an arbiter would have met: the simulated boards'
// moves, each round paired or blocked (and why), the alerts by kind, the
// time controls as the clocks showed them, the standings with their
// tie-breaks, the exports written and the broadcast endpoints' answers.
func (s *daemon) report(r *rehearsal, dm *demo.Demo) {
	w := s.opts.out
	st := dm.Stats()
	fmt.Fprintf(w, "%s: %d moves played, %d read right, %d misread, %d made again, %d games abandoned\n",
		r.title, st.Played, st.Read, st.Misread, st.Retried, st.Abandoned)
	fmt.Fprintf(w, "%s: %s\n", r.title, boardsText(dm))
	for _, n := range append(r.notes, r.boardNotes(s.d)...) {
		fmt.Fprintf(w, "%s: note: %s\n", r.title, n)
	}
	db := s.db
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nROUNDS")
	for _, id := range s.d.TournamentIDs() {
		t, err := db.Tournament(id)
		if err != nil {
			continue
		}
		rounds, _ := db.Rounds(id)
		for _, rd := range rounds {
			fmt.Fprintf(tw, "%s\tround %d\t%s\n", t.Name, rd.Number, roundText(rd, r.handCount(id, rd.Number)))
		}
		switch why := s.d.Blocked(id); {
		case why != "":
			fmt.Fprintf(tw, "%s\tround %d\tBLOCKED: %s\n", t.Name, len(rounds)+1, why)
		case len(rounds) < t.PlayedRounds():
			fmt.Fprintf(tw, "%s\tround %d\tnot paired: the rehearsal stopped first\n", t.Name, len(rounds)+1)
		}
	}
	fmt.Fprintln(tw, "\nALERTS BY KIND\t\t")
	alerts, _ := db.Alerts(false)
	kinds := map[string][3]int{} // alerts, times raised, open
	r.mu.Lock()
	stop := r.stop
	r.mu.Unlock()
	atStop := 0
	for _, a := range alerts {
		if !stop.IsZero() && a.At.After(stop) {
			atStop++ // the boards stopping, not the event
			continue
		}
		k := kinds[a.Kind]
		k[0]++
		k[1] += max(a.Count, 1)
		if !a.Resolved {
			k[2]++
		}
		kinds[a.Kind] = k
	}
	if len(kinds) == 0 {
		fmt.Fprintln(tw, "none\t\t")
	}
	for _, kind := range slices.Sorted(maps.Keys(kinds)) {
		k := kinds[kind]
		fmt.Fprintf(tw, "%s\t%s (raised %s), %d open at the end\t\n", kind, plural(k[0], "alert"), plural(k[1], "time"), k[2])
	}
	if atStop > 0 {
		fmt.Fprintf(tw, "(%s raised as the simulated boards stopped, not counted)\t\t\n", plural(atStop, "alert"))
	}
	fmt.Fprintln(tw, "\nTIME CONTROLS\t\t")
	for _, id := range s.d.TournamentIDs() {
		for _, line := range timeControlLines(db, id) {
			fmt.Fprintln(tw, line)
		}
	}
	tw.Flush()
	fmt.Fprintln(w, "\nSTANDINGS")
	for _, id := range s.d.TournamentIDs() {
		s.standings(w, id)
	}
	fmt.Fprintln(w, "\nEXPORTS")
	fmt.Fprintln(w, s.exports(r))
	fmt.Fprintln(w, "\nBROADCAST")
	fmt.Fprintln(w, r.pushes.text())
}

// boardNotes say, for each tournament whose games the rehearsal entered
// by hand, how many boards a round wants and how many the ports hold.
func (r *rehearsal) boardNotes(d *director.Director) []string {
	var out []string
	for _, id := range d.TournamentIDs() {
		t, err := d.DB().Tournament(id)
		if err != nil {
			continue
		}
		rounds, _ := d.DB().Rounds(id)
		most, want := 0, 0
		for _, rd := range rounds {
			most = max(most, r.handCount(id, rd.Number))
			games := 0
			for _, p := range rd.Pairings {
				if p.Second != 0 {
					games++
				}
			}
			want = max(want, games)
		}
		if most == 0 {
			continue
		}
		tables := 0
		for _, l := range d.Tables() {
			if l.Tournament == id {
				tables++
			}
		}
		out = append(out, fmt.Sprintf("%s wants %s a round and the ports hold %d: %s a round on no board, their results entered as an arbiter enters them from the scoresheets",
			t.Name, plural(want, "board"), tables, plural(most, "game")))
	}
	return out
}

// boardsText says which simulated boards stood in, by protocol.
func boardsText(dm *demo.Demo) string {
	ports := dm.Ports()
	var parts []string
	n := 0
	for _, name := range slices.Sorted(maps.Keys(ports)) {
		n += len(ports[name])
		parts = append(parts, fmt.Sprintf("%d of protocol %s", len(ports[name]), name))
	}
	return plural(n, "simulated board") + ": " + strings.Join(parts, ", ")
}

// roundText says how a round went: its boards, byes and results, byHand
// of them entered for games on no board.
func roundText(rd store.Round, byHand int) string {
	games, byes, open := 0, 0, 0
	results := map[string]int{}
	for _, p := range rd.Pairings {
		switch {
		case p.Second == 0:
			byes++
		case p.Result == "":
			games++
			open++
		default:
			games++
			results[p.Result]++
		}
	}
	how := "paired"
	switch rd.How {
	case "manual":
		how = "paired by hand"
	case "rematches":
		how = "paired allowing rematches"
	}
	text := fmt.Sprintf("%s: %s, %s", how, plural(games, "board"), plural(byes, "bye"))
	var rs []string
	for _, res := range slices.Sorted(maps.Keys(results)) {
		rs = append(rs, fmt.Sprintf("%s ×%d", res, results[res]))
	}
	if len(rs) > 0 {
		text += "; results " + strings.Join(rs, ", ")
	}
	if byHand > 0 {
		text += fmt.Sprintf("; %d on no board, results entered by hand", byHand)
	}
	if open > 0 {
		text += fmt.Sprintf("; %s unfinished", plural(open, "game"))
	}
	return text
}

// timeControlLines says, for each time control of a tournament's rounds,
// what it is, how the PGN records write it, and what the clocks showed
// after the first move of its first game.
func timeControlLines(db *store.DB, id uint64) []string {
	t, err := db.Tournament(id)
	if err != nil {
		return nil
	}
	rounds, _ := db.Rounds(id)
	type seen struct {
		rounds []int
		clocks string
	}
	byTC := map[string]*seen{}
	var order []string
	for _, rd := range rounds {
		for _, p := range rd.Pairings {
			if p.GameID == 0 {
				continue
			}
			g, err := db.Game(p.GameID)
			if err != nil {
				continue
			}
			tc := cmp.Or(g.TimeControl, "-")
			sn := byTC[tc]
			if sn == nil {
				sn = &seen{}
				byTC[tc] = sn
				order = append(order, tc)
			}
			if !slices.Contains(sn.rounds, rd.Number) {
				sn.rounds = append(sn.rounds, rd.Number)
			}
			if sn.clocks == "" {
				if ms, err := db.Moves(g.ID); err == nil && len(ms) > 0 {
					sn.clocks = clockText(ms[0].ClockFirst) + " / " + clockText(ms[0].ClockSecond)
				}
			}
			break // one game a round tells the round's control
		}
	}
	if len(order) == 0 && t.TimeControl != "" {
		order, byTC[t.TimeControl] = []string{t.TimeControl}, &seen{}
	}
	var out []string
	for _, tc := range order {
		sn := byTC[tc]
		text := tc
		if c, err := clock.Parse(tc); err == nil {
			text += " (" + c.Describe() + ")"
		}
		if tag, ok := export.PGNTimeControl(tc); ok {
			text += ", PGN " + tag
		}
		if sn.clocks != "" {
			text += "; the clocks after the first move: " + sn.clocks
		}
		rs := "no round played"
		if len(sn.rounds) > 0 {
			rs = "rounds " + intsText(sn.rounds)
		}
		out = append(out, t.Name+"\t"+rs+"\t"+text)
	}
	return out
}

// clockText writes a clock reading as a clock shows it: 1:29:55, 14:53.
func clockText(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// intsText writes 1, 2, 3 as "1-3" and 1, 2, 4 as "1-2, 4".
func intsText(ns []int) string {
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", ns[i], ns[j]))
		} else {
			parts = append(parts, strconv.Itoa(ns[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// standings writes a tournament's standings with its tie-breaks, and
// which places the tie-breaks decided.
func (s *daemon) standings(w io.Writer, id uint64) {
	t, err := s.db.Tournament(id)
	if err != nil {
		return
	}
	st, err := s.d.Standings(id)
	if err != nil {
		fmt.Fprintf(w, "%s: no standings: %v\n", t.Name, err)
		return
	}
	fmt.Fprintf(w, "%s, after %s:\n", t.Name, plural(st.Rounds, "round"))
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	head := []string{"", "", ""}
	for _, spec := range st.Tiebreaks {
		head = append(head, spec.String())
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	decided := 0
	for i, row := range st.Rows {
		rank := strconv.Itoa(row.Rank) + "."
		if row.Shared {
			rank += "="
		}
		cells := []string{rank, row.Name, strconv.Itoa(row.Rating)}
		for j, v := range row.Values {
			cells = append(cells, v.Format(st.Tiebreaks[j].Kind))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
		if i > 0 && row.Points() == st.Rows[i-1].Points() && !row.Shared {
			decided++
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "  tie-breaks %s: %s decided by them\n", tiebreakNames(st), plural(decided, "place"))
}

// tiebreakNames lists the standings' tie-breaks after the points.
func tiebreakNames(st *tiebreak.Standings) string {
	var names []string
	for _, spec := range st.Tiebreaks[1:] {
		names = append(names, spec.String())
	}
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

// exports writes the event's records to the scratch folder, as "arbiter
// export" would, and says what was written.
func (s *daemon) exports(r *rehearsal) string {
	if r.dir == "" {
		return fmt.Sprintf("none written here: arbiter export --database %s -o event.zip writes them", s.cfg.Event.Database)
	}
	path := filepath.Join(r.dir, "event.zip")
	var buf bytes.Buffer
	rep := export.WithEvent(director.Reports{DB: s.db}, s.db, exportEvent(s.cfg))
	if err := export.Archive(&buf, s.db, s.cfg.Event.Name, rep); err != nil {
		return "the archive could not be written: " + err.Error()
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return "the archive could not be written: " + err.Error()
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		return fmt.Sprintf("%s: unreadable: %v", path, err)
	}
	byExt := map[string]int{}
	problems := ""
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		if filepath.Base(f.Name) == "ERRORS.txt" {
			rc, err := f.Open()
			if err == nil {
				b, _ := io.ReadAll(io.LimitReader(rc, 4096))
				rc.Close()
				problems = "\n  problems: " + strings.ReplaceAll(strings.TrimSpace(string(b)), "\n", "\n  ")
			}
			continue
		}
		byExt[cmp.Or(strings.TrimPrefix(filepath.Ext(f.Name), "."), "other")]++
	}
	var parts []string
	for _, ext := range slices.Sorted(maps.Keys(byExt)) {
		parts = append(parts, fmt.Sprintf("%d .%s", byExt[ext], ext))
	}
	return fmt.Sprintf("%s (%d kB): %s%s", path, buf.Len()/1000, strings.Join(parts, ", "), problems)
}

// pushRecorder stands between the daemon's broadcast pushes and their
// endpoints: each push is answered and recorded, and sent on to the real
// endpoint only when asked (send).
type pushRecorder struct {
	srv    *http.Server
	ln     net.Listener
	real   []config.Push // the configured pushes, by index
	send   bool
	client *http.Client

	mu      sync.Mutex
	answers map[int]map[string]int // push index -> answer -> count
	rounds  map[int]map[string]bool
}

// newPushRecorder starts a recorder for the configured pushes and points
// each at it, on this machine.
func newPushRecorder(pushes []config.Push, send bool) (*pushRecorder, []config.Push, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, fmt.Errorf("broadcast recorder: %w", err)
	}
	r := &pushRecorder{ln: ln, real: slices.Clone(pushes), send: send, client: &http.Client{Timeout: 30 * time.Second},
		answers: map[int]map[string]int{}, rounds: map[int]map[string]bool{}}
	r.srv = &http.Server{Handler: http.HandlerFunc(r.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = r.srv.Serve(ln) }()
	local := slices.Clone(pushes)
	for i := range local {
		round := "-"
		if strings.Contains(local[i].URL, "{round}") {
			round = "{round}"
		}
		local[i].URL = fmt.Sprintf("http://%s/push/%d/%s", ln.Addr(), i, round)
	}
	return r, local, nil
}

// serve answers one push: recorded, and sent on when asked.
func (r *pushRecorder) serve(w http.ResponseWriter, req *http.Request) {
	parts := strings.Split(strings.TrimPrefix(req.URL.Path, "/push/"), "/")
	i, err := strconv.Atoi(parts[0])
	if err != nil || i < 0 || i >= len(r.real) || len(parts) != 2 || req.Method != http.MethodPost {
		http.NotFound(w, req)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(req.Body, 16<<20))
	answer, status, text := "200 OK (not sent: a rehearsal; --push sends it)", http.StatusOK, "ok"
	if r.send {
		target := r.real[i].URL
		if parts[1] != "-" {
			target = strings.ReplaceAll(target, "{round}", parts[1])
		}
		out, err := http.NewRequestWithContext(req.Context(), http.MethodPost, target, bytes.NewReader(body))
		if err == nil {
			out.Header = req.Header.Clone()
			var resp *http.Response
			if resp, err = r.client.Do(out); err == nil {
				b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
				resp.Body.Close()
				status, text = resp.StatusCode, string(b)
				answer = resp.Status
			}
		}
		if err != nil {
			status, text, answer = http.StatusBadGateway, err.Error(), "no answer: "+err.Error()
		}
	}
	r.mu.Lock()
	if r.answers[i] == nil {
		r.answers[i], r.rounds[i] = map[string]int{}, map[string]bool{}
	}
	r.answers[i][answer]++
	r.rounds[i][parts[1]] = true
	r.mu.Unlock()
	http.Error(w, text, status)
}

// sends reports whether the recorder sends the pushes on to their
// endpoints (--push).
func (r *pushRecorder) sends() bool { return r != nil && r.send }

// close stops the recorder.
func (r *pushRecorder) close() {
	if r != nil {
		_ = r.srv.Close()
	}
}

// text says, push by push, what was pushed and how it was answered.
func (r *pushRecorder) text() string {
	if r == nil {
		return "no broadcast.push configured"
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for i, p := range r.real {
		fmt.Fprintf(&b, "broadcast.push[%d] %s (%s): ", i, redact(p.URL), p.Tournament)
		as := r.answers[i]
		if len(as) == 0 {
			b.WriteString("nothing pushed\n")
			continue
		}
		rounds := slices.Sorted(maps.Keys(r.rounds[i]))
		n := 0
		var parts []string
		for _, a := range slices.Sorted(maps.Keys(as)) {
			n += as[a]
			parts = append(parts, fmt.Sprintf("%s ×%d", a, as[a]))
		}
		where := ""
		if !slices.Equal(rounds, []string{"-"}) {
			where = " of rounds " + strings.Join(rounds, ", ")
		}
		fmt.Fprintf(&b, "%s%s, answered %s\n", plural(n, "push"), where, strings.Join(parts, ", "))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// redact hides what may be a secret in an address: its user and password.
func redact(raw string) string {
	i := strings.Index(raw, "://")
	j := strings.LastIndex(raw, "@")
	if i < 0 || j < i {
		return raw
	}
	return raw[:i+3] + "***" + raw[j:]
}
