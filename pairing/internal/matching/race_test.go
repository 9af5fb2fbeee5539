//go:build race

package matching

// raceEnabled makes the long corpus test sample its files: the race
// detector slows the engine about tenfold.
const raceEnabled = true
