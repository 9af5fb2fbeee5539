package shogi

import "strings"

// Handicap is a standard handicap (駒落ち, spec 1.5): the pieces the
// stronger player, the giver (上手), plays without. The giver plays gote
// and moves first; the receiver (下手) plays sente.
type Handicap struct {
	// Name is the option value ("lance", "2-piece"); "none" for the even
	// game.
	Name string
	// KIF is the 手合割 name the KIF and KI2 records write ("香落ち").
	KIF string
	// SFEN is the start position.
	SFEN string
	// Title names it for people: "lance handicap (香落ち)".
	Title string
}

// Even reports whether h is the even game (no handicap).
func (h Handicap) Even() bool { return h.SFEN == StartSFEN }

// HandicapList is every handicap the game plays, the even game first, in
// increasing order of the pieces given, as the JSA lists them.
var HandicapList = []Handicap{
	{"none", "平手", StartSFEN, "even game (平手)"},
	{"lance", "香落ち", "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "lance (香落ち)"},
	{"right-lance", "右香落ち", "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "right lance (右香落ち)"},
	{"bishop", "角落ち", "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "bishop (角落ち)"},
	{"rook", "飛車落ち", "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "rook (飛車落ち)"},
	{"rook-lance", "飛香落ち", "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "rook and lance (飛香落ち)"},
	{"2-piece", "二枚落ち", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "two pieces (二枚落ち)"},
	{"4-piece", "四枚落ち", "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "four pieces (四枚落ち)"},
	{"6-piece", "六枚落ち", "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "six pieces (六枚落ち)"},
	{"8-piece", "八枚落ち", "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "eight pieces (八枚落ち)"},
	{"10-piece", "十枚落ち", "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", "ten pieces (十枚落ち)"},
}

// ParseHandicap reads a handicap by its option name or its KIF name; ""
// and "平手" are the even game.
func ParseHandicap(s string) (Handicap, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return HandicapList[0], true
	}
	for _, h := range HandicapList {
		if s == h.Name || s == h.KIF {
			return h, true
		}
	}
	return Handicap{}, false
}

// handicapWords lists the option's values for an error.
func handicapWords() string {
	names := make([]string, len(HandicapList))
	for i, h := range HandicapList {
		names[i] = h.Name
	}
	return strings.Join(names, ", ") + " (or the KIF names, 香落ち ...)"
}
