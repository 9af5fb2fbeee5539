package board

import (
	"errors"
	"fmt"
)

// ErrUnknownBoard is returned by [Drivers] for a board no driver has met.
var ErrUnknownBoard = errors.New("unknown board")

// Drivers are the running drivers of the daemon, one per protocol in use.
// They are a [Display] and a [Recaller] for every board: each message
// goes through the driver that met the board.
type Drivers []Driver

// pick returns the driver of board id.
func (ds Drivers) pick(id string) (Driver, error) {
	for _, d := range ds {
		if d.Owns(id) {
			return d, nil
		}
	}
	return nil, fmt.Errorf("board %s: %w", id, ErrUnknownBoard)
}

// Show implements [Display].
func (ds Drivers) Show(id string, m Message) error {
	d, err := ds.pick(id)
	if err != nil {
		return err
	}
	return d.Show(id, m)
}

// Resync implements [Display].
func (ds Drivers) Resync(id string) error {
	d, err := ds.pick(id)
	if err != nil {
		return err
	}
	return d.Resync(id)
}

// Recall implements [Recaller] for the boards whose driver does, and
// refuses the others.
func (ds Drivers) Recall(id string) error {
	d, err := ds.pick(id)
	if err != nil {
		return err
	}
	r, ok := d.(Recaller)
	if !ok {
		return fmt.Errorf("board %s: its driver reads no board's log", id)
	}
	return r.Recall(id)
}
