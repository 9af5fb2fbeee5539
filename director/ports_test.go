package director_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/director"
	"arbiter/store"
)

// openPortAlerts returns the open alerts about ports, by port.
func openPortAlerts(t *testing.T, db *store.DB) map[string]store.Alert {
	t.Helper()
	open, err := db.Alerts(true)
	require.NoError(t, err)
	out := map[string]store.Alert{}
	for _, a := range open {
		if a.Kind == director.AlertPort {
			out[a.Item] = a
		}
	}
	return out
}

// A port in trouble is one open alert until a board answers on it: the
// watch's reports bring it up to date, a driver's report (another program
// holds the port) is not replaced by the watch's, a pattern's trouble
// ends with a board on a port it matches, and the watch ends its own
// report when the device is back.
func TestPortTroubleIsAnAlertUntilABoardAnswers(t *testing.T) {
	d, db, ctx := pairedEvent(t, 4)
	d.PortTrouble("/dev/ttyUSB9", director.PortWatch, "does not exist", "plug it in")
	d.PortTrouble("/dev/ttyUSB9", director.PortWatch, "does not exist", "plug it in") // the same: nothing new
	d.PortTrouble("/dev/ttyACM*", director.PortWatch, "no device matches the pattern", "plug them in")
	// A driver cannot have a port: a board event naming the port, no
	// board.
	d.BoardEvent(ctx, board.Event{Kind: board.EventError, Port: "/dev/ttyUSB0",
		Err: errors.New("serialport: /dev/ttyUSB0 (/dev/ttyUSB0) is held by process 4242 (minicom)")})
	d.PortTrouble("/dev/ttyUSB0", director.PortWatch, "no board answers on it", "switch it on")

	alerts := openPortAlerts(t, db)
	require.Len(t, alerts, 3)
	assert.Equal(t, "does not exist", alerts["/dev/ttyUSB9"].Message)
	assert.Equal(t, 1, alerts["/dev/ttyUSB9"].Count, "the same report is not counted again")
	assert.Equal(t, "port /dev/ttyUSB9", alerts["/dev/ttyUSB9"].Where)
	assert.Contains(t, alerts["/dev/ttyUSB0"].Message, "held by process 4242 (minicom)", "the driver's report stands")
	assert.Contains(t, alerts["/dev/ttyUSB0"].Advice, "Stop the program named")
	troubles := d.Troubles()
	require.Len(t, troubles, 3)
	assert.Regexp(t, `^port /dev/ttyACM\*: no device matches the pattern \(since \d\d:\d\d:\d\d\)$`, troubles[0])
	assert.Contains(t, troubles[1], "port /dev/ttyUSB0: serialport: /dev/ttyUSB0 (/dev/ttyUSB0) is held by process 4242 (minicom)")
	assert.Contains(t, troubles[2], "port /dev/ttyUSB9: does not exist")

	// The watch sees the device again: its report ends; the driver's
	// stays until a board answers.
	d.PortFine("/dev/ttyUSB9", "the device is back")
	d.PortFine("/dev/ttyUSB0", "the device opens")
	alerts = openPortAlerts(t, db)
	assert.NotContains(t, alerts, "/dev/ttyUSB9")
	assert.Contains(t, alerts, "/dev/ttyUSB0")

	// A board answers on a port the pattern matches, and on the held
	// port once it is free.
	assert.False(t, d.PortAnswered("/dev/ttyACM*"))
	d.BoardEvent(ctx, board.Event{Kind: board.EventHello, Board: "TB-1", Port: "/dev/ttyACM0",
		Info: &board.Info{ID: "TB-1", Caps: board.CapHeight, Width: 8, Height: 8, Cells: 64}})
	d.BoardEvent(ctx, board.Event{Kind: board.EventHello, Board: "TB-2", Port: "/dev/ttyUSB0",
		Info: &board.Info{ID: "TB-2", Caps: board.CapHeight, Width: 8, Height: 8, Cells: 64}})
	assert.Empty(t, openPortAlerts(t, db))
	assert.Empty(t, d.Troubles())
	assert.True(t, d.PortAnswered("/dev/ttyACM*"))
	assert.True(t, d.PortAnswered("/dev/ttyUSB0"))
	assert.False(t, d.PortAnswered("/dev/ttyUSB9"))

	all, err := db.Alerts(false)
	require.NoError(t, err)
	resolved := 0
	for _, a := range all {
		if a.Kind == director.AlertPort {
			assert.True(t, a.Resolved, "%s", a.Item)
			resolved++
		}
	}
	assert.Equal(t, 3, resolved)
	acts := actionsOf(t, db, "resolve-alert")
	require.NotEmpty(t, acts)
	assert.Equal(t, "daemon", acts[len(acts)-1].Who)
	assert.Contains(t, acts[len(acts)-1].Why, "a board answered on /dev/ttyUSB0")
}

// A setting a check at start found wrong is an alert and a trouble until
// the check finds it right.
func TestVenueTroubleIsAnAlertUntilFixed(t *testing.T) {
	d, db := newEvent(t, "swiss-dutch", 4, 1)
	d.VenueTrouble("backup.dir", "the backup folder /mnt/usb is not writable", "mount the stick")
	d.VenueTrouble("event.database", "2 MB free; the event needs about 40 MB", "free some space")
	d.VenueTrouble("backup.dir", "the backup folder /mnt/usb is not writable", "mount the stick")
	open, err := db.Alerts(true)
	require.NoError(t, err)
	require.Len(t, open, 2)
	assert.Equal(t, director.AlertVenue, open[0].Kind)
	assert.Equal(t, "backup.dir", open[0].Item)
	assert.Equal(t, "backup.dir", open[0].Where)
	require.Len(t, d.Troubles(), 2)
	d.VenueFine("backup.dir", "the folder is writable again")
	open, err = db.Alerts(true)
	require.NoError(t, err)
	require.Len(t, open, 1)
	assert.Equal(t, "event.database", open[0].Item)
	assert.Len(t, d.Troubles(), 1)
}

// A board given a table (boards.assign) has that table; the others take
// the first numbers free.
func TestTablesNumbered(t *testing.T) {
	d, _ := newEvent(t, "swiss-dutch", 6, 1)
	id := d.TournamentIDs()[0]
	two, err := d.AddTableNumbered(id, "TB-0042", 2)
	require.NoError(t, err)
	assert.Equal(t, 2, two.Number)
	one, err := d.AddTable(id, "TB-1")
	require.NoError(t, err)
	three, err := d.AddTable(id, "TB-3")
	require.NoError(t, err)
	assert.Equal(t, []int{1, 3}, []int{one.Number, three.Number})
	_, err = d.AddTableNumbered(id, "TB-9", 2)
	assert.ErrorContains(t, err, "table 2 already has board TB-0042")
	_, err = d.AddTableNumbered(id, "TB-0042", 5)
	assert.ErrorContains(t, err, "board TB-0042 already has a table")
}
