package millennium_test

// The protocol's registration, which the replays and the tables of the
// tests look up.
import _ "arbiter/hardware/millennium/plug"
