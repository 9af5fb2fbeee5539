// Package freeport gives tests loopback ports that nobody listens on and
// that the kernel will not hand to a listener on port 0 meanwhile.
//
// A port found by listening on port 0 and closing comes from the
// kernel's ephemeral range, so another listener on port 0 (a daemon's
// web server in the same test) may be given the same port before the
// test's server binds it. Ports here are taken below that range
// (/proc/sys/net/ipv4/ip_local_port_range), each once per process, from
// an offset drawn from the process id so that test binaries run side by
// side start apart, and each is checked free before it is handed out.
package freeport

import (
	"fmt"
	"net"
	"os"
	"sync"
	"testing"
)

const lowest = 10000

var (
	mu   sync.Mutex
	next int
)

// Port returns a free loopback TCP port.
func Port(t testing.TB) int {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	top := ephemeralStart()
	span := top - lowest
	if next == 0 {
		next = lowest + (os.Getpid()*7919)%span
	}
	for range span {
		p := next
		next++
		if next >= top {
			next = lowest
		}
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			continue
		}
		_ = l.Close()
		return p
	}
	t.Fatalf("freeport: no free port between %d and %d", lowest, top)
	return 0
}

// Addr returns a free loopback address, "127.0.0.1:port".
func Addr(t testing.TB) string {
	t.Helper()
	return fmt.Sprintf("127.0.0.1:%d", Port(t))
}

// ephemeralStart is the first port of the kernel's ephemeral range
// (32768 where it cannot be read).
func ephemeralStart() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err == nil {
		var lo int
		if _, err := fmt.Sscan(string(b), &lo); err == nil && lo > lowest+1000 {
			return lo
		}
	}
	return 32768
}
