package backup

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/store"
)

func openEvent(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "event.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	g := store.Game{Game: "chess", First: "A", Second: "B"}
	require.NoError(t, db.CreateGame(&g))
	return db
}

func TestFetchFromSocket(t *testing.T) {
	db := openEvent(t)
	dst := filepath.Join(t.TempDir(), "copy.db")
	require.ErrorIs(t, Fetch(context.Background(), db.Path(), dst), ErrNoDaemon)

	ln, err := Listen(db)
	require.NoError(t, err)
	fi, err := os.Stat(SocketPath(db.Path()))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { Serve(ctx, ln, db, slog.New(slog.NewTextHandler(io.Discard, nil))); close(done) }()

	require.NoError(t, Fetch(context.Background(), db.Path(), dst))
	c, err := store.Open(dst, &store.Options{ReadOnly: true})
	require.NoError(t, err)
	gs, err := c.Games()
	require.NoError(t, err)
	assert.Len(t, gs, 1)
	require.NoError(t, c.Close())
	assert.ErrorContains(t, Fetch(context.Background(), db.Path(), dst), "file exists")
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(dst), ".backup-*"))
	assert.Empty(t, left, "no temporary file is left behind")

	cancel()
	<-done
	_, err = os.Stat(SocketPath(db.Path()))
	assert.True(t, os.IsNotExist(err))
}

func TestAutoKeepsTheNewest(t *testing.T) {
	db := openEvent(t)
	dir := filepath.Join(t.TempDir(), "backups")
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	a := &Auto{DB: db, Dir: dir, Every: time.Minute, Keep: 3, Now: func() time.Time { return now }}
	require.NoError(t, os.MkdirAll(dir, 0o700))
	other := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(other, []byte("keep me"), 0o600))
	var written []string
	for range 5 {
		p, err := a.Once()
		require.NoError(t, err)
		written = append(written, filepath.Base(p))
		now = now.Add(time.Minute)
	}
	assert.Equal(t, "event-20261125T100000Z.db", written[0])
	got, _ := filepath.Glob(filepath.Join(dir, "*"))
	var names []string
	for _, g := range got {
		names = append(names, filepath.Base(g))
	}
	assert.ElementsMatch(t, append([]string{"notes.txt"}, written[2:]...), names)
}

// Backups every second on a loaded host: a tick that comes late, in the
// second of the backup before it, whose name it would take, is skipped
// (that backup is not a second old), not failed.
func TestAutoSkipsATickInTheSecondOfTheLastBackup(t *testing.T) {
	db := openEvent(t)
	dir := filepath.Join(t.TempDir(), "backups")
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		wall := time.Date(2026, 11, 25, 10, 0, 0, 500_000_000, time.UTC)
		// The first tick (at 10:00:01.5) is taken 800 ms late, in the
		// second of the next one (10:00:02.5).
		var outcomes []error
		a := &Auto{DB: db, Dir: dir, Every: time.Second, Keep: 5, Log: slog.New(slog.DiscardHandler),
			Now: func() time.Time {
				d := time.Since(start)
				if d < 2*time.Second {
					d += 800 * time.Millisecond
				}
				return wall.Add(d)
			},
			Failed: func(err error) { outcomes = append(outcomes, err) }}
		ctx, cancel := context.WithTimeout(context.Background(), 3500*time.Millisecond)
		defer cancel()
		a.Run(ctx)
		for _, err := range outcomes {
			assert.NoError(t, err)
		}
		assert.Len(t, outcomes, 2, "the late tick is skipped")
	})
	got, _ := filepath.Glob(filepath.Join(dir, "*"))
	var names []string
	for _, g := range got {
		names = append(names, filepath.Base(g))
	}
	assert.Equal(t, []string{"event-20261125T100002Z.db", "event-20261125T100003Z.db"}, names)
}

// The metrics count good and failed backups, with the last good one's
// time and size.
func TestAutoMetrics(t *testing.T) {
	db := openEvent(t)
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	m := NewMetrics()
	a := &Auto{DB: db, Dir: filepath.Join(t.TempDir(), "backups"), Keep: 3, Now: func() time.Time { return now }, Metrics: m}
	_, err := a.Once()
	require.NoError(t, err)
	assert.Equal(t, 1.0, testutil.ToFloat64(m.backups.WithLabelValues("ok")))
	assert.Equal(t, float64(now.Unix()), testutil.ToFloat64(m.last))
	assert.Positive(t, testutil.ToFloat64(m.size))

	// A folder that cannot be made: a failure, the last good one stays.
	blocker := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(blocker, nil, 0o600))
	a.Dir = filepath.Join(blocker, "backups")
	now = now.Add(time.Minute)
	_, err = a.Once()
	require.Error(t, err)
	assert.Equal(t, 1.0, testutil.ToFloat64(m.backups.WithLabelValues("failed")))
	assert.Equal(t, float64(now.Add(-time.Minute).Unix()), testutil.ToFloat64(m.last))
	reg := prometheus.NewRegistry()
	require.NoError(t, reg.Register(m))
	n, err := testutil.GatherAndCount(reg)
	require.NoError(t, err)
	assert.Equal(t, 5, n, "two counts and three gauges")
}
