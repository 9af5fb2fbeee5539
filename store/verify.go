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
	_, err := readHeader(f, size, 0)
	return err
}

// readHeader checks the header as checkHeader does and returns the meta
// page bbolt would use: the intact one with the highest transaction id, or
// the one of transaction txid if that is not zero.
func readHeader(f *os.File, size int64, txid uint64) (m boltMeta, _ error) {
	if size == 0 {
		return m, ErrEmpty
	}
	head := make([]byte, 4096)
	n, err := f.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return m, fmt.Errorf("read header: %w", err)
	}
	head = head[:n]
	// Not bbolt at all: the magic of meta page 0 is missing.
	if len(head) < pageHeaderSize+4 || binary.LittleEndian.Uint32(head[pageHeaderSize:]) != boltMagic {
		return m, ErrForeign
	}
	m0, err0 := decodeMeta(head)
	if errors.Is(err0, ErrForeign) {
		return m, err0
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
			return m, fmt.Errorf("read meta page 1: %w", err)
		}
		if m1, err1 = decodeMeta(page); err1 == nil && int64(m1.pageSize) == off {
			break
		}
		if err1 == nil {
			err1 = errors.New("page size disagrees with its place")
		}
	}
	switch {
	case txid != 0 && err0 == nil && m0.txid == txid:
		m = m0
	case txid != 0 && err1 == nil && m1.txid == txid:
		m = m1
	case txid != 0:
		return m, fmt.Errorf("no meta page of transaction %d: the file changed during the check", txid)
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
		return m, fmt.Errorf("%w: both meta pages are damaged (page 0: %v; page 1: %v)", ErrCorrupt, err0, err1)
	}
	ps := int64(m.pageSize)
	if ps < minPageSize || ps > maxPageSize || ps&(ps-1) != 0 {
		return m, fmt.Errorf("%w: page size %d is impossible", ErrCorrupt, ps)
	}
	if m.pgid < 2 || m.pgid > uint64(1<<62)/uint64(ps) {
		return m, fmt.Errorf("%w: page count %d is impossible", ErrCorrupt, m.pgid)
	}
	if want := int64(m.pgid) * ps; size < want {
		return m, fmt.Errorf("%w: it has %d bytes, but its header says %d (%d pages of %d bytes)", ErrTruncated, size, want, m.pgid, ps)
	}
	if m.root < 2 || m.root >= m.pgid {
		return m, fmt.Errorf("%w: root page %d lies outside the file's %d pages", ErrCorrupt, m.root, m.pgid)
	}
	if m.freelist == noFreelist {
		return m, nil
	}
	if m.freelist < 2 || m.freelist >= m.pgid {
		return m, fmt.Errorf("%w: freelist page %d lies outside the file's %d pages", ErrCorrupt, m.freelist, m.pgid)
	}
	hdr := make([]byte, pageHeaderSize+8)
	if _, err := f.ReadAt(hdr, int64(m.freelist)*ps); err != nil {
		return m, fmt.Errorf("read freelist page: %w", err)
	}
	le := binary.LittleEndian
	id, flags, count, overflow := le.Uint64(hdr), le.Uint16(hdr[8:]), uint64(le.Uint16(hdr[10:])), uint64(le.Uint32(hdr[12:]))
	if id != m.freelist || flags != freelistPageFlag || m.freelist+overflow >= m.pgid {
		return m, fmt.Errorf("%w: the freelist page %d is damaged", ErrCorrupt, m.freelist)
	}
	ids := count
	if count == 0xFFFF { // the real count is the first element
		ids = le.Uint64(hdr[pageHeaderSize:]) + 1
	}
	if ids > (overflow+1)*uint64(ps)/8 {
		return m, fmt.Errorf("%w: the freelist page %d claims %d entries", ErrCorrupt, m.freelist, ids)
	}
	return m, nil
}

// Page and element layout (bbolt internal/common/page.go).
const (
	branchPageFlag  = 0x01
	leafPageFlag    = 0x02
	bucketLeafFlag  = 0x01
	elementSize     = 16
	inBucketSize    = 16
	maxTreeDepth    = 64
	maxWalkPageSize = 1 << 30
)

// treeWalker checks the shape of the B+trees in a bbolt file by reading it
// with ReadAt, before bbolt's cursors follow any page reference: every
// reference lies inside the file, no page is reached twice (a cycle would
// make bbolt loop forever), every page is a branch or leaf page whose
// elements lie inside it.
type treeWalker struct {
	f       *os.File
	ps      int64
	hwm     uint64
	visited map[uint64]bool
	bufs    [][]byte // one page buffer per tree level, reused
}

// walkFile checks the trees of the file under meta page m.
func walkFile(f *os.File, m boltMeta) error {
	w := &treeWalker{f: f, ps: int64(m.pageSize), hwm: m.pgid, visited: map[uint64]bool{}}
	if m.freelist != noFreelist {
		w.visited[m.freelist] = true
	}
	return w.page(m.root, 0, "root")
}

