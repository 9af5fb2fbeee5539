package director

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter/rules"
	"arbiter/store"
)

// PairedElsewhereError refuses to pair a round in a daemon whose rounds
// are paired by another (a federation's hall, paired by its hub).
type PairedElsewhereError struct{ By string }

func (e *PairedElsewhereError) Error() string {
	return "rounds are paired by " + e.By + ", not here"
}

// KeptElsewhereError refuses a change to the players or the rounds in a
// daemon whose roster is kept by another (a federation's hall: its hub
// registers late entries, withdrawals and byes, and the halls follow).
type KeptElsewhereError struct {
	By   string // who keeps the roster ("the hub")
	What string // what was refused ("register a player")
}

func (e *KeptElsewhereError) Error() string {
	return e.What + " refused in this hall: the players and rounds are kept by " + e.By + ": make the change there; this hall follows"
}

// keptElsewhere refuses what in a federation's hall; nil elsewhere.
func (d *Director) keptElsewhere(what string) error {
	if d.pairedBy == "" {
		return nil
	}
	return &KeptElsewhereError{By: d.pairedBy, What: what}
}

// SetPairedElsewhere makes the director of a federation's hall leave
// pairing to by (the hub): it pairs no round itself, and takes the hub's
// rounds through ApplyRound; nor does it change the players or the
// tournament (late entries, withdrawals, byes, the end of a tournament),
// which it takes from the hub through ApplyRoster and ApplyResults. Call
// it before Run.
func (d *Director) SetPairedElsewhere(by string) { d.pairedBy = by }

// ErrNotRunning refuses a round that would start games before Run: the
// round is taken again once the director runs.
var ErrNotRunning = errors.New("the director does not run yet")

// ApplyRound stores a round the federation's hub paired and starts the
// games of the boards this hall plays: its table n of the tournament plays
// board firstBoard+n-1. The other boards are stored without a game (their
// hall plays them). A round stored already is left alone (applied false);
// a round that is not the next one, or one given before Run, is refused.
// It is audited as an action of who.
func (d *Director) ApplyRound(ctx context.Context, r store.Round, firstBoard int, who string) (applied bool, err error) {
	tr := d.tour(r.TournamentID)
	if tr == nil {
		return false, fmt.Errorf("round %d of tournament %d: %w", r.Number, r.TournamentID, store.ErrNotFound)
	}
	if firstBoard < 1 {
		return false, fmt.Errorf("round %d of %s: first board %d: want 1 or more", r.Number, tr.rec.Name, firstBoard)
	}
	// From the commit until its games are started, no waiting game is
	// started (startGames).
	d.waitMu.Lock()
	defer d.waitMu.Unlock()
	onTable, err := d.applyRound(tr, r, firstBoard, who)
	if err != nil || onTable == nil {
		return false, err
	}
	return true, d.startGames(ctx, tr, onTable)
}

