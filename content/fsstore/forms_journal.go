package fsstore

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"cms/content"
	"cms/content/internal/atomicfile"
)

// The submission journal makes submissions durable with group commit. Fsyncing one file (and
// its folder) per submission costs a good part of a submit's CPU in the kernel; instead a
// submitter appends its submission to a journal segment, and one fdatasync makes every record
// appended meanwhile durable (concurrent submitters share it). Meanwhile the submitter writes
// the submission's file unnamed (O_TMPFILE, no fsync); only once its record is durable does it
// link the file in and return: a submission is acknowledged once its record is durable, and its
// file exists (readers, exports and operators see files, as always).
//
// A file written without fsync can be lost, empty or cut after a power cut or a crash of the
// machine, never its record: until the file is known durable the record stays in the journal,
// and a store that opens replays the journals no live process holds, rewriting the files that
// are missing or do not hold the journaled bytes. A segment is retired (removed) once every file it covers is durable: the retirer
// seals the current segment when it is a second old or segmentMaxBytes long, syncs the file
// system once (syncfs) and removes it. A deleted submission whose record is still journaled gets
// a delete record first, so that replay does not bring it back.
//
// Segments live in .cms/journal/, named {owner}-{seq}.wal, where owner is random per store, and
// each is locked (flock) by the store writing it while open: one a store can lock belongs to a
// process that ended. Records are checksummed; a torn tail (a crash in the middle of an append)
// fails its checksum and is ignored, and it was never acknowledged.

// journalDir is where the segments are, relative to the site folder.
const journalDir = ".cms/journal"

// journalExt ends every segment's name.
const journalExt = ".wal"

// journalMagic begins every segment.
const journalMagic = "CMSSUBJ1"

// segmentMaxBytes and segmentMaxAge bound a segment: older or longer ones are sealed and retired,
// which bounds the replay after a crash and how long a hand deletion could come back.
const (
	segmentMaxBytes = 4 << 20
	segmentMaxAge   = time.Second
)

// maxRecordBody bounds a record (a submission is at most 64 KiB of JSON; its YAML a bit more).
const maxRecordBody = 4 << 20

// Record kinds.
const (
	recCreate = 1 // a submission's file (form, name, bytes)
	recDelete = 2 // a submission removed (or never acknowledged): replay must not write it
)

// journalRecord is one record of a segment.
type journalRecord struct {
	kind byte
	form string
	name string // file name in the form's folder
	raw  []byte // the file's bytes (recCreate)
}

// A record is: u32 body length, u32 CRC-32C of the body (both little-endian), then the body:
// kind, u16 form length, form, u16 name length, name, raw.
const recordHeader = 8

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// appendRecord appends r's encoding to dst.
func appendRecord(dst []byte, r journalRecord) []byte {
	n := 1 + 2 + len(r.form) + 2 + len(r.name) + len(r.raw)
	start := len(dst)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(n))
	dst = binary.LittleEndian.AppendUint32(dst, 0)
	body := len(dst)
	dst = append(dst, r.kind)
	dst = binary.LittleEndian.AppendUint16(dst, uint16(len(r.form)))
	dst = append(dst, r.form...)
	dst = binary.LittleEndian.AppendUint16(dst, uint16(len(r.name)))
	dst = append(dst, r.name...)
	dst = append(dst, r.raw...)
	binary.LittleEndian.PutUint32(dst[start+4:], crc32.Checksum(dst[body:], castagnoli))
	return dst
}

// parseRecords decodes the records of a segment's bytes (after the magic), in order. It stops at
// the first record that is incomplete, fails its checksum or does not make sense, and reports how
// many bytes the good records span: what follows is a torn tail (or damage), never acknowledged.
// b comes from disk and is not trusted.
func parseRecords(b []byte) (recs []journalRecord, good int) {
	for off := 0; ; {
		rest := b[off:]
		if len(rest) < recordHeader {
			return recs, off
		}
		n := int(binary.LittleEndian.Uint32(rest))
		if n > maxRecordBody || n > len(rest)-recordHeader {
			return recs, off
		}
		body := rest[recordHeader : recordHeader+n]
		if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(rest[4:]) {
			return recs, off
		}
		r, ok := decodeBody(body)
		if !ok {
			return recs, off
		}
		recs = append(recs, r)
		off += recordHeader + n
	}
}