func (w *treeWalker) page(id uint64, depth int, where string) error {
	if depth > maxTreeDepth {
		return fmt.Errorf("page %d (%s): the tree is deeper than %d levels", id, where, maxTreeDepth)
	}
	if id < 2 || id >= w.hwm {
		return fmt.Errorf("page %d (%s): outside the file's %d pages", id, where, w.hwm)
	}
	if w.visited[id] {
		return fmt.Errorf("page %d (%s): reached twice", id, where)
	}
	w.visited[id] = true
	hdr := make([]byte, pageHeaderSize)
	if _, err := w.f.ReadAt(hdr, int64(id)*w.ps); err != nil {
		return fmt.Errorf("page %d (%s): %w", id, where, err)
	}
	le := binary.LittleEndian
	if got := le.Uint64(hdr); got != id {
		return fmt.Errorf("page %d (%s): it says it is page %d", id, where, got)
	}
	overflow := uint64(le.Uint32(hdr[12:]))
	if id+overflow >= w.hwm || (overflow+1)*uint64(w.ps) > maxWalkPageSize {
		return fmt.Errorf("page %d (%s): %d overflow pages run past the file's end", id, where, overflow)
	}
	for i := uint64(1); i <= overflow; i++ {
		if w.visited[id+i] {
			return fmt.Errorf("page %d (%s): overflow page %d reached twice", id, where, id+i)
		}
		w.visited[id+i] = true
	}
	for len(w.bufs) <= depth {
		w.bufs = append(w.bufs, nil)
	}
	n := int((overflow + 1) * uint64(w.ps))
	if cap(w.bufs[depth]) < n {
		w.bufs[depth] = make([]byte, n)
	}
	data := w.bufs[depth][:n]
	if _, err := w.f.ReadAt(data, int64(id)*w.ps); err != nil {
		return fmt.Errorf("page %d (%s): %w", id, where, err)
	}
	return w.elements(data, id, depth, where)
}

// elements checks the elements of the page in data (a page read from the
// file, or an inline bucket's page inside a value) and walks down.
func (w *treeWalker) elements(data []byte, id uint64, depth int, where string) error {
	le := binary.LittleEndian
	flags, count := le.Uint16(data[8:]), int(le.Uint16(data[10:]))
	if pageHeaderSize+count*elementSize > len(data) {
		return fmt.Errorf("page %d (%s): %d elements do not fit", id, where, count)
	}
	for i := range count {
		e := data[pageHeaderSize+i*elementSize:]
		at := pageHeaderSize + i*elementSize
		switch flags {
		case branchPageFlag:
			pos, ksize, child := int64(le.Uint32(e)), int64(le.Uint32(e[4:])), le.Uint64(e[8:])
			if int64(at)+pos+ksize > int64(len(data)) {
				return fmt.Errorf("page %d (%s): element %d runs past the page", id, where, i)
			}
			if err := w.page(child, depth+1, where); err != nil {
				return err
			}
		case leafPageFlag:
			eflags, pos, ksize, vsize := le.Uint32(e), int64(le.Uint32(e[4:])), int64(le.Uint32(e[8:])), int64(le.Uint32(e[12:]))
			end := int64(at) + pos + ksize + vsize
			if end > int64(len(data)) {
				return fmt.Errorf("page %d (%s): element %d runs past the page", id, where, i)
			}
			if eflags&bucketLeafFlag == 0 {
				continue
			}
			name := where + "/" + keyName(data[int64(at)+pos:int64(at)+pos+ksize])
			v := data[int64(at)+pos+ksize : end]
			if len(v) < inBucketSize {
				return fmt.Errorf("page %d (%s): bucket %s has a short header", id, where, name)
			}
			if root := le.Uint64(v); root != 0 {
				if err := w.page(root, depth+1, name); err != nil {
					return err
				}
				continue
			}
			inline := v[inBucketSize:]
			if len(inline) < pageHeaderSize {
				return fmt.Errorf("page %d (%s): inline bucket %s is too short", id, where, name)
			}
			if depth+1 > maxTreeDepth {
				return fmt.Errorf("page %d (%s): buckets nest deeper than %d levels", id, where, maxTreeDepth)
			}
			if le.Uint16(inline[8:]) != leafPageFlag {
				return fmt.Errorf("page %d (%s): inline bucket %s is not a leaf", id, where, name)
			}
			if err := w.elements(inline, id, depth+1, name); err != nil {
				return err
			}
		default:
			return fmt.Errorf("page %d (%s): type %#x is neither branch nor leaf", id, where, flags)
		}
	}
	if flags != branchPageFlag && flags != leafPageFlag {
		return fmt.Errorf("page %d (%s): type %#x is neither branch nor leaf", id, where, flags)
	}
	if flags == branchPageFlag && count == 0 {
		return fmt.Errorf("page %d (%s): an empty branch page", id, where)
	}
	return nil
}

// keyName shows a bucket name as text when it is printable, else in hex.
func keyName(k []byte) string {
	for _, c := range k {
		if c < 0x20 || c > 0x7e {
			return fmt.Sprintf("%x", k)
		}
	}
	return string(k)
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

// checkPages runs the page-level checks: the shape of the trees read from
// the file, every page read through bbolt, then bbolt's tx.Check.
func checkPages(tx *bolt.Tx, path string) []error {
	if err := checkTrees(path, uint64(tx.ID())); err != nil {
		return []error{err}
	}
	if err := walk(tx); err != nil {
		return []error{err}
	}
	var problems []error
	for err := range tx.Check() {
		problems = append(problems, err)
	}
	return problems
}

// checkTrees walks the trees of the file at path as of transaction txid.
func checkTrees(path string, txid uint64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	m, err := readHeader(f, fi.Size(), txid)
	if err != nil {
		return err
	}
	return walkFile(f, m)
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
