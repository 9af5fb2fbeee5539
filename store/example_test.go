package store_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"arbiter/store"
)

// A game is created, its moves are appended as the board reports them,
// and the scoresheet is read back. AppendMove returns only once the move
// is on disk, so the move may then be acknowledged.
func ExampleDB_AppendMove() {
	dir, err := os.MkdirTemp("", "arbiter-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	db, err := store.Open(filepath.Join(dir, "event.db"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	start := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	g := store.Game{Game: "chess", First: "Ivanov", Second: "Petrov", TimeControl: "90m+30s", Started: start}
	if err := db.CreateGame(&g); err != nil {
		log.Fatal(err)
	}
	for i, mv := range []struct{ notation, canonical string }{{"e4", "e2e4"}, {"c5", "c7c5"}, {"Nf3", "g1f3"}} {
		ply := i + 1
		err := db.AppendMove(&store.Move{
			GameID: g.ID, Ply: ply, Notation: mv.notation, Canonical: mv.canonical,
			Wall: start.Add(time.Duration(ply) * time.Minute), Used: time.Minute,
		})
		if err != nil {
			log.Fatal(err)
		}
	}
	// A move whose ply does not follow the last stored one is refused.
	fmt.Println(db.AppendMove(&store.Move{GameID: g.ID, Ply: 5, Notation: "d4"}))

	moves, err := db.Moves(g.ID)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range moves {
		fmt.Println(m.Ply, m.Notation, m.Wall.Format("15:04"))
	}
	// Output:
	// game 1: move at ply 5, but the last stored ply is 3
	// 1 e4 10:01
	// 2 c5 10:02
	// 3 Nf3 10:03
}
