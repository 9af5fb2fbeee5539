package replay_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"arbiter/arbiter"
	"arbiter/clock"
	sb "arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/replay"
	"arbiter/rules"
	"arbiter/store"
)

// recording is an event database written the way the daemon writes it:
// every frame read from the board in the raw log, games with their
// RawFrom, every move and alert, arbiter actions.
type recording struct {
	db    *store.DB
	raw   *store.RawLog
	board string
	wall0 time.Time
	// skip keeps frames out of the raw log (a handshake the driver did not
	// log).
	skip func(wire []byte) bool
	// control is the games' time control ("" for none).
	control string
	// early, if set, says how much earlier than it was read a frame is
	// logged (a host frame timed before a board frame logged ahead of it).
	early func(wire []byte) time.Duration
	// games played, in order.
	games []uint64
}

func (rc *recording) wall(host time.Duration) time.Time { return rc.wall0.Add(host) }

// rawFrame is the driver's raw-log hook: it stores the frame and returns
// its sequence number, which stamps the frame's events.
func (rc *recording) rawFrame(t testing.TB) func(wire []byte, host time.Duration, err error) uint64 {
	return func(wire []byte, host time.Duration, err error) uint64 {
		if rc.skip != nil && rc.skip(wire) {
			return 0
		}
		if rc.early != nil {
			host -= rc.early(wire)
		}
		seq, e := rc.raw.Append(rc.board, int64(host), rc.wall(host), wire)
		require.NoError(t, e)
		return seq
	}
}

// play records one game on r: the game record with its RawFrom, the
// session, the moves and alerts as the tables store them, and a
// resignation by the side to move at the end when resign is set.
func (rc *recording) play(t testing.TB, r *rig, g rules.Game, start rules.Position, turns []sim.Turn, f sim.Faults, resign bool) *store.Game {
	rec := &store.Game{Game: g.Name(), Options: g.Options().String(), BoardID: rc.board, First: "Ann", Second: "Bob", Started: rc.wall(r.clock.Now()),
		TimeControl: rc.control}
	var clk *clock.Clock
	if rc.control != "" {
		ctl, err := clock.Parse(rc.control)
		require.NoError(t, err)
		clk, err = clock.New(ctl, clock.Options{})
		require.NoError(t, err)
	}
	if start != nil {
		rec.StartPosition = start.String()
	}
	require.NoError(t, rc.db.CreateGame(rec))
	var err error
	rec.RawFrom, err = rc.raw.Next(rc.board)
	require.NoError(t, err)
	require.NoError(t, rc.db.UpdateGame(rec))
	epoch := r.clock.Now()
	require.NoError(t, r.startGame(g, start, nil, clk))
	tl := playGame(t, r, turns, f, g.Name())
	require.Zero(t, tl.wrong)
	for _, m := range r.moves {
		require.NoError(t, rc.db.AppendMove(&store.Move{GameID: rec.ID, Ply: m.Ply, Notation: m.Notation, Canonical: m.Move.String(),
			Position: m.Position.String(), BoardMs: m.BoardMs, HostNs: int64(m.At - epoch), Wall: rc.wall(m.At), RawSeq: m.RawSeq,
			ClockFirst: m.Clock[0], ClockSecond: m.Clock[1], Used: m.Used}))
	}
	for _, a := range r.alerts {
		require.NoError(t, rc.db.AddAlert(&store.Alert{GameID: rec.ID, BoardID: rc.board, Kind: a.Kind.String(), Message: a.Message, At: rc.wall(a.At)}))
	}
	if resign && r.over == nil {
		r.wait(time.Second)
		now := r.clock.Now()
		side := r.rd.Session().Position().Turn()
		require.NoError(t, rc.db.AddAction(&store.Action{GameID: rec.ID, Who: "arbiter", What: "resignation", Why: g.SideName(side) + " resigned", At: rc.wall(now)}))
		require.NoError(t, r.rd.Do(func(s *arbiter.Session, at time.Duration) ([]arbiter.Output, error) {
			return s.SetResult(rules.Loss(side, rules.Resignation), at, "resigned")
		}))
		o := rules.Loss(side, rules.Resignation)
		require.NoError(t, rc.db.SetResult(rec.ID, o.Result.String(), o.Reason.String(), rc.wall(now), nil))
	}
	r.wait(2 * time.Second)
	require.NoError(t, rc.raw.Flush())
	rc.games = append(rc.games, rec.ID)
	got, err := rc.db.Game(rec.ID)
	require.NoError(t, err)
	return &got
}