// decodeBody decodes and checks a record's body.
func decodeBody(b []byte) (journalRecord, bool) {
	var r journalRecord
	field := func() (string, bool) {
		if len(b) < 2 {
			return "", false
		}
		n := int(binary.LittleEndian.Uint16(b))
		if len(b)-2 < n {
			return "", false
		}
		s := string(b[2 : 2+n])
		b = b[2+n:]
		return s, true
	}
	if len(b) < 1 {
		return r, false
	}
	r.kind, b = b[0], b[1:]
	var ok1, ok2 bool
	r.form, ok1 = field()
	r.name, ok2 = field()
	if !ok1 || !ok2 || !content.ValidHandle(r.form) || !validSubmissionName(r.name) {
		return r, false
	}
	switch r.kind {
	case recCreate:
		r.raw = slices.Clone(b)
	case recDelete:
		if len(b) != 0 {
			return r, false
		}
	default:
		return r, false
	}
	return r, true
}

// validSubmissionName reports whether name can be a submission file in a form's folder: one
// path element, no temp file.
func validSubmissionName(name string) bool {
	return len(name) <= 255 && isSubmissionFile(name) && fs.ValidPath(name) && !strings.ContainsAny(name, `/\`) && !atomicfile.IsTemp(name)
}

// errJournalOff says the journal cannot take records (not on this system, or broken by a failed
// write): the caller writes the submission the direct way, fsync'd.
var errJournalOff = errors.New("submission journal unavailable")

// subJournal is a store's submission journal.
type subJournal struct {
	s     *Store
	dir   *os.File // the journal folder, fsync'd after a segment is created or removed
	fsys  *os.File // the content folder, whose file system retirement syncs
	owner string

	mu       sync.Mutex
	cond     sync.Cond // on mu: a flush ended, a segment's files were all written
	cur      *segment  // the segment appended to; nil until the next append
	seq      int
	written  int64 // bytes appended over the journal's life
	durable  int64 // of which fdatasync'd
	flushing *segment
	broken   error // after a failed append or flush nothing more is appended
	sealed   []*segment
	live     map[string]*segment // form/name -> the unretired segment with its create record
	closed   bool
	wake     chan struct{}

	maxAge  time.Duration        // segmentMaxAge; tests lengthen it
	flush   func(*os.File) error // fdatasync; tests replace it
	flushes int                  // flushes done, for tests
}

// segment is one journal file.
type segment struct {
	f        *os.File
	name     string
	size     int64
	opened   time.Time
	inflight int      // records appended whose submitter has not finished writing the file
	sealed   bool     // no more appends: retired once inflight is 0
	keys     []string // live keys of its create records
}

// openJournal starts the store's journal, after replaying what ended processes left. It returns
// nil (the store then fsyncs each submission file, or with NoSync none) when the system cannot
// do what it needs, and under NoSync, which has nothing to make durable (but still replays).
func (s *Store) openJournal() *subJournal {
	if s.opts.ReadOnly || !journalSupported {
		return nil
	}
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	j := &subJournal{s: s, owner: hex.EncodeToString(rnd[:]), live: map[string]*segment{}, wake: make(chan struct{}, 1), maxAge: segmentMaxAge, flush: fdatasync}
	j.cond.L = &j.mu
	if err := j.replay(); err != nil {
		s.log.Error("submission journal: replay failed; its segments are kept for the next start", "error", err)
	}
	if s.opts.NoSync {
		return nil
	}
	s.wg.Add(1)
	go j.retirer()
	return j
}

// prepare opens the journal's folders before its first segment (a store that takes no
// submission leaves no trace). errJournalOff means the file systems are not fit.
func (j *subJournal) prepare() error {
	s := j.s
	if err := s.root.MkdirAll(journalDir, 0o755); err != nil {
		return err
	}
	// The journal folder's own entry must be durable before a segment in it counts.
	if err := atomicfile.SyncDir(s.root, path.Dir(journalDir)); err != nil {
		return err
	}
	if err := atomicfile.SyncDir(s.root, "."); err != nil {
		return err
	}
	dir, err := s.root.Open(journalDir)
	if err != nil {
		return err
	}
	// Retirement syncs the file system of the content folder, where the submission files are.
	if err := s.root.MkdirAll(s.opts.ContentDir, 0o755); err != nil {
		dir.Close()
		return err
	}
	fsys, err := s.root.Open(s.opts.ContentDir)
	if err != nil {
		dir.Close()
		return err
	}
	if !journalFileSystemOK(dir) || !journalFileSystemOK(fsys) {
		dir.Close()
		fsys.Close()
		return errJournalOff
	}
	j.dir, j.fsys = dir, fsys
	return nil
}

// create appends the submission file form/name with bytes raw to the journal, and returns the
// segment and the journal offset to wait for (wait) before writing the file; the caller calls
// done once it has written it (or failed), whatever wait returned. errJournalOff means nothing
// was journaled.
func (j *subJournal) create(form, name string, raw []byte) (*segment, int64, error) {
	rec := appendRecord(nil, journalRecord{kind: recCreate, form: form, name: name, raw: raw})
	if len(rec)-recordHeader > maxRecordBody || len(form) > 0xffff || len(name) > 0xffff {
		return nil, 0, errJournalOff // replay would take it for a torn record
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	seg, end, err := j.appendLocked(rec)
	if err != nil {
		return nil, 0, err
	}
	key := form + "/" + name
	j.live[key] = seg
	seg.keys = append(seg.keys, key)
	seg.inflight++
	return seg, end, nil
}

// wait returns once the journal is durable up to end (group commit), or the flush failed.
func (j *subJournal) wait(end int64) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.waitDurableLocked(end)
}

// done reports that the file of a record create journaled in seg is written (or, when written
// is false, that it is not: a delete record then keeps replay from writing it).
func (j *subJournal) done(seg *segment, form, name string, written bool) {
	if !written {
		_ = j.remove(form, name)
	}
	j.mu.Lock()
	seg.inflight--
	if seg.inflight == 0 && seg.sealed {
		j.wakeRetirer()
	}
	j.cond.Broadcast()
	j.mu.Unlock()
}

// wakeRetirer asks the retirer to look at the sealed segments.
func (j *subJournal) wakeRetirer() {
	select {
	case j.wake <- struct{}{}:
	default:
	}
}

// remove durably journals that form/name is deleted, when the journal still holds its creation
// (else replay cannot bring it back and there is nothing to do).
func (j *subJournal) remove(form, name string) error {
	rec := appendRecord(nil, journalRecord{kind: recDelete, form: form, name: name})
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.live[form+"/"+name] == nil {
		return nil
	}
	_, end, err := j.appendLocked(rec)
	if err != nil {
		return err
	}
	return j.waitDurableLocked(end)
}

// appendLocked appends rec to the current segment (opening one when there is none) and returns
// the segment and the journal offset at the record's end.
func (j *subJournal) appendLocked(rec []byte) (*segment, int64, error) {
	if j.broken != nil || j.closed {
		return nil, 0, errJournalOff
	}
	if j.cur == nil {
		seg, err := j.newSegment()
		switch {
		case errors.Is(err, errJournalOff):
			j.broken = err
			j.s.log.Info("submission journal off on this file system (NFS); submissions are fsync'd one by one")
			return nil, 0, errJournalOff
		case err != nil:
			j.broken = err
			j.s.log.Error("submission journal off: cannot create a segment; submissions are fsync'd one by one", "error", err)
			return nil, 0, errJournalOff
		}
		j.cur = seg
	}
	seg := j.cur
	n, err := seg.f.Write(rec)
	seg.size += int64(n)
	j.written += int64(n)
	if err != nil {
		// A part written would be a torn record in the middle of the segment: no more appends.
		j.broken = err
		j.s.log.Error("submission journal off: append failed; submissions are fsync'd one by one", "error", err)
		return nil, 0, fmt.Errorf("append to submission journal: %w", err)
	}
	if seg.size >= segmentMaxBytes {
		j.sealLocked()
	}
	return seg, j.written, nil
}

// waitDurableLocked returns once the journal is durable up to end: a leader fdatasyncs the
// current segment for everyone who appended before it started, and later appenders wait for
// the next flush (group commit). Sealed segments were synced when sealed.
func (j *subJournal) waitDurableLocked(end int64) error {
	for j.durable < end {
		if j.broken != nil {
			return fmt.Errorf("sync submission journal: %w", j.broken)
		}
		if j.flushing != nil {
			j.cond.Wait()
			continue
		}
		seg, target := j.cur, j.written
		if seg == nil { // sealed since: sealing synced it
			j.durable = max(j.durable, target)
			break
		}
		j.flushing = seg
		j.mu.Unlock()
		err := j.flush(seg.f)
		j.mu.Lock()
		j.flushing = nil
		j.flushes++
		if err != nil {
			j.broken = err
			j.s.log.Error("submission journal off: fdatasync failed; submissions are fsync'd one by one", "error", err)
		} else {
			j.durable = max(j.durable, target)
		}
		j.cond.Broadcast()
	}
	return nil
}

// sealLocked makes the current segment durable and hands it to the retirer; the next append
// opens a new one.
func (j *subJournal) sealLocked() {
	seg := j.cur
	if seg == nil {
		return
	}
	for j.flushing == seg {
		j.cond.Wait()
	}
	if j.cur != seg {
		return // sealed meanwhile
	}
	if err := j.flush(seg.f); err != nil {
		j.broken = err
		j.s.log.Error("submission journal off: fdatasync failed; submissions are fsync'd one by one", "error", err)
	} else {
		j.durable = j.written
	}
	j.cur = nil
	seg.sealed = true
	j.sealed = append(j.sealed, seg)
	j.cond.Broadcast()
	j.wakeRetirer()
}

// newSegment creates, locks and durably names a new segment.
func (j *subJournal) newSegment() (*segment, error) {
	if j.dir == nil {
		if err := j.prepare(); err != nil {
			return nil, err
		}
	}
	j.seq++
	name := j.owner + "-" + fmt.Sprintf("%012d", j.seq) + journalExt
	f, err := j.s.root.OpenFile(path.Join(journalDir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			_ = j.s.root.Remove(path.Join(journalDir, name))
		}
	}()
	if err := lockFile(f); err != nil {
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	if _, err := f.Write([]byte(journalMagic)); err != nil {
		return nil, err
	}
	if err := f.Sync(); err != nil {
		return nil, err
	}
	if err := j.dir.Sync(); err != nil {
		return nil, err
	}
	ok = true
	j.wakeRetirer() // to seal it when old
	return &segment{f: f, name: name, size: int64(len(journalMagic)), opened: time.Now()}, nil
}

// retirer seals the current segment when it is old and removes sealed segments whose files are
// all written and durable, until the store closes.
func (j *subJournal) retirer() {
	defer j.s.wg.Done()
	for {
		// Idle (no current segment) it sleeps until woken; else until the segment is old.
		var old <-chan time.Time
		j.mu.Lock()
		if j.cur != nil {
			old = time.After(time.Until(j.cur.opened.Add(j.maxAge)))
		}
		j.mu.Unlock()
		select {
		case <-j.s.closed:
			j.close()
			return
		case <-old:
			j.mu.Lock()
			if j.cur != nil && time.Since(j.cur.opened) >= j.maxAge {
				j.sealLocked()
			}
			j.mu.Unlock()
		case <-j.wake:
		}
		j.retireSealed(false)
	}
}

// retireSealed removes the sealed segments whose submitters have all written their files, after
// one sync of the file system makes those files durable. With wait it waits for the submitters.
func (j *subJournal) retireSealed(wait bool) {
	j.mu.Lock()
	var ready []*segment
	for len(j.sealed) > 0 {
		seg := j.sealed[0]
		if seg.inflight > 0 {
			if !wait {
				break
			}
			j.cond.Wait()
			continue
		}
		ready = append(ready, seg)
		j.sealed = j.sealed[1:]
	}
	j.mu.Unlock()
	if len(ready) == 0 {
		return
	}
	if err := syncFileSystem(j.fsys); err != nil {
		// The files may not be durable: keep the segments (and their locks), to retry later.
		j.s.log.Error("submission journal: syncing the file system failed; segments kept", "error", err)
		j.mu.Lock()
		j.sealed = append(ready, j.sealed...)
		j.mu.Unlock()
		return
	}
	for _, seg := range ready {
		seg.f.Close()
		if err := j.s.root.Remove(path.Join(journalDir, seg.name)); err != nil {
			j.s.log.Warn("submission journal: cannot remove a retired segment", "segment", seg.name, "error", err)
		}
	}
	_ = j.dir.Sync()
	j.mu.Lock()
	for _, seg := range ready {
		for _, k := range seg.keys {
			if j.live[k] == seg {
				delete(j.live, k)
			}
		}
	}
	j.mu.Unlock()
}

// close seals the current segment and retires every segment, so that a store closed cleanly
// leaves no journal behind.
func (j *subJournal) close() {
	j.mu.Lock()
	j.sealLocked()
	j.closed = true
	j.mu.Unlock()
	j.retireSealed(true)
	if j.dir != nil {
		j.dir.Close()
		j.fsys.Close()
	}
}

// replay rewrites the submission files that the segments of ended processes cover and that are
// missing or do not load, makes them durable, and removes those segments. Segments a live
// process holds (locked) are left alone.
func (j *subJournal) replay() error {
	dir, err := j.s.root.Open(journalDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	slices.Sort(names) // owner, then sequence: records in the order they were appended
	var orphans []*os.File
	var orphanNames []string
	defer func() {
		for _, f := range orphans {
			f.Close()
		}
	}()
	var recs []journalRecord
	for _, n := range names {
		if !strings.HasSuffix(n, journalExt) || strings.HasPrefix(n, ".") {
			continue
		}
		f, err := j.s.root.OpenFile(path.Join(journalDir, n), os.O_RDWR, 0)
		if err != nil {
			return err
		}
		if lockFile(f) != nil {
			f.Close() // a live process's
			continue
		}
		orphans = append(orphans, f)
		orphanNames = append(orphanNames, n)
		b, err := io.ReadAll(f)
		if err != nil {
			return fmt.Errorf("read %s: %w", n, err)
		}
		if !bytes.HasPrefix(b, []byte(journalMagic)) {
			continue // torn at creation: nothing was acknowledged from it
		}
		r, _ := parseRecords(b[len(journalMagic):])
		recs = append(recs, r...)
	}
	if len(orphans) == 0 {
		return nil
	}
	restored, err := j.s.restoreJournaled(recs)
	if err != nil {
		return err
	}
	if restored > 0 {
		cf, err := j.s.root.Open(j.s.opts.ContentDir)
		if err != nil {
			return err
		}
		err = syncFileSystem(cf)
		cf.Close()
		if err != nil {
			return err
		}
	}
	for _, n := range orphanNames {
		if err := j.s.root.Remove(path.Join(journalDir, n)); err != nil {
			return err
		}
	}
	if err := dir.Sync(); err != nil {
		return err
	}
	j.s.log.Info("submission journal replayed", "segments", len(orphanNames), "records", len(recs), "restored", restored)
	return nil
}

// restoreJournaled writes the submission files of records that are missing or do not hold the
// journaled bytes (a crash of the machine can leave a file written without fsync empty or cut),
// leaving out submissions with a delete record, and returns how many it wrote.
func (s *Store) restoreJournaled(recs []journalRecord) (int, error) {
	// A file name holds a new UUID: it is created once, so a delete record wins wherever it is
	// (segments of several ended processes are read one process after another).
	deleted := map[string]bool{}
	for _, r := range recs {
		if r.kind == recDelete {
			deleted[r.form+"/"+r.name] = true
		}
	}
	restored := 0
	for _, r := range recs {
		k := r.form + "/" + r.name
		if r.kind != recCreate || deleted[k] {
			continue
		}
		if _, err := ParseSubmission(r.form, r.name, r.raw); err != nil {
			continue // not a submission the store would have written
		}
		p := path.Join(s.submissionDir(r.form), r.name)
		if raw, err := s.root.ReadFile(p); err == nil {
			if bytes.Equal(raw, r.raw) {
				continue
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return restored, err
		}
		if err := atomicfile.Write(s.root, p, r.raw, atomicfile.Options{NoSync: true}); err != nil {
			return restored, err
		}
		deleted[k] = true // written once, even if journaled twice
		restored++
	}
	return restored, nil
}
