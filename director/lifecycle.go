package director

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"arbiter/internal/names"
	"arbiter/pairing"
	"arbiter/pairing/trf"
	"arbiter/rules"
	"arbiter/store"
)

// The event off the happy path: a round that cannot be paired, players who
// come late, leave, ask for byes or do not show up, results corrected
// after the fact. Every decision is an arbiter's action, stored with who
// and why before anyone is told.

// Alert kinds the director raises itself, besides the table's.
const (
	AlertNoPairing = "no-pairing" // the next round cannot be paired
	AlertBoardGone = "board-gone" // a round's game waits for its board
	// AlertBoard: a board's driver cannot settle something about the
	// game by itself (board.ErrAttention); its message says what.
	AlertBoard = "board"
)

// errRoundIncomplete is returned by actions that need a complete round.
var errRoundIncomplete = errors.New("the current round has unfinished games: enter their results first")

// blockLocked records that round number of tr cannot be paired, and tells
// the arbiter what can be done. Called with d.mu held.
func (d *Director) blockLocked(tr *tour, number int, nv *pairing.NoValidPairingError) {
	why := fmt.Sprintf("%s: round %d cannot be paired: %s", tr.rec.Name, number, nv.Reason)
	first := tr.blocked == ""
	tr.blocked = why
	advice := fmt.Sprintf("In the console choose: enter round %d's pairings by hand, pair allowing rematches (a last resort, marked as such), or end the tournament after round %d.", number, number-1)
	a := store.Alert{Tournament: tr.rec.ID, Kind: AlertNoPairing, Message: why, Advice: advice, Where: tr.rec.Name, At: d.wall()}
	if err := d.db.AddAlert(&a); err != nil {
		d.log.Error("store alert", "err", err)
	}
	if first {
		d.log.Warn("no valid pairing", "tournament", tr.rec.Name, "round", number, "reason", nv.Reason)
	}
	d.hub.Publish(Update{Kind: "alert", At: d.wall(), Data: a})
}

// Blocked says why a tournament's next round could not be paired; empty
// when it is not blocked.
func (d *Director) Blocked(id uint64) string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if tr := d.tourLocked(id); tr != nil {
		return tr.blocked
	}
	return ""
}

// resolveTournamentAlerts resolves the open no-pairing alerts of a
// tournament: the arbiter's action settled them.
func (d *Director) resolveTournamentAlerts(id uint64, who, why string) {
	open, err := d.db.Alerts(true)
	if err != nil {
		d.log.Error("read alerts", "err", err)
		return
	}
	var ids []uint64
	for _, a := range open {
		if a.Tournament == id && a.Kind == AlertNoPairing {
			ids = append(ids, a.ID)
		}
	}
	if len(ids) == 0 {
		return
	}
	if err := d.db.ResolveAlerts(ids, &store.Action{Who: who, Why: why, At: d.wall()}); err != nil {
		d.log.Error("resolve alerts", "err", err)
	}
}

// boardPresent reports whether the table's board is connected, or has not
// been seen yet (a game may start and wait for its first handshake).
func (t *Table) boardPresent() bool {
	switch t.Live().Health {
	case "disconnected", "not-responding":
		return false
	}
	return true
}

// tableWaits tells the arbiter that a round's game waits for the board of
// its table, which is gone.
func (d *Director) tableWaits(t *Table, g *store.Game) {
	l := t.Live()
	since := ""
	if !l.HealthSince.IsZero() {
		since = " since " + l.HealthSince.Local().Format("15:04")
	}
	a := store.Alert{GameID: g.ID, BoardID: t.ID, Kind: AlertBoardGone, At: d.wall(),
		Where:   fmt.Sprintf("table %d (board %s): %s – %s", t.Number, t.ID, g.First, g.Second),
		Message: fmt.Sprintf("round %d's game did not start: the board is %s%s", g.Round, l.Health, since),
		Advice:  "Reconnect the board (the game starts when it answers), or start the game anyway, or enter its result by hand."}
	if err := d.db.AddAlert(&a); err != nil {
		d.log.Error("store alert", "err", err)
	}
	d.hub.Publish(Update{Kind: "alert", Table: t.ID, Game: g.ID, At: d.wall(), Data: a})
}