// record plays two games of tb on one board into a new database: a random
// game that ends by resignation, then a short game from where it stopped.
func record(t testing.TB, tb table, f sim.Faults, seed uint64, skip func([]byte) bool, control string, opts ...func(*recording)) (*recording, *rig) {
	db, err := store.Open(filepath.Join(t.TempDir(), "event.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	rc := &recording{db: db, raw: db.NewRawLog(time.Hour), board: "R-" + tb.game, wall0: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC), skip: skip, control: control}
	for _, o := range opts {
		o(rc)
	}
	g := newGame(t, tb.game)
	r, err := newRig(rigConfig{game: g, caps: tb.caps, faults: f, seed: seed, human: fastHuman, raw: rc.rawFrame(t), noGame: true})
	require.NoError(t, err)
	r.wait(3 * time.Second) // the board idles before the round starts

	rng := rand.New(rand.NewPCG(seed, 5))
	turns, err := sim.RandomGame(g.Start(), 40, rng)
	require.NoError(t, err)
	rc.play(t, r, g, nil, turns, f, true)

	next := r.rd.Session().Position()
	turns, err = sim.RandomGame(next, 8, rng)
	require.NoError(t, err)
	rc.play(t, r, g, next, turns, f, false)
	return rc, r
}

func TestReplayStoredGames(t *testing.T) {
	cases := []struct {
		tb      table
		faults  sim.Faults
		control string
	}{
		{table{"tavreli/height", "tavreli", heightOnly}, sim.Faults{}, "15m+5s"},
		{table{"shogi/identity", "shogi", shogiIdentity}, sim.Faults{}, "10m:byo=30s"},
		{table{"chess/height", "chess", heightOnly}, sim.Faults{}, ""},
		// The link's losses were healed live by dumps, which the log holds.
		{table{"tavreli/identity+faults", "tavreli", identity}, sim.Faults{Drop: 0.02, Corrupt: 0.02, Duplicate: 0.03, Bounce: 0.05}, ""},
		{table{"chess/identity+faults", "chess", identity}, sim.Faults{Drop: 0.02, Corrupt: 0.02, Duplicate: 0.03, Bounce: 0.05}, "5m+3s"},
	}
	for _, c := range cases {
		t.Run(c.tb.name, func(t *testing.T) {
			t.Parallel()
			rc, _ := record(t, c.tb, c.faults, 11, nil, c.control)
			for i, id := range rc.games {
				rep, err := replay.Game(context.Background(), rc.db, id, replay.Options{})
				require.NoError(t, err)
				var text bytes.Buffer
				require.NoError(t, rep.WriteText(&text))
				require.True(t, rep.OK(), "game %d:\n%s", id, text.String())
				stored, err := rc.db.Moves(id)
				require.NoError(t, err)
				require.Len(t, rep.Plies, len(stored))
				require.NotEmpty(t, stored)
				for _, p := range rep.Plies {
					// The very frame that completed each move live.
					assert.Equal(t, p.StoredRaw, p.Raw, "game %d ply %d", id, p.Ply)
					assert.InDelta(t, p.StoredAt.Seconds(), p.ReplayedAt.Seconds(), 0.002, "game %d ply %d", id, p.Ply)
					assert.Equal(t, p.StoredClock, p.ReplayedClock, "game %d ply %d clocks", id, p.Ply)
					if c.control != "" {
						assert.Positive(t, p.ReplayedClock[0], "game %d ply %d: a clock runs", id, p.Ply)
					}
				}
				g, err := rc.db.Game(id)
				require.NoError(t, err)
				if i == 0 {
					require.Equal(t, "resignation", g.Reason)
					require.Equal(t, rules.Resignation, rep.Outcome.Reason, text.String())
					require.Equal(t, g.Result, rep.Outcome.Result.String())
					require.Len(t, rep.Actions, 1)
					require.Equal(t, "applied", rep.Actions[0].Result)
				}
				stats := map[string]int{}
				for k, v := range rep.StoredAlerts {
					stats[k] = v
				}
				got := map[string]int{}
				for _, a := range rep.Alerts {
					if a.Kind != arbiter.RecoveryAlert.String() {
						got[a.Kind]++
					}
				}
				require.Equal(t, stats, got, "alerts of game %d", id)
				require.Contains(t, text.String(), "OK: the replay gives the stored moves")
				// Frames corrupted on the wire were healed live by a dump,
				// and the same dump heals them in the replay.
				for _, c := range rep.Corrupt {
					require.NotZero(t, c.HealedBy, "game %d: corrupt frame %d", id, c.Seq)
				}
				require.Positive(t, rep.Stats.Sent, "the log holds the host's frames")
				t.Logf("game %d: %d plies, %d frames (%d warm-up, %d from the host), %d bad, %d gaps, %d dumps", id, len(rep.Plies), rep.Frames, rep.WarmUp, rep.Stats.Sent, rep.Stats.Bad, rep.Stats.Gaps, rep.Stats.Dumps)
			}
		})
	}
}

// moveKey and rawKey are the store's keys (big-endian numbers).
func moveKey(n int) []byte {
	return binary.BigEndian.AppendUint32(nil, uint32(n))
}

func seqKey(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

func TestReplayFindsACorruptedMove(t *testing.T) {
	rc, _ := record(t, table{"tavreli/height", "tavreli", heightOnly}, sim.Faults{}, 12, nil, "")
	id := rc.games[0]
	moves, err := rc.db.Moves(id)
	require.NoError(t, err)
	require.Greater(t, len(moves), 6)
	// Replace ply 5 by another legal move of its position.
	g := newGame(t, "tavreli")
	pos, err := g.ParsePosition(moves[3].Position)
	require.NoError(t, err)
	var other rules.Move
	for _, m := range pos.Legal() {
		if m.String() != moves[4].Canonical {
			other = m
			break
		}
	}
	require.NotNil(t, other)
	bad := moves[4]
	bad.Canonical, bad.Notation = other.String(), pos.FormatMove(other)
	data, err := json.Marshal(bad)
	require.NoError(t, err)
	require.NoError(t, rc.db.Bolt().Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("moves")).Bucket(seqKey(id)).Put(moveKey(5), data)
	}))

	rep, err := replay.Game(context.Background(), rc.db, id, replay.Options{})
	require.NoError(t, err)
	require.False(t, rep.OK())
	require.Equal(t, 5, rep.FirstDiff)
	require.Equal(t, other.String(), rep.Plies[4].Stored)
	require.Equal(t, moves[4].Canonical, rep.Plies[4].Replayed)
	require.Zero(t, rep.Missing())
	require.Zero(t, rep.Extra())
	var text bytes.Buffer
	require.NoError(t, rep.WriteText(&text))
	require.Contains(t, text.String(), "DIFFERENT: first difference at ply 5 (0 missing, 0 extra)")
	require.Contains(t, text.String(), "!  5  "+other.String())

	// A stored move missing at the end is reported as an extra replayed move.
	require.NoError(t, rc.db.Bolt().Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("moves")).Bucket(seqKey(id)).Delete(moveKey(len(moves)))
	}))
	rep, err = replay.Game(context.Background(), rc.db, id, replay.Options{})
	require.NoError(t, err)
	require.Equal(t, 1, rep.Extra())
}

