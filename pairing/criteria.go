package pairing

import "strconv"

// Criterion is a pairing criterion of the Dutch system, named by meaning.
// The numbering differs between editions; see Criteria.
type Criterion uint8

// Criteria by meaning, in the priority order of the 2026 edition.
const (
	NoRematch                 Criterion = iota + 1 // absolute
	ByeEligible                                    // absolute: PAB only to an eligible player
	AbsoluteColours                                // absolute: non-topscorers with the same absolute preference do not meet
	Completion                                     // completion: every bracket leaves the rest pairable
	ByeScore                                       // minimise the score of the PAB assignee
	MaxPairs                                       // minimise the number of downfloaters
	DownfloaterScores                              // minimise the scores of the downfloaters
	NextBracket                                    // choose downfloaters so the next bracket pairs best
	ByeUnplayed                                    // minimise the unplayed games of the PAB assignee
	TopscorerColourDifference                      // topscorers' colour difference beyond ±2
	TopscorerColourRun                             // topscorers' same colour three times in a row
	ColourPreference                               // players not getting their colour preference
	StrongColourPreference                         // players not getting their strong preference
	RepeatDownfloat1                               // resident downfloaters who downfloated last round
	RepeatUpfloat1                                 // MDP opponents who upfloated last round
	RepeatDownfloat2                               // as RepeatDownfloat1, two rounds before
	RepeatUpfloat2                                 // as RepeatUpfloat1, two rounds before
	RepeatDownfloatScore1                          // scores of MDPs who downfloated last round
	RepeatUpfloatScore1                            // scores of MDP opponents who upfloated last round
	RepeatDownfloatScore2                          // as RepeatDownfloatScore1, two rounds before
	RepeatUpfloatScore2                            // as RepeatUpfloatScore1, two rounds before
)

var criterionNames = map[Criterion]string{
	NoRematch:                 "no rematch",
	ByeEligible:               "bye only to an eligible player",
	AbsoluteColours:           "no clash of absolute colour preferences",
	Completion:                "the remaining players stay pairable",
	ByeScore:                  "lowest score for the bye",
	MaxPairs:                  "fewest downfloaters",
	DownfloaterScores:         "lowest downfloater scores",
	NextBracket:               "best pairing of the next bracket",
	ByeUnplayed:               "fewest unplayed games for the bye",
	TopscorerColourDifference: "topscorers' colour difference within ±2",
	TopscorerColourRun:        "topscorers not three times the same colour",
	ColourPreference:          "colour preferences",
	StrongColourPreference:    "strong colour preferences",
	RepeatDownfloat1:          "no repeated downfloat (previous round)",
	RepeatUpfloat1:            "no repeated upfloat (previous round)",
	RepeatDownfloat2:          "no repeated downfloat (two rounds before)",
	RepeatUpfloat2:            "no repeated upfloat (two rounds before)",
	RepeatDownfloatScore1:     "lowest scores of repeated downfloaters (previous round)",
	RepeatUpfloatScore1:       "lowest scores against repeated upfloaters (previous round)",
	RepeatDownfloatScore2:     "lowest scores of repeated downfloaters (two rounds before)",
	RepeatUpfloatScore2:       "lowest scores against repeated upfloaters (two rounds before)",
}

// String describes the criterion.
func (c Criterion) String() string {
	if s, ok := criterionNames[c]; ok {
		return s
	}
	return "unknown criterion"
}

// Criteria returns the criteria of an edition in priority order; the
// official number of Criteria(e)[i] is C(i+1).
func Criteria(e Edition) []Criterion {
	if e == Dutch2017 {
		// The 2017 text has no bye-score or bye-unplayed criteria.
		return []Criterion{
			NoRematch, ByeEligible, AbsoluteColours, Completion,
			MaxPairs, DownfloaterScores, NextBracket,
			TopscorerColourDifference, TopscorerColourRun, ColourPreference, StrongColourPreference,
			RepeatDownfloat1, RepeatUpfloat1, RepeatDownfloat2, RepeatUpfloat2,
			RepeatDownfloatScore1, RepeatUpfloatScore1, RepeatDownfloatScore2, RepeatUpfloatScore2,
		}
	}
	all := make([]Criterion, 0, 21)
	for c := NoRematch; c <= RepeatUpfloatScore2; c++ {
		all = append(all, c)
	}
	return all
}

// Number returns the official number of c in edition e ("C7"), or "" if
// the edition does not have it.
func (c Criterion) Number(e Edition) string {
	for i, x := range Criteria(e) {
		if x == c {
			return "C" + strconv.Itoa(i+1)
		}
	}
	return ""
}
