package director

import "context"

// Drain waits until table t has handled every event given to it so far.
// (Do alone may run before events already queued: the table's goroutine
// takes whichever is ready.)
func (t *Table) Drain(ctx context.Context) error {
	for {
		var left int
		if err := t.Do(ctx, func() error { left = len(t.events); return nil }); err != nil {
			return err
		}
		if left == 0 {
			return nil
		}
	}
}
