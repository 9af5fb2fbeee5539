package director

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter/store"
)

// PairedElsewhereError refuses to pair a round in a daemon whose rounds
// are paired by another (a federation's hall, paired by its hub).
type PairedElsewhereError struct{ By string }

func (e *PairedElsewhereError) Error() string {
	return "rounds are paired by " + e.By + ", not here"
}

// SetPairedElsewhere makes the director of a federation's hall leave
// pairing to by (the hub): it pairs no round itself, and takes the hub's
// rounds through ApplyRound. Call it before Run.
func (d *Director) SetPairedElsewhere(by string) { d.pairedBy = by }

// ApplyRound stores a round the federation's hub paired and starts the
// games of the boards this hall plays: its table n of the tournament plays
// board firstBoard+n-1. The other boards are stored without a game (their
// hall plays them). A round stored already is left alone (applied false);
// a round that is not the next one is refused. It is audited as an action
// of who.
func (d *Director) ApplyRound(ctx context.Context, r store.Round, firstBoard int, who string) (applied bool, err error) {
	tr := d.tour(r.TournamentID)
	if tr == nil {
		return false, fmt.Errorf("round %d of tournament %d: %w", r.Number, r.TournamentID, store.ErrNotFound)
	}
	if firstBoard < 1 {
		return false, fmt.Errorf("round %d of %s: first board %d: want 1 or more", r.Number, tr.rec.Name, firstBoard)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	rounds, err := d.db.Rounds(tr.rec.ID)
	if err != nil {
		return false, err
	}
	if r.Number <= len(rounds) {
		return false, nil
	}
	if r.Number != len(rounds)+1 {
		return false, fmt.Errorf("round %d of %s: this hall has %d rounds; round %d must come first", r.Number, tr.rec.Name, len(rounds), len(rounds)+1)
	}
	here := map[int]bool{}
	for _, t := range d.tables {
		if t.Tournament == tr.rec.ID {
			here[firstBoard+t.Number-1] = true
		}
	}
	players, err := d.db.Players(tr.rec.ID)
	if err != nil {
		return false, err
	}
	name := func(pid int) string {
		if i := slices.IndexFunc(players, func(p store.Player) bool { return p.ID == pid }); i >= 0 {
			return players[i].Name
		}
		return fmt.Sprintf("player %d", pid)
	}
	round := store.Round{TournamentID: tr.rec.ID, Number: r.Number, PairedAt: r.PairedAt, Trace: r.Trace, How: r.How}
	onTable := map[int]*store.Game{}
	var boards []string
	for _, p := range r.Pairings {
		p.GameID = 0
		if p.Second != 0 && p.Result == "" && here[p.Board] {
			g := d.roundGame(tr, r.Number, p.Board, [2]int{p.First, p.Second}, name)
			if err := d.db.CreateGame(g); err != nil {
				return false, err
			}
			p.GameID = g.ID
			onTable[p.Board-firstBoard+1] = g
			boards = append(boards, strconv.Itoa(p.Board))
		}
		round.Pairings = append(round.Pairings, p)
	}
	if err := d.db.PutRound(&round); err != nil {
		return false, err
	}
	data := fmt.Sprintf("round %d of %s: boards played here: %s", r.Number, tr.rec.Name, strings.Join(boards, ", "))
	if len(boards) == 0 {
		data = fmt.Sprintf("round %d of %s: no board played here", r.Number, tr.rec.Name)
	}
	if err := d.db.AddAction(&store.Action{Who: who, What: "apply-round", Why: "paired by " + d.pairedBy, Data: data, At: d.wall()}); err != nil {
		return false, err
	}
	d.log.Info("round applied", "tournament", tr.rec.Name, "round", r.Number, "boards", len(boards), "by", who)
	d.hub.Publish(Update{Kind: "round", At: d.wall(), Data: map[string]any{"tournament": tr.rec.ID, "round": r.Number}})
	return true, d.startGames(ctx, tr, onTable)
}

// ImportedResult tells the hub's director that a hall's result was stored
// (g as stored on the hub): the live pages hear of it, and the next round
// is paired when the round is complete and auto-pairing is on.
func (d *Director) ImportedResult(g store.Game) {
	d.hub.Publish(Update{Kind: "result", Game: g.ID, At: d.wall(), Data: g.Result})
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