// boardTrouble tells the arbiter what the driver of the table's board
// cannot settle by itself (an error marked board.ErrAttention).
func (d *Director) boardTrouble(t *Table, err error) {
	l := t.Live()
	a := store.Alert{GameID: l.GameID, BoardID: t.ID, Kind: AlertBoard, At: d.wall(),
		Where:   fmt.Sprintf("table %d (board %s)", t.Number, t.ID),
		Message: err.Error(),
		Advice:  "Go to the table: compare the board with the table's card, have the moves it misses entered from the scoresheet or the position set up as the card shows, and resolve the alert."}
	if err := d.db.AddAlert(&a); err != nil {
		d.log.Error("store alert", "err", err)
	}
	d.hub.Publish(Update{Kind: "alert", Table: t.ID, Game: l.GameID, At: d.wall(), Data: a})
}

// StartWaiting starts on its table, on the arbiter's word, the game of the
// current round that waits for the table's board.
func (d *Director) StartWaiting(ctx context.Context, board, who, why string) error {
	t, ok := d.Table(board)
	if !ok {
		return fmt.Errorf("board %s: %w", board, store.ErrNotFound)
	}
	if l := t.Live(); l.GameID != 0 && l.Result == "" {
		return fmt.Errorf("table %d already plays game %d", t.Number, l.GameID)
	}
	if err := d.db.AddAction(&store.Action{Who: who, What: "start-game", Why: why, Data: "table " + board, At: d.wall()}); err != nil {
		return err
	}
	return d.startWaiting(ctx, t, true)
}

// EndTournament ends a tournament after its last complete round, when the
// next one cannot or shall not be played.
func (d *Director) EndTournament(id uint64, who, why string) error {
	err := d.updateTournament(id, "end-tournament", who, why, func(tr *tour, rec *store.Tournament, rounds []store.Round) (string, error) {
		switch {
		case !roundsComplete(rounds):
			return "", errRoundIncomplete
		case len(rounds) == 0:
			return "", errors.New("no round has been played: there is nothing to end")
		case len(rounds) >= rec.PlayedRounds():
			return "", errTournamentOver
		}
		rec.EndedAfter = len(rounds)
		tr.blocked = ""
		return fmt.Sprintf("%s ends after round %d of %d", rec.Name, rec.EndedAfter, rec.Rounds), nil
	})
	if err != nil {
		return err
	}
	d.resolveTournamentAlerts(id, who, "the tournament was ended")
	d.hub.Publish(Update{Kind: "round", At: d.wall(), Data: map[string]any{"tournament": id}})
	d.checkDone()
	return nil
}

// updateTournament changes a tournament's record with f under the
// director's lock, given the rounds paired so far: stored, then kept for
// the running event, then audited with the text f returns. Nothing
// changes if f fails.
func (d *Director) updateTournament(id uint64, what, who, why string, f func(tr *tour, rec *store.Tournament, rounds []store.Round) (string, error)) error {
	tr := d.tour(id)
	if tr == nil {
		return fmt.Errorf("tournament %d: %w", id, store.ErrNotFound)
	}
	if err := d.keptElsewhere(what); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	rounds, err := d.db.Rounds(id)
	if err != nil {
		return err
	}
	rec := tr.rec
	rec.RoundTimeControls = maps.Clone(rec.RoundTimeControls)
	data, err := f(tr, &rec, rounds)
	if err != nil {
		return err
	}
	if err := d.db.UpdateTournament(&rec); err != nil {
		return err
	}
	tr.rec = rec
	return d.db.AddAction(&store.Action{Who: who, What: what, Why: why, Data: data, At: d.wall()})
}

