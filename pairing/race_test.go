//go:build race

package pairing

// raceEnabled makes the long corpus test sample its files: the race
// detector slows the engine about tenfold.
const raceEnabled = true
