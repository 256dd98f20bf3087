//go:build !linux

package fsstore

import "os"

// linkUnnamed reports done = false: unnamed temp files (O_TMPFILE) are Linux's, so other systems
// write a named temp file.
func linkUnnamed(dir *os.File, name string, data []byte, sync bool) (done bool, err error) {
	return false, nil
}

// openUnnamed returns nil: no unnamed files here.
func openUnnamed(dir *os.File, data []byte) (*os.File, error) { return nil, nil }

// linkUnnamedFile reports done = false: no unnamed files here.
func linkUnnamedFile(f, dir *os.File, name string) (done bool, err error) { return false, nil }
