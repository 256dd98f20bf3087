//go:build !linux

package index

import (
	"os"
	"path"
)

// dirReader reads entry files of one collection folder through the site root.
type dirReader struct {
	root *os.Root
	path string
}

func newDirReader(root *os.Root, dir string) (*dirReader, error) {
	return &dirReader{root: root, path: dir}, nil
}

func (d *dirReader) close() {}

func (d *dirReader) read(name string, buf *[]byte) (raw []byte, size, mtime int64, err error) {
	return readVia(d.root, path.Join(d.path, name), buf)
}

func (d *dirReader) stamp(name string) (size, mtime int64, ok bool) {
	return stampVia(d.root, path.Join(d.path, name))
}
