package store_test

import (
	"errors"
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

// A database whose newer meta page is damaged is refused by Open; Repair
// says what going back to the previous transaction loses, and writes the
// repaired copy only when told to accept it.
func ExampleRepair() {
	dir, err := os.MkdirTemp("", "arbiter-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "event.db")
	db, err := store.Open(path, nil)
	if err != nil {
		log.Fatal(err)
	}
	g := store.Game{Game: "chess", First: "Ivanov", Second: "Petrov"}
	if err := db.CreateGame(&g); err != nil {
		log.Fatal(err)
	}
	if err := db.AppendMove(&store.Move{GameID: g.ID, Ply: 1, Notation: "e4", Canonical: "e2e4"}); err != nil {
		log.Fatal(err)
	}
	db.Close()

	// A byte of the newer meta page's checksum flips on the disk.
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	txid := func(page int) byte { return data[page*4096+16+48] }
	newer := 0
	if txid(1) > txid(0) {
		newer = 1
	}
	data[newer*4096+16+60] ^= 0xff
	if err := os.WriteFile(path, data, 0o600); err != nil {
		log.Fatal(err)
	}

	_, err = store.Open(path, nil)
	fmt.Println("open refused:", errors.Is(err, store.ErrCorrupt))
	r, err := store.Repair(path, store.RepairOptions{Out: filepath.Join(dir, "repaired.db")})
	fmt.Println("written without consent:", !errors.Is(err, store.ErrLossyRepair))
	fmt.Println("lost:", r.Lost)
	r, err = store.Repair(path, store.RepairOptions{Out: filepath.Join(dir, "repaired.db"), AcceptPrevious: true})
	if err != nil {
		log.Fatal(err)
	}
	repaired, err := store.Open(r.Written, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer repaired.Close()
	ms, err := repaired.Moves(g.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("moves kept:", len(ms))
	// Output:
	// open refused: true
	// written without consent: false
	// lost: [game 1 move 1 e4]
	// moves kept: 0
}
