package director_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// answeringBoard answers each request for its whole state with a dump of
// heights, as a real board does.
type answeringBoard struct {
	recorder
	answer func()
}

func (b *answeringBoard) Resync(string) error {
	go b.answer()
	return nil
}

// A board that does not show the start position when its game begins
// gets the set-up alert listing what is wrong after a few seconds (issue
// 18 §4), although the table asks it for its whole state every 3 s while
// the game waits and the board answers each time (found with the daemon
// on a simulated board: those dumps put the alert off for ever).
func TestSetUpAlertOnTheDaemon(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the set-up alert's 5 s")
	}
	d, db := newEvent(t, "swiss-dutch", 2, 1)
	board := &answeringBoard{}
	d.SetSender(board)
	t1, err := d.AddTable(d.TournamentIDs()[0], "B1")
	require.NoError(t, err)
	ctx := run(t, d)
	wrong := chessStart()
	wrong[12] = 0 // e2 empty
	board.answer = func() { t1.Input(ctx, arbiterEvent(d.Now(), wrong)) }
	require.Eventually(t, func() bool { return t1.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond)
	t1.Input(ctx, arbiterEvent(d.Now(), wrong))
	found := func() bool {
		alerts, err := db.Alerts(true)
		require.NoError(t, err)
		for _, a := range alerts {
			if a.Kind == "setup" && strings.Contains(a.Message, "e2 empty") {
				return true
			}
		}
		return false
	}
	for range 16 {
		time.Sleep(500 * time.Millisecond)
		t1.Input(ctx, heartbeat(d.Now()))
		if found() {
			return
		}
	}
	alerts, _ := db.Alerts(true)
	t.Fatalf("no set-up alert after 8 s of a board with e2 empty; alerts: %+v", alerts)
}
