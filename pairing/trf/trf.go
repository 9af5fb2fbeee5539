// Package trf reads and writes tournament report files (TRF16 and TRF26, FIDE
// C.04 Annex 2 and C.02.03 Annexure A) including the XX extension lines that
// pairing engines such as JaVaFo and bbpPairings understand.
package trf

// Tournament is the content of one TRF file.
type Tournament struct {
	Name        string // 012
	City        string // 022
	Federation  string // 032
	StartDate   string // 042
	EndDate     string // 052
	Arbiter     string // 102
	TimeControl string // 122

	// Rounds is the declared number of rounds (XXR or 142), 0 if absent.
	Rounds int
	// InitialColour is the colour drawn for the first player before round 1:
	// 'w' or 'b' (XXC white1/black1 or 152), 0 if absent.
	InitialColour byte
	// System is the encoded tournament type of a 192 line, e.g. FIDE_DUTCH_2025.
	System string
	// Scoring holds the point values; see DefaultScoring.
	Scoring Scoring
	// Accelerations maps a player ID to the virtual points added for pairing
	// in each round (index r = round r+1), from XXA lines.
	Accelerations map[int][]float64
	// Forbidden lists pairs of player IDs that must not meet (XXP lines).
	Forbidden [][2]int

	Players []Player // in file order
	Extra   []string // unrecognised lines, kept verbatim for round-tripping

	// Warnings lists what the reader accepted without understanding it,
	// each with its line and column ("trf: line 3, column 10: ..."); the
	// writer ignores them.
	Warnings []string
}

// Player is one 001 record.
type Player struct {
	ID         int
	Sex        byte // 'm', 'w', 'f', 'u' (unknown) as the file has it, or 0
	Title      string
	Name       string
	Rating     int
	Federation string
	FideID     string
	Birth      string
	Points     float64
	Rank       int
	Games      []Game // index r = round r+1
}

// Game is one round entry of a player record.
type Game struct {
	Opponent int  // 0 = no opponent
	Colour   byte // 'w', 'b' or '-'
	// Result is one of the TRF codes '1','0','=','+','-','W','D','L','H','F',
	// 'U','Z' or ' ' (unknown or not yet played).
	Result byte
}

// Scoring gives the points for each kind of round outcome. The zero value is
// not meaningful; use DefaultScoring and override.
type Scoring struct {
	Win         float64 // played win (1, W), forfeit win (+) and FPB (F)
	Draw        float64 // played draw (=, D) and HPB (H)
	Loss        float64 // played loss (0, L)
	ZeroBye     float64 // ZPB (Z) and absence
	ForfeitLoss float64 // forfeit loss (-)
	PAB         float64 // pairing-allocated bye (U)
}

// DefaultScoring is 1–½–0 with a PAB worth a win.
var DefaultScoring = Scoring{Win: 1, Draw: 0.5, Loss: 0, ZeroBye: 0, ForfeitLoss: 0, PAB: 1}

// Played reports whether the game was actually played over the board, which
// is what counts for rematches and colour history.
func (g Game) Played() bool {
	if g.Opponent == 0 {
		return false
	}
	switch g.Result {
	case '1', '0', '=', 'W', 'D', 'L':
		return true
	}
	return false
}

// Points returns the points the game is worth under s.
func (s Scoring) Points(g Game) float64 {
	switch g.Result {
	case '1', 'W', '+', 'F':
		return s.Win
	case '=', 'D', 'H':
		return s.Draw
	case '0', 'L':
		return s.Loss
	case '-':
		if g.Opponent == 0 {
			return s.ZeroBye
		}
		return s.ForfeitLoss
	case 'U':
		return s.PAB
	}
	return s.ZeroBye
}

// PlayerByID returns the player with the given ID, or nil.
func (t *Tournament) PlayerByID(id int) *Player {
	for i := range t.Players {
		if t.Players[i].ID == id {
			return &t.Players[i]
		}
	}
	return nil
}

// PlayedRounds returns the number of rounds for which at least one player
// has an entry.
func (t *Tournament) PlayedRounds() int {
	n := 0
	for _, p := range t.Players {
		n = max(n, len(p.Games))
	}
	return n
}
