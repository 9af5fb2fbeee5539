package tiebreak

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Kind is one tie-break of C.07, named by its TRF26 acronym.
type Kind uint8

// Tie-break kinds.
const (
	PTS  Kind = iota + 1 // points
	BH                   // Buchholz
	FB                   // Fore Buchholz: the last round counted as a draw for everyone
	AOB                  // average of the opponents' Buchholz
	SB                   // Sonneborn-Berger
	DE                   // direct encounter
	WIN                  // rounds with the points of a win, played or not
	WON                  // games won over the board
	BPG                  // games played with the second move (Black, gote)
	BWG                  // games won with the second move
	REP                  // rounds the player elected to play
	ARO                  // average rating of the opponents
	TPR                  // tournament performance rating
	PTP                  // perfect tournament performance
	APRO                 // average of the opponents' TPR
	APPO                 // average of the opponents' PTP
	PS                   // progressive score
	KS                   // Koya system (round robins)
	RTNG                 // own rating
	TPN                  // starting rank (lower is better)
)

var kindNames = map[Kind]string{
	PTS: "PTS", BH: "BH", FB: "FB", AOB: "AOB", SB: "SB", DE: "DE", WIN: "WIN", WON: "WON",
	BPG: "BPG", BWG: "BWG", REP: "REP", ARO: "ARO", TPR: "TPR", PTP: "PTP", APRO: "APRO",
	APPO: "APPO", PS: "PS", KS: "KS", RTNG: "RTNG", TPN: "TPN",
}

// aliases maps accepted names to kinds: the acronyms plus older or
// descriptive spellings.
var aliases = map[string]Kind{
	"POINTS": PTS, "BUCHHOLZ": BH, "SONNEBORN-BERGER": SB, "GE": REP, "SNO": TPN, "RATING": RTNG,
	"BSG": BPG, "BLACK": BPG, "SECOND": BPG,
}

func init() {
	for k, n := range kindNames {
		aliases[n] = k
	}
}

// String returns the acronym.
func (k Kind) String() string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// decimals is the number of decimals a value of the kind is shown with.
func (k Kind) decimals() int {
	switch k {
	case PTS, BH, FB, PS, KS:
		return 1
	case SB, AOB:
		return 2
	}
	return 0
}

// ascending reports whether a lower value ranks higher.
func (k Kind) ascending() bool { return k == DE || k == TPN }

// ratingBased reports whether the kind needs every player to be rated.
func (k Kind) ratingBased() bool {
	switch k {
	case ARO, TPR, PTP, APRO, APPO, RTNG:
		return true
	}
	return false
}

// Spec is a tie-break with its modifiers, as written in TRF26 202/212 lines
// and in tournament regulations: "BH/C1", "BH/M1", "SB", "PS/C1", "DE/P".
type Spec struct {
	Kind Kind
	// CutLow and CutHigh drop that many lowest and highest contributions
	// (modifiers /Cn and /Mn; /Mn sets both).
	CutLow, CutHigh int
	// Forfeits counts forfeited games as played against the scheduled
	// opponent (DE modifier /P).
	Forfeits bool
	// Unrated is the rating assumed for unrated players (modifier /Unnnn);
	// 0 means rating-based tie-breaks are not applicable when anyone is
	// unrated.
	Unrated int
}

// String returns the canonical notation, e.g. "BH/C1" or "BH/M1".
func (s Spec) String() string {
	var b strings.Builder
	b.WriteString(s.Kind.String())
	switch {
	case s.CutLow > 0 && s.CutLow == s.CutHigh:
		fmt.Fprintf(&b, "/M%d", s.CutLow)
	case s.CutLow > 0 || s.CutHigh > 0:
		if s.CutLow > 0 {
			fmt.Fprintf(&b, "/C%d", s.CutLow)
		}
		if s.CutHigh > 0 {
			fmt.Fprintf(&b, "/H%d", s.CutHigh)
		}
	}
	if s.Forfeits {
		b.WriteString("/P")
	}
	if s.Unrated > 0 {
		fmt.Fprintf(&b, "/U%d", s.Unrated)
	}
	return b.String()
}

