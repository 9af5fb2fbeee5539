package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// ErrLossyRepair is returned by Repair when the repair would lose a
// transaction and RepairOptions.AcceptPrevious is not set: nothing is
// written, and the report says what would be lost.
var ErrLossyRepair = errors.New("the repair goes back to the previous transaction: accept it knowingly (--accept-previous) or restore the newest backup")

// RepairOptions say how Repair may repair a file.
type RepairOptions struct {
	// AcceptPrevious lets the repair go back to the transaction of the
	// intact meta page when the other, maybe newer, is damaged: what only
	// the damaged one holds is lost (the report says what).
	AcceptPrevious bool
	// Out is where the repaired copy is written (it must not exist); the
	// file itself is left untouched. Empty: the file is repaired in
	// place, after the original is kept aside (RepairReport.Aside).
	Out string
	// Now is the instant that names the original kept aside.
	Now time.Time
}

// RepairReport says what Repair found and did.
type RepairReport struct {
	// Damage is what is wrong with the meta pages; nil when nothing is.
	Damage *MetaError
	// Keep is the transaction the repaired file holds, and Other the one
	// the damaged page names (as read).
	Keep, Other uint64
	// Later is set when the damaged page may hold a transaction after the
	// kept one: Lost then lists what it wrote that the repair gives up,
	// for people ("game 38 move 41 Ne1"), or Unreadable says why that
	// cannot be read.
	Later      bool
	Lost       []string
	Unreadable string
	// Written is the repaired file, Aside where the original was kept
	// (in-place repairs); both empty when nothing was written.
	Written, Aside string
}

// Lossless reports whether the repair loses nothing.
func (r *RepairReport) Lossless() bool { return r.Damage == nil || r.Damage.Lossless() }

