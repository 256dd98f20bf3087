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
	"io/fs"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"unsafe"

	"cms/content/internal/atomicfile"
)

// SearchSnapshotFile holds the full-text indexes, relative to the site folder.
const SearchSnapshotFile = ".cms/search.snapshot"

const (
	searchMagic   = "CMSSERCH"
	searchVersion = 1
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
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			s.log.Warn("full-text index snapshot ignored; building from the files", "file", SearchSnapshotFile, "err", err)
		}
	}
	return st.sections[c]
}

// writeSearchSnapshot writes every collection's full-text index (building those not built yet,
// and dropping them again once written) when there is no such file yet or enough entries
// changed since this process last wrote it (a stale file is safe: ensureSearch re-reads what
// changed). Called with the generation lock held, after the index snapshot of generation gen.
func (s *Index) writeSearchSnapshot(gen uint64) error {
	st := &s.searchSnap
	if _, err := s.root.Stat(SearchSnapshotFile); err == nil && st.changes.Load() < searchRewriteAfter {
		return nil
	}
	b := make([]byte, snapHeaderSize, 1<<20)
	colls := s.collections()
	var dropped int64 // bytes of full-text indexes let go
	b = binary.AppendUvarint(b, uint64(len(colls)))
	for _, c := range colls {
		ix, err := s.index(c.Handle)
		if err != nil {
			return err
		}
		ix.mu.RLock()
		had := ix.search != nil
		ix.mu.RUnlock()
		ix.ensureSearch(s)
		ix.mu.RLock()
		b = binary.AppendUvarint(b, uint64(len(c.Handle)))
		b = append(b, c.Handle...)
		enc := ix.search.Encode(nil)
		ix.mu.RUnlock()
		if !had {
			// Built only to be written: let it go. A process started from the snapshot holds
			// no full-text index until its first search, and this one need not either (at
			// 100,000 entries of 2 KB it is ~225 MiB); the first search reads it back from the
			// file just written.
			ix.mu.Lock()
			if ix.search != nil {
				dropped += ix.search.MemoryBytes()
			}
			ix.search = nil
			ix.mu.Unlock()
		}
		b = binary.AppendUvarint(b, uint64(len(enc)))
		b = append(b, enc...)
	}
	payload := b[snapHeaderSize:]
	copy(b, searchMagic)
	binary.LittleEndian.PutUint32(b[8:], searchVersion)
	binary.LittleEndian.PutUint32(b[12:], crc32.Checksum(payload, castagnoli))
	binary.LittleEndian.PutUint64(b[16:], gen)
	binary.LittleEndian.PutUint64(b[24:], uint64(len(payload)))
	st.changes.Store(0)
	err := atomicfile.Write(s.root, SearchSnapshotFile, b, atomicfile.Options{NoSync: s.opts.NoSync})
	if dropped+int64(cap(b)) >= releaseAfter {
		// Hundreds of MiB at 100,000 entries, let go by a process that may now sit idle: with
		// no allocation no collection comes to free them, and the runtime's scavenger hands
		// freed memory back at about 1 % of a CPU, so the first start stayed ~770 MiB resident
		// where a start from the snapshot needs ~230. One collection now, in the background.
		b = nil
		debug.FreeOSMemory()
	}
	return err
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
		return nil, fmt.Errorf("%w: format version %d, want %d", errCorrupt, v, searchVersion)
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
