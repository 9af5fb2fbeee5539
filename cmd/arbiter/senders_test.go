package main

import (
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
func (f *fakeDriver) Resync(id string) error { f.shown = append(f.shown, "resync "+id); return nil }

type fakeRecaller struct{ *fakeDriver }

func (f fakeRecaller) Recall(id string) error { f.shown = append(f.shown, "recall "+id); return nil }

// Each board's messages go to the driver that met it, the rest to ours;
// a board's log is asked of a driver that reads logs, and refused by one
// that does not.
func TestSendersRouteByOwner(t *testing.T) {
	ours := &fakeDriver{}
	single := &fakeDriver{owns: map[string]bool{"DGT-1": true}}
	bus := &fakeDriver{owns: map[string]bool{"DGT-03001": true}}
	s := senders{owners: []owner{fakeRecaller{single}, bus}, ours: ours}
	require.NoError(t, s.Show("DGT-1", &board.Clock{}))
	require.NoError(t, s.Resync("DGT-03001"))
	require.NoError(t, s.Show("SIM-1", &board.Clock{}))
	require.NoError(t, s.Recall("DGT-1"))
	assert.ErrorContains(t, s.Recall("SIM-1"), "board SIM-1: its driver reads no board's log")
	assert.Equal(t, []string{"DGT-1", "recall DGT-1"}, single.shown)
	assert.Equal(t, []string{"resync DGT-03001"}, bus.shown)
	assert.Equal(t, []string{"SIM-1"}, ours.shown)

	none := newSenders(ours, nil, nil)
	assert.Empty(t, none.owners, "drivers that do not run are left out")
	require.NoError(t, none.Show("DGT-1", &board.Clock{}))
	assert.Equal(t, []string{"SIM-1", "DGT-1"}, ours.shown)
}
