package tiebreak

import "strconv"

// Value is one tie-break value of one player. OK is false when the
// tie-break does not apply to the player (no games played for an average,
// unrated players present for a rating-based one); such a value ranks below
// every number.
type Value struct {
	Num float64
	OK  bool
}

// Format renders v with the precision usual for kind k: one decimal for
// points, Buchholz and progressive scores, two for SB and AOB, none for
// counts and ratings; "-" when not applicable.
func (v Value) Format(k Kind) string {
	if !v.OK {
		return "-"
	}
	return strconv.FormatFloat(v.Num, 'f', k.decimals(), 64)
}

// Standings is a ranked list of players with their tie-break values.
type Standings struct {
	Tiebreaks []Spec `json:"tiebreaks"` // the columns of Row.Values; the first is PTS
	Rounds    int    `json:"rounds"`
	Rows      []Row  `json:"rows"` // in rank order; equal ranks in order of ID
}

// Row is one player's line in the standings.
type Row struct {
	Rank   int     `json:"rank"`
	Shared bool    `json:"shared,omitempty"` // another player has the same rank: every tie-break is equal
	ID     int     `json:"id"`
	Name   string  `json:"name"`
	Rating int     `json:"rating,omitempty"`
	Values []Value `json:"values"` // one per Standings.Tiebreaks
}

// Points returns the row's score (the PTS column).
func (r Row) Points() float64 { return r.Values[0].Num }
