package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Progress lines are throttled to one per interval, and none comes before the first interval.
func TestProgressLines(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := newProgressAt(&out, "entry files read", func() time.Time { return clock })
	p.report(1000) // at once: quiet
	clock = clock.Add(progressInterval / 2)
	p.report(2000)
	clock = clock.Add(progressInterval / 2)
	p.report(3000) // one interval in: shown
	p.report(4000) // right after: throttled
	clock = clock.Add(progressInterval)
	p.report(5000)
	if got, want := out.String(), "entry files read: 3000\nentry files read: 5000\n"; got != want {
		t.Errorf("output = %q, want %q", got, want)
	}
}

// Not on a terminal (a buffer, a file, a pipe), no progress is printed at all.
func TestProgressQuietWithoutTerminal(t *testing.T) {
	t.Parallel()
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, w := range []io.Writer{&bytes.Buffer{}, f} {
		if p := newProgress(w, "x"); p != nil {
			t.Errorf("progress printer on %T", w)
		}
	}
	var p *progressLines
	p.report(1) // the nil printer is silent
}
