package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"strings"
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
// and an FNV-64a checksum of the 56 bytes before it. bbolt writes a meta
// page whole from a zeroed buffer: its header says it is meta page 0 or 1
// and nothing else, and the bytes after the body are zero.
const (
	pageHeaderSize   = 16
	metaSize         = 64
	metaChecksumEnd  = 56
	boltMagic        = 0xED0CDAED
	boltVersion      = 2
	metaPageFlag     = 0x04
	freelistPageFlag = 0x10
	noFreelist       = ^uint64(0)
	minPageSize      = 1024
	maxPageSize      = 16 << 20
)

// boltMeta is a decoded meta page body.
type boltMeta struct {
	pageSize uint32
	flags    uint32
	root     uint64
	freelist uint64
	pgid     uint64
	txid     uint64
}

// metaPage is one of the two meta pages of a file, as read and judged.
type metaPage struct {
	index int
	found bool     // a meta page was found at all (page 1 is found by its page size)
	meta  boltMeta // the body's fields, as read even when it is damaged
	// body says what is wrong with the body (magic, version, checksum, the
	// sanity of its fields), framing what is wrong around it (the page
	// header, the zero tail); "" when nothing is.
	body, framing string
}

// intact reports whether the page's body can be trusted.
func (p metaPage) intact() bool { return p.found && p.body == "" }

// damaged reports whether anything of the page is wrong.
func (p metaPage) damaged() bool { return !p.found || p.body != "" || p.framing != "" }

// problem says what is wrong with the page, for people.
func (p metaPage) problem() string {
	if !p.found {
		return "not found: no page with the bbolt magic number lies where the page size puts it"
	}
	var s []string
	if p.body != "" {
		s = append(s, p.body)
	}
	if p.framing != "" {
		s = append(s, p.framing)
	}
	return strings.Join(s, "; ")
}

// decodeMeta decodes the meta body at the start of page and says what is
// wrong with it, if anything: magic, version, checksum, then the sanity
// of its fields against a file of size bytes.
func decodeMeta(page []byte) (m boltMeta, problem string) {
	if len(page) < pageHeaderSize+metaSize {
		return m, "cut short by the end of the file"
	}
	b := page[pageHeaderSize : pageHeaderSize+metaSize]
	le := binary.LittleEndian
	m = boltMeta{pageSize: le.Uint32(b[8:]), flags: le.Uint32(b[12:]), root: le.Uint64(b[16:]),
		freelist: le.Uint64(b[32:]), pgid: le.Uint64(b[40:]), txid: le.Uint64(b[48:])}
	switch {
	case le.Uint32(b[0:]) != boltMagic:
		return m, fmt.Sprintf("magic number %#x is not bbolt's", le.Uint32(b[0:]))
	case le.Uint32(b[4:]) != boltVersion:
		return m, fmt.Sprintf("bbolt file format version %d", le.Uint32(b[4:]))
	}
	h := fnv.New64a()
	h.Write(b[:metaChecksumEnd])
	if sum := le.Uint64(b[metaChecksumEnd:]); h.Sum64() != sum {
		return m, fmt.Sprintf("checksum mismatch (stored %016x, computed %016x)", sum, h.Sum64())
	}
	return m, m.insane()
}

// insane says what is impossible in the fields of m, a meta page whose
// checksum matches, if anything.
func (m boltMeta) insane() string {
	ps := uint64(m.pageSize)
	switch {
	case ps < minPageSize || ps > maxPageSize || ps&(ps-1) != 0:
		return fmt.Sprintf("page size %d is impossible", ps)
	case m.flags != 0:
		return fmt.Sprintf("flags %#x, where bbolt writes none", m.flags)
	case m.pgid < 4 || m.pgid > uint64(1<<62)/ps:
		return fmt.Sprintf("page count %d is impossible", m.pgid)
	case m.root < 2 || m.root >= m.pgid:
		return fmt.Sprintf("root page %d lies outside the file's %d pages", m.root, m.pgid)
	case m.freelist != noFreelist && (m.freelist < 2 || m.freelist >= m.pgid):
		return fmt.Sprintf("freelist page %d lies outside the file's %d pages", m.freelist, m.pgid)
	case m.freelist == m.root:
		return fmt.Sprintf("the freelist and the root are both page %d", m.root)
	}
	return ""
}

