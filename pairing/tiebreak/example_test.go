package tiebreak_test

import (
	"encoding/json"
	"fmt"
	"os"

	"arbiter/pairing/tiebreak"
)

func ExampleCompute() {
	t := &tiebreak.Tournament{
		Rounds:  2,
		Scoring: tiebreak.DefaultScoring,
		Players: []tiebreak.Player{
			{ID: 1, Name: "Ada", Rating: 2100, Games: []tiebreak.Game{
				{Opponent: 2, Colour: tiebreak.White, Result: tiebreak.Win},
				{Opponent: 3, Colour: tiebreak.Black, Result: tiebreak.Draw}}},
			{ID: 2, Name: "Bo", Rating: 2000, Games: []tiebreak.Game{
				{Opponent: 1, Colour: tiebreak.Black, Result: tiebreak.Loss},
				{Result: tiebreak.PairingBye}}},
			{ID: 3, Name: "Cy", Rating: 1900, Games: []tiebreak.Game{
				{Result: tiebreak.PairingBye},
				{Opponent: 1, Colour: tiebreak.White, Result: tiebreak.Draw}}},
		},
	}
	specs, err := tiebreak.ParseSpecs("BH/C1 BH SB")
	if err != nil {
		panic(err)
	}
	st, err := tiebreak.Compute(t, specs, tiebreak.Options{})
	if err != nil {
		panic(err)
	}
	if err := st.WriteText(os.Stdout); err != nil {
		panic(err)
	}
	// Ada and Cy are equal on every tie-break and share first place.
	row, _ := json.Marshal(st.Rows[0])
	fmt.Println(string(row))

	// Output:
	// Rank  ID  Name   Rtg  PTS  BH/C1   BH    SB
	//   1=   1  Ada   2100  1.5    1.5  2.5  1.75
	//   1=   3  Cy    1900  1.5    1.5  2.5  1.75
	//   3    2  Bo    2000  1.0    1.5  2.5  1.00
	// {"rank":1,"shared":true,"id":1,"name":"Ada","rating":2100,"values":[1.5,1.5,2.5,1.75]}
}