func TestReplayCorruptFrame(t *testing.T) {
	rc, _ := record(t, table{"chess/height", "chess", heightOnly}, sim.Faults{}, 13, nil, "")
	id := rc.games[0]
	moves, err := rc.db.Moves(id)
	require.NoError(t, err)
	require.Greater(t, len(moves), 10)
	seq := moves[9].RawSeq // the frame that completed ply 10
	require.NotZero(t, seq)
	stored, err := rc.db.RawFrames(rc.board, seq, seq)
	require.NoError(t, err)
	require.Len(t, stored, 1)
	require.NoError(t, rc.db.Bolt().Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("raw")).Bucket([]byte(rc.board))
		f := stored[0]
		f.Data[2] ^= 0x40 // bit rot inside the frame: its CRC fails
		data, err := json.Marshal(f)
		require.NoError(t, err)
		return b.Put(seqKey(seq), data)
	}))
	rep, err := replay.Game(context.Background(), rc.db, id, replay.Options{})
	require.NoError(t, err, "a corrupt frame is reported, not fatal")
	require.Len(t, rep.Corrupt, 1)
	c := rep.Corrupt[0]
	assert.Equal(t, seq, c.Seq)
	assert.Equal(t, 10, c.FromPly)
	assert.NotEmpty(t, c.Err)
	// Nothing in the log heals it (live, the link's dump request did): the
	// plies from there on are not read, and the report says so.
	assert.Zero(t, c.HealedBy)
	assert.Equal(t, 10, rep.FirstDiff)
	var text bytes.Buffer
	require.NoError(t, rep.WriteText(&text))
	assert.Contains(t, text.String(), "corrupt frames: 1")
	assert.Contains(t, text.String(), "never healed: plies from 10 on may read differently")
}

// isHello picks the HELLO frames to leave out of a raw log.
func isHello(wire []byte) bool {
	_, f, err := sb.NewDecoder().Decode(wire)
	return err == nil && f.Type == sb.TypeHello
}

