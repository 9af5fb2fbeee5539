package pairing_test

import (
	"errors"
	"fmt"
	"os"

	"arbiter/pairing"
	"arbiter/pairing/trf"
)

// Pairing the next round of a TRF file and writing it in the engines'
// output format, as `arbiter pair --dutch in.trf -p out.txt` does.
func ExamplePair() {
	f, err := os.Open("testdata/absent-round1.trf")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	t, err := trf.Read(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := pairing.Pair(t, pairing.Options{})
	var nv *pairing.NoValidPairingError
	if errors.As(err, &nv) {
		fmt.Println("no valid pairing:", nv.Reason) // exit status 1
		return
	}
	if err := pairing.WritePairs(os.Stdout, res); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 4
	// 2 6
	// 7 3
	// 4 8
	// 10 5
}

// Checking a round paired by hand: both boards are rematches of round 1,
// and players 1 and 2 would have their colour a third time in a row.
func ExampleBreaches() {
	t := &trf.Tournament{Rounds: 5, Scoring: trf.DefaultScoring, Players: []trf.Player{
		{ID: 1, Games: []trf.Game{{Opponent: 2, Colour: 'w', Result: '1'}, {Opponent: 3, Colour: 'w', Result: '='}}},
		{ID: 2, Games: []trf.Game{{Opponent: 1, Colour: 'b', Result: '0'}, {Opponent: 4, Colour: 'b', Result: '1'}}},
		{ID: 3, Games: []trf.Game{{Opponent: 4, Colour: 'w', Result: '0'}, {Opponent: 1, Colour: 'b', Result: '='}}},
		{ID: 4, Games: []trf.Game{{Opponent: 3, Colour: 'b', Result: '1'}, {Opponent: 2, Colour: 'w', Result: '0'}}},
	}}
	hand := &pairing.Pairing{Round: 3, Boards: []pairing.Board{{White: 1, Black: 2}, {White: 3, Black: 4}}}
	breaches, err := pairing.Breaches(t, hand, pairing.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range breaches {
		switch b.Criterion {
		case pairing.NoRematch:
			fmt.Printf("board %d: %s (%s): they met in round %d\n", b.Board, b.Criterion.Number(pairing.Dutch2026), b.Criterion, b.Round)
		case pairing.AbsoluteColours:
			fmt.Printf("board %d: %s: player %d with %s: difference %+d, third in a row %v\n", b.Board, b.Criterion.Number(pairing.Dutch2026), b.Player, b.Colour, b.Difference, b.Repeated)
		}
	}
	// Output:
	// board 1: C1 (no rematch): they met in round 1
	// board 1: C3: player 1 with White: difference +3, third in a row true
	// board 1: C3: player 2 with Black: difference -3, third in a row true
	// board 2: C1 (no rematch): they met in round 1
}