// framing says what is wrong around meta page index's body: its page
// header, and the bytes after the body, which bbolt leaves zero.
func framing(page []byte, index int) string {
	le := binary.LittleEndian
	var s []string
	if id := le.Uint64(page); id != uint64(index) {
		s = append(s, fmt.Sprintf("its header says it is page %d", id))
	}
	if f, c, o := le.Uint16(page[8:]), le.Uint16(page[10:]), le.Uint32(page[12:]); f != metaPageFlag || c != 0 || o != 0 {
		s = append(s, fmt.Sprintf("its header has flags %#x, count %d, overflow %d (a meta page has %#x, 0, 0)", f, c, o, metaPageFlag))
	}
	for i := pageHeaderSize + metaSize; i < len(page); i++ {
		if page[i] != 0 {
			s = append(s, fmt.Sprintf("byte %d after the meta data is %#02x, not zero", i, page[i]))
			break
		}
	}
	return strings.Join(s, "; ")
}

// readMetas reads and judges both meta pages of f (size bytes). Meta page
// 1 follows page 0 at the page size, which only an intact page tells: the
// sizes bbolt may use are tried when page 0 is damaged. It fails with
// ErrEmpty for an empty file and ErrForeign when neither page is a bbolt
// meta page. Nothing is trusted before it is checked, and the file is
// read with ReadAt only, so a damaged file cannot crash it.
func readMetas(f io.ReaderAt, size int64) (pages [2]metaPage, pageSize int64, _ error) {
	if size == 0 {
		return pages, 0, ErrEmpty
	}
	r := metaReader{f: f, size: size}
	first, err := r.page(0, pageHeaderSize+metaSize)
	if err != nil {
		return pages, 0, err
	}
	pageSize, second, err := r.second(first)
	if err != nil {
		return pages, 0, err
	}
	if !hasMagic(first) && second == nil {
		return pages, 0, ErrForeign
	}
	if pageSize == 0 {
		pageSize = 4096 // page 1 is nowhere: page 0 is judged as bbolt's usual size
	}
	whole, err := r.page(0, pageSize)
	if err != nil {
		return pages, 0, err
	}
	pages[0] = judgeMeta(whole, 0)
	if second != nil {
		pages[1] = judgeMeta(second, 1)
	} else {
		pages[1] = metaPage{index: 1}
	}
	if pages[0].found && len(whole) < int(pageSize) && pages[0].body == "" {
		pages[0].framing = "the file ends inside it"
	}
	if err := crossCheckMetas(&pages, pageSize); err != nil {
		return pages, 0, err
	}
	return pages, pageSize, nil
}

// A metaReader reads the pages of a file of size bytes, which may be
// damaged, with ReadAt only.
type metaReader struct {
	f    io.ReaderAt
	size int64
}

// page reads n bytes at off, fewer where the file ends.
func (r metaReader) page(off, n int64) ([]byte, error) {
	buf := make([]byte, min(n, max(r.size-off, 0)))
	if _, err := r.f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read the header: %w", err)
	}
	return buf, nil
}

