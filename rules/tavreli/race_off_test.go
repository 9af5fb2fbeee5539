//go:build !race

package tavreli

// raceEnabled is false without the race detector.
const raceEnabled = false
