package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"

	"cms/content/fsstore"
)

// progressInterval is how often a progress line is printed, and how long work runs before the
// first one: short work stays silent.
const progressInterval = time.Second

// progressLines prints "<what>: N" lines to a terminal while long work runs. Whole lines rather
// than a line redrawn with \r, because the server's log shares the terminal.
type progressLines struct {
	w    io.Writer
	what string
	now  func() time.Time

	mu   sync.Mutex
	next time.Time
}

// newProgress returns a progress printer for w, or nil (which prints nothing) when w is not a
// terminal, so pipes, files and CI logs stay quiet.
func newProgress(w io.Writer, what string) *progressLines {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return newProgressAt(w, what, time.Now)
}

func newProgressAt(w io.Writer, what string, now func() time.Time) *progressLines {
	return &progressLines{w: w, what: what, now: now, next: now().Add(progressInterval)}
}

// report prints n when progressInterval has passed since the last line (or the start). It is
// safe for concurrent use.
func (p *progressLines) report(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if now := p.now(); !now.Before(p.next) {
		fmt.Fprintf(p.w, "%s: %d\n", p.what, n)
		p.next = now.Add(progressInterval)
	}
}

// withIndexProgress returns ctx with the store's index build reporting to e.stderr when it is
// a terminal.
func withIndexProgress(ctx context.Context, e env) context.Context {
	if p := newProgress(e.stderr, "entry files read"); p != nil {
		return fsstore.WithProgress(ctx, p.report)
	}
	return ctx
}
