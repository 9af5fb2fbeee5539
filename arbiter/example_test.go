package arbiter_test

import (
	"fmt"
	"log"
	"time"

	"arbiter/arbiter"
	"arbiter/rules"
	_ "arbiter/rules/chess"
)

// A session is fed what a height-sensing chess board reports: a pawn
// lifted from e2, set down on e4, and White's clock press. It reads the
// move; the caller stores it and lights the board.
func ExampleSession() {
	game, err := rules.New("chess", nil)
	if err != nil {
		log.Fatal(err)
	}
	s, err := arbiter.NewSession(arbiter.DefaultConfig(game), game, nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, out := range s.Start(0) {
		fmt.Println(out)
	}

	geo := game.Geometry()
	square := func(name string) rules.Square { // the board numbers squares its own way
		sq, _ := geo.Lookup(name)
		return rules.Square(geo.SensorIndex(sq))
	}
	events := []arbiter.Event{
		{Kind: arbiter.SquareChanged, At: 500 * time.Millisecond, Square: square("e2"), Height: 0},
		{Kind: arbiter.SquareChanged, At: 700 * time.Millisecond, Square: square("e4"), Height: 1},
		{Kind: arbiter.ClockPressed, At: time.Second, Side: rules.First},
	}
	for _, e := range events {
		for _, out := range s.Handle(e) {
			fmt.Println(out)
			if m, ok := out.(arbiter.MoveMade); ok {
				fmt.Println("store ply", m.Ply, "as", m.Notation, "then acknowledge")
			}
		}
	}
	// Output:
	// started at 0s
	// move 1 e4 e2e4
	// store ply 1 as e4 then acknowledge
}
