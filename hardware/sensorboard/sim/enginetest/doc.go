// Package enginetest checks the simulator against the real game engines:
// every move of long random games must turn into physical actions that
// leave the board exactly as the engine's view says. It holds only tests,
// kept apart so that an engine under construction cannot break the
// simulator's own tests.
package enginetest
