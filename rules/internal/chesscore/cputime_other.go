//go:build !unix

package chesscore

import "time"

// CPUTime returns 0 where the process's CPU time is not available; the
// benchmarks then report wall-clock speed only.
func CPUTime() time.Duration { return 0 }
