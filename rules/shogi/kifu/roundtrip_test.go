package kifu

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules/shogi"
)

const (
	matsuriSFEN = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"
	maxSFEN     = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"
)

// randomRecord plays a random game from start and gives it random times
// and a terminal event that fits how it stopped.
func randomRecord(rng *rand.Rand, start string, plies int) *Record {
	p, err := defaultGame.Position(start)
	if err != nil {
		panic(err)
	}
	r := &Record{Meta: Meta{Sente: "先手太郎", Gote: "Gote", Event: "random", MainTime: time.Hour, Byoyomi: time.Minute}}
	if start != shogi.StartSFEN {
		r.Start = start
	}
	var moves []shogi.Move
	for range plies {
		moves = p.Moves()
		if len(moves) == 0 {
			break
		}
		// Prefer captures, promotions and drops, so that hands fill up and
		// KI2 needs its modifiers.
		m := moves[rng.IntN(len(moves))]
		for range 3 {
			if m.Captured() != shogi.NoPiece || m.Promotes() || m.IsDrop() {
				break
			}
			m = moves[rng.IntN(len(moves))]
		}
		r.Moves = append(r.Moves, RecordMove{USI: m.String(), Time: time.Duration(rng.IntN(200)) * time.Second})
		if p, err = p.PlayMove(m); err != nil {
			panic(err)
		}
	}
	b := p.Board()
	if !b.HasLegalMove() {
		r.End = Terminal{Kind: Mate, Side: b.Turn(), Time: 0}
		return r
	}
	kinds := []TerminalKind{Resign, TimeUp, FoulLoss, Sennichite, JishogiDraw, EnteringKingWin, Abort, NoTerminal}
	k := kinds[rng.IntN(len(kinds))]
	side := b.Turn()
	if rng.IntN(4) == 0 {
		side = side.Other()
	}
	switch k {
	case Sennichite, JishogiDraw, Abort:
		side = 0
	case NoTerminal:
		return r
	}
	r.End = Terminal{Kind: k, Side: side, Time: time.Duration(rng.IntN(30)) * time.Second}
	return r
}

func TestRoundTripRandomGames(t *testing.T) {
	games := 60
	if testing.Short() || raceEnabled {
		games = 12
	}
	rng := rand.New(rand.NewPCG(7, 11))
	starts := []string{shogi.StartSFEN, shogi.StartSFEN, shogi.Handicaps["香落ち"], shogi.Handicaps["二枚落ち"], matsuriSFEN,
		"4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1"}
	for g := range games {
		r := randomRecord(rng, starts[g%len(starts)], 150+rng.IntN(250))
		name := fmt.Sprintf("game%d", g)
		kif, err := WriteKIF(r, KIFOptions{Funari: g%2 == 0})
		require.NoError(t, err)
		ki2, err := WriteKI2(r)
		require.NoError(t, err)
		csa, err := WriteCSA(r)
		require.NoError(t, err)

		fromKIF, err := ReadKIF([]byte(kif))
		require.NoError(t, err, "%s KIF:\n%s", name, kif)
		fromKI2, err := ReadKI2([]byte(ki2))
		require.NoError(t, err, "%s KI2:\n%s", name, ki2)
		fromCSA, err := ReadCSA([]byte(csa))
		require.NoError(t, err, "%s CSA:\n%s", name, csa)

		for format, got := range map[string]*Record{"kif": fromKIF, "ki2": fromKI2, "csa": fromCSA} {
			require.Equal(t, r.Start, got.Start, "%s %s start", name, format)
			require.Equal(t, usis(r), usis(got), "%s %s moves", name, format)
			wantEnd := r.End
			if format != "kif" {
				wantEnd.Time = 0
			}
			if format == "ki2" {
				for i := range got.Moves {
					got.Moves[i].Time = r.Moves[i].Time
				}
			}
			assert.Equal(t, wantEnd, got.End, "%s %s end", name, format)
			assert.Equal(t, r.Moves, got.Moves, "%s %s moves and times", name, format)
			assert.Equal(t, r.Meta.Sente, got.Meta.Sente)
			assert.Equal(t, r.Meta.Event, got.Meta.Event)
			assert.Equal(t, r.Meta.Byoyomi, got.Meta.Byoyomi)
		}
	}
}
