package clock_test

import (
	"fmt"
	"time"

	"arbiter/clock"
)

func ExampleParse() {
	ctl, err := clock.Parse("40/5400+30:1800+30") // a PGN TimeControl tag
	if err != nil {
		panic(err)
	}
	fmt.Println(ctl)
	fmt.Println(ctl.Describe())
	_, err = clock.Parse("40/90m+30x")
	fmt.Println(err)
	// Output:
	// 40/90m+30s:30m+30s
	// 90 min/40 moves + 30 min, +30 s/move
	// time control "40/90m+30x": column 10 ("x"): expected ":" between stages
}

func ExampleClock() {
	ctl, _ := clock.Parse("10m:byo=30s") // amateur shogi
	c, _ := clock.New(ctl, clock.Options{})
	_ = c.Start(0) // sente (the first mover) starts
	mv, _ := c.Press(clock.First, 9*time.Minute+50*time.Second)
	fmt.Println(mv.Used, mv.After.Main)
	_, _ = c.Press(clock.Second, 10*time.Minute)
	// Sente's main time runs out at 10:10; byoyomi starts at that instant.
	r := c.Reading(clock.First, 10*time.Minute+25*time.Second)
	fmt.Println(r.Phase, r.Display, r.ByoyomiLeft)
	_, err := c.Press(clock.First, 10*time.Minute+40*time.Second)
	fmt.Println(err)
	for _, e := range c.Events(nil) {
		fmt.Println(e)
	}
	// Output:
	// 9m50s 10s
	// byoyomi 15s 1
	// flag has fallen
	// overtime first @10m10s
	// flag first @10m40s final=true verdict=loss
}

func ExampleText() {
	fmt.Println(clock.Text(90*time.Minute + 5*time.Second))
	fmt.Println(clock.Text(4*time.Minute + 31*time.Second))
	fmt.Println(clock.Text(7*time.Second + 340*time.Millisecond))
	// Output:
	// 1:30:05
	// 4:31
	// 0:07.3
}
