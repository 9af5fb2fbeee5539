//go:build race

package shogi

// raceEnabled trims the longest searches under the race detector, which
// slows them tenfold without finding anything in single-goroutine code.
const raceEnabled = true
