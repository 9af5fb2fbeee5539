package tiebreak

import (
	"fmt"
	"strings"

	"arbiter/pairing/trf"
)

// FromTRF converts a parsed TRF file into the model Compute takes. Games that
// are paired but have no result yet (result blank) are left out, and the
// tournament ends with the last round that has a result, so that standings
// during an event cover the rounds played so far rather than the rounds
// announced. Round robins are recognised by their TRF26 192 code.
func FromTRF(f *trf.Tournament) (*Tournament, error) {
	rounds := 0
	for _, p := range f.Players {
		for r, g := range p.Games {
			if g.Result != ' ' && g.Result != 0 {
				rounds = max(rounds, r+1)
			}
		}
	}
	t := &Tournament{
		Name:   f.Name,
		Rounds: rounds,
		Scoring: Scoring{
			Win: f.Scoring.Win, Draw: f.Scoring.Draw, Loss: f.Scoring.Loss,
			ZeroBye: f.Scoring.ZeroBye, ForfeitLoss: f.Scoring.ForfeitLoss, PAB: f.Scoring.PAB,
		},
		RoundRobin: strings.Contains(strings.ToUpper(f.System), "ROUNDROBIN"),
		Players:    make([]Player, len(f.Players)),
	}
	for i, fp := range f.Players {
		p := Player{ID: fp.ID, Name: fp.Name, Title: fp.Title, Fed: fp.Federation, Rating: fp.Rating, Games: make([]Game, min(len(fp.Games), rounds))}
		for r, fg := range fp.Games[:len(p.Games)] {
			g, err := gameFromTRF(fg)
			if err != nil {
				return nil, fmt.Errorf("tiebreak: player %d round %d: %w", fp.ID, r+1, err)
			}
			p.Games[r] = g
		}
		t.Players[i] = p
	}
	return t, nil
}

// trfResults maps the TRF result codes to results; '-' without an
// opponent is an absence rather than a forfeit loss.
var trfResults = map[byte]Result{
	'1': Win, 'W': Win, '=': Draw, 'D': Draw, '0': Loss, 'L': Loss,
	'+': ForfeitWin, '-': ForfeitLoss, 'U': PairingBye, 'F': FullBye, 'H': HalfBye, 'Z': Absent,
}

// trfColours maps the TRF colours to the neutral ones; '-' has none.
var trfColours = map[byte]Colour{'w': First, 'b': Second}

// gameFromTRF converts one round entry; a game paired but not played yet
// (result blank) is the zero Game.
func gameFromTRF(fg trf.Game) (Game, error) {
	if fg.Result == ' ' || fg.Result == 0 {
		return Game{}, nil // paired, not played yet
	}
	res, ok := trfResults[fg.Result]
	if !ok {
		return Game{}, fmt.Errorf("unknown result code %q", fg.Result)
	}
	if res == ForfeitLoss && fg.Opponent == 0 {
		res = Absent
	}
	if fg.Opponent != 0 && !res.needsOpponent() {
		return Game{}, fmt.Errorf("result %q (%v) with opponent %d", fg.Result, res, fg.Opponent)
	}
	g := Game{Opponent: fg.Opponent, Colour: trfColours[fg.Colour], Result: res}
	if g.Opponent == 0 {
		g.Colour = NoColour
	}
	return g, nil
}

// SpecsFromTRF returns the tie-breaks declared by the TRF26 202 (tie-breaks)
// or 212 (standings order, starting with the points) records, and nil when
// the file has neither.
func SpecsFromTRF(f *trf.Tournament) ([]Spec, error) {
	for _, line := range f.Extra {
		if len(line) < 3 || (line[:3] != "202" && line[:3] != "212") {
			continue
		}
		specs, err := ParseSpecs(line[3:])
		if err != nil {
			return nil, fmt.Errorf("tiebreak: TRF record %s: %w", line[:3], err)
		}
		return specs, nil
	}
	return nil, nil
}