func roundsComplete(rounds []store.Round) bool {
	if n := len(rounds); n > 0 {
		for _, p := range rounds[n-1].Pairings {
			if p.Result == "" {
				return false
			}
		}
	}
	return true
}

// PairAllowingRematches pairs the next round with the engine, letting
// players meet again who met in the earliest rounds possible: the last
// resort when no valid pairing exists. The round is marked as such.
func (d *Director) PairAllowingRematches(ctx context.Context, id uint64, who, why string) error {
	return d.newRound(ctx, id, "pair-round-rematches", who, why, func(tr *tour, st *store.TournamentState, number int) (*plan, error) {
		if strings.Contains(st.Tournament.System, "round-robin") {
			return nil, errors.New("a round robin has no rematches to allow")
		}
		var last error
		for k := 2; k <= number; k++ {
			pl, err := d.pair(tr, st, number, k)
			if err == nil {
				pl.how = "rematches"
				pl.trace = fmt.Sprintf("Rematches allowed of games played before round %d (C1 relaxed by the chief arbiter).\n", k) + pl.trace
				pl.data = fmt.Sprintf("rematches of rounds 1-%d allowed", k-1)
				return pl, nil
			}
			last = err
		}
		return nil, fmt.Errorf("even with every rematch allowed: %w", last)
	})
}

// ManualBoard is one board of a round paired by hand.
type ManualBoard struct {
	First, Second int // start numbers; Second 0 gives First the pairing-allocated bye
}

// ParseManual reads hand-made pairings, one board a line: "12 - 7" (start
// numbers, first mover first) or "5 bye".
func ParseManual(text string) ([]ManualBoard, error) {
	var out []ManualBoard
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		f := strings.FieldsFunc(line, func(r rune) bool { return r == '-' || r == ':' || unicode.IsSpace(r) })
		bad := fmt.Errorf("line %d %q: want \"first - second\" or \"n bye\"", i+1, line)
		if len(f) != 2 {
			return nil, bad
		}
		a, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, bad
		}
		if strings.EqualFold(f[1], "bye") {
			out = append(out, ManualBoard{First: a})
			continue
		}
		b, err := strconv.Atoi(f[1])
		if err != nil {
			return nil, bad
		}
		out = append(out, ManualBoard{First: a, Second: b})
	}
	if len(out) == 0 {
		return nil, errors.New("no pairings given")
	}
	return out, nil
}

// PairByHand makes the next round from the arbiter's own pairings. Each
// player appears once at most; a player left out is not paired (a bye
// requested earlier keeps its kind, anyone else scores zero). The criteria
// each board breaks (C1 rematch, C3 colours) are recorded with it and in
// the audit log.
func (d *Director) PairByHand(ctx context.Context, id uint64, boards []ManualBoard, who, why string) error {
	return d.newRound(ctx, id, "pair-round-manual", who, why, func(tr *tour, st *store.TournamentState, number int) (*plan, error) {
		players := st.Players
		known := map[int]store.Player{}
		for _, p := range players {
			known[p.ID] = p
		}
		t := trfOf(st)
		pl := &plan{out: map[int]string{}, how: "manual", manual: map[[2]int]string{}}
		seen := map[int]bool{}
		var notes []string
		for _, b := range boards {
			for _, pid := range []int{b.First, b.Second} {
				if pid == 0 {
					continue
				}
				if _, ok := known[pid]; !ok {
					return nil, fmt.Errorf("%w: no player has start number %d", errBadPairing, pid)
				}
				if seen[pid] {
					return nil, fmt.Errorf("%w: player %d is paired twice", errBadPairing, pid)
				}
				seen[pid] = true
			}
			if b.First == b.Second {
				return nil, fmt.Errorf("%w: player %d cannot play themselves", errBadPairing, b.First)
			}
			if b.Second == 0 {
				if pl.bye != 0 {
					return nil, fmt.Errorf("%w: two pairing-allocated byes (%d and %d)", errBadPairing, pl.bye, b.First)
				}
				pl.bye = b.First
				if broken := byeCriteria(t, b.First); broken != "" {
					notes = append(notes, fmt.Sprintf("%d bye: %s", b.First, broken))
				}
				continue
			}
			pair := [2]int{b.First, b.Second}
			pl.boards = append(pl.boards, pair)
			broken := manualCriteria(t, b.First, b.Second)
			pl.manual[pair] = broken
			if broken != "" {
				notes = append(notes, fmt.Sprintf("%d-%d: %s", b.First, b.Second, broken))
			} else {
				pl.manual[pair] = "manual"
			}
		}
		for _, p := range players {
			if seen[p.ID] {
				continue
			}
			if _, code := p.Paired(number); code != "" {
				pl.out[p.ID] = code
			} else {
				pl.out[p.ID] = ResultZeroBye
			}
		}
		pl.trace = "Paired by hand by " + who + "."
		pl.data = "paired by hand"
		if len(notes) > 0 {
			pl.data += "; breaks " + strings.Join(notes, "; ")
			pl.trace += "\nCriteria broken: " + strings.Join(notes, "; ")
		}
		return pl, nil
	})
}

