package roundrobin_test

import (
	"fmt"

	"arbiter/pairing/roundrobin"
)

func ExampleBerger() {
	s, err := roundrobin.Berger(5, roundrobin.Options{})
	if err != nil {
		panic(err)
	}
	for _, r := range s.Rounds {
		fmt.Printf("round %d:", r.Number)
		for _, b := range r.Boards {
			fmt.Printf(" %d-%d", b.White(), b.Black())
		}
		fmt.Printf(", bye %d\n", r.Bye)
	}
	// Output:
	// round 1: 2-5 3-4, bye 1
	// round 2: 5-3 1-2, bye 4
	// round 3: 3-1 4-5, bye 2
	// round 4: 1-4 2-3, bye 5
	// round 5: 4-2 5-1, bye 3
}