// cuttable reports which kinds accept /Cn and /Mn.
func (k Kind) cuttable() (low, high bool) {
	switch k {
	case BH, FB, SB, ARO:
		return true, true
	case PS:
		return true, false
	}
	return false, false
}

// ParseSpec parses one tie-break such as "BH/C1". Names are case-insensitive.
func ParseSpec(text string) (Spec, error) {
	parts := strings.Split(strings.TrimSpace(text), "/")
	name := strings.ToUpper(strings.TrimSpace(parts[0]))
	kind, ok := aliases[name]
	if !ok {
		return Spec{}, fmt.Errorf("tiebreak %q: unknown name %q", text, parts[0])
	}
	s := Spec{Kind: kind}
	for _, m := range parts[1:] {
		if err := s.modify(strings.ToUpper(strings.TrimSpace(m))); err != nil {
			return Spec{}, fmt.Errorf("tiebreak %q: %w", text, err)
		}
	}
	return s, nil
}

// modifier is what a modifier letter means.
type modifier struct {
	numbered bool            // the letter takes a number: /C1, not /P
	positive bool            // the number may not be 0
	applies  func(Kind) bool // the kinds the modifier applies to
	set      func(s *Spec, n int)
}

// modifiers lists the modifiers by their letter.
var modifiers = map[byte]modifier{
	'C': {numbered: true, applies: func(k Kind) bool { low, _ := k.cuttable(); return low },
		set: func(s *Spec, n int) { s.CutLow = n }},
	'H': {numbered: true, applies: func(k Kind) bool { _, high := k.cuttable(); return high },
		set: func(s *Spec, n int) { s.CutHigh = n }},
	'M': {numbered: true, applies: func(k Kind) bool { low, high := k.cuttable(); return low && high },
		set: func(s *Spec, n int) { s.CutLow, s.CutHigh = n, n }},
	'P': {applies: func(k Kind) bool { return k == DE },
		set: func(s *Spec, _ int) { s.Forfeits = true }},
	'U': {numbered: true, positive: true, applies: Kind.ratingBased,
		set: func(s *Spec, n int) { s.Unrated = n }},
}

// modify applies the modifier m, in upper case and without its slash, to s.
func (s *Spec) modify(m string) error {
	if m == "" {
		return errors.New("empty modifier")
	}
	num := 0
	if len(m) > 1 {
		n, err := strconv.Atoi(m[1:])
		if err != nil || n < 0 || n > 9999 {
			return fmt.Errorf("modifier /%s: %q is not a number", m, m[1:])
		}
		num = n
	}
	mod, ok := modifiers[m[0]]
	if !ok || mod.numbered != (len(m) > 1) || mod.positive && num == 0 || !mod.applies(s.Kind) {
		return fmt.Errorf("modifier /%s does not apply to %v", m, s.Kind)
	}
	mod.set(s, num)
	return nil
}

// ParseSpecs parses a list of tie-breaks separated by commas, semicolons or
// blanks, e.g. "BH/C1, BH, SB" or the tail of a TRF26 202 line.
func ParseSpecs(text string) ([]Spec, error) {
	fields := strings.FieldsFunc(text, func(r rune) bool {
		return r == ',' || r == ';' || r == ' ' || r == '\t'
	})
	specs := make([]Spec, 0, len(fields))
	for i, f := range fields {
		s, err := ParseSpec(f)
		if err != nil {
			return nil, fmt.Errorf("tie-break %d: %w", i+1, err)
		}
		specs = append(specs, s)
	}
	return specs, nil
}

// MustParseSpecs is ParseSpecs for lists fixed in the program; it panics on
// an error.
func MustParseSpecs(text string) []Spec {
	s, err := ParseSpecs(text)
	if err != nil {
		panic(err)
	}
	return s
}
