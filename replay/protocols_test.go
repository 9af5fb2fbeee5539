package replay_test

// The replays read our boards' raw logs through the replayer our
// protocol registers (board.Register), as the daemon, which links it,
// does.
import _ "arbiter/hardware/sensorboard/plug"