// second finds meta page 1 and the page size, given the start of page 0.
// An intact page 0 says the page size, and so where page 1 is. Otherwise
// page 1 is looked for at each size bbolt may use: a page with the magic
// number that says it is that size, or failing that one with the magic
// number alone. second is nil when page 1 is nowhere.
func (r metaReader) second(first []byte) (pageSize int64, second []byte, _ error) {
	if m, problem := decodeMeta(first); problem == "" {
		pageSize = int64(m.pageSize)
		if pageSize >= r.size {
			return pageSize, nil, nil
		}
		second, err := r.page(pageSize, pageSize)
		return pageSize, second, err
	}
	var candidate []byte
	var candidateSize int64
	for ps := int64(minPageSize); ps <= maxPageSize && ps < r.size; ps *= 2 {
		page, err := r.page(ps, ps)
		if err != nil {
			return 0, nil, err
		}
		if !hasMagic(page) {
			continue
		}
		if int64(binary.LittleEndian.Uint32(page[pageHeaderSize+8:])) == ps {
			return ps, page, nil
		}
		if candidate == nil {
			candidate, candidateSize = page, ps
		}
	}
	return candidateSize, candidate, nil
}

// hasMagic reports whether page holds bbolt's magic number where a meta
// page does.
func hasMagic(page []byte) bool {
	return len(page) >= pageHeaderSize+4 && binary.LittleEndian.Uint32(page[pageHeaderSize:]) == boltMagic
}

// judgeMeta judges page as meta page index: its body and its framing.
func judgeMeta(page []byte, index int) metaPage {
	p := metaPage{index: index, found: true}
	p.meta, p.body = decodeMeta(page)
	if len(page) >= pageHeaderSize {
		p.framing = framing(page, index)
	}
	return p
}

// crossCheckMetas judges the two pages against each other and against the
// page size that placed page 1, and fails with ErrForeign when both are
// of another version of bbolt's format.
func crossCheckMetas(pages *[2]metaPage, pageSize int64) error {
	for i := range pages {
		if p := &pages[i]; p.intact() && int64(p.meta.pageSize) != pageSize {
			p.body = fmt.Sprintf("page size %d disagrees with meta page 1's place at byte %d", p.meta.pageSize, pageSize)
		}
	}
	// Both pages versions of bbolt's format, or neither: a file of
	// another bbolt version is foreign, not damaged.
	if pages[0].found && pages[1].found && strings.HasPrefix(pages[0].body, "bbolt file format") && strings.HasPrefix(pages[1].body, "bbolt file format") {
		return fmt.Errorf("%w: %s", ErrForeign, pages[0].body)
	}
	// bbolt writes the two pages in turn: their transactions follow each
	// other (a copy's two pages too).
	if a, b := pages[0], pages[1]; a.intact() && b.intact() {
		if d := int64(a.meta.txid - b.meta.txid); d != 1 && d != -1 {
			newer := &pages[0]
			if b.meta.txid > a.meta.txid {
				newer = &pages[1]
			}
			newer.body = fmt.Sprintf("its transaction %d does not follow the other page's %d", newer.meta.txid, pages[1-newer.index].meta.txid)
		}
	}
	return nil
}

// MetaDamage is one damaged meta page of a file (see [MetaError]).
type MetaDamage struct {
	Page    int    // 0 or 1
	Problem string // what is wrong with it
	// Lossless is set when only bytes bbolt does not read are damaged (the
	// page's header, the zero bytes after its data): its transaction is
	// intact, and a repair loses nothing.
	Lossless bool
	// Txid is the transaction the page names, as read: when the page is
	// damaged, the number may be too.
	Txid uint64
}

// MetaError reports a file whose meta pages are damaged. bbolt keeps two,
// written in turn, and silently opens the other when the newer one is
// damaged: the file then goes back one transaction (the last move stored
// vanishes), and the next write makes the loss final. Open refuses such a
// file, untouched; Repair rewrites the meta pages knowingly.
type MetaError struct {
	Damaged []MetaDamage
	// Intact is the page that is not damaged (-1: none), and IntactTxid
	// its transaction.
	Intact     int
	IntactTxid uint64
}

func (e *MetaError) Error() string {
	var s []string
	for _, d := range e.Damaged {
		s = append(s, fmt.Sprintf("meta page %d is damaged: %s", d.Page, d.Problem))
	}
	msg := strings.Join(s, "; ")
	switch {
	case e.Intact < 0:
		return msg + "; no intact meta page is left"
	case len(e.Damaged) == 1 && e.Damaged[0].Lossless:
		return msg + fmt.Sprintf(" (its data is intact: transaction %d)", e.Damaged[0].Txid)
	case len(e.Damaged) == 1:
		return msg + fmt.Sprintf(" (it names transaction %d; the intact meta page %d holds transaction %d)", e.Damaged[0].Txid, e.Intact, e.IntactTxid)
	}
	return msg
}

