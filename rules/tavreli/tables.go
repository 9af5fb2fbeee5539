package tavreli

// Board geometry tables, computed once. Squares are r*8+f with file a and
// rank 1 being 0, as in package rules.

const (
	numSquares = 64
	noSquare   = -1
)

func sqOf(f, r int) int8    { return int8(r*8 + f) }
func fileOf(sq int8) int    { return int(sq) & 7 }
func rankOf(sq int8) int    { return int(sq) >> 3 }
func onBoard(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

// Directions 0..3 are orthogonal, 4..7 diagonal.
var dirDelta = [8][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}}

// ray is the squares from a square outward in one direction, nearest first.
type ray struct {
	n   uint8
	sqs [7]int8
}

// jumps is a list of up to eight squares reached by a leap or a step.
type jumps struct {
	n   uint8
	sqs [8]int8
}

var (
	rays        [numSquares][8]ray
	knightJumps [numSquares]jumps
	kingSteps   [numSquares]jumps
	// rayMask[a][b] is the set of squares strictly between a and b when they
	// share a line, plus b itself; zero when they do not.
	rayMask [numSquares][numSquares]uint64
	// kingZone[sq] is the set of squares next to sq.
	kingZone [numSquares]uint64
	// ratnikFrom[c][sq] is the squares from which a Ratnik of colour c
	// attacks sq: diagonally behind sq from c's side.
	ratnikFrom [2][numSquares]jumps
)

var knightDelta = [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}

func init() {
	for sq := int8(0); sq < numSquares; sq++ {
		f, r := fileOf(sq), rankOf(sq)
		for d, dd := range dirDelta {
			var m uint64
			for i := 1; ; i++ {
				tf, tr := f+dd[0]*i, r+dd[1]*i
				if !onBoard(tf, tr) {
					break
				}
				t := sqOf(tf, tr)
				ry := &rays[sq][d]
				ry.sqs[ry.n] = t
				ry.n++
				m |= 1 << uint(t)
				rayMask[sq][t] = m
			}
			k := &kingSteps[sq]
			if tf, tr := f+dd[0], r+dd[1]; onBoard(tf, tr) {
				k.sqs[k.n] = sqOf(tf, tr)
				k.n++
				kingZone[sq] |= 1 << uint(sqOf(tf, tr))
			}
		}
		for c, back := range [2]int{-1, 1} {
			for _, df := range [2]int{-1, 1} {
				if tf, tr := f+df, r+back; onBoard(tf, tr) {
					j := &ratnikFrom[c][sq]
					j.sqs[j.n] = sqOf(tf, tr)
					j.n++
				}
			}
		}
		for _, dd := range knightDelta {
			if tf, tr := f+dd[0], r+dd[1]; onBoard(tf, tr) {
				k := &knightJumps[sq]
				k.sqs[k.n] = sqOf(tf, tr)
				k.n++
			}
		}
	}
}

// squareName returns the Latin name of sq ("e4").
func squareName(sq int8) string {
	if sq < 0 || sq >= numSquares {
		return "-"
	}
	return string([]byte{'a' + byte(fileOf(sq)), '1' + byte(rankOf(sq))})
}

func appendSquare(dst []byte, sq int8) []byte {
	return append(dst, 'a'+byte(fileOf(sq)), '1'+byte(rankOf(sq)))
}
