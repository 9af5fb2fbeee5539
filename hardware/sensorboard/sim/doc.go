// Package sim is a virtual sensor board. It speaks the sensor-board
// protocol over a pseudo-terminal exactly as hardware does, so the daemon
// opens it with the same serial code path, and it plays games as a person
// does.
//
// The parts:
//
//   - [Board]: the firmware. It holds the physical pieces, reduces them to
//     what its sensors can see (height only, or also the top piece's
//     identity, colour and face; zone trays), numbers and stamps frames,
//     answers the host, and injects link faults (dropped, corrupted and
//     duplicated frames, chattering sensors).
//   - [PlanMove]: turns one move, given as the rules.View before and after
//     it, into a person's timed physical actions: lifts and placements,
//     the top k of a tower in one pinch or piece by piece, captures in
//     either order, slides across empty squares, a touch and put-back, an
//     adjustment under the adjust button, a shogi piece turned over to
//     promote, drops from a hand, captured pieces that reach the stand late,
//     early or on the wrong stand, and the clock press. [PlanKnock] knocks
//     a stack over and sets it up again.
//   - [Runner]: plays [Turn] lists (from [Replay], [ReplayText] or
//     [RandomGame], over any rules.Position) on a board, with the physical
//     faults (knocked-over stacks, unplugging).
//   - [PTY]: the cable: a pseudo-terminal behind a stable symbolic link,
//     which can be unplugged and plugged in again.
//   - [Clock]: [Virtual] time runs a game as fast as the host reads it,
//     for tests; [Real] time sleeps like a person, for demonstrations.
//
// A board that plays games in real time is a Board on a PTY played by a
// Runner on Real time: `arbiter simulate` and the demo put them together.
//
// Everything random is drawn from generators seeded by [Config.Seed], so
// a simulation is reproducible.
package sim
