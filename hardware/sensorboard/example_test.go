package sensorboard_test

import (
	"fmt"
	"log"

	"arbiter/board"
	"arbiter/hardware/sensorboard"
	"arbiter/rules"
)

// A board reports a white pawn set down on its square 28 and a press of the
// first player's clock button. Its Encoder numbers
// and frames each message; on the host a Decoder cuts the byte stream back
// into frames, checked by their CRC, and NewMessage reads each payload.
func ExampleDecoder() {
	var enc sensorboard.Encoder
	var wire []byte
	wire = enc.Append(wire, &sensorboard.SquareMsg{Square: 28, Height: 1,
		Top: board.Ident{Known: true, Piece: rules.Piece{Kind: 'P', Color: rules.First}}}, 700)
	wire = enc.Append(wire, &sensorboard.ButtonMsg{Button: board.ButtonClock, Side: board.SideFirst, Pressed: true, Count: 1}, 1000)
	fmt.Printf("% x\n", wire)

	d := sensorboard.NewDecoder()
	for p := wire; len(p) > 0; {
		n, f, err := d.Decode(p)
		p = p[n:]
		if err != nil {
			log.Fatal(err) // a real reader counts the bad frame and goes on
		}
		m := sensorboard.NewMessage(f.Type)
		if err := m.UnmarshalPayload(f.Payload); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s seq=%d t=%dms %+v\n", f.Type, f.Seq, f.Time, m)
	}
	// Output:
	// 02 02 01 01 01 03 02 bc 05 1c 01 80 50 05 8c fa 8a 52 00 02 04 02 01 01 04 03 e8 01 03 01 01 05 79 57 67 9a 00
	// SQUARE seq=0 t=700ms &{Square:28 Height:1 Saturated:false Top:P}
	// BUTTON seq=1 t=1000ms &{Button:clock Side:0 Pressed:true Count:1 Value:0}
}
