package rules_test

import (
	"fmt"
	"log"
	"strings"

	"arbiter/rules"
	_ "arbiter/rules/chess" // registers "chess", as every game package does
)

// A game is made by name; its positions read moves as text, list the
// legal moves and play them, and never change: Play returns a new
// position.
func ExamplePosition() {
	g, err := rules.New("chess", nil)
	if err != nil {
		log.Fatal(err)
	}
	pos := g.Start()
	for _, text := range []string{"e4", "e7e5", "Qh5", "Nc6", "Bc4", "Nf6"} {
		m, err := pos.ParseMove(text) // record notation or the canonical form
		if err != nil {
			log.Fatal(err)
		}
		if pos, err = pos.Play(m); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(g.SideName(pos.Turn()), "to move,", len(pos.Legal()), "legal moves")
	var captures []string
	for _, m := range pos.Legal() {
		if s := pos.FormatMove(m); strings.Contains(s, "x") {
			captures = append(captures, s)
		}
	}
	fmt.Println("captures:", strings.Join(captures, " "))

	_, err = pos.ParseMove("Ke3")
	fmt.Println(err)

	m, _ := pos.ParseMove("Qxf7")
	mate, _ := pos.Play(m)
	fmt.Println(pos.FormatMove(m), m, mate.Outcome(nil))
	// Output:
	// White to move, 43 legal moves
	// captures: Bxf7+ Qxh7 Qxe5+ Qxf7#
	// move "Ke3": no legal move matches
	// Qxf7# h5f7 1-0 checkmate
}
