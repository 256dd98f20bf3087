package index

// The full-text index snapshot: .cms/search.snapshot, written with the index snapshot by
// writers and read by a process the first time it searches (not at start-up: it is larger than
// the index snapshot, and reading it there made a start from the snapshot 3.7 times slower).
//
//	header:  magic "CMSSERCH" | version u32 | CRC-32C of payload u32 | generation u64 | payload length u64
//	payload: uvarint #collections, then per collection: handle | search.Index.Encode
//
// It is never trusted for more than it says: every document carries the content hash it was
// indexed at, and ensureSearch re-reads each entry whose hash differs (or that it lacks), so a
// stale, foreign or older file costs re-reads, never wrong results. A file with another magic,
// version or checksum is ignored (the index is built from the files).

import (
	"cms/content/internal/bindec"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"unsafe"

	"cms/content/internal/atomicfile"
	"cms/content/search"
)

// SearchSnapshotFile holds the full-text indexes, relative to the site folder.
const SearchSnapshotFile = ".cms/search.snapshot"

const (
	searchMagic   = "CMSSERCH"
	searchVersion = 2 // 2: entries are tagged with their Version, not a SHA-256
	// searchRewriteAfter is how many entry changes make a writer rewrite the file with the next
	// index snapshot; fewer are cheaper to re-read at the first search than the file is to
	// rewrite.
	searchRewriteAfter = 256
)

type searchSnapState struct {
	mu       sync.Mutex
	stamp    [2]int64          // size and mtime of the file sections was read from
	sections map[string]string // collection -> encoded index
	changes  atomic.Int64      // entry changes since this process last wrote it
}

// searchSection returns the encoded full-text index of collection c from the search snapshot
// ("" when there is none or it cannot be used), reading the file again only when it changed.
func (s *Index) searchSection(c string) string {
	st := &s.searchSnap
	st.mu.Lock()
	defer st.mu.Unlock()
	fi, err := s.root.Stat(SearchSnapshotFile)
	if err != nil {
		st.sections = nil
		return ""
	}
	stamp := [2]int64{fi.Size(), fi.ModTime().UnixNano()}
	if st.sections == nil || stamp != st.stamp {
		st.stamp, st.sections = stamp, map[string]string{}
		raw, err := s.root.ReadFile(SearchSnapshotFile)
		if err == nil {
			st.sections, err = decodeSearchSnapshot(raw)
		}
		switch {
		case errors.Is(err, errOtherFormat):
			s.log.Info("full-text index snapshot is from another version; building from the files", "file", SearchSnapshotFile, "err", err)
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			s.log.Warn("full-text index snapshot ignored; building from the files", "file", SearchSnapshotFile, "err", err)
		}
	}
	return st.sections[c]
}

// writeSearchSnapshot writes every collection's full-text index (building those not built yet,
// and dropping them again once written) when there is no such file yet or enough entries
// changed since this process last wrote it (a stale file is safe: ensureSearch re-reads what
// changed). Called with the generation lock held, after the index snapshot of generation gen.
//
// An index built only for this goes to the file as it is encoded (search.Index.WriteTo, once to
// measure it and once to write it), never held whole: at 100,000 entries its encoding is ~66 MB,
// and holding that and a copy for the file beside the ~225 MiB index took a first start to
// ~710 MiB resident. One this process searches is encoded in memory (writes to the collection
// wait for the encoding, not for the disk).
func (s *Index) writeSearchSnapshot(gen uint64) error {
	st := &s.searchSnap
	if _, err := s.root.Stat(SearchSnapshotFile); err == nil && st.changes.Load() < searchRewriteAfter {
		return nil
	}
	colls := s.collections()
	var dropped int64 // bytes of full-text indexes let go
	st.changes.Store(0)
	err := atomicfile.WriteFrom(s.root, SearchSnapshotFile, func(w io.Writer) error {
		f, ok := w.(io.WriterAt)
		if !ok {
			return errors.New("the snapshot file cannot be written at an offset")
		}
		if _, err := w.Write(make([]byte, snapHeaderSize)); err != nil { // written last, below
			return err
		}
		p := &crcWriter{w: w}
		if _, err := p.Write(binary.AppendUvarint(nil, uint64(len(colls)))); err != nil {
			return err
		}
		for _, c := range colls {
			ix, err := s.index(c.Handle)
			if err != nil {
				return err
			}
			ix.mu.RLock()
			had := ix.search != nil
			ix.mu.RUnlock()
			ix.ensureSearch(s)
			var sec section
			if had {
				// In use by this process's searches, and updated by its writes: encoded
				// under the read lock (writes wait for the encoding, not for the disk).
				ix.mu.RLock()
				sec.enc = ix.search.Encode(nil)
				ix.mu.RUnlock()
			} else {
				// Built only to be written: taken out at once, so it is written without
				// holding any lock (a later change is re-read at the first search: its hash
				// differs), and let go after. A process started from the snapshot holds no
				// full-text index until its first search, and this one need not either (at
				// 100,000 entries of 2 KB it is ~225 MiB); the first search reads it back
				// from the file just written.
				ix.mu.Lock()
				sec.ix, ix.search = ix.search, nil
				ix.mu.Unlock()
			}
			if err := sec.writeTo(p, c.Handle); err != nil {
				return err
			}
			if sec.ix != nil {
				dropped += sec.ix.MemoryBytes()
			}
		}
		h := make([]byte, snapHeaderSize)
		copy(h, searchMagic)
		binary.LittleEndian.PutUint32(h[8:], searchVersion)
		binary.LittleEndian.PutUint32(h[12:], p.crc)
		binary.LittleEndian.PutUint64(h[16:], gen)
		binary.LittleEndian.PutUint64(h[24:], uint64(p.n))
		_, err := f.WriteAt(h, 0)
		return err
	}, atomicfile.Options{NoSync: s.opts.NoSync})
	if dropped >= releaseAfter {
		// Hundreds of MiB at 100,000 entries, let go by a process that may now sit idle: with
		// no allocation no collection comes to free them, and the runtime's scavenger hands
		// freed memory back at about 1 % of a CPU, so the first start stayed ~770 MiB resident
		// where a start from the snapshot needs ~230. One collection now, in the background.
		debug.FreeOSMemory()
	}
	return err
}

