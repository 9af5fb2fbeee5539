package tavreli

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// IsLegal judges one move at a time; it must agree with GenerateLegal on
// every move a position could be offered, legal or not: positions of random
// games from the start and from the spec's test positions (randomPositions),
// where castling, en passant and promotion shapes come up. The offers are
// from the side to move's stacks: every move the movement rules allow, each
// also with one piece fewer and one more (0 and more than the stack among
// them) and as every other kind of move, a lone piece to every square, and
// the castling and en passant shapes from every stack.
func TestIsLegalAgreesWithGeneration(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var legalSeen, rejected int
	positions := randomPositions(rng, testStarts(t), 1500, 120)
	// Random games rarely reach these: castling rights with the Volkhv in
	// check, and en passant open to a stack that is no Ratnik.
	positions = append(positions,
		*board(t, "4r1k1/8/8/8/8/8/8/R3K2R w KQ - - 0 1"),
		*board(t, "k7/8/8/8/3nPR3/8/8/4K3 b - e3 - 0 1"))
	for n, b := range positions {
		legal := b.GenerateLegal(nil)
		isLegal := map[Move]bool{}
		for _, m := range legal {
			isLegal[m] = true
		}
		var cands []Move
		for sq := int8(0); sq < 64; sq++ {
			if b.height[sq] == 0 || b.own[b.side]&(1<<uint(sq)) == 0 {
				continue
			}
			for _, m := range b.pseudoFrom(sq, b.side, nil) {
				for _, k := range []MoveKind{GroupMove, EnPassant, CastleShort, CastleLong} {
					for _, c := range []int{int(m.n) - 1, int(m.n), int(m.n) + 1} {
						cands = append(cands, Move{from: m.from, to: m.to, n: uint8(c), kind: k})
					}
				}
			}
			for to := int8(0); to < 64; to++ {
				cands = append(cands, Move{from: sq, to: to, n: 1})
			}
			// The special moves' shapes from any stack, with no test of
			// the mover's role or of check: IsLegal must make those.
			cands = b.appendCastling(cands, sq, b.side)
			if b.ep >= 0 {
				for k := 1; k <= int(b.height[sq]); k++ {
					cands = append(cands, Move{from: sq, to: b.ep, n: uint8(k), kind: EnPassant})
				}
			}
		}
		for _, m := range cands {
			got := b.IsLegal(m)
			require.Equal(t, isLegal[m], got, "position %d (%s) move %+v", n, &b, m)
			if got {
				legalSeen++
			} else {
				rejected++
			}
		}
		for _, m := range legal {
			require.True(t, b.IsLegal(m), "position %d (%s) legal move %v", n, &b, m)
		}
	}
	t.Logf("%d offers legal, %d rejected", legalSeen, rejected)
	require.Greater(t, legalSeen, 10000)
	require.Greater(t, rejected, 10000)
}

// pseudoFrom appends the moves of c's stack on o that follow the movement
// rules, before the test of its own Volkhv's safety: the same moves
// GenerateLegal considers for o, the offers the test starts from.
func (b *Board) pseudoFrom(o int8, c rules.Color, dst []Move) []Move {
	role := b.role(b.top[o])
	h := int(b.height[o])
	var tg [40]int8
	for _, d := range b.targets(o, role, c, tg[:0]) {
		for k := 1; k <= h; k++ {
			dst = append(dst, Move{from: o, to: d, n: uint8(k)})
		}
	}
	if role == Ratnik && b.ep >= 0 && isForwardDiagonal(o, b.ep, c) {
		for k := 1; k <= h; k++ {
			dst = append(dst, Move{from: o, to: b.ep, n: uint8(k), kind: EnPassant})
		}
	}
	if role == Volkhv && !b.attacked(b.king[c], c.Other()) {
		dst = b.appendCastling(dst, o, c)
	}
	return dst
}
