//go:build race

package replay_test

// raceEnabled shrinks the simulated games under the race detector, which
// slows the single-goroutine pipeline tenfold without finding more.
const raceEnabled = true