// errBadPairing marks hand-made pairings that cannot be used.
var errBadPairing = errors.New("invalid pairings")

// IsBadRequest reports whether err is the arbiter's input being wrong
// rather than the event's state.
func IsBadRequest(err error) bool {
	return errors.Is(err, errBadPairing) || errors.Is(err, errBadInput)
}

// manualCriteria lists the FIDE criteria a hand-made board breaks: C1 (the
// players met before) and C3 (a colour difference beyond 2, or a third
// colour in a row, for the colours given).
func manualCriteria(t *trf.Tournament, first, second int) string {
	var out []string
	a, b := t.PlayerByID(first), t.PlayerByID(second)
	if a == nil || b == nil {
		return ""
	}
	for r, g := range a.Games {
		if g.Opponent == second && g.Played() {
			out = append(out, fmt.Sprintf("C1: they met in round %d", r+1))
		}
	}
	if c := colourBreak(a, 'w'); c != "" {
		out = append(out, fmt.Sprintf("C3: %d %s", first, c))
	}
	if c := colourBreak(b, 'b'); c != "" {
		out = append(out, fmt.Sprintf("C3: %d %s", second, c))
	}
	return strings.Join(out, "; ")
}

// colourBreak says how giving p the colour c breaks the absolute colour
// criteria, or "" if it does not.
func colourBreak(p *trf.Player, c byte) string {
	diff, run, last := 0, 0, byte(0)
	for _, g := range p.Games {
		if !g.Played() || (g.Colour != 'w' && g.Colour != 'b') {
			continue
		}
		if g.Colour == 'w' {
			diff++
		} else {
			diff--
		}
		if g.Colour == last {
			run++
		} else {
			last, run = g.Colour, 1
		}
	}
	name := map[byte]string{'w': "the first move", 'b': "the second move"}[c]
	if c == 'w' {
		diff++
	} else {
		diff--
	}
	switch {
	case diff > 2 || diff < -2:
		return fmt.Sprintf("would have a colour difference of %+d with %s", diff, name)
	case last == c && run >= 2:
		return fmt.Sprintf("would have %s three times in a row", name)
	}
	return ""
}

// byeCriteria says whether giving p the pairing-allocated bye breaks C2 (a
// second bye, or a bye after a win without playing).
func byeCriteria(t *trf.Tournament, pid int) string {
	p := t.PlayerByID(pid)
	if p == nil {
		return ""
	}
	for r, g := range p.Games {
		switch g.Result {
		case 'U', 'F', '+':
			return fmt.Sprintf("C2: already scored without playing in round %d", r+1)
		}
	}
	return ""
}

// errBadInput marks an arbiter's entry that cannot be used.
var errBadInput = errors.New("invalid entry")

