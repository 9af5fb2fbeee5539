package config_test

// The board protocols register their keys with package board; the
// daemon links them all, and so do these tests.
import (
	_ "arbiter/hardware/dgt/driver"
	_ "arbiter/hardware/sensorboard/plug"
)