// section is a collection's full-text index to write: encoded already, or to encode as it goes.
type section struct {
	enc []byte
	ix  *search.Index
}

// writeTo writes the section of collection handle to w: its handle, its length and its encoding.
func (sec section) writeTo(w io.Writer, handle string) error {
	n := int64(len(sec.enc))
	if sec.ix != nil {
		n, _ = sec.ix.WriteTo(io.Discard)
	}
	head := binary.AppendUvarint(nil, uint64(len(handle)))
	head = binary.AppendUvarint(append(head, handle...), uint64(n))
	if _, err := w.Write(head); err != nil {
		return err
	}
	if sec.ix == nil {
		_, err := w.Write(sec.enc)
		return err
	}
	m, err := sec.ix.WriteTo(w)
	if err == nil && m != n {
		err = fmt.Errorf("full-text index of %s: encoded to %d bytes, then %d", handle, n, m)
	}
	return err
}

// crcWriter passes writes on, counting them and keeping their CRC-32C.
type crcWriter struct {
	w   io.Writer
	crc uint32
	n   int64
}

func (c *crcWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.crc = crc32.Update(c.crc, castagnoli, b[:n])
	c.n += int64(n)
	return n, err
}

// releaseAfter is how much memory writeSearchSnapshot must have let go before it returns it to
// the system at once (a full collection: not worth it for small sites).
const releaseAfter = 64 << 20

// decodeSearchSnapshot checks the header and splits the payload into collections; the sections
// share raw's memory and are decoded (and checked) by search.Decode when first used.
func decodeSearchSnapshot(raw []byte) (map[string]string, error) {
	if len(raw) < snapHeaderSize || string(raw[:8]) != searchMagic {
		return nil, fmt.Errorf("%w: bad magic", errCorrupt)
	}
	if v := binary.LittleEndian.Uint32(raw[8:]); v != searchVersion {
		return nil, fmt.Errorf("%w: format %d, this version reads %d", errOtherFormat, v, searchVersion)
	}
	if n := binary.LittleEndian.Uint64(raw[24:]); n != uint64(len(raw)-snapHeaderSize) {
		return nil, fmt.Errorf("%w: payload is %d bytes, header says %d", errCorrupt, len(raw)-snapHeaderSize, n)
	}
	payload := raw[snapHeaderSize:]
	if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(raw[12:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", errCorrupt)
	}
	d := snapDecoder{Decoder: bindec.Decoder{S: unsafe.String(unsafe.SliceData(payload), len(payload)), Corrupt: errCorrupt}}
	n := d.Count(2)
	out := make(map[string]string, n)
	for range n {
		h, sec := d.Str(), d.Str()
		if d.Err != nil {
			return nil, d.Err
		}
		out[h] = sec
	}
	if d.Err == nil && d.Off != len(d.S) {
		d.Fail("trailing bytes")
	}
	if d.Err != nil {
		return nil, d.Err
	}
	return out, nil
}
