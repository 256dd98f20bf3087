//go:build !linux

package fsstore

import "os"

// linkUnnamed reports done = false: unnamed temp files (O_TMPFILE) are Linux's, so other systems
// write a named temp file.
func linkUnnamed(dir *os.File, name string, data []byte, sync bool) (done bool, err error) {
	return false, nil
}
