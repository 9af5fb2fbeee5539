package rules

import (
	"fmt"
	"slices"
	"sync"
)

// Factory makes a game with the given options; missing options take the
// game's defaults, unknown keys and bad values are errors.
type Factory func(opts Options) (Game, error)

var (
	registryMu sync.RWMutex
	registry   = map[string]Factory{}
)

// Register makes a game available by name. Game packages call it from init.
// It panics if the name is taken, as http.Handle does.
func Register(name string, f Factory) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[name]; dup {
		panic("rules: Register called twice for game " + name)
	}
	registry[name] = f
}

// New returns the registered game with the given name and options.
func New(name string, opts Options) (Game, error) {
	registryMu.RLock()
	f, ok := registry[name]
	registryMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown game %q (known: %v)", name, Games())
	}
	g, err := f(opts)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", name, err)
	}
	return g, nil
}

// NewFromText is [New] with the options as text ("key=value,..."), as
// configurations and stored games hold them.
func NewFromText(name, options string) (Game, error) {
	opts, err := ParseOptions(options)
	if err != nil {
		return nil, fmt.Errorf("options %q: %w", options, err)
	}
	return New(name, opts)
}

// Games returns the registered game names, sorted.
func Games() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
