package store

import (
	"context"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"arbiter/board"
)

// MaxRawLag is the most the raw sensor log may trail behind the wire.
const MaxRawLag = 250 * time.Millisecond

// maxRawPending bounds the frames kept in memory while the disk refuses
// writes (about a minute of 500 busy boards).
const maxRawPending = 1 << 20

// DefaultRawFlush is how often a RawLog commits by default: well inside
// MaxRawLag, so a slow commit still leaves room.
const DefaultRawFlush = 100 * time.Millisecond

// RawLog appends raw board frames to the store in small groups: one
// transaction per flush for all boards, so hundreds of boards cost one
// fsync per interval rather than one per frame.
//
// Append assigns each frame its per-board sequence number at once, so a
// move can name the frame that completed it before the frame is flushed.
type RawLog struct {
	db       *DB
	interval time.Duration

	mu      sync.Mutex
	pending []Frame
	oldest  time.Time // receive time of the oldest pending frame
	next    map[string]uint64
	err     error
	maxLag  time.Duration
	flushed uint64

	done chan struct{}
}

// NewRawLog returns a raw log writer for db that flushes every interval
// (DefaultRawFlush if zero). Call Run to start flushing and Close to stop.
func (db *DB) NewRawLog(interval time.Duration) *RawLog {
	if interval <= 0 {
		interval = DefaultRawFlush
	}
	return &RawLog{db: db, interval: interval, next: map[string]uint64{}, done: make(chan struct{})}
}

// Append queues a frame of our protocol (board.ProtocolSensorboard)
// received from boardID at host time hostNs (and wall-clock time wall) and
// returns its sequence number. data is copied.
func (l *RawLog) Append(boardID string, hostNs int64, wall time.Time, data []byte) (uint64, error) {
	return l.AppendFrame(Frame{BoardID: boardID, HostNs: hostNs, Wall: wall, Data: data})
}

// AppendFrame queues f, whose BoardID, HostNs, Wall, Data, Protocol (empty:
// board.ProtocolSensorboard) and Sent are set, and returns the sequence
// number it gets. f.Data is copied.
func (l *RawLog) AppendFrame(f Frame) (uint64, error) {
	boardID, wall := f.BoardID, f.Wall
	if f.Protocol == "" {
		f.Protocol = board.ProtocolSensorboard
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil && len(l.pending) >= maxRawPending {
		return 0, fmt.Errorf("%w; %d frames wait in memory, no more are taken", l.err, len(l.pending))
	}
	seq, ok := l.next[boardID]
	if !ok {
		last, err := l.db.lastRawSeq(boardID)
		if err != nil {
			return 0, err
		}
		seq = last + 1
	}
	l.next[boardID] = seq + 1
	if len(l.pending) == 0 {
		l.oldest = wall
	}
	f.Seq, f.Data = seq, append([]byte(nil), f.Data...)
	l.pending = append(l.pending, f)
	return seq, nil
}

// Next returns the sequence number the next frame of boardID will get: a
// game starting now records it so that its replay starts there.
func (l *RawLog) Next(boardID string) (uint64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if seq, ok := l.next[boardID]; ok {
		return seq, nil
	}
	last, err := l.db.lastRawSeq(boardID)
	if err != nil {
		return 0, err
	}
	l.next[boardID] = last + 1
	return last + 1, nil
}

// Run flushes every interval until ctx ends, then flushes what is left
// and returns that last flush's error. Failures in between are retried
// (Err reports the latest).
func (l *RawLog) Run(ctx context.Context) error {
	defer close(l.done)
	t := time.NewTicker(l.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return l.Flush()
		case <-t.C:
			// A failed flush keeps its frames and is retried on the next
			// tick: the log resumes when the disk does.
			_ = l.Flush()
		}
	}
}

// Flush commits every pending frame now.
func (l *RawLog) Flush() error {
	l.mu.Lock()
	batch := l.pending
	oldest := l.oldest
	l.pending = nil
	l.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	err := l.db.update(func(tx *bolt.Tx) error {
		raw := tx.Bucket(bucketRaw)
		for i := range batch {
			f := &batch[i]
			b, err := raw.CreateBucketIfNotExists([]byte(f.BoardID))
			if err != nil {
				return fmt.Errorf("raw log of board %q: %w", f.BoardID, err)
			}
			if err := put(b, u64key(f.Seq), f); err != nil {
				return err
			}
		}
		return nil
	})
	l.mu.Lock()
	defer l.mu.Unlock()
	l.err = nil
	if err != nil {
		l.err = fmt.Errorf("flush raw log: %w", err)
		// Keep the frames for the next attempt, in order.
		l.pending = append(batch, l.pending...)
		return l.err
	}
	if lag := time.Since(oldest); lag > l.maxLag {
		l.maxLag = lag
	}
	l.flushed += uint64(len(batch))
	return nil
}

// Unflushed says, for people, which frames wait in memory, not committed
// yet (while the database refuses writes): a line per board, with the
// numbers of its frames.
func (l *RawLog) Unflushed() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	frames := map[string][]uint64{}
	var boards []string
	for _, f := range l.pending {
		if frames[f.BoardID] == nil {
			boards = append(boards, f.BoardID)
		}
		frames[f.BoardID] = append(frames[f.BoardID], f.Seq)
	}
	return describeFrames(boards, frames)
}

// Err returns the error of the last flush, nil if it succeeded.
func (l *RawLog) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// Stats reports how many frames have been committed, how many wait, and
// the largest lag seen between a frame's receipt and its commit.
func (l *RawLog) Stats() (flushed uint64, pending int, maxLag time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.flushed, len(l.pending), l.maxLag
}

func (db *DB) lastRawSeq(boardID string) (uint64, error) {
	var last uint64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRaw).Bucket([]byte(boardID))
		if b == nil {
			return nil
		}
		if k, _ := b.Cursor().Last(); k != nil {
			last = beUint64(k)
		}
		return nil
	})
	return last, err
}

// RawFrames returns the stored frames of a board with sequence numbers
// from..to inclusive (to = 0: to the end). Every frame names its protocol.
func (db *DB) RawFrames(boardID string, from, to uint64) ([]Frame, error) {
	var fs []Frame
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRaw).Bucket([]byte(boardID))
		if b == nil {
			return fmt.Errorf("raw log of board %q: %w", boardID, ErrNotFound)
		}
		l := loc{bucketRaw, []byte(boardID)}
		c := b.Cursor()
		for k, v := c.Seek(u64key(from)); k != nil; k, v = c.Next() {
			if to != 0 && beUint64(k) > to {
				break
			}
			f, err := decode[Frame](l, k, v)
			if err != nil {
				return err
			}
			if f.Protocol == "" {
				f.Protocol = board.ProtocolSensorboard // stored before frames named it
			}
			fs = append(fs, f)
		}
		return nil
	})
	return fs, err
}

// RawBoards returns the ids of every board with a raw log.
func (db *DB) RawBoards() ([]string, error) {
	var ids []string
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketRaw).ForEachBucket(func(k []byte) error {
			ids = append(ids, string(k))
			return nil
		})
	})
	return ids, err
}

func beUint64(b []byte) uint64 {
	return uint64(beUint32(b[:4]))<<32 | uint64(beUint32(b[4:8]))
}
