package tavreli

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// flipped returns the colour-mirrored position: ranks reversed, colours
// swapped, side to move swapped.
func flipped(t testing.TB, b *Board) *Board {
	var f Board
	for sq := range 64 {
		src := sqOf(fileOf(int8(sq)), 7-rankOf(int8(sq)))
		for _, pc := range b.Stack(rules.Square(src), nil) {
			pc.Color = pc.Color.Other()
			require.NoError(t, f.push(int8(sq), pc))
		}
	}
	f.side = b.side.Other()
	f.castle = (b.castle&3)<<2 | b.castle>>2
	f.dstep = b.dstep<<8 | b.dstep>>8
	f.ep = noSquare
	if b.ep >= 0 {
		f.ep = sqOf(fileOf(b.ep), 7-rankOf(b.ep))
	}
	f.half, f.full = b.half, b.full
	f.finish()
	return &f
}

func physicalMultiset(b *Board) []rules.Piece {
	var out []rules.Piece
	for sq := range 64 {
		for _, pc := range b.Stack(rules.Square(sq), nil) {
			out = append(out, pc.Physical())
		}
	}
	slices.SortFunc(out, func(a, b rules.Piece) int {
		switch {
		case a.Less(b):
			return -1
		case b.Less(a):
			return 1
		}
		return 0
	})
	return out
}

// checkInvariants asserts the invariants of spec 2.4, 2.7 and 6.3.
func checkInvariants(t *testing.T, b *Board) {
	t.Helper()
	var st []Piece
	for sq := int8(0); sq < 64; sq++ {
		st = b.Stack(rules.Square(sq), st[:0])
		if int(b.height[sq]) != len(st) {
			t.Fatalf("height of %s: %d, stack %v", squareName(sq), b.height[sq], st)
		}
		for i, pc := range st {
			if pc.Role == Volkhv && i != len(st)-1 {
				t.Fatalf("Volkhv not on top of %s: %s", squareName(sq), b.TFEN())
			}
			if pc.Promoted() && st[len(st)-1].Color != pc.Color {
				t.Fatalf("promoted captive on %s: %s", squareName(sq), b.TFEN())
			}
		}
		bit := uint64(1) << uint(sq)
		if len(st) == 0 {
			if (b.own[0]|b.own[1])&bit != 0 {
				t.Fatalf("empty %s is owned", squareName(sq))
			}
			continue
		}
		top := st[len(st)-1]
		if top.Role == Ratnik && rankOf(sq) == lastRank(top.Color) {
			t.Fatalf("unpromoted Ratnik on its last rank: %s", b.TFEN())
		}
		if b.own[top.Color]&bit == 0 || b.own[top.Color.Other()]&bit != 0 {
			t.Fatalf("owner of %s wrong", squareName(sq))
		}
	}
	if b.computeHash() != b.hash {
		t.Fatalf("incremental hash wrong: %s", b.TFEN())
	}
}

// moveStats counts the kinds of events random games went through, so that
// the property tests can show they exercised them.
type moveStats struct {
	splits, enPassant, castling, promotions, demotions, liberations int
}

func TestRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	games := 100
	if testing.Short() || raceEnabled {
		games = 20
	}
	var st moveStats
	start := StartBoard()
	startSet := physicalMultiset(&start)
	var buf []Move
	for range games {
		b := start
		for ply := 0; ply < 300; ply++ {
			buf = b.GenerateLegal(buf[:0])
			if len(buf) == 0 {
				break
			}
			for _, m := range buf {
				h := int(b.height[m.from])
				require.True(t, m.Count() >= 1 && m.Count() <= h, "split size %d of %d", m.Count(), h)
				before := b
				u := b.Make(m)
				if b.computeHash() != b.hash {
					t.Fatalf("incremental hash after %v in %s", m, before.TFEN())
				}
				b.Unmake(m, u)
				if before != b {
					t.Fatalf("make/unmake of %v does not restore %s", m, before.TFEN())
				}
			}
			m := buf[rng.IntN(len(buf))]
			if int(m.n) < int(b.height[m.from]) {
				st.splits++
				if b.color(b.top[m.from]) != b.color(pieceAt(&b, m.from, int(m.n))) {
					st.liberations++
				}
			}
			switch m.kind {
			case EnPassant:
				st.enPassant++
			case CastleShort, CastleLong:
				st.castling++
			}
			u := b.Make(m)
			for tg := u.toggled; tg != 0; tg &= tg - 1 {
				if b.role(uint8(bits.TrailingZeros64(tg))) == Ratnik {
					st.demotions++
				} else {
					st.promotions++
				}
			}
			checkInvariants(t, &b)
			require.Equal(t, 32, int(b.n))
			total := 0
			for sq := range 64 {
				total += int(b.height[sq])
			}
			require.Equal(t, 32, total, "pieces on the board")
			if !slices.Equal(startSet, physicalMultiset(&b)) {
				t.Fatalf("piece multiset changed: %s", b.TFEN())
			}
			// Game-mode TFEN round trip.
			p, err := ParseTFEN(b.TFEN(), GameMode)
			require.NoError(t, err, b.TFEN())
			if p.TFEN() != b.TFEN() || p.hash != b.hash {
				t.Fatalf("TFEN round trip: %s", b.TFEN())
			}
		}
	}
	t.Logf("%+v", st)
	assert.Positive(t, st.splits)
	assert.Positive(t, st.liberations)
	assert.Positive(t, st.promotions)
	assert.Positive(t, st.demotions)
	if !testing.Short() && !raceEnabled {
		assert.Positive(t, st.castling)
		assert.Positive(t, st.enPassant)
	}
}

// pieceAt returns the piece k places below the top of sq (0 = the top).
func pieceAt(b *Board, sq int8, k int) uint8 {
	p := b.top[sq]
	for range k {
		p = b.below[p]
	}
	return p
}

func TestFlippedPerft(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n := 60
	if testing.Short() {
		n = 15
	}
	for _, b := range randomPositions(rng, testStarts(t), n, 100) {
		f := flipped(t, &b)
		require.Equal(t, b.Perft(3), f.Perft(3), "%s vs %s", b.TFEN(), f.TFEN())
		back := flipped(t, f)
		require.Equal(t, b.TFEN(), back.TFEN())
	}
	start := StartBoard()
	require.Equal(t, start.TFEN(), flipped(t, flipped(t, &start)).TFEN())
}