// WriteText writes the report for people.
func (r *RepairReport) WriteText(w io.Writer) error {
	var b strings.Builder
	switch {
	case r.Damage == nil:
		b.WriteString("Both meta pages are intact: there is nothing to repair.\n")
	default:
		for _, d := range r.Damage.Damaged {
			fmt.Fprintf(&b, "Meta page %d is damaged: %s.\n", d.Page, d.Problem)
		}
		switch {
		case r.Lossless():
			fmt.Fprintf(&b, "Only bytes bbolt does not read are damaged: transaction %d is intact, and the repair loses nothing.\n", r.Keep)
		case !r.Later:
			fmt.Fprintf(&b, "The damaged page names transaction %d, before the intact page's %d: if that number is right, accepting transaction %d loses nothing.\n", r.Other, r.Keep, r.Keep)
		default:
			if r.Other == r.Keep+1 {
				fmt.Fprintf(&b, "The damaged page names transaction %d, the last one; the intact page holds the one before, %d.\n", r.Other, r.Keep)
			} else {
				fmt.Fprintf(&b, "The damaged page names transaction %d (the number itself may be damaged); the intact page holds transaction %d.\n", r.Other, r.Keep)
			}
			switch {
			case r.Unreadable != "":
				fmt.Fprintf(&b, "What the damaged page's transaction wrote cannot be read (%s): accepting transaction %d loses it, whatever it was.\n", r.Unreadable, r.Keep)
			case len(r.Lost) == 0:
				fmt.Fprintf(&b, "It changed no record: accepting transaction %d loses nothing stored.\n", r.Keep)
			default:
				fmt.Fprintf(&b, "Accepting transaction %d loses what the last transaction wrote:\n", r.Keep)
				for _, l := range r.Lost {
					fmt.Fprintf(&b, "  - %s\n", l)
				}
			}
		}
	}
	if r.Aside != "" {
		fmt.Fprintf(&b, "The original file is kept as %s.\n", r.Aside)
	}
	if r.Written != "" {
		fmt.Fprintf(&b, "The repaired file, checked page by page and record by record, is %s (transaction %d).\n", r.Written, r.Keep)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Repair rewrites the meta pages of the database file at path, which Open
// refuses because one of them is damaged, from the intact one. When only
// bytes bbolt does not read are damaged, nothing is lost. When the body of
// one page is damaged, the repair goes back to the other page's
// transaction: the report lists what the damaged page's transaction wrote
// (read from the pages it reaches that the intact one does not), and
// nothing is written unless opts.AcceptPrevious is set (ErrLossyRepair).
// The repaired file is checked as Open checks one before it is put in
// place: at opts.Out, or at path once the original is kept aside beside
// it. A file whose meta pages are both damaged cannot be repaired (restore
// a backup); a file held by a running daemon is refused with ErrLocked.
func Repair(path string, opts RepairOptions) (*RepairReport, error) {
	f, size, err := openToRepair(path, opts.Out != "")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pages, ps, err := readMetas(f, size)
	if err != nil {
		return nil, fmt.Errorf("repair %s: %w", path, err)
	}
	r := &RepairReport{Damage: metaError(pages)}
	if r.Damage == nil {
		return r, nil
	}
	if !r.Damage.Repairable() {
		return r, fmt.Errorf("repair %s: %w: no meta page is left to rebuild from: restore the newest backup", path, r.Damage)
	}
	fixed, err := r.plan(f, pages, ps)
	if err != nil {
		return r, fmt.Errorf("repair %s: %w", path, err)
	}
	if !r.Lossless() && !opts.AcceptPrevious {
		return r, ErrLossyRepair
	}
	return r, r.write(f, size, ps, fixed, path, opts)
}

// openToRepair opens the regular file at path and locks it against any
// daemon writing it (bbolt locks it the same way): shared when the repair
// is written elsewhere, else exclusive. It returns the file's size.
func openToRepair(path string, elsewhere bool) (*os.File, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	lock := syscall.LOCK_EX
	if elsewhere {
		lock = syscall.LOCK_SH
	}
	if err := syscall.Flock(int(f.Fd()), lock|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("repair %s: %w", path, ErrLocked)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("repair %s: %w: not a regular file", path, ErrForeign)
	}
	return f, fi.Size(), nil
}

// write writes the repaired file, the fixed meta pages then the rest of f
// (size bytes, pages of ps bytes), checked, at opts.Out, or at path once
// the original is kept aside beside it.
func (r *RepairReport) write(f *os.File, size, ps int64, fixed [2][]byte, path string, opts RepairOptions) error {
	out := opts.Out
	if out == "" {
		out = path
		r.Aside = fmt.Sprintf("%s.damaged-%s", path, opts.Now.UTC().Format("20060102T150405Z"))
		if err := keepAside(f, path, r.Aside); err != nil {
			r.Aside = ""
			return fmt.Errorf("repair %s: keep the original aside: %w", path, err)
		}
	} else if _, err := os.Stat(out); err == nil {
		return fmt.Errorf("repair %s: %s exists", path, out)
	}
	err := WriteChecked(out, func(w io.Writer) error {
		for _, p := range fixed {
			if _, err := w.Write(p); err != nil {
				return err
			}
		}
		_, err := io.Copy(w, io.NewSectionReader(f, 2*ps, size-2*ps))
		return err
	})
	if err != nil {
		if r.Aside != "" {
			os.Remove(r.Aside) // the original is still in place
			r.Aside = ""
		}
		return fmt.Errorf("repair %s: %w", path, err)
	}
	r.Written = out
	return nil
}

// plan works out the repaired meta pages of the file and what the repair
// loses, filling in the report.
func (r *RepairReport) plan(f io.ReaderAt, pages [2]metaPage, ps int64) ([2][]byte, error) {
	var fixed [2][]byte
	bodyOf := func(i int) ([]byte, error) {
		b := make([]byte, metaSize)
		_, err := f.ReadAt(b, int64(i)*ps+pageHeaderSize)
		return b, err
	}
	if r.Damage.Lossless() {
		// Both bodies are intact: each page is written again around its
		// own body.
		for i := range pages {
			body, err := bodyOf(i)
			if err != nil {
				return fixed, err
			}
			fixed[i] = metaPageBytes(i, body, ps, pages[i].meta.txid)
			r.Keep = max(r.Keep, pages[i].meta.txid)
		}
		r.Other = r.Keep
		return fixed, nil
	}
	keep := r.Damage.Intact
	if keep < 0 {
		// Both damaged, one only around its body: rebuild from that one.
		keep = slices.IndexFunc(pages[:], func(p metaPage) bool { return p.intact() })
	}
	kept, other := pages[keep], pages[1-keep]
	r.Keep, r.Other = kept.meta.txid, other.meta.txid
	body, err := bodyOf(keep)
	if err != nil {
		return fixed, err
	}
	// The kept page as it is, the other a copy of it one transaction
	// before (as bbolt writes a backup's two pages), so that bbolt opens
	// the kept one and its next commit overwrites the copy.
	prev := kept.meta.txid - 1
	if kept.meta.txid == 0 {
		prev = 1
	}
	fixed[keep] = metaPageBytes(keep, body, ps, kept.meta.txid)
	fixed[1-keep] = metaPageBytes(1-keep, body, ps, prev)
	r.Later = !other.found || other.meta.txid > kept.meta.txid || other.meta.txid+1 != kept.meta.txid
	if r.Later {
		r.Lost, err = lostChanges(f, kept.meta, other, ps)
		if err != nil {
			r.Lost, r.Unreadable = nil, err.Error()
		}
	}
	return fixed, nil
}

// metaPageBytes is meta page index as bbolt writes it, of page size ps,
// around the meta body (64 bytes) with its transaction set to txid and its
// checksum made again.
func metaPageBytes(index int, body []byte, ps int64, txid uint64) []byte {
	p := make([]byte, ps)
	le := binary.LittleEndian
	le.PutUint64(p, uint64(index))
	le.PutUint16(p[8:], metaPageFlag)
	m := p[pageHeaderSize : pageHeaderSize+metaSize]
	copy(m, body)
	le.PutUint64(m[48:], txid)
	h := fnv.New64a()
	h.Write(m[:metaChecksumEnd])
	le.PutUint64(m[metaChecksumEnd:], h.Sum64())
	return p
}

// keepAside keeps the original file f (at path) as aside before it is
// replaced: a second name for the same bytes, or a copy where the file
// system has no hard links.
func keepAside(f *os.File, path, aside string) error {
	if err := os.Link(path, aside); err == nil {
		return syncDir(filepath.Dir(path))
	}
	dst, err := os.OpenFile(aside, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, io.NewSectionReader(f, 0, 1<<62))
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(aside)
		return err
	}
	return syncDir(filepath.Dir(path))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// lostChanges lists, for people, the records the tree of the damaged meta
// page other holds and the kept tree does not: what its transaction wrote
// (added, changed or removed records). bbolt writes a transaction's
// changed pages anew and leaves the pages both trees share as they are, so
// only the pages each tree reaches and the other does not are read and
// compared. The damaged page's fields are read as they are, on the file's
// page size; when they lead nowhere sane, the error says why.
func lostChanges(f io.ReaderAt, kept boltMeta, other metaPage, ps int64) ([]string, error) {
	if !other.found {
		return nil, errors.New("the damaged meta page is not found")
	}
	d := other.meta
	d.pageSize = uint32(ps)
	if d.root < 2 || d.root >= d.pgid {
		return nil, fmt.Errorf("its root page %d lies outside its %d pages", d.root, d.pgid)
	}
	keptPages, err := walkTree(f, kept, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("the kept tree: %w", err)
	}
	type rec struct {
		l    loc
		k, v []byte
	}
	collect := func(into map[string]rec) func(l loc, k, v []byte) {
		return func(l loc, k, v []byte) {
			l = slices.Clone(l)
			into[l.String()+"\x00"+string(k)] = rec{l, slices.Clone(k), slices.Clone(v)}
		}
	}
	newer, older := map[string]rec{}, map[string]rec{}
	shared := map[uint64]bool{} // pages both trees reach: everything below is the same
	_, err = walkTree(f, d, collect(newer), func(id uint64) bool {
		if keptPages[id] {
			shared[id] = true
			return true
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	if _, err := walkTree(f, kept, collect(older), func(id uint64) bool { return shared[id] }); err != nil {
		return nil, fmt.Errorf("the kept tree: %w", err)
	}
	var changes []change
	for key, n := range newer {
		o, ok := older[key]
		switch {
		case !ok:
			changes = append(changes, change{l: n.l, k: n.k, now: n.v})
		case string(o.v) != string(n.v):
			changes = append(changes, change{l: n.l, k: n.k, was: o.v, now: n.v})
		}
	}
	for key, o := range older {
		if _, ok := newer[key]; !ok {
			changes = append(changes, change{l: o.l, k: o.k, was: o.v})
		}
	}
	return describeChanges(changes), nil
}

// change is a record a transaction added (was nil), changed or removed
// (now nil).
type change struct {
	l        loc
	k        []byte
	was, now []byte
}

// describeChanges says for people what each change is, in the order of
// the file's buckets and keys; a board's raw frames are one line.
func describeChanges(cs []change) []string {
	slices.SortFunc(cs, func(a, b change) int {
		if c := strings.Compare(a.l.String(), b.l.String()); c != 0 {
			return c
		}
		return strings.Compare(string(a.k), string(b.k))
	})
	var out []string
	frames := map[string][]uint64{}
	var boards []string
	for _, c := range cs {
		top := string(c.l[0])
		if top == string(bucketRaw) && len(c.l) == 2 && len(c.k) == 8 {
			b := keyName(c.l[1])
			if frames[b] == nil {
				boards = append(boards, b)
			}
			frames[b] = append(frames[b], beUint64(c.k))
			continue
		}
		out = append(out, describeChange(c))
	}
	return append(out, describeFrames(boards, frames)...)
}

// describeFrames says which raw frames of each board of boards frames
// holds (their numbers, in order), a line per board.
func describeFrames(boards []string, frames map[string][]uint64) []string {
	var out []string
	for _, b := range boards {
		seqs := frames[b]
		if len(seqs) == 1 {
			out = append(out, fmt.Sprintf("raw frame %d of board %s", seqs[0], b))
		} else {
			out = append(out, fmt.Sprintf("raw frames %d–%d of board %s (%d frames)", seqs[0], seqs[len(seqs)-1], b, len(seqs)))
		}
	}
	return out
}

// describeChange says what one change is: the record's name, and what it
// holds (a move's notation) or which of its fields changed.
func describeChange(c change) string {
	name := recordName(c.l, c.k)
	now, was := changePayload(c.k, c.now), changePayload(c.k, c.was)
	switch {
	case c.was == nil:
		return name + changeDetail(now)
	case c.now == nil:
		return name + changeDetail(was) + ", removed"
	case now == nil || was == nil:
		return name + ", changed"
	}
	return name + ", changed: " + strings.Join(changedFields(was, now), ", ")
}

// changePayload decodes the record v stored under k as a JSON object, or
// returns nil.
func changePayload(k, v []byte) map[string]json.RawMessage {
	p, _, err := unseal(k, v)
	if err != nil {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(p, &m) != nil {
		return nil
	}
	return m
}

// jsonText returns the string field of m, or "".
func jsonText(m map[string]json.RawMessage, field string) string {
	var s string
	if json.Unmarshal(m[field], &s) != nil {
		return ""
	}
	return s
}

// changeDetail says what the record m holds, by the fields of its kind:
// a move's notation, an alert's message, an action, a pairing's players
// or a name.
func changeDetail(m map[string]json.RawMessage) string {
	switch {
	case m == nil:
		return ""
	case jsonText(m, "notation") != "":
		return " " + jsonText(m, "notation")
	case jsonText(m, "message") != "":
		return ": " + jsonText(m, "message")
	case jsonText(m, "what") != "":
		return ": " + strings.TrimSpace(jsonText(m, "who")+" "+jsonText(m, "what")+" "+jsonText(m, "data"))
	case jsonText(m, "first") != "" || jsonText(m, "second") != "":
		return " (" + jsonText(m, "first") + " – " + jsonText(m, "second") + ")"
	case jsonText(m, "name") != "":
		return " (" + jsonText(m, "name") + ")"
	}
	return ""
}

// changedFields lists, sorted, the fields that differ between was and
// now, or are in one only.
func changedFields(was, now map[string]json.RawMessage) []string {
	var fields []string
	for k, v := range now {
		if string(was[k]) != string(v) {
			fields = append(fields, k)
		}
	}
	for k := range was {
		if _, ok := now[k]; !ok {
			fields = append(fields, k)
		}
	}
	slices.Sort(fields)
	return fields
}