func TestReplayWithoutHello(t *testing.T) {
	rc, _ := record(t, table{"shogi/height", "shogi", heightOnly}, sim.Faults{}, 14, isHello, "")
	id := rc.games[0]
	_, err := replay.Game(context.Background(), rc.db, id, replay.Options{})
	require.ErrorIs(t, err, replay.ErrNoHello)

	caps := heightOnly
	rep, err := replay.Game(context.Background(), rc.db, id, replay.Options{Caps: &caps})
	require.NoError(t, err)
	require.True(t, rep.Synthetic)
	var text bytes.Buffer
	require.NoError(t, rep.WriteText(&text))
	require.True(t, rep.OK(), text.String())
}

func TestReplayErrors(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "event.db"), nil)
	require.NoError(t, err)
	defer db.Close()
	ctx := context.Background()

	noBoard := &store.Game{Game: "chess", First: "A", Second: "B"}
	require.NoError(t, db.CreateGame(noBoard))
	_, err = replay.Game(ctx, db, noBoard.ID, replay.Options{})
	require.ErrorIs(t, err, replay.ErrNoBoard)

	noRaw := &store.Game{Game: "chess", First: "A", Second: "B", BoardID: "TB-1"}
	require.NoError(t, db.CreateGame(noRaw))
	_, err = replay.Game(ctx, db, noRaw.ID, replay.Options{})
	require.ErrorIs(t, err, replay.ErrNoFrames)

	noLog := &store.Game{Game: "chess", First: "A", Second: "B", BoardID: "TB-1", RawFrom: 1}
	require.NoError(t, db.CreateGame(noLog))
	_, err = replay.Game(ctx, db, noLog.ID, replay.Options{})
	require.ErrorIs(t, err, store.ErrNotFound)
	require.Contains(t, err.Error(), "TB-1")

	raw := db.NewRawLog(time.Hour)
	_, err = raw.Append("TB-1", 0, time.Now(), []byte{1, 2, 3, 0})
	require.NoError(t, err)
	require.NoError(t, raw.Flush())
	late := &store.Game{Game: "chess", First: "A", Second: "B", BoardID: "TB-1", RawFrom: 5}
	require.NoError(t, db.CreateGame(late))
	_, err = replay.Game(ctx, db, late.ID, replay.Options{})
	require.ErrorIs(t, err, replay.ErrNoFrames)

	unknown := &store.Game{Game: "no-such-game", First: "A", Second: "B", BoardID: "TB-1", RawFrom: 1}
	require.NoError(t, db.CreateGame(unknown))
	_, err = replay.Game(ctx, db, unknown.ID, replay.Options{})
	require.ErrorContains(t, err, "no-such-game")

	_, err = replay.Game(ctx, db, 999, replay.Options{})
	require.ErrorIs(t, err, store.ErrNotFound)
	require.True(t, strings.Contains(err.Error(), "999"))
}

// TestReplayBoardAttachedLate replays a game whose board sent its HELLO
// only after the game began, as a board switched on late does (and a
// simulated one attaching slowly on a loaded machine): the HELLO opens the
// game's raw frames instead of preceding them.
func TestReplayBoardAttachedLate(t *testing.T) {
	rc, _ := record(t, table{"tavreli/identity", "tavreli", identity}, sim.Faults{}, 15, nil, "")
	g, err := rc.db.Game(rc.games[0])
	require.NoError(t, err)
	require.Greater(t, g.RawFrom, uint64(1), "the HELLO comes before the game when recorded")
	g.RawFrom = 1 // the game began before the board's first frame
	require.NoError(t, rc.db.UpdateGame(&g))
	rep, err := replay.Game(context.Background(), rc.db, g.ID, replay.Options{})
	require.NoError(t, err)
	require.False(t, rep.Synthetic)
	var text bytes.Buffer
	require.NoError(t, rep.WriteText(&text))
	require.True(t, rep.OK(), text.String())
}

// A raw log whose host time steps back a little (a host frame timed when
// queued, logged just after a board frame read later) is no restart of
// the daemon: the replay covers every move (issue 18 §4).
func TestReplaySmallStepBackIsNoRestart(t *testing.T) {
	n := 0
	rc, _ := record(t, table{"chess/height", "chess", heightOnly}, sim.Faults{}, 21, nil, "", func(rc *recording) {
		rc.early = func([]byte) time.Duration {
			n++
			if n%40 == 0 {
				return 2 * time.Millisecond
			}
			return 0
		}
	})
	id := rc.games[0]
	moves, err := rc.db.Moves(id)
	require.NoError(t, err)
	require.NotEmpty(t, moves)
	rep, err := replay.Game(context.Background(), rc.db, id, replay.Options{})
	require.NoError(t, err)
	var text bytes.Buffer
	require.NoError(t, rep.WriteText(&text))
	assert.Zero(t, rep.RestartSeq, text.String())
	assert.Len(t, rep.Plies, len(moves), text.String())
	assert.True(t, rep.OK(), text.String())
}
