package pairing

// ColourRule names the rule of FIDE Dutch Art. 5.2 that decided a board.
type ColourRule uint8

// Colour allocation rules, in the order they are tried.
const (
	RuleBothPreferences  ColourRule = iota + 1 // 5.2.1 both preferences granted
	RuleStrongerPref                           // 5.2.2 the stronger preference
	RuleAlternation                            // 5.2.3 alternate from the last differing round
	RuleHigherRankedPref                       // 5.2.4 the higher-ranked player's preference
	RuleInitialColour                          // 5.2.5 pairing number parity and the initial colour
	RuleLot                                    // first player by lot (colour-blind games)
)

// String describes the rule with its article number.
func (r ColourRule) String() string {
	switch r {
	case RuleBothPreferences:
		return "both colour preferences granted (5.2.1)"
	case RuleStrongerPref:
		return "stronger colour preference granted (5.2.2)"
	case RuleAlternation:
		return "colours alternated from the last round with different colours (5.2.3)"
	case RuleHigherRankedPref:
		return "higher-ranked player's preference granted (5.2.4)"
	case RuleInitialColour:
		return "pairing number and initial colour (5.2.5)"
	case RuleLot:
		return "first player by lot"
	}
	return "unknown rule"
}

// lastDifference returns the colours of a and b in the most recent played
// rounds, counted from the end of each history, in which they differed.
func lastDifference(a, b *player, rounds int) (Colour, Colour) {
	ia, ib := rounds-1, rounds-1
	skip := func(p *player, i int) int {
		for i >= 0 && !p.matches[i].played {
			i--
		}
		return i
	}
	ia, ib = skip(a, ia), skip(b, ib)
	for ia >= 0 && ib >= 0 && a.matches[ia].colour == b.matches[ib].colour {
		ia, ib = skip(a, ia-1), skip(b, ib-1)
	}
	ca, cb := NoColour, NoColour
	if ia >= 0 {
		ca = a.matches[ia].colour
	}
	if ib >= 0 {
		cb = b.matches[ib].colour
	}
	return ca, cb
}

// neutralColour applies rules 5.2.1–5.2.3 and returns the colour for p, or
// NoColour if they do not decide.
func (s *state) neutralColour(p, o *player) (Colour, ColourRule) {
	if prefsCompatible(p.colourPref, o.colourPref) {
		return bothPreferences(p, o)
	}
	if c, ok := strongerPreference(p, o); ok {
		return c, RuleStrongerPref
	}
	pc, oc := lastDifference(p, o, s.playedRounds)
	if pc != NoColour && oc != NoColour {
		return oc, RuleAlternation
	}
	return NoColour, 0
}

// bothPreferences applies rule 5.2.1 to p and o, whose preferences are
// compatible, and returns the colour for p, or NoColour if neither has a
// preference.
func bothPreferences(p, o *player) (Colour, ColourRule) {
	switch {
	case p.colourPref != NoColour:
		return p.colourPref, RuleBothPreferences
	case o.colourPref != NoColour:
		return o.colourPref.invert(), RuleBothPreferences
	}
	return NoColour, 0
}

// strongerPreference applies rule 5.2.2 to p and o, whose preferences
// clash: it returns the colour for p and true when one preference is
// stronger, an absolute one first.
func strongerPreference(p, o *player) (Colour, bool) {
	switch {
	case p.absolutePref() && (p.colourImbalance > o.colourImbalance || !o.absolutePref()):
		return p.colourPref, true
	case o.absolutePref() && (o.colourImbalance > p.colourImbalance || !p.absolutePref()):
		return o.colourPref.invert(), true
	case p.strongPref && !o.strongPref:
		return p.colourPref, true
	case o.strongPref && !p.strongPref:
		return o.colourPref.invert(), true
	}
	return NoColour, false
}

// chooseColour returns the colour of p when playing o, and the rule used.
func (s *state) chooseColour(p, o *player) (Colour, ColourRule) {
	if c, rule := s.neutralColour(p, o); c != NoColour {
		return c, rule
	}
	pLower := !s.ranksAbove(p, o)
	if p.colourPref == NoColour {
		if pLower {
			if o.rank&1 != 0 {
				return s.initialColour, RuleInitialColour
			}
			return s.initialColour.invert(), RuleInitialColour
		}
		if p.rank&1 != 0 {
			return s.initialColour.invert(), RuleInitialColour
		}
		return s.initialColour, RuleInitialColour
	}
	if pLower {
		return o.colourPref.invert(), RuleHigherRankedPref
	}
	return p.colourPref, RuleHigherRankedPref
}
