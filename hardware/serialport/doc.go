// Package serialport opens the serial port of a board for one process
// alone, as serial programs on Linux do, and names the process that holds
// a port it cannot have.
//
// [Open] takes a port in three ways, each of which keeps out what the
// others miss:
//
//   - A lock file in the UUCP/FHS convention: LCK..ttyUSB0 in /var/lock
//     (the device's name under /dev, a slash becoming an underscore:
//     LCK..pts_3), holding the holder's process id in ten characters and
//     a newline ("      1234\n"), as minicom, picocom, ser2net and
//     ModemManager write and read it. It is what keeps out a second
//     process running as root, which exclusive mode does not. A lock of a
//     process that is gone (a daemon killed), or whose id a process started
//     since has been given, is stale and taken over. When
//     /var/lock is not writable (a service whose file system is read-only)
//     the lock goes in the next writable folder of [Config.LockDirs]
//     (/run/lock, then the temporary folder, where other daemons of ours
//     look too); the locks of every folder are respected either way.
//   - Exclusive mode (TIOCEXCL), which go.bug.st/serial sets on every
//     port it opens: another process that is not root cannot open the
//     device at all. Its holder is found, where the system lets us read
//     it, among the processes' open files.
//   - Within the process, a port is held once: a second driver (or a
//     pattern of another driver that matches it) is refused.
//
// A port held elsewhere is refused with a *[HeldError] (errors.Is
// [ErrHeld]) that names the port, the holder's process id and, where it
// can be read, its program name. Drivers leave such a port alone, look
// again later (the lock file tells without touching the device), and
// report the condition once to the daemon as a board.Event of kind
// board.EventError whose Port is the path and whose Err is the
// *HeldError: the DGT drivers (hardware/dgt/driver) and our boards'
// driver (hardware/sensorboard) do, and every driver of a board protocol
// (Millennium, Certabo, ...) should open its ports with [Open] and
// report alike.
//
// A [Port] reads through a second descriptor of the device served by the
// runtime's poller, so Close ends a blocked Read at once and hundreds of
// ports cost no thread each; go.bug.st/serial configures the line (speed,
// framing, raw mode, no flow control) and writes.
package serialport
