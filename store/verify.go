package store

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	bolt "go.etcd.io/bbolt"
)

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
	f       io.ReaderAt
	ps      int64
	hwm     uint64
	visited map[uint64]bool
	bufs    [][]byte // one page buffer per tree level, reused
	// visit, if set, is given every record (not bucket) the walk reaches,
	// in key order, with the location of its bucket; k and v are valid
	// during the call only.
	visit func(l loc, k, v []byte)
	// skip, if set, says which pages (and the trees below them) not to
	// read.
	skip func(id uint64) bool
}

// walkFile checks the trees of the file under meta page m.
func walkFile(f io.ReaderAt, m boltMeta) error {
	_, err := walkTree(f, m, nil, nil)
	return err
}

// walkTree walks the trees of the file under meta page m as walkFile
// does, giving visit every record, skipping the pages skip says, and
// returns the pages it read.
func walkTree(f io.ReaderAt, m boltMeta, visit func(l loc, k, v []byte), skip func(id uint64) bool) (map[uint64]bool, error) {
	w := &treeWalker{f: f, ps: int64(m.pageSize), hwm: m.pgid, visited: map[uint64]bool{}, visit: visit, skip: skip}
	if m.freelist != noFreelist {
		w.visited[m.freelist] = true
	}
	err := w.page(m.root, 0, nil)
	delete(w.visited, m.freelist)
	return w.visited, err
}

// where names the bucket at l in messages about its pages.
func where(l loc) string {
	if len(l) == 0 {
		return "root"
	}
	return "root/" + l.String()
}

// page checks page id, at depth of the tree of the bucket at l, and walks
// down from it.
func (w *treeWalker) page(id uint64, depth int, l loc) error {
	where := where(l)
	if depth > maxTreeDepth {
		return fmt.Errorf("page %d (%s): the tree is deeper than %d levels", id, where, maxTreeDepth)
	}
	if id < 2 || id >= w.hwm {
		return fmt.Errorf("page %d (%s): outside the file's %d pages", id, where, w.hwm)
	}
	if w.skip != nil && w.skip(id) {
		return nil
	}
	if w.visited[id] {
		return fmt.Errorf("page %d (%s): reached twice", id, where)
	}
	w.visited[id] = true
	data, err := w.read(id, depth, where)
	if err != nil {
		return err
	}
	return w.elements(data, id, depth, l)
}

// read reads page id and its overflow pages, after checking its header,
// into the buffer of depth, and marks the overflow pages reached.
func (w *treeWalker) read(id uint64, depth int, where string) ([]byte, error) {
	hdr := make([]byte, pageHeaderSize)
	if _, err := w.f.ReadAt(hdr, int64(id)*w.ps); err != nil {
		return nil, fmt.Errorf("page %d (%s): %w", id, where, err)
	}
	le := binary.LittleEndian
	if got := le.Uint64(hdr); got != id {
		return nil, fmt.Errorf("page %d (%s): it says it is page %d", id, where, got)
	}
	overflow := uint64(le.Uint32(hdr[12:]))
	if id+overflow >= w.hwm || (overflow+1)*uint64(w.ps) > maxWalkPageSize {
		return nil, fmt.Errorf("page %d (%s): %d overflow pages run past the file's end", id, where, overflow)
	}
	for i := uint64(1); i <= overflow; i++ {
		if w.visited[id+i] {
			return nil, fmt.Errorf("page %d (%s): overflow page %d reached twice", id, where, id+i)
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
		return nil, fmt.Errorf("page %d (%s): %w", id, where, err)
	}
	return data, nil
}

// elements checks the elements of the page in data (a page read from the
// file, or an inline bucket's page inside a value) and walks down.
func (w *treeWalker) elements(data []byte, id uint64, depth int, l loc) error {
	at := pageAt{id: id, depth: depth, l: l, where: where(l)}
	le := binary.LittleEndian
	flags, count := le.Uint16(data[8:]), int(le.Uint16(data[10:]))
	if pageHeaderSize+count*elementSize > len(data) {
		return fmt.Errorf("page %d (%s): %d elements do not fit", id, at.where, count)
	}
	var element func(data []byte, i int, at pageAt) error
	switch flags {
	case branchPageFlag:
		if count == 0 {
			return fmt.Errorf("page %d (%s): an empty branch page", id, at.where)
		}
		element = w.branch
	case leafPageFlag:
		element = w.leaf
	default:
		return fmt.Errorf("page %d (%s): type %#x is neither branch nor leaf", id, at.where, flags)
	}
	for i := range count {
		if err := element(data, i, at); err != nil {
			return err
		}
	}
	return nil
}

// A pageAt is where the walk is: on page id, at depth of the tree of the
// bucket at l (named where in messages).
type pageAt struct {
	id    uint64
	depth int
	l     loc
	where string
}

// branch checks element i of the branch page in data and walks down to
// its child.
func (w *treeWalker) branch(data []byte, i int, at pageAt) error {
	le := binary.LittleEndian
	off := pageHeaderSize + i*elementSize
	e := data[off:]
	pos, ksize, child := int64(le.Uint32(e)), int64(le.Uint32(e[4:])), le.Uint64(e[8:])
	if int64(off)+pos+ksize > int64(len(data)) {
		return fmt.Errorf("page %d (%s): element %d runs past the page", at.id, at.where, i)
	}
	return w.page(child, at.depth+1, at.l)
}

// leaf checks element i of the leaf page in data: a record, given to
// visit, or a bucket, walked down.
func (w *treeWalker) leaf(data []byte, i int, at pageAt) error {
	le := binary.LittleEndian
	off := int64(pageHeaderSize + i*elementSize)
	e := data[off:]
	eflags, pos, ksize, vsize := le.Uint32(e), int64(le.Uint32(e[4:])), int64(le.Uint32(e[8:])), int64(le.Uint32(e[12:]))
	end := off + pos + ksize + vsize
	if end > int64(len(data)) {
		return fmt.Errorf("page %d (%s): element %d runs past the page", at.id, at.where, i)
	}
	key, v := data[off+pos:off+pos+ksize], data[off+pos+ksize:end]
	if eflags&bucketLeafFlag == 0 {
		if w.visit != nil {
			w.visit(at.l, key, v)
		}
		return nil
	}
	return w.bucket(key, v, at)
}

// bucket checks the header of the bucket key, whose value is v, and walks
// its tree: from its root page, or its inline page inside v.
func (w *treeWalker) bucket(key, v []byte, at pageAt) error {
	le := binary.LittleEndian
	id, where := at.id, at.where
	inner := append(at.l[:len(at.l):len(at.l)], append([]byte(nil), key...))
	name := where + "/" + keyName(key)
	if len(v) < inBucketSize {
		return fmt.Errorf("page %d (%s): bucket %s has a short header", id, where, name)
	}
	if root := le.Uint64(v); root != 0 {
		return w.page(root, at.depth+1, inner)
	}
	inline := v[inBucketSize:]
	if len(inline) < pageHeaderSize {
		return fmt.Errorf("page %d (%s): inline bucket %s is too short", id, where, name)
	}
	if at.depth+1 > maxTreeDepth {
		return fmt.Errorf("page %d (%s): buckets nest deeper than %d levels", id, where, maxTreeDepth)
	}
	if le.Uint16(inline[8:]) != leafPageFlag {
		return fmt.Errorf("page %d (%s): inline bucket %s is not a leaf", id, where, name)
	}
	return w.elements(inline, id, at.depth+1, inner)
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