// CheckName reports what is wrong with a player's name (names.Check):
// empty, too long, or with control, bidirectional formatting or
// zero-width characters.
func CheckName(name string) error {
	if err := names.Check(name); err != nil {
		return fmt.Errorf("%w: the name %v", errBadInput, err)
	}
	return nil
}

// NewPlayer is a player registered at the event.
type NewPlayer struct {
	Name       string
	Rating     int
	Title      string
	Federation string
	FideID     string
	// Missed is the score of each round the player missed: "Z" (zero, the
	// default) or "H" (a half point, where the rules allow it).
	Missed string
}

// AddPlayer registers a player, before the event or as a late entry: the
// next start number; a late entrant is paired from the next round on,
// with the score the arbiter grants for each missed round, and ranks by
// rating for the pairing numbers.
func (d *Director) AddPlayer(id uint64, np NewPlayer, who, why string) (store.Player, error) {
	tr := d.tour(id)
	if tr == nil {
		return store.Player{}, fmt.Errorf("tournament %d: %w", id, store.ErrNotFound)
	}
	if err := CheckName(np.Name); err != nil {
		return store.Player{}, err
	}
	if np.Rating < 0 || np.Rating > 4000 {
		return store.Player{}, fmt.Errorf("%w: rating %d: want 0 to 4000", errBadInput, np.Rating)
	}
	if np.Missed == "" {
		np.Missed = ResultZeroBye
	}
	if np.Missed != ResultZeroBye && np.Missed != ResultHalfBye {
		return store.Player{}, fmt.Errorf("%w: missed rounds score %q: want Z or H", errBadInput, np.Missed)
	}
	if err := d.keptElsewhere("add-player"); err != nil {
		return store.Player{}, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	players, err := d.db.Players(id)
	if err != nil {
		return store.Player{}, err
	}
	for _, p := range players {
		if names.Same(p.Name, np.Name) {
			return store.Player{}, fmt.Errorf("%w: %q is already registered as player %d (%s)", errBadInput, np.Name, p.ID, p.Name)
		}
	}
	rounds, err := d.db.Rounds(id)
	if err != nil {
		return store.Player{}, err
	}
	if len(rounds) > 0 && strings.Contains(tr.rec.System, "round-robin") {
		return store.Player{}, fmt.Errorf("%w: a round robin takes no entries once it has begun", errBadInput)
	}
	if len(rounds) >= tr.rec.PlayedRounds() && roundsComplete(rounds) {
		return store.Player{}, fmt.Errorf("%w: %s is over (its last round, %d, is played): it takes no more entries", errBadInput, tr.rec.Name, len(rounds))
	}
	p := store.Player{TournamentID: id, ID: len(players) + 1, Name: names.Normal(np.Name), Rating: np.Rating, Title: np.Title,
		Federation: np.Federation, FideID: np.FideID, Joined: len(rounds) + 1}
	// The next round to be paired is the first one the player can play.
	if p.Joined <= 1 {
		p.Joined = 0
	}
	for r := 1; r < p.Joined; r++ {
		if p.Byes == nil {
			p.Byes = map[int]string{}
		}
		p.Byes[r] = np.Missed
	}
	if err := d.db.PutPlayer(&p); err != nil {
		return store.Player{}, err
	}
	data := fmt.Sprintf("%s: player %d %s (%d)", tr.rec.Name, p.ID, p.Name, p.Rating)
	if p.Joined > 1 {
		data += fmt.Sprintf(", late entry from round %d, missed rounds score %s", p.Joined, np.Missed)
	}
	if err := d.db.AddAction(&store.Action{Who: who, What: "add-player", Why: why, Data: data, At: d.wall()}); err != nil {
		return p, err
	}
	d.hub.Publish(Update{Kind: "players", At: d.wall(), Data: map[string]any{"tournament": id}})
	return p, nil
}

// updatePlayer changes one player under the lock and stores the action.
func (d *Director) updatePlayer(id uint64, pid int, what, who, why string, f func(tr *tour, p *store.Player, rounds []store.Round) (string, error)) error {
	tr := d.tour(id)
	if tr == nil {
		return fmt.Errorf("tournament %d: %w", id, store.ErrNotFound)
	}
	if err := d.keptElsewhere(what); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	players, err := d.db.Players(id)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(players, func(p store.Player) bool { return p.ID == pid })
	if i < 0 {
		return fmt.Errorf("player %d of %s: %w", pid, tr.rec.Name, store.ErrNotFound)
	}
	rounds, err := d.db.Rounds(id)
	if err != nil {
		return err
	}
	p := players[i]
	data, err := f(tr, &p, rounds)
	if err != nil {
		return err
	}
	if err := d.db.PutPlayer(&p); err != nil {
		return err
	}
	if err := d.db.AddAction(&store.Action{Who: who, What: what, Why: why, Data: fmt.Sprintf("%s: player %d %s: %s", tr.rec.Name, p.ID, p.Name, data), At: d.wall()}); err != nil {
		return err
	}
	d.hub.Publish(Update{Kind: "players", At: d.wall(), Data: map[string]any{"tournament": id}})
	return nil
}

// Withdraw withdraws a player: from the next round on, or at once, when
// the player's unfinished game of the current round is forfeited too.
func (d *Director) Withdraw(ctx context.Context, id uint64, pid int, now bool, who, why string) error {
	var forfeit *store.Game
	err := d.updatePlayer(id, pid, "withdraw", who, why, func(tr *tour, p *store.Player, rounds []store.Round) (string, error) {
		if p.Withdrawn {
			return "", fmt.Errorf("%w: player %d is already withdrawn", errBadInput, pid)
		}
		p.Withdrawn, p.WithdrawnFrom = true, len(rounds)+1
		if !now || len(rounds) == 0 {
			return fmt.Sprintf("withdrawn from round %d", p.WithdrawnFrom), nil
		}
		for _, pr := range rounds[len(rounds)-1].Pairings {
			if pr.Result == "" && pr.GameID != 0 && (pr.First == pid || pr.Second == pid) {
				g, err := d.db.Game(pr.GameID)
				if err != nil {
					return "", err
				}
				forfeit = &g
			}
		}
		p.WithdrawnFrom = len(rounds)
		return fmt.Sprintf("withdrawn at once, from round %d", p.WithdrawnFrom), nil
	})
	if err != nil || forfeit == nil {
		return err
	}
	o := rules.Win(rules.Second, rules.Forfeit)
	if forfeit.SecondID == pid {
		o = rules.Win(rules.First, rules.Forfeit)
	}
	return d.SetResult(ctx, forfeit.ID, o, who, "withdrawn: "+why)
}

// Readmit brings back a player who was withdrawn or marked absent after a
// forfeit: paired again from the next round.
func (d *Director) Readmit(id uint64, pid int, who, why string) error {
	return d.updatePlayer(id, pid, "readmit", who, why, func(tr *tour, p *store.Player, rounds []store.Round) (string, error) {
		if !p.Withdrawn && !p.Absent {
			return "", fmt.Errorf("%w: player %d is not withdrawn or absent", errBadInput, pid)
		}
		p.Withdrawn, p.WithdrawnFrom, p.Absent = false, 0, false
		return fmt.Sprintf("paired again from round %d", len(rounds)+1), nil
	})
}

// RequestBye records a bye a player asked for in a future round: "H" (a
// half point, within the tournament's limit) or "Z" (zero points); kind ""
// cancels it.
func (d *Director) RequestBye(id uint64, pid, round int, kind, who, why string) error {
	return d.updatePlayer(id, pid, "request-bye", who, why, func(tr *tour, p *store.Player, rounds []store.Round) (string, error) {
		if round <= len(rounds) {
			return "", fmt.Errorf("%w: round %d is already paired", errBadInput, round)
		}
		if round > tr.rec.PlayedRounds() {
			return "", fmt.Errorf("%w: the tournament has %d rounds", errBadInput, tr.rec.PlayedRounds())
		}
		if strings.Contains(tr.rec.System, "round-robin") {
			return "", fmt.Errorf("%w: a round robin has no byes to request: the game is scheduled", errBadInput)
		}
		switch kind {
		case "":
			if _, ok := p.Byes[round]; !ok {
				return "", fmt.Errorf("%w: player %d has no bye in round %d", errBadInput, pid, round)
			}
			delete(p.Byes, round)
			return fmt.Sprintf("bye in round %d cancelled", round), nil
		case ResultZeroBye:
		case ResultHalfBye:
			used := 0
			for r, k := range p.Byes {
				if k == ResultHalfBye && r >= p.Joined && r != round {
					used++
				}
			}
			if used >= tr.rec.HalfByes {
				return "", fmt.Errorf("%w: %s allows %d half-point byes per player, and player %d has %d", errBadInput, tr.rec.Name, tr.rec.HalfByes, pid, used)
			}
		default:
			return "", fmt.Errorf("%w: bye %q: want H (half point) or Z (zero)", errBadInput, kind)
		}
		if p.Byes == nil {
			p.Byes = map[int]string{}
		}
		p.Byes[round] = kind
		return fmt.Sprintf("%s bye in round %d", kind, round), nil
	})
}

// SetRoundTimeControl sets the time control of a round not yet paired
// ("" goes back to the tournament's).
func (d *Director) SetRoundTimeControl(id uint64, round int, tc, who, why string) error {
	if tc != "" {
		if _, err := gameControl(tc); err != nil {
			return fmt.Errorf("%w: %v", errBadInput, err)
		}
	}
	return d.updateTournament(id, "round-time-control", who, why, func(_ *tour, rec *store.Tournament, rounds []store.Round) (string, error) {
		if round <= len(rounds) || round > rec.PlayedRounds() {
			return "", fmt.Errorf("%w: round %d: want a round from %d to %d", errBadInput, round, len(rounds)+1, rec.PlayedRounds())
		}
		if rec.RoundTimeControls == nil {
			rec.RoundTimeControls = map[int]string{}
		}
		show := tc
		if tc == "" {
			delete(rec.RoundTimeControls, round)
			show = "the tournament's (" + rec.TimeControl + ")"
		} else {
			rec.RoundTimeControls[round] = tc
		}
		return fmt.Sprintf("%s round %d: %s", rec.Name, round, show), nil
	})
}

// CorrectResult changes the result of a finished game: the standings and
// tie-breaks follow, and so does the next pairing if it has not been made
// yet (pairings already published stand, as FIDE wants). The old and the
// new result are audited.
func (d *Director) CorrectResult(ctx context.Context, gameID uint64, o rules.Outcome, who, why string) error {
	if !o.Over() {
		return errors.New("correct result: not a result")
	}
	g, err := d.db.Game(gameID)
	if err != nil {
		return err
	}
	if g.Result == "" {
		return fmt.Errorf("game %d has no result yet: set it instead", gameID)
	}
	if g.Result == o.Result.String() && g.Reason == o.Reason.String() {
		return fmt.Errorf("%w: game %d already has the result %s", errBadInput, gameID, o)
	}
	data := fmt.Sprintf("%s (%s) corrected to %s", g.Result, g.Reason, o)
	if g.TournamentID != 0 {
		if rounds, err := d.db.Rounds(g.TournamentID); err == nil && len(rounds) > g.Round {
			data += fmt.Sprintf("; round %d was paired already and stands", g.Round+1)
		}
	}
	a := &store.Action{Who: who, What: "correct-result", Why: why, Data: data, At: d.wall()}
	if err := d.db.SetResult(gameID, o.Result.String(), o.Reason.String(), d.wall(), a); err != nil {
		return err
	}
	d.hub.Publish(Update{Kind: "result", Game: gameID, At: d.wall(), Data: o.String()})
	return nil
}

// moveNumber matches the move numbers of a written game ("12.", "12...").
var moveNumber = regexp.MustCompile(`^\d+\.+`)

// EnterMoves records the moves of a game played without a sensor board, as
// the arbiter copies them from the scoresheet: one move after another in
// any notation the game reads, move numbers and a closing result allowed.
// The game must have no stored move yet; nothing is stored unless every
// move is legal.
func (d *Director) EnterMoves(gameID uint64, text, who, why string) (int, error) {
	if _, err := d.tableOfGame(gameID); err == nil {
		return 0, fmt.Errorf("%w: game %d is played on a board, which records its moves", errBadInput, gameID)
	}
	g, err := d.db.Game(gameID)
	if err != nil {
		return 0, err
	}
	if moves, err := d.db.Moves(gameID); err != nil {
		return 0, err
	} else if len(moves) > 0 {
		return 0, fmt.Errorf("%w: game %d already has %d moves", errBadInput, gameID, len(moves))
	}
	rg, err := rules.NewFromText(g.Game, g.Options)
	if err != nil {
		return 0, err
	}
	pos := rg.Start()
	if g.StartPosition != "" {
		if pos, err = rg.ParsePosition(g.StartPosition); err != nil {
			return 0, fmt.Errorf("game %d: start position: %w", gameID, err)
		}
	}
	var recs []store.Move
	for _, tok := range strings.Fields(text) {
		tok = moveNumber.ReplaceAllString(tok, "")
		switch tok {
		case "", "1-0", "0-1", "1/2-1/2", "½-½", "*":
			continue
		}
		ply := len(recs) + 1
		m, err := pos.ParseMove(tok)
		if err != nil {
			return 0, fmt.Errorf("%w: move %d %q: %v", errBadInput, ply, tok, err)
		}
		note := pos.FormatMove(m)
		next, err := pos.Play(m)
		if err != nil {
			return 0, fmt.Errorf("%w: move %d %q: %v", errBadInput, ply, tok, err)
		}
		pos = next
		recs = append(recs, store.Move{GameID: gameID, Ply: ply, Notation: note, Canonical: m.String(), Position: pos.String(), Wall: d.wall()})
		if len(recs) > 2000 {
			return 0, fmt.Errorf("%w: more than 2000 moves", errBadInput)
		}
	}
	if len(recs) == 0 {
		return 0, fmt.Errorf("%w: no moves given", errBadInput)
	}
	if err := d.db.AddAction(&store.Action{GameID: gameID, Who: who, What: "enter-moves", Why: why, Data: fmt.Sprintf("%d moves from the scoresheet", len(recs)), At: d.wall()}); err != nil {
		return 0, err
	}
	for i := range recs {
		if err := d.db.AppendMove(&recs[i]); err != nil {
			return i, err
		}
	}
	d.hub.Publish(Update{Kind: "move", Game: gameID, At: d.wall()})
	return len(recs), nil
}

// SetAccelerated switches the acceleration of a Swiss's pairings ("baku"
// or "") before its first round is paired.
func (d *Director) SetAccelerated(id uint64, kind, who, why string) error {
	if kind != "" && kind != "baku" {
		return fmt.Errorf("%w: acceleration %q: want baku or none", errBadInput, kind)
	}
	return d.updateTournament(id, "accelerate", who, why, func(_ *tour, rec *store.Tournament, rounds []store.Round) (string, error) {
		switch {
		case !strings.HasPrefix(rec.System, "swiss"):
			return "", fmt.Errorf("%w: only a Swiss is accelerated", errBadInput)
		case len(rounds) > 0:
			return "", fmt.Errorf("%w: round 1 is paired: the acceleration is fixed", errBadInput)
		}
		rec.Accelerated = kind
		show := kind
		if show == "" {
			show = "none"
		}
		return fmt.Sprintf("%s: acceleration %s", rec.Name, show), nil
	})
}
