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
