package fsstore

import (
	"context"
	"errors"
	"time"

	"cms/content/internal/atomicfile"
)

// DefaultTempMaxAge is the age past which a temp file of an atomic write is taken for the
// leftover of a killed write: no write takes that long (a slow upload keeps touching its file).
const DefaultTempMaxAge = 10 * time.Minute

// sweepFolders are the site-relative folders whose leftover temp files a writable store removes.
func (s *Store) sweepFolders() []string {
	dirs := []string{s.opts.ContentDir, s.opts.ResourcesDir, s.opts.UsersDir, s.opts.AssetsDir, ".cms"}
	return append(dirs, s.opts.SweepDirs...)
}

// SweepTemp removes the temp files of atomic writes (atomicfile.IsTemp) older than
// Options.TempMaxAge under the content, resources, users and assets folders, .cms/ and
// Options.SweepDirs: a write killed before its rename leaves one, and some hold password hashes.
// It returns how many were removed. Writable stores run it in the background when they open.
func (s *Store) SweepTemp(ctx context.Context) (int, error) {
	if err := s.writable("fsstore.SweepTemp"); err != nil {
		return 0, err
	}
	cutoff := s.now().Add(-s.opts.TempMaxAge)
	total := 0
	var errs []error
	for _, dir := range s.sweepFolders() {
		n, err := atomicfile.SweepTemp(ctx, s.root, dir, cutoff)
		total += n
		if err != nil {
			errs = append(errs, err)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return total, errors.Join(errs...)
}

// sweepDelay is how long after opening a writable store sweeps: the sweep lists (and stats)
// every file of the site, which start-up need not compete with, and what it removes is older
// than TempMaxAge anyway.
const sweepDelay = 3 * time.Second

// sweepAtOpen runs SweepTemp once, sweepDelay after the store opened, stopping when the store
// closes, and logs what it removed.
func (s *Store) sweepAtOpen() {
	defer s.wg.Done()
	defer s.sweeping.Store(false)
	t := time.NewTimer(sweepDelay)
	defer t.Stop()
	select {
	case <-s.closed:
		return
	case <-t.C:
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-s.closed:
			cancel()
		case <-ctx.Done():
		}
	}()
	n, err := s.SweepTemp(ctx)
	if n > 0 {
		s.log.Info("removed temp files left by interrupted writes", "files", n, "olderThan", s.opts.TempMaxAge)
	}
	if err != nil && ctx.Err() == nil {
		s.log.Warn("sweeping temp files left by interrupted writes failed", "err", err)
	}
}