// applyRound stores round r as ApplyRound does, in one transaction under
// the director's lock, and returns its games by table number; nil when
// the round is stored already.
func (d *Director) applyRound(tr *tour, r store.Round, firstBoard int, who string) (map[int]*store.Game, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ctx == nil {
		// The tables' goroutines are not running: a game started now
		// would wait for them under the lock Run needs.
		return nil, fmt.Errorf("round %d of %s: %w", r.Number, tr.rec.Name, ErrNotRunning)
	}
	st, err := d.db.TournamentState(tr.rec.ID)
	if err != nil {
		return nil, err
	}
	rounds := st.Rounds
	if r.Number <= len(rounds) {
		return nil, nil
	}
	if r.Number != len(rounds)+1 {
		return nil, fmt.Errorf("round %d of %s: this hall has %d rounds; round %d must come first", r.Number, tr.rec.Name, len(rounds), len(rounds)+1)
	}
	here := map[int]bool{}
	for _, t := range d.tables {
		if t.Tournament == tr.rec.ID {
			here[firstBoard+t.Number-1] = true
		}
	}
	nr, games, err := d.hubRound(tr, st, r, func(p store.Pairing) bool { return p.Result == "" && here[p.Board] })
	if err != nil {
		return nil, err
	}
	onTable := map[int]*store.Game{}
	var boards []string
	for _, b := range slices.Sorted(maps.Keys(games)) {
		onTable[b-firstBoard+1] = games[b]
		boards = append(boards, strconv.Itoa(b))
	}
	data := fmt.Sprintf("round %d of %s: boards played here: %s", r.Number, tr.rec.Name, strings.Join(boards, ", "))
	if len(boards) == 0 {
		data = fmt.Sprintf("round %d of %s: no board played here", r.Number, tr.rec.Name)
	}
	nr.Paired = &store.Action{Who: who, What: "apply-round", Why: "paired by " + d.pairedBy, Data: data, At: d.wall()}
	// Games, round and action in one transaction: a crash leaves the
	// round whole or absent, and the hub's round is applied again.
	if err := d.db.CreateRound(nr); err != nil {
		return nil, err
	}
	d.log.Info("round applied", "tournament", tr.rec.Name, "round", r.Number, "boards", len(boards), "by", who)
	d.hub.Publish(Update{Kind: "round", At: d.wall(), Data: map[string]any{"tournament": tr.rec.ID, "round": r.Number}})
	return onTable, nil
}

// hubRound is round r as the hub paired it, to be stored in tr's store
// (state st) whole: each board with two players that game says is played
// gets a new game, returned by board. Every player must be registered.
func (d *Director) hubRound(tr *tour, st store.TournamentState, r store.Round, game func(store.Pairing) bool) (*store.NewRound, map[int]*store.Game, error) {
	here := "on the hub"
	if d.pairedBy != "" {
		here = "in this hall"
	}
	players := st.Players
	name := func(pid int) string {
		if i := slices.IndexFunc(players, func(p store.Player) bool { return p.ID == pid }); i >= 0 {
			return players[i].Name
		}
		return fmt.Sprintf("player %d", pid)
	}
	for _, p := range r.Pairings {
		for _, pid := range []int{p.First, p.Second} {
			if pid > len(players) {
				// A late entry: the hub's roster brings the player first.
				return nil, nil, fmt.Errorf("round %d of %s: board %d: player %d is not registered %s yet", r.Number, tr.rec.Name, p.Board, pid, here)
			}
		}
	}
	round := r
	round.TournamentID, round.Pairings = tr.rec.ID, nil
	nr := &store.NewRound{Round: round, From: st.Digest}
	games := map[int]*store.Game{}
	for _, p := range r.Pairings {
		p.GameID = 0
		if p.Second != 0 && game(p) {
			g := d.roundGame(tr, &st.Tournament, r.Number, p.Board, [2]int{p.First, p.Second}, name)
			nr.Games = append(nr.Games, g)
			games[p.Board] = g
		}
		nr.Round.Pairings = append(nr.Round.Pairings, p)
	}
	return nr, games, nil
}

