package board_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
)

// fakeDriver records what it was asked to show, for the boards it owns.
type fakeDriver struct {
	owns  map[string]bool
	shown []string
}

func (f *fakeDriver) Owns(id string) bool { return f.owns[id] }
func (f *fakeDriver) Show(id string, _ board.Message) error {
	f.shown = append(f.shown, id)
	return nil
}
func (f *fakeDriver) Resync(id string) error    { f.shown = append(f.shown, "resync "+id); return nil }
func (f *fakeDriver) Run(context.Context) error { return nil }
func (f *fakeDriver) ReplaySetting() []byte     { return nil }

type fakeRecaller struct{ *fakeDriver }

func (f fakeRecaller) Recall(id string) error { f.shown = append(f.shown, "recall "+id); return nil }

// Each board's messages go to the driver that met it; a board's log is
// asked of a driver that reads logs, and refused by one that does not; a
// board no driver met is refused.
func TestDriversRouteByOwner(t *testing.T) {
	ours := &fakeDriver{owns: map[string]bool{"SIM-1": true}}
	single := &fakeDriver{owns: map[string]bool{"DGT-1": true}}
	bus := &fakeDriver{owns: map[string]bool{"DGT-03001": true}}
	ds := board.Drivers{ours, fakeRecaller{single}, bus}
	require.NoError(t, ds.Show("DGT-1", &board.Clock{}))
	require.NoError(t, ds.Resync("DGT-03001"))
	require.NoError(t, ds.Show("SIM-1", &board.Clock{}))
	require.NoError(t, ds.Recall("DGT-1"))
	assert.ErrorContains(t, ds.Recall("SIM-1"), "board SIM-1: its driver reads no board's log")
	assert.Equal(t, []string{"DGT-1", "recall DGT-1"}, single.shown)
	assert.Equal(t, []string{"resync DGT-03001"}, bus.shown)
	assert.Equal(t, []string{"SIM-1"}, ours.shown)

	for _, err := range []error{ds.Show("TB-9", &board.Clock{}), ds.Resync("TB-9"), ds.Recall("TB-9"),
		board.Drivers(nil).Show("SIM-1", &board.Clock{})} {
		assert.ErrorIs(t, err, board.ErrUnknownBoard)
	}
	assert.Equal(t, []string{"SIM-1"}, ours.shown, "nothing shown on a board no driver met")
}
