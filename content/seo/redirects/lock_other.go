//go:build !unix

package redirects

import "os"

// lockFile is a no-op where flock is unavailable: the process mutex still holds.
func lockFile(*os.File) error { return nil }

func unlockFile(*os.File) error { return nil }
