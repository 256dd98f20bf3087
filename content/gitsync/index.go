package gitsync

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// errIndexFormat means patchIndex cannot edit this index in place (version 4's compressed
// names, a mandatory extension such as a split index): updateIndex decodes it instead, or
// leaves it alone.
var errIndexFormat = errors.New("index format not patched in place")

// indexEdit is what a commit does to one path's index entry.
type indexEdit struct {
	c      change
	was    plumbing.Hash // the blob HEAD had; zero when the path was not in HEAD
	inHead bool
}

// patchIndex applies edits to a version 2 or 3 index, as bytes: it walks the entries without
// decoding them, so that at 100,000 entries the update costs a copy and a SHA-1, not a parse
// and a re-encode (BenchmarkCommitOneFileOf100k). Optional extensions are dropped (they are caches
// git rebuilds: the cache tree, the untracked cache, offset tables), which is also what keeps
// them from being stale.
func patchIndex(raw []byte, edits []indexEdit, root string) ([]byte, error) {
	if len(raw) < 12+20 || string(raw[:4]) != "DIRC" {
		return nil, errIndexFormat
	}
	version := binary.BigEndian.Uint32(raw[4:8])
	if version != 2 && version != 3 {
		return nil, errIndexFormat
	}
	n := int(binary.BigEndian.Uint32(raw[8:12]))
	if n > len(raw)/62 {
		return nil, errIndexFormat // more entries than the bytes can hold
	}
	type entry struct {
		start, end int
		name       string
		stage      int
		plain      bool // no extended flags (skip-worktree, intent-to-add)
	}
	entries := make([]entry, 0, n)
	off := 12
	body := raw[:len(raw)-20]
	for range n {
		if off+62 > len(body) {
			return nil, errIndexFormat
		}
		flags := binary.BigEndian.Uint16(body[off+60:])
		nameAt := off + 62
		plain := true
		if flags&0x4000 != 0 {
			if version < 3 || off+64 > len(body) {
				return nil, errIndexFormat
			}
			plain = binary.BigEndian.Uint16(body[off+62:]) == 0
			nameAt += 2
		}
		nul := bytes.IndexByte(body[nameAt:], 0)
		if nul < 0 {
			return nil, errIndexFormat
		}
		end := off + (nameAt-off+nul+8)&^7
		if end > len(body) {
			return nil, errIndexFormat
		}
		entries = append(entries, entry{start: off, end: end, name: string(body[nameAt : nameAt+nul]), stage: int(flags>>12) & 3, plain: plain})
		off = end
	}
	for ext := off; ext < len(body); {
		if ext+8 > len(body) || ext+8+int(binary.BigEndian.Uint32(body[ext+4:])) > len(body) {
			return nil, errIndexFormat
		}
		if sig := body[ext]; sig < 'A' || sig > 'Z' {
			return nil, errIndexFormat // a mandatory extension: not ours to rewrite
		}
		ext += 8 + int(binary.BigEndian.Uint32(body[ext+4:]))
	}

	byName := make(map[string]int, len(edits))
	for i, e := range edits {
		byName[e.c.path] = i
	}
	var dels []indexEdit
	for _, e := range edits {
		if e.c.del {
			dels = append(dels, e)
		}
	}
	drop := make([]bool, len(entries))
	replace := map[int][]byte{}
	var inserts []string
	for i, e := range entries {
		if k, ok := byName[e.name]; ok && e.stage == 0 {
			ed := edits[k]
			if !e.plain || !ed.inHead || !bytes.Equal(body[e.start+40:e.start+60], ed.was[:]) {
				continue // the user staged something else for this path: theirs stays
			}
			if ed.c.del {
				drop[i] = true
			} else {
				replace[i] = indexEntry(ed.c)
			}
		}
		for _, ed := range dels { // entries of a removed folder whose files are gone
			if strings.HasPrefix(e.name, ed.c.path+"/") {
				if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(e.name))); errors.Is(err, fs.ErrNotExist) {
					drop[i] = true
				}
			}
		}
	}
	have := make(map[string]bool, len(edits))
	for _, e := range entries {
		if _, ok := byName[e.name]; ok {
			have[e.name] = true
		}
	}
	for _, ed := range edits {
		if !ed.c.del && !ed.inHead && !have[ed.c.path] {
			inserts = append(inserts, ed.c.path)
		}
	}
	slices.Sort(inserts)
	inserts = slices.Compact(inserts)

	out := make([]byte, 0, len(raw)+len(inserts)*96)
	out = append(out, raw[:12]...)
	count := 0
	next := 0
	emitInserts := func(before string, all bool) {
		for next < len(inserts) && (all || inserts[next] < before) {
			out = append(out, indexEntry(edits[byName[inserts[next]]].c)...)
			next++
			count++
		}
	}
	for i, e := range entries {
		emitInserts(e.name, false)
		switch {
		case drop[i]:
			continue
		case replace[i] != nil:
			out = append(out, replace[i]...)
		default:
			out = append(out, body[e.start:e.end]...)
		}
		count++
	}
	emitInserts("", true)
	binary.BigEndian.PutUint32(out[8:12], uint32(count))
	sum := sha1.Sum(out)
	return append(out, sum[:]...), nil
}

// indexEntry encodes a version 2 index entry for a committed file. Only the modification time
// and size of the stat data are filled: git sees the rest differ, compares the content once,
// and refreshes the entry.
func indexEntry(c change) []byte {
	name := c.path
	size := (62 + len(name) + 8) &^ 7
	b := make([]byte, size)
	if c.info != nil {
		mt := c.info.ModTime()
		binary.BigEndian.PutUint32(b[8:], uint32(mt.Unix()))
		binary.BigEndian.PutUint32(b[12:], uint32(mt.Nanosecond()))
		binary.BigEndian.PutUint32(b[36:], uint32(c.info.Size()))
	}
	binary.BigEndian.PutUint32(b[24:], uint32(c.mode))
	copy(b[40:60], c.hash[:])
	binary.BigEndian.PutUint16(b[60:], uint16(min(len(name), 0xFFF)))
	copy(b[62:], name)
	return b
}
