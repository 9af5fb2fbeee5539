package pairing

import (
	"fmt"
	"strconv"
	"strings"
)

// Trace explains how a round was paired, for the arbiter: the brackets in
// order with their moved-down players (MDPs), pairs and downfloaters, the
// reason for the pairing-allocated bye and the colour rule of every board.
type Trace struct {
	Round    int
	Edition  Edition
	Brackets []BracketTrace
	Bye      *ByeTrace
	Boards   []BoardTrace
	// Matchings is the number of maximum weight matchings computed.
	Matchings int
}

// BracketTrace is one pairing bracket. Player numbers are starting ranks.
type BracketTrace struct {
	Score        float64 // score of the resident score group (with acceleration)
	MDPs         []int   // players moved down from higher brackets
	Residents    []int
	Pairs        [][2]int // higher-ranked player first
	Downfloaters []int
}

// ByeTrace explains the pairing-allocated bye.
type ByeTrace struct {
	Player      int
	Score       float64
	PlayedGames int
	// Eligible lists the players who could have received the bye under the
	// absolute criteria at that score (ByeEligible, ByeScore).
	Eligible []int
}

// BoardTrace explains the colours of one board.
type BoardTrace struct {
	White, Black int
	Rule         ColourRule
}

type bracketBuilder struct {
	t  *Trace
	d  *dutch
	bi int
}

func (t *Trace) openBracket(d *dutch, mdps, residents []int) *bracketBuilder {
	if t == nil {
		return nil
	}
	b := BracketTrace{}
	for _, v := range mdps {
		b.MDPs = append(b.MDPs, d.sorted[v].id)
	}
	for _, v := range residents {
		b.Residents = append(b.Residents, d.sorted[v].id)
	}
	if len(residents) > 0 {
		b.Score = float64(d.score(d.sorted[residents[0]])) / 10
	} else if len(mdps) > 0 {
		b.Score = float64(d.score(d.sorted[mdps[len(mdps)-1]])) / 10
	}
	t.Brackets = append(t.Brackets, b)
	return &bracketBuilder{t: t, d: d, bi: len(t.Brackets) - 1}
}

func (b *bracketBuilder) downfloat(v int) {
	if b == nil {
		return
	}
	br := &b.t.Brackets[b.bi]
	br.Downfloaters = append(br.Downfloaters, b.d.sorted[v].id)
}

// close records the pairs made in the bracket.
func (b *bracketBuilder) close(partner []int) {
	if b == nil {
		return
	}
	br := &b.t.Brackets[b.bi]
	seen := map[int]bool{}
	for _, v := range b.d.sorted {
		seen[v.id] = false
	}
	members := append(append([]int(nil), br.MDPs...), br.Residents...)
	in := map[int]bool{}
	for _, id := range members {
		in[id] = true
	}
	for v, u := range partner {
		if u < 0 || !in[b.d.sorted[v].id] || seen[b.d.sorted[v].id] {
			continue
		}
		hi, lo := b.d.sorted[v], b.d.sorted[u]
		if b.d.s.ranksAbove(lo, hi) {
			hi, lo = lo, hi
		}
		if !in[hi.id] || seen[hi.id] {
			continue
		}
		seen[hi.id], seen[lo.id] = true, true
		br.Pairs = append(br.Pairs, [2]int{hi.id, lo.id})
	}
}

func joinIDs(ids []int) string {
	if len(ids) == 0 {
		return "-"
	}
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(id)
	}
	return strings.Join(s, " ")
}

// String renders the trace as readable text.
func (t *Trace) String() string {
	if t == nil {
		return ""
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "Round %d, FIDE Dutch %s\n", t.Round, t.Edition)
	for i, b := range t.Brackets {
		fmt.Fprintf(&sb, "Bracket %d (score %.1f): residents %s; MDPs %s\n", i+1, b.Score, joinIDs(b.Residents), joinIDs(b.MDPs))
		for _, p := range b.Pairs {
			fmt.Fprintf(&sb, "  pair %d - %d\n", p[0], p[1])
		}
		if len(b.Downfloaters) > 0 {
			fmt.Fprintf(&sb, "  downfloaters: %s\n", joinIDs(b.Downfloaters))
		}
	}
	if t.Bye != nil {
		fmt.Fprintf(&sb, "Pairing-allocated bye: %d (score %.1f, %d played games). Eligible players (%s) at the lowest score that leaves the rest pairable (%s, %s): %s",
			t.Bye.Player, t.Bye.Score, t.Bye.PlayedGames, ByeEligible.Number(t.Edition), Completion.Number(t.Edition),
			ByeScore.Number(t.Edition), joinIDs(t.Bye.Eligible))
		if c := ByeUnplayed.Number(t.Edition); c != "" {
			fmt.Fprintf(&sb, "; then fewest unplayed games (%s)", c)
		}
		sb.WriteString("\n")
	}
	for i, b := range t.Boards {
		fmt.Fprintf(&sb, "Board %d: %d - %d: %s\n", i+1, b.White, b.Black, b.Rule)
	}
	return sb.String()
}
