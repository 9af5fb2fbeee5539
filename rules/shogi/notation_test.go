package shogi

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// The 6-move game of spec 5.5.
var exampleUSI = strings.Fields("7g7f 3c3d 8h2b+ 3a2b B*4e 7a6b")

func TestSpecExampleGame(t *testing.T) {
	// Spec 5.5 and T8: SFEN and legal reply count after each move.
	want := []struct {
		sfen    string
		replies int
	}{
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2", 30},
		{"lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3", 39},
		{"lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4", 33},
		{"lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5", 77},
		{"lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6", 74},
		{"ln1gkg1nl/1r1s3s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL b b 7", 40},
	}
	p := mustPos(t, "startpos")
	kif := []string{"７六歩(77)", "３四歩(33)", "２二角成(88)", "同　銀(31)", "４五角打", "６二銀(71)"}
	csa := []string{"+7776FU", "-3334FU", "+8822UM", "-3122GI", "+0045KA", "-7162GI"}
	ki2 := []string{"▲７六歩", "△３四歩", "▲２二角成", "△同　銀", "▲４五角", "△６二銀"}
	for i, u := range exampleUSI {
		// Every notation names the same move.
		for _, s := range []string{u, csa[i], kif[i], ki2[i]} {
			m, err := p.ParseMoveText(s)
			require.NoError(t, err, s)
			assert.Equal(t, u, m.String(), s)
		}
		m, err := p.ParseMoveText(u)
		require.NoError(t, err)
		assert.Equal(t, ki2[i], p.FormatMove(m))
		assert.Equal(t, kif[i], p.KIFMove(m, false))
		assert.Equal(t, csa[i], p.CSAMove(m))
		p, err = p.PlayUSI(u)
		require.NoError(t, err)
		assert.Equal(t, want[i].sfen, p.String())
		assert.Len(t, p.Moves(), want[i].replies)
	}
}

func TestKI2Modifiers(t *testing.T) {
	tests := []struct {
		sfen string
		usi  string
		want string
	}{
		{"4k4/9/9/9/9/9/9/9/K2GGG3 b - 1", "4i5h", "▲５八金右"},
		{"4k4/9/9/9/9/9/9/9/K2GGG3 b - 1", "6i5h", "▲５八金左"},
		{"4k4/9/9/9/9/9/9/9/K2GGG3 b - 1", "5i5h", "▲５八金直"},
		{"4k4/9/9/9/9/9/9/5G3/K3G4 b - 1", "5i5h", "▲５八金上"},
		{"4k4/9/9/9/9/9/9/5G3/K3G4 b - 1", "4h5h", "▲５八金寄"},
		{"3ggg2k/9/9/9/9/9/9/9/4K4 w - 1", "6a5b", "△５二金右"},
		{"3ggg2k/9/9/9/9/9/9/9/4K4 w - 1", "4a5b", "△５二金左"},
		{"3ggg2k/9/9/9/9/9/9/9/4K4 w - 1", "5a5b", "△５二金直"},
		{"4k4/9/9/9/9/9/9/3S1S3/K8 b - 1", "4h5g", "▲５七銀右"},
		{"k8/9/9/9/9/9/9/9/K3R4 b R 1", "R*5e", "▲５五飛打"},
		{"4k4/9/9/9/9/9/9/9/K8 b R 1", "R*5e", "▲５五飛"},
		{"4k4/9/9/9/9/9/9/9/K8 b R 1", "R*5e", "▲５五飛"},
		{"8k/9/6P2/9/9/9/9/9/K8 b - 1", "3c3b", "▲３二歩不成"},
	}
	for _, tt := range tests {
		p := mustPos(t, tt.sfen)
		m, err := p.ParseMoveText(tt.usi)
		require.NoError(t, err, tt.usi)
		assert.Equal(t, tt.want, p.FormatMove(m), tt.sfen+" "+tt.usi)
		back, err := p.ParseMoveText(tt.want)
		require.NoError(t, err, tt.want)
		assert.Equal(t, m, back, tt.want)
	}
}

