package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"runtime/debug"

	bolt "go.etcd.io/bbolt"
)

// Errors about the file itself, found before bbolt maps it. Both wrap
// ErrCorrupt.
var (
	// ErrEmpty means the file exists but holds no bytes: a new event is
	// only started in a file that does not exist yet.
	ErrEmpty = fmt.Errorf("%w: the file is empty (0 bytes)", ErrCorrupt)
	// ErrTruncated means the file is shorter than its own header says.
	ErrTruncated = fmt.Errorf("%w: the file is truncated", ErrCorrupt)
)

// The layout of a bbolt file that header checks rely on (bbolt v1.x,
// internal/common/page.go and meta.go): every page starts with a 16-byte
// header (id uint64, flags uint16, count uint16, overflow uint32); pages 0
// and 1 are meta pages whose body is magic, version, page size, flags,
// root bucket (root pgid, sequence), freelist pgid, high-water pgid, txid
// and an FNV-64a checksum of the 56 bytes before it.
const (
	pageHeaderSize   = 16
	metaSize         = 64
	metaChecksumEnd  = 56
	boltMagic        = 0xED0CDAED
	boltVersion      = 2
	freelistPageFlag = 0x10
	noFreelist       = ^uint64(0)
	minPageSize      = 1024
	maxPageSize      = 16 << 20
)

// boltMeta is a decoded meta page.
type boltMeta struct {
	pageSize uint32
	root     uint64
	freelist uint64
	pgid     uint64
	txid     uint64
}

// decodeMeta decodes and validates the meta page at the start of page.
func decodeMeta(page []byte) (boltMeta, error) {
	if len(page) < pageHeaderSize+metaSize {
		return boltMeta{}, io.ErrUnexpectedEOF
	}
	m := page[pageHeaderSize : pageHeaderSize+metaSize]
	le := binary.LittleEndian
	if le.Uint32(m[0:]) != boltMagic {
		return boltMeta{}, ErrForeign
	}
	if le.Uint32(m[4:]) != boltVersion {
		return boltMeta{}, fmt.Errorf("%w: bbolt file format version %d", ErrForeign, le.Uint32(m[4:]))
	}
	h := fnv.New64a()
	h.Write(m[:metaChecksumEnd])
	if h.Sum64() != le.Uint64(m[metaChecksumEnd:]) {
		return boltMeta{}, errors.New("checksum mismatch")
	}
	return boltMeta{
		pageSize: le.Uint32(m[8:]),
		root:     le.Uint64(m[16:]),
		freelist: le.Uint64(m[32:]),
		pgid:     le.Uint64(m[40:]),
		txid:     le.Uint64(m[48:]),
	}, nil
}

