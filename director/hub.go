package director

import (
	"sync"
	"time"
)

// Update is one piece of live news for the web pages: a move, a clock, an
// alert, a result, a new round. Kind names it; Data is JSON-ready.
type Update struct {
	Kind  string    `json:"kind"` // "move", "clock", "alert", "result", "round", "board"
	Table string    `json:"table,omitempty"`
	Game  uint64    `json:"game,omitempty"`
	At    time.Time `json:"at"`
	Data  any       `json:"data,omitempty"`
}

// Hub fans updates out to subscribers (server-sent event streams). A slow
// subscriber loses updates rather than slowing the event down: it is told
// to reload.
type Hub struct {
	mu   sync.Mutex
	subs map[chan Update]bool
}

// NewHub returns an empty hub.
func NewHub() *Hub { return &Hub{subs: map[chan Update]bool{}} }

// subscriberBuffer is how many updates a subscriber may fall behind
// before it is dropped: more than a burst of one commit, such as the moves
// of one batch of a federation hub's catch-up (500 facts).
const subscriberBuffer = 1024

// Subscribe returns a channel of updates and a function that ends the
// subscription.
func (h *Hub) Subscribe() (<-chan Update, func()) {
	ch := make(chan Update, subscriberBuffer)
	h.mu.Lock()
	h.subs[ch] = true
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		if h.subs[ch] {
			delete(h.subs, ch)
			close(ch)
		}
		h.mu.Unlock()
	}
}

// Publish sends u to every subscriber without blocking. A subscriber whose
// buffer is full is dropped; its stream ends and the page reconnects and
// reloads.
func (h *Hub) Publish(u Update) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- u:
		default:
			delete(h.subs, ch)
			close(ch)
		}
	}
}

// Subscribers returns the number of open subscriptions.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}