func (e *MetaError) Unwrap() error { return ErrCorrupt }

// Repairable reports whether a repair can rebuild the file's meta pages
// from a page whose body is intact.
func (e *MetaError) Repairable() bool {
	if e.Intact >= 0 {
		return true
	}
	for _, d := range e.Damaged {
		if d.Lossless {
			return true // its body is intact
		}
	}
	return false
}

// Lossless reports whether rebuilding the meta pages loses nothing.
func (e *MetaError) Lossless() bool {
	for _, d := range e.Damaged {
		if !d.Lossless {
			return false
		}
	}
	return true
}

// metaError is the MetaError of pages, or nil when neither is damaged.
func metaError(pages [2]metaPage) *MetaError {
	e := &MetaError{Intact: -1}
	for _, p := range pages {
		if !p.damaged() {
			e.Intact, e.IntactTxid = p.index, p.meta.txid
			continue
		}
		e.Damaged = append(e.Damaged, MetaDamage{Page: p.index, Problem: p.problem(), Lossless: p.intact(), Txid: p.meta.txid})
	}
	if len(e.Damaged) == 0 {
		return nil
	}
	if e.Intact < 0 && len(e.Damaged) == 2 {
		// Both damaged, one only around its data: that one is the
		// reference a repair rebuilds from.
		for _, d := range e.Damaged {
			if d.Lossless {
				e.IntactTxid = d.Txid
			}
		}
	}
	return e
}

// checkHeader checks what bbolt trusts without checking before it maps
// the file: that both meta pages are intact (bbolt would silently fall
// back to the older one), that the file is as long as the meta page says
// (bbolt reads pages beyond the end of a truncated file through its
// memory map, which crashes the process), and that the freelist it loads
// at open lies inside the file. It reads with ReadAt only, so a damaged
// file cannot crash it.
func checkHeader(f *os.File, size int64) error {
	_, err := readHeader(f, size, 0)
	return err
}

// readHeader checks the header as checkHeader does and returns the meta
// page bbolt uses: the one with the higher transaction id, or the one of
// transaction txid if that is not zero.
func readHeader(f *os.File, size int64, txid uint64) (m boltMeta, _ error) {
	pages, _, err := readMetas(f, size)
	if err != nil {
		return m, err
	}
	// A file cut short is truncated before anything else: its meta page
	// 1 may be gone with the rest.
	for _, p := range pages {
		if p.intact() && size < int64(p.meta.pgid)*int64(p.meta.pageSize) {
			return p.meta, checkBeyondMeta(f, size, p.meta)
		}
	}
	if e := metaError(pages); e != nil {
		return m, e
	}
	m0, m1 := pages[0].meta, pages[1].meta
	switch {
	case txid != 0 && m0.txid == txid:
		m = m0
	case txid != 0 && m1.txid == txid:
		m = m1
	case txid != 0:
		return m, fmt.Errorf("no meta page of transaction %d: the file changed during the check", txid)
	case m1.txid > m0.txid:
		m = m1
	default:
		m = m0
	}
	return m, checkBeyondMeta(f, size, m)
}

// checkBeyondMeta checks what meta page m points at: that the file holds
// its pages, and that its freelist page is one.
func checkBeyondMeta(f io.ReaderAt, size int64, m boltMeta) error {
	ps := int64(m.pageSize)
	if want := int64(m.pgid) * ps; size < want {
		return fmt.Errorf("%w: it has %d bytes, but its header says %d (%d pages of %d bytes)", ErrTruncated, size, want, m.pgid, ps)
	}
	if m.freelist == noFreelist {
		return nil
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
