package web

import (
	"net/netip"
	"sync"
	"time"
)

// loginLimit slows down password guessing without locking anyone out.
//
// Failures are counted per account and per client address (an IPv6 client
// by its /64). After free failures on a key, each further failure makes
// that key wait before its next try: base, then twice as long each time,
// but never longer than most. A login is refused, without its password
// being looked at, while any of its keys waits. A key's failures are
// forgotten after forget without one.
//
// The longest wait is a few seconds on purpose: a venue shares one address
// among everyone on its Wi-Fi, and a stranger guessing the chief's password
// must not keep the chief out of the console. A guesser gets one try per
// most per account and per address, against passwords hashed with bcrypt.
type loginLimit struct {
	mu     sync.Mutex
	free   int
	base   time.Duration
	most   time.Duration
	forget time.Duration
	keys   map[string]*failures
}

// failures is what a key did wrong.
type failures struct {
	n     int       // failures since the key was last forgotten
	last  time.Time // the latest failure
	until time.Time // no try before this
}

// Login limit defaults: five free failures, then waits of 1, 2, 4, 5, 5 …
// seconds; failures forgotten after 15 minutes without one.
const (
	loginFree   = 5
	loginBase   = time.Second
	loginMost   = 5 * time.Second
	loginForget = 15 * time.Minute
	// loginKeys bounds the table: beyond it, forgotten keys are dropped at
	// every failure, and failures of new addresses are not counted (the
	// account's own key still is).
	loginKeys = 100_000
)

func newLoginLimit() *loginLimit {
	return &loginLimit{free: loginFree, base: loginBase, most: loginMost, forget: loginForget, keys: map[string]*failures{}}
}

// accountKey and addressKey are the keys a login attempt is counted
// under: its account (the caller gives one name to all unknown accounts)
// and its client's address.
func accountKey(name string) string { return "account:" + name }

func addressKey(a netip.Addr) string {
	if a.Is6() && !a.Is4In6() {
		p, _ := a.Prefix(64)
		return "address:" + p.String()
	}
	return "address:" + a.String()
}

// wait returns how long a login under keys must wait, zero if none.
func (l *loginLimit) wait(now time.Time, keys ...string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	var longest time.Duration
	for _, k := range keys {
		if f, ok := l.keys[k]; ok && f.until.After(now) {
			longest = max(longest, f.until.Sub(now))
		}
	}
	return longest
}

// fail counts a failed login under keys.
func (l *loginLimit) fail(now time.Time, keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.keys) >= loginKeys/2 {
		for k, f := range l.keys {
			if now.Sub(f.last) >= l.forget {
				delete(l.keys, k)
			}
		}
	}
	for _, k := range keys {
		f, ok := l.keys[k]
		if ok && now.Sub(f.last) >= l.forget {
			*f = failures{}
		}
		if !ok {
			if len(l.keys) >= loginKeys {
				continue
			}
			f = &failures{}
			l.keys[k] = f
		}
		f.n++
		f.last = now
		if over := f.n - l.free; over > 0 {
			d := l.most
			if over <= 30 && l.base<<(over-1) < l.most {
				d = l.base << (over - 1)
			}
			f.until = now.Add(d)
		}
	}
}

// succeed forgets the failures of keys.
func (l *loginLimit) succeed(keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		delete(l.keys, k)
	}
}