// checkHeader checks what bbolt trusts without checking before it maps
// the file: that a meta page is intact, that the file is as long as that
// meta page says (bbolt reads pages beyond the end of a truncated file
// through its memory map, which crashes the process), and that the
// freelist it loads at open lies inside the file. It reads with ReadAt
// only, so a damaged file cannot crash it.
func checkHeader(f *os.File, size int64) error {
	if size == 0 {
		return ErrEmpty
	}
	head := make([]byte, 4096)
	n, err := f.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read header: %w", err)
	}
	head = head[:n]
	// Not bbolt at all: the magic of meta page 0 is missing.
	if len(head) < pageHeaderSize+4 || binary.LittleEndian.Uint32(head[pageHeaderSize:]) != boltMagic {
		return ErrForeign
	}
	m0, err0 := decodeMeta(head)
	if errors.Is(err0, ErrForeign) {
		return err0
	}
	// Meta page 1 follows page 0; its offset is the page size, which only
	// an intact meta page tells. Try the sizes bbolt tries.
	var m1 boltMeta
	err1 := errors.New("not found")
	sizes := []int64{}
	if err0 == nil {
		sizes = append(sizes, int64(m0.pageSize))
	} else {
		for s := int64(minPageSize); s <= maxPageSize; s *= 2 {
			sizes = append(sizes, s)
		}
	}
	for _, off := range sizes {
		if off+pageHeaderSize+metaSize > size {
			break
		}
		page := make([]byte, pageHeaderSize+metaSize)
		if _, err := f.ReadAt(page, off); err != nil {
			return fmt.Errorf("read meta page 1: %w", err)
		}
		if m1, err1 = decodeMeta(page); err1 == nil && int64(m1.pageSize) == off {
			break
		}
		if err1 == nil {
			err1 = errors.New("page size disagrees with its place")
		}
	}
	var m boltMeta
	switch {
	case err0 == nil && err1 == nil:
		m = m0
		if m1.txid > m0.txid {
			m = m1
		}
	case err0 == nil:
		m = m0
	case err1 == nil:
		m = m1
	default:
		return fmt.Errorf("%w: both meta pages are damaged (page 0: %v; page 1: %v)", ErrCorrupt, err0, err1)
	}
	ps := int64(m.pageSize)
	if ps < minPageSize || ps > maxPageSize || ps&(ps-1) != 0 {
		return fmt.Errorf("%w: page size %d is impossible", ErrCorrupt, ps)
	}
	if m.pgid < 2 || m.pgid > uint64(1<<62)/uint64(ps) {
		return fmt.Errorf("%w: page count %d is impossible", ErrCorrupt, m.pgid)
	}
	if want := int64(m.pgid) * ps; size < want {
		return fmt.Errorf("%w: it has %d bytes, but its header says %d (%d pages of %d bytes)", ErrTruncated, size, want, m.pgid, ps)
	}
	if m.root < 2 || m.root >= m.pgid {
		return fmt.Errorf("%w: root page %d lies outside the file's %d pages", ErrCorrupt, m.root, m.pgid)
	}
	if m.freelist == noFreelist {
		return nil
	}
	if m.freelist < 2 || m.freelist >= m.pgid {
		return fmt.Errorf("%w: freelist page %d lies outside the file's %d pages", ErrCorrupt, m.freelist, m.pgid)
	}
	hdr := make([]byte, pageHeaderSize+8)
	if _, err := f.ReadAt(hdr, int64(m.freelist)*ps); err != nil {
		return fmt.Errorf("read freelist page: %w", err)
	}
	le := binary.LittleEndian
	id, flags, count, overflow := le.Uint64(hdr), le.Uint16(hdr[8:]), uint64(le.Uint16(hdr[10:])), uint64(le.Uint32(hdr[12:]))
	if id != m.freelist || flags != freelistPageFlag || m.freelist+overflow >= m.pgid {
		return fmt.Errorf("%w: the freelist page %d is damaged", ErrCorrupt, m.freelist)
	}
	ids := count
	if count == 0xFFFF { // the real count is the first element
		ids = le.Uint64(hdr[pageHeaderSize:]) + 1
	}
	if ids > (overflow+1)*uint64(ps)/8 {
		return fmt.Errorf("%w: the freelist page %d claims %d entries", ErrCorrupt, m.freelist, ids)
	}
	return nil
}

// walk reads every page the tree reaches, through bbolt's cursors, on the
// calling goroutine with faults turned into panics: a page reference that
// points outside the file would otherwise crash the process (bbolt's own
// tx.Check runs on a goroutine of its own, where a fault cannot be caught).
// It is the first step of every check.
func walk(tx *bolt.Tx) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("reading its pages failed: %v", r)
		}
	}()
	var sink byte
	var walkBucket func(b *bolt.Bucket)
	walkBucket = func(b *bolt.Bucket) {
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if v == nil {
				if child := b.Bucket(k); child != nil {
					walkBucket(child)
				}
				continue
			}
			if len(v) > 0 {
				sink ^= v[0] ^ v[len(v)-1]
			}
		}
	}
	err = tx.ForEach(func(_ []byte, b *bolt.Bucket) error {
		walkBucket(b)
		return nil
	})
	_ = sink
	return err
}

// checkPages runs the page-level checks: walk, then bbolt's tx.Check.
func checkPages(tx *bolt.Tx) []error {
	if err := walk(tx); err != nil {
		return []error{err}
	}
	var problems []error
	for err := range tx.Check() {
		problems = append(problems, err)
	}
	return problems
}

// safely runs f, turning a panic or a memory fault inside bbolt into an
// error wrapping ErrCorrupt.
func safely(f func() error) error {
	var failed bool
	err := recovered(f, &failed)
	if failed {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return err
}

// recovered runs f and returns its error, or the panic or memory fault it
// ended in (then *failed is set).
func recovered(f func() error, failed *bool) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			*failed = true
			err = fmt.Errorf("bbolt failed: %v", r)
		}
	}()
	return f()
}
