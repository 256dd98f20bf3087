//go:build !unix

package index

import "os"

// lockFile is a no-op where flock is unavailable: one writer process per folder (spec rule 3)
// then has to hold without help.
func lockFile(*os.File) error { return nil }

func unlockFile(*os.File) error { return nil }
