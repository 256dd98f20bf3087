package gitsync

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"os"
	"path"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// storeTree writes a tree as a loose object, encoded here and Huffman-compressed only. go-git
// encodes with a formatted print per entry and compresses at the default level, and the tree of
// a folder of 100,000 entries is some 4 MB: that took most of a commit's time
// (BenchmarkCommitOneFileOf100k). Names are what compresses; hashes do not. git gc repacks.
func (g *gitRepo) storeTree(t *object.Tree) (plumbing.Hash, error) {
	size := 0
	for _, e := range t.Entries {
		size += 7 + len(e.Name) + 1 + len(e.Hash)
	}
	data := make([]byte, 0, size)
	for _, e := range t.Entries {
		data = strconv.AppendUint(data, uint64(e.Mode), 8) // 40000 for a folder, as git writes it
		data = append(data, ' ')
		data = append(data, e.Name...)
		data = append(data, 0)
		data = append(data, e.Hash[:]...)
	}
	h := plumbing.ComputeHash(plumbing.TreeObject, data)
	if g.r.Storer.HasEncodedObject(h) == nil {
		return h, nil
	}
	st, ok := g.r.Storer.(*filesystem.Storage)
	if !ok {
		return g.store(t)
	}
	fs := st.Filesystem()
	hex := h.String()
	dir := path.Join("objects", hex[:2])
	if err := fs.MkdirAll(dir, 0o755); err != nil {
		return plumbing.ZeroHash, err
	}
	f, err := fs.TempFile(dir, "tmp_obj_")
	if err != nil {
		return plumbing.ZeroHash, err
	}
	var buf bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&buf, zlib.HuffmanOnly)
	zw.Write([]byte("tree " + strconv.Itoa(len(data)) + "\x00"))
	zw.Write(data)
	err = zw.Close()
	if err == nil {
		_, err = f.Write(buf.Bytes())
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fs.Rename(f.Name(), path.Join(dir, hex[2:]))
		if errors.Is(err, os.ErrExist) {
			err = nil // written meanwhile: the same bytes
		}
	}
	if err != nil {
		_ = fs.Remove(f.Name())
		return plumbing.ZeroHash, fmt.Errorf("write tree %s: %w", hex, err)
	}
	return h, nil
}
