package pairing

import (
	"fmt"

	"arbiter/pairing/internal/matching"
)

// field is one bit field of the Dutch edge weight below its top one (which
// holds Completion and ByeScore): the criterion it weighs, keyed by meaning
// so that each edition names it by its own number, and its width. crit is 0
// for the room below the criteria that the ordering rules of homogeneous
// brackets and remainders use.
type field struct {
	crit Criterion
	bits int
}

// label names the field as the edition numbers it: "C7 lowest
// downfloater scores" in 2026, "C6 lowest downfloater scores" in 2017.
func (f field) label(e Edition) string {
	if f.crit == 0 {
		return "room for the ordering rules"
	}
	n := f.crit.Number(e)
	if n == "" {
		n = "(no criterion of " + e.String() + ")"
	}
	return n + " " + f.crit.String()
}

// fieldsWith returns the fields of the edge weight below its top one,
// most significant first, with the per-score-group fields of l. The
// fields of a criterion that counts players are as wide as the largest
// score group needs; those that sum scores are laid out by layOut. The
// float criteria of a round before the first played are left out.
func (d *dutch) fieldsWith(l layout) []field { return d.appendFields(make([]field, 0, 18), l) }

// appendFields appends the fields of fieldsWith(l) to fs.
func (d *dutch) appendFields(fs []field, l layout) []field {
	sg := d.sgBits
	fs = append(fs, []field{
		{MaxPairs, sg},
		{DownfloaterScores, l.cur},
		{NextBracket, sg},     // pairs in the next bracket
		{NextBracket, l.next}, // and their scores
		{ByeUnplayed, sg},
		{TopscorerColourDifference, sg},
		{TopscorerColourRun, sg},
		{ColourPreference, sg},
		{StrongColourPreference, sg},
	}...)
	repeats := [2][2]Criterion{{RepeatDownfloat1, RepeatUpfloat1}, {RepeatDownfloat2, RepeatUpfloat2}}
	scores := [2][2]Criterion{{RepeatDownfloatScore1, RepeatUpfloatScore1}, {RepeatDownfloatScore2, RepeatUpfloatScore2}}
	back := min(2, d.s.playedRounds)
	for _, r := range repeats[:back] {
		fs = append(fs, field{r[0], sg}, field{r[1], sg})
	}
	for _, r := range scores[:back] {
		fs = append(fs, field{r[0], l.cur}, field{r[1], l.cur})
	}
	return append(fs, field{0, 3*sg + 1})
}

// sumBits returns the width of fs.
func sumBits(fs []field) int {
	r := 0
	for _, f := range fs {
		r += f.bits
	}
	return r
}

// fieldWriter builds a weight from bit fields, most significant first:
// skip moves down past a field's width and add puts a value at the field
// now reached. This is the same sum as shifting the whole weight left by
// each width and adding at the bottom, without the multi-word shifts.
type fieldWriter struct {
	w   matching.Weight
	pos int // bit offset of the current field
	// fields, for next, lists the fields top down; i indexes the one
	// after the current field.
	fields []field
	i      int
}

func (f *fieldWriter) skip(n int)   { f.pos -= n }
func (f *fieldWriter) add(x uint64) { f.w.AddAt(x, f.pos) }

// bit adds 1<<n within the current field.
func (f *fieldWriter) bit(n int) { f.w.AddAt(1, f.pos+n) }

// next moves the writer down to the next of its fields, which must weigh
// criterion c: edgeWeightInto names each field it writes, and a field list
// out of step with it panics rather than weigh the wrong criterion.
func (f *fieldWriter) next(c Criterion) {
	fd := f.fields[f.i]
	if fd.crit != c {
		panic(fmt.Sprintf("pairing: matching.Weight field %d weighs %q, not %q", f.i, fd.crit, c))
	}
	f.i++
	f.skip(fd.bits)
}
