package sensorboard

import "sync"

// Fanout hands each board's events to its own channel, for consumers that
// run one goroutine per board (one game session per board). Use its Handle
// method as [Config.Handler]. A channel that is full blocks only its own
// board's port: the backpressure stays per board.
type Fanout struct {
	// Size is the buffer of each board's channel (default 256).
	Size int
	// OnBoard is called, from the board's port goroutine, the first time a
	// board reports, with the channel of its events. It must return
	// quickly (start a goroutine that drains the channel).
	OnBoard func(board string, events <-chan Event)

	mu    sync.RWMutex
	chans map[string]chan Event
}

// Handle delivers e to its board's channel, making the channel on the
// board's first event.
func (f *Fanout) Handle(e Event) {
	f.mu.RLock()
	ch, ok := f.chans[e.Board]
	f.mu.RUnlock()
	if !ok {
		ch = f.open(e.Board)
	}
	ch <- e
}

func (f *Fanout) open(board string) chan Event {
	f.mu.Lock()
	if ch, ok := f.chans[board]; ok {
		f.mu.Unlock()
		return ch
	}
	if f.chans == nil {
		f.chans = map[string]chan Event{}
	}
	size := f.Size
	if size <= 0 {
		size = 256
	}
	ch := make(chan Event, size)
	f.chans[board] = ch
	f.mu.Unlock()
	if f.OnBoard != nil {
		f.OnBoard(board, ch)
	}
	return ch
}

// Close closes every board's channel, once the driver has stopped (no
// Handle call may follow).
func (f *Fanout) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for b, ch := range f.chans {
		close(ch)
		delete(f.chans, b)
	}
}
