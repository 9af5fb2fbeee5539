package board_test

import (
	"fmt"
	"time"

	"arbiter/board"
	"arbiter/hardware/sensorboard"
	_ "arbiter/hardware/sensorboard/plug" // registers our protocol
)

// A replay reads a board's raw log again with the replayer registered for
// the protocol the log names (here our own, which its plug package
// registers when it is linked): records in, the driver's events out.
func ExampleNewReplayer() {
	var enc sensorboard.Encoder
	hello := enc.Append(nil, &sensorboard.Hello{Major: sensorboard.VersionMajor, Caps: board.CapHeight,
		Heartbeat: 500, Width: 2, Height: 1, Cells: 2, ID: "TB-1"}, 10)
	lift := enc.Append(nil, &sensorboard.SquareMsg{Square: 1, Height: 0}, 20)

	r, err := board.NewReplayer(sensorboard.Protocol, board.ReplayConfig{
		Port: "replay",
		Emit: func(e board.Event) {
			if e.Kind == board.EventHello || e.Kind == board.EventSquare {
				fmt.Printf("%s (raw %d)\n", e, e.RawSeq)
			}
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	r.Feed(board.Record{Seq: 1, Host: 10 * time.Millisecond, Data: hello})
	r.Feed(board.Record{Seq: 2, Host: 20 * time.Millisecond, Data: lift})
	fmt.Println(r.Info().ID, r.Info().Protocol)
	// Output:
	// TB-1 #0 hello TB-1 fw= (raw 1)
	// TB-1 #1 square sq=1 h=0 top=? (raw 2)
	// TB-1 sensorboard
}