// RestoreRound stores, on a federation's hub whose database was lost, a
// round the hub paired before, as its pairings bucket keeps it: each board
// gets its game, waiting for the hall that plays it, as when the round was
// paired. A round stored already is left alone if it is the same (applied
// false) and refused if not; so is a round that is not the next one. It is
// audited as an action of who.
func (d *Director) RestoreRound(r store.Round, who string) (applied bool, err error) {
	tr := d.tour(r.TournamentID)
	if tr == nil {
		return false, fmt.Errorf("round %d of tournament %d: %w", r.Number, r.TournamentID, store.ErrNotFound)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	st, err := d.db.TournamentState(tr.rec.ID)
	if err != nil {
		return false, err
	}
	rounds := st.Rounds
	if r.Number <= len(rounds) {
		have := rounds[r.Number-1]
		if len(have.Pairings) != len(r.Pairings) || slices.ContainsFunc(have.Pairings, func(p store.Pairing) bool {
			i := slices.IndexFunc(r.Pairings, func(q store.Pairing) bool { return q.Board == p.Board })
			return i < 0 || r.Pairings[i].First != p.First || r.Pairings[i].Second != p.Second
		}) {
			return false, fmt.Errorf("round %d of %s: the database has other pairings than the hub's bucket", r.Number, tr.rec.Name)
		}
		return false, nil
	}
	if r.Number != len(rounds)+1 {
		return false, fmt.Errorf("round %d of %s: the database has %d rounds; round %d must come first", r.Number, tr.rec.Name, len(rounds), len(rounds)+1)
	}
	nr, _, err := d.hubRound(tr, st, r, func(store.Pairing) bool { return true })
	if err != nil {
		return false, err
	}
	data := fmt.Sprintf("round %d of %s, paired %s", r.Number, tr.rec.Name, r.PairedAt.Format(time.DateTime))
	nr.Paired = &store.Action{Who: who, What: "restore-round", Why: "the hub's database was lost: the round is the one its pairings bucket keeps", Data: data, At: d.wall()}
	if err := d.db.CreateRound(nr); err != nil {
		return false, err
	}
	d.log.Info("round restored", "tournament", tr.rec.Name, "round", r.Number, "by", who)
	d.hub.Publish(Update{Kind: "round", At: d.wall(), Data: map[string]any{"tournament": tr.rec.ID, "round": r.Number}})
	return true, nil
}

// RestoreResults sets again, on a federation's hub whose database was
// lost, the results its arbiters set or corrected (as its roster keeps
// them), once the halls' facts are in: a board whose game came from a
// hall (hall named) and has no result yet waits for that hall's result.
// It returns how many results it set and how many boards wait for a hall.
func (d *Director) RestoreResults(ctx context.Context, id uint64, round int, results []HubResult, who string) (set, waiting int, err error) {
	tr := d.tour(id)
	if tr == nil {
		return 0, 0, fmt.Errorf("the results of tournament %d: %w", id, store.ErrNotFound)
	}
	rounds, err := d.db.Rounds(id)
	if err != nil {
		return 0, 0, err
	}
	if round < 1 || round > len(rounds) {
		return 0, 0, fmt.Errorf("the results of round %d of %s: the hub has %d rounds", round, tr.rec.Name, len(rounds))
	}
	why := fmt.Sprintf("the hub's database was lost: as its roster keeps round %d", round)
	for _, hr := range results {
		i := slices.IndexFunc(rounds[round-1].Pairings, func(p store.Pairing) bool { return p.Board == hr.Board })
		if i < 0 {
			return set, waiting, fmt.Errorf("the results of round %d of %s: no board %d", round, tr.rec.Name, hr.Board)
		}
		p := rounds[round-1].Pairings[i]
		if p.Result == hr.Result {
			continue
		}
		if p.GameID == 0 {
			if err := d.db.SetPairingResult(id, round, hr.Board, hr.Result); err != nil {
				return set, waiting, err
			}
			set++
			continue
		}
		g, err := d.db.Game(p.GameID)
		if err != nil {
			return set, waiting, err
		}
		if g.Result == "" && hr.Hall != "" {
			waiting++ // the hall's result comes with its facts
			continue
		}
		res, ok := rules.ParseResult(hr.GameResult)
		reason, rok := rules.ParseReason(hr.Reason)
		if !ok || res == rules.Ongoing || !rok {
			return set, waiting, fmt.Errorf("round %d of %s board %d: result %q (%q) is not a game's result", round, tr.rec.Name, hr.Board, hr.GameResult, hr.Reason)
		}
		o := rules.Outcome{Result: res, Reason: reason}
		if g.Result == "" {
			err = d.SetResult(ctx, g.ID, o, who, why)
		} else {
			err = d.CorrectResult(ctx, g.ID, o, who, why)
		}
		if err != nil {
			return set, waiting, fmt.Errorf("round %d of %s board %d: %w", round, tr.rec.Name, hr.Board, err)
		}
		set++
	}
	if set > 0 {
		d.hub.Publish(Update{Kind: "round", At: d.wall(), Data: map[string]any{"tournament": id, "round": round}})
		d.background(d.checkDone)
	}
	return set, waiting, nil
}

// ImportedResult tells the hub's director that a hall's result was stored
// (g as stored on the hub): the live pages hear of it, a player who lost by
// forfeit without a move is marked absent as in a single daemon (and the
// halls follow the hub's roster), and the next round is paired when the
// round is complete and auto-pairing is on.
func (d *Director) ImportedResult(g store.Game) {
	d.hub.Publish(Update{Kind: "result", Game: g.ID, At: d.wall(), Data: g.Result})
	res, ok := rules.ParseResult(g.Result)
	reason, rok := rules.ParseReason(g.Reason)
	if ok && rok {
		d.forfeited(g, rules.Outcome{Result: res, Reason: reason}, "hall")
	}
	d.gameEnded(nil, g)
}

// ImportedMove tells the hub's director that a hall's move was stored (m
// as stored on the hub): the live pages hear of it as of a move on a board
// of their own.
func (d *Director) ImportedMove(m store.Move) {
	d.hub.Publish(Update{Kind: "move", Game: m.GameID, At: m.Wall, Data: m})
}

// ImportedAlert tells the hub's director that a hall's alert id (as the
// hub numbers it, of the hub's game, 0 if none) came or changed: the
// consoles hear of it and reread the alerts.
func (d *Director) ImportedAlert(id, game uint64, at time.Time) {
	d.hub.Publish(Update{Kind: "alert", Game: game, At: at, Data: map[string]uint64{"alert": id}})
}

// ApplyRoster stores the players of a tournament as the federation's hub
// keeps them (late entries, withdrawals, requested byes…) and the round
// after which the hub ended it (0: none), in a hall. Players the hall has
// are replaced by the hub's; the hub never drops one, and a roster with
// fewer players than the hall's is refused. It reports whether anything
// changed; a change is audited as an action of who.
func (d *Director) ApplyRoster(id uint64, endedAfter int, players []store.Player, who string) (changed bool, err error) {
	return d.takeRoster(id, endedAfter, players, who, "apply-roster", "kept by "+d.pairedBy)
}

// RestoreRoster stores, on a federation's hub whose database was lost,
// a tournament's players as its roster bucket keeps them (late entries,
// withdrawals, byes) and the round after which its arbiter ended it, as
// ApplyRoster does in a hall. It is audited as an action of who.
func (d *Director) RestoreRoster(id uint64, endedAfter int, players []store.Player, who string) (changed bool, err error) {
	return d.takeRoster(id, endedAfter, players, who, "restore-roster", "the hub's database was lost: the players are those its roster bucket keeps")
}

// takeRoster stores the players of a tournament as another store keeps
// them, audited as what who did, and why.
func (d *Director) takeRoster(id uint64, endedAfter int, players []store.Player, who, what, why string) (changed bool, err error) {
	tr := d.tour(id)
	if tr == nil {
		return false, fmt.Errorf("the hub's players of tournament %d: %w", id, store.ErrNotFound)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	have, err := d.db.Players(id)
	if err != nil {
		return false, err
	}
	if len(players) < len(have) {
		return false, fmt.Errorf("the hub's players of %s: %d, but this hall has %d: the hub lost players, this hall keeps its own", tr.rec.Name, len(players), len(have))
	}
	var notes []string
	for i, p := range players {
		if p.ID != i+1 {
			return false, fmt.Errorf("the hub's players of %s: entry %d is player %d", tr.rec.Name, i+1, p.ID)
		}
		p.TournamentID = id
		if len(p.Byes) == 0 {
			p.Byes = nil
		}
		var old *store.Player
		if i < len(have) {
			old = &have[i]
			if len(old.Byes) == 0 {
				old.Byes = nil
			}
			if reflect.DeepEqual(*old, p) {
				continue
			}
		}
		if err := d.db.PutPlayer(&p); err != nil {
			return false, err
		}
		notes = append(notes, rosterChange(old, p))
	}
	if endedAfter != tr.rec.EndedAfter {
		rec := tr.rec
		rec.EndedAfter = endedAfter
		if err := d.db.UpdateTournament(&rec); err != nil {
			return false, err
		}
		tr.rec = rec
		notes = append(notes, fmt.Sprintf("ends after round %d", endedAfter))
	}
	if len(notes) == 0 {
		return false, nil
	}
	data := tr.rec.Name + ": " + strings.Join(notes, "; ")
	if err := d.db.AddAction(&store.Action{Who: who, What: what, Why: why, Data: data, At: d.wall()}); err != nil {
		return true, err
	}
	d.log.Info("roster applied", "tournament", tr.rec.Name, "changes", data, "by", who)
	d.hub.Publish(Update{Kind: "players", At: d.wall(), Data: map[string]any{"tournament": id}})
	d.background(d.checkDone)
	return true, nil
}

// rosterChange says how player p differs from old (nil: a new player).
func rosterChange(old *store.Player, p store.Player) string {
	who := fmt.Sprintf("player %d %s", p.ID, p.Name)
	if old == nil {
		if p.Joined > 1 {
			return who + fmt.Sprintf(" entered from round %d", p.Joined)
		}
		return who + " entered"
	}
	var out []string
	switch {
	case p.Withdrawn && !old.Withdrawn:
		out = append(out, fmt.Sprintf("withdrawn from round %d", p.WithdrawnFrom))
	case !p.Withdrawn && old.Withdrawn, !p.Absent && old.Absent:
		out = append(out, "readmitted")
	case p.Absent && !old.Absent:
		out = append(out, "absent")
	}
	if !maps.Equal(p.Byes, old.Byes) {
		byes := slices.Sorted(maps.Keys(p.Byes))
		list := make([]string, len(byes))
		for i, r := range byes {
			list[i] = fmt.Sprintf("%s in round %d", p.Byes[r], r)
		}
		out = append(out, "byes: "+strings.Join(list, ", "))
	}
	if len(out) == 0 {
		out = append(out, "details changed")
	}
	return who + " " + strings.Join(out, ", ")
}

// HubResult is the result of one board of a round as the federation's
// hub stores it: on the pairing ("1-0", "+/-", "bye"…), and the result and
// reason of its game, if it has one.
type HubResult struct {
	Board      int
	Result     string
	GameResult string
	Reason     string
	// Hall is the hall whose game the board's is ("" for one the hub
	// holds itself).
	Hall string
}

// ApplyResults stores, in a hall, the results the hub has of round's
// boards: those other halls played, and those the hub's arbiter set or
// corrected for this hall's own games (set on the game, audited as who's).
// A hall's own result that the hub does not have yet is left alone: it is
// on its way to the hub. A round the hall does not have yet is refused.
func (d *Director) ApplyResults(ctx context.Context, id uint64, round int, results []HubResult, who string) error {
	tr := d.tour(id)
	if tr == nil {
		return fmt.Errorf("the hub's results of tournament %d: %w", id, store.ErrNotFound)
	}
	type own struct {
		game uint64
		r    HubResult
	}
	var mine []own
	changed := 0
	err := func() error {
		d.mu.Lock()
		defer d.mu.Unlock()
		rounds, err := d.db.Rounds(id)
		if err != nil {
			return err
		}
		if round < 1 || round > len(rounds) {
			return fmt.Errorf("the hub's results of round %d of %s: this hall has %d rounds; the round comes first", round, tr.rec.Name, len(rounds))
		}
		r := rounds[round-1]
		for _, hr := range results {
			i := slices.IndexFunc(r.Pairings, func(p store.Pairing) bool { return p.Board == hr.Board })
			if i < 0 {
				return fmt.Errorf("the hub's results of round %d of %s: board %d is not in this hall's round", round, tr.rec.Name, hr.Board)
			}
			p := r.Pairings[i]
			switch {
			case p.Result == hr.Result:
			case p.GameID != 0:
				mine = append(mine, own{p.GameID, hr})
			default:
				if err := d.db.SetPairingResult(id, round, hr.Board, hr.Result); err != nil {
					return err
				}
				changed++
			}
		}
		return nil
	}()
	if err != nil {
		return err
	}
	if changed > 0 {
		d.hub.Publish(Update{Kind: "round", At: d.wall(), Data: map[string]any{"tournament": id, "round": round}})
		d.background(d.checkDone)
	}
	for _, m := range mine {
		if err := d.applyHubResult(ctx, m.game, round, m.r, who); err != nil {
			return fmt.Errorf("the hub's result of round %d of %s board %d: %w", round, tr.rec.Name, m.r.Board, err)
		}
	}
	return nil
}

// applyHubResult gives this hall's game the result the hub's arbiter set
// (the game has none yet) or corrected (the hall's own result reached the
// hub already).
func (d *Director) applyHubResult(ctx context.Context, gameID uint64, round int, hr HubResult, who string) error {
	res, ok := rules.ParseResult(hr.GameResult)
	reason, rok := rules.ParseReason(hr.Reason)
	if !ok || res == rules.Ongoing || !rok {
		return fmt.Errorf("game %d: result %q (%q) is not a game's result", gameID, hr.GameResult, hr.Reason)
	}
	o := rules.Outcome{Result: res, Reason: reason}
	g, err := d.db.Game(gameID)
	if err != nil {
		return err
	}
	why := fmt.Sprintf("set at the hub: round %d board %d", round, hr.Board)
	if g.Result == "" {
		return d.SetResult(ctx, gameID, o, who, why)
	}
	if g.Result == o.Result.String() && g.Reason == o.Reason.String() {
		return nil
	}
	cur, err := d.db.OutboxCursorOf(gameID)
	if err != nil {
		return err
	}
	if !cur.Result {
		return nil // the hall's result is on its way: the hub takes it
	}
	return d.CorrectResult(ctx, gameID, o, who, "corrected at the hub: round "+strconv.Itoa(round)+" board "+strconv.Itoa(hr.Board))
}

// ResolveFromHub resolves, in a federation's hall, one of its alerts that
// the hub's arbiter resolved, audited in the hall as who's (the hub's
// arbiter, "chief (hub)") with the hub arbiter's reason. An alert the hall
// resolved already is left as it is; one the hall does not have is an
// error.
func (d *Director) ResolveFromHub(alertID uint64, who, why string) error {
	alerts, err := d.db.Alerts(false)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(alerts, func(a store.Alert) bool { return a.ID == alertID })
	if i < 0 {
		return fmt.Errorf("the hub resolved alert %d, which this hall does not have", alertID)
	}
	if alerts[i].Resolved {
		return nil
	}
	return d.ResolveAlert(alertID, who, why)
}

// Configured returns the tournaments as the daemon's configuration gives
// them (not as stored: a federation's hall takes its players from the
// hub), with their IDs: for a hall to compare with the hub's roster.
func (d *Director) Configured() ([]ConfiguredTournament, error) {
	d.mu.RLock()
	tours := slices.Clone(d.tours)
	d.mu.RUnlock()
	out := make([]ConfiguredTournament, len(tours))
	for i, t := range tours {
		players, err := configPlayers(t.cfg)
		if err != nil {
			return nil, fmt.Errorf("tournament %q: %w", t.rec.Name, err)
		}
		out[i] = ConfiguredTournament{ID: t.rec.ID, Name: t.rec.Name, Game: t.rec.Game, System: t.rec.System, Players: players}
	}
	return out, nil
}

// ConfiguredTournament is a tournament as the configuration gives it,
// with its ID in the store.
type ConfiguredTournament struct {
	ID                 uint64
	Name, Game, System string
	Players            []store.Player
}
