package pairing

// RaceEnabled exposes raceEnabled to the external tests.
const RaceEnabled = raceEnabled
