//go:build !linux

package director

// lowPriority runs f. (On Linux it runs f on a thread of lower priority.)
func lowPriority(f func()) { f() }