func TestKI2SideAndMotion(t *testing.T) {
	// Golds on 4h (moves sideways to 5h), 5i and 6i (both move up): the
	// one from 5i is straight up (直); the one from 6i is the left one.
	p := mustPos(t, "4k4/9/9/9/9/9/9/5G3/K2GG4 b - 1")
	for usi, want := range map[string]string{"4h5h": "▲５八金寄", "5i5h": "▲５八金直", "6i5h": "▲５八金左"} {
		m, err := p.ParseMoveText(usi)
		require.NoError(t, err)
		assert.Equal(t, want, p.FormatMove(m))
		back, err := p.ParseMoveText(want)
		require.NoError(t, err)
		assert.Equal(t, m, back)
	}
	// Dragons on 1c and 2b both move down to 2d: 右 and 左, no 直 (spec
	// 5.5 names the modifiers; the example is JSA's).
	p = mustPos(t, "k8/7+R1/8+R/9/9/9/9/9/K8 b - 1")
	for usi, want := range map[string]string{"1c2d": "▲２四龍右", "2b2d": "▲２四龍左"} {
		m, err := p.ParseMoveText(usi)
		require.NoError(t, err)
		assert.Equal(t, want, p.FormatMove(m))
		back, err := p.ParseMoveText("▲２四竜" + want[len("▲２四龍"):])
		require.NoError(t, err)
		assert.Equal(t, m, back)
	}
	// The right one of two pieces moving up, with a third moving sideways
	// from the right: 右上 reads back whatever the order of the modifiers.
	p = mustPos(t, "4k4/9/9/9/9/9/9/5G3/K2G1G3 b - 1")
	m, err := p.ParseMoveText("4i5h")
	require.NoError(t, err)
	assert.Equal(t, "▲５八金右上", p.FormatMove(m))
	for _, s := range []string{"▲５八金右上", "▲５八金上右"} {
		back, err := p.ParseMoveText(s)
		require.NoError(t, err, s)
		assert.Equal(t, m, back, s)
	}
}

func TestNotationRoundTripRandom(t *testing.T) {
	// Every legal move of many random positions reads back from its KI2,
	// KIF and CSA forms. Full hands of golds and silvers make clusters of
	// like pieces that need the KI2 modifiers.
	g, err := NewGame(nil)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(9, 9))
	starts := []string{StartSFEN, matsuriSFEN, "4k4/9/9/9/9/9/9/9/4K4 b 4G4S2B2R4N 1", "4k4/9/9/9/9/9/9/9/4K4 w 4g4s2b2r4n 1"}
	games := 10
	if testing.Short() || raceEnabled {
		games = 3
	}
	for i := range games {
		p, err := g.Position(starts[i%len(starts)])
		require.NoError(t, err)
		for range 120 {
			moves := p.Moves()
			if len(moves) == 0 {
				break
			}
			for _, m := range moves {
				for _, s := range []string{p.FormatMove(m), p.KIFMove(m, true), p.KIFMove(m, false), p.CSAMove(m), m.String()} {
					back, err := p.ParseMoveText(s)
					require.NoError(t, err, "%s in %s", s, p)
					require.Equal(t, m, back, "%s in %s", s, p)
				}
			}
			m := moves[rng.IntN(len(moves))]
			if p, err = p.PlayMove(m); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestDropOfAPieceThatCannotBeDropped: a drop of a promoted piece or a
// king, which no hand holds, is refused with an error that says so, in
// every notation and through Find (it used to panic on the hand index).
func TestDropOfAPieceThatCannotBeDropped(t *testing.T) {
	g, err := NewGame(nil)
	require.NoError(t, err)
	p := g.StartPosition()
	for _, tt := range []struct{ in, want string }{
		{"５五と打", `move "５五と打": a と cannot be dropped`},
		{"▲５五玉打", `move "▲５五玉打": a 玉 cannot be dropped`},
		{"５五馬打", `move "５五馬打": a 馬 cannot be dropped`},
		{"５五龍打", `move "５五龍打": a 龍 cannot be dropped`},
		{"５五成銀打", `move "５五成銀打": a 成銀 cannot be dropped`},
		{"+0055TO", `csa move "0055TO": cannot drop TO`},
	} {
		_, err := p.ParseMoveText(tt.in)
		if assert.Error(t, err, tt.in) {
			assert.Equal(t, tt.want, err.Error())
		}
	}
	for _, d := range []PieceType{King, Tokin, PromotedSilver, Horse, Dragon, Dragon + 1} {
		_, err := p.Board().Find(USIMove{Drop: d, From: rules.NoSquare, To: SquareAt(5, 5)})
		if assert.Error(t, err, d) {
			assert.Equal(t, "illegal move: "+d.String()+" cannot be dropped", err.Error())
		}
	}
}
