//go:build race

package chess

const raceEnabled = true
