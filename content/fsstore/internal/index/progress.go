package index

import (
	"context"
	"sync/atomic"
)

// ProgressEvery is how many entry files an index build reads between progress reports.
const ProgressEvery = 1000

type progressKey struct{}

// progress counts the entry files read under one context.
type progress struct {
	n      atomic.Int64
	report func(indexed int)
}

// WithProgress returns a context under which building the entry index from files (Open without
// a usable snapshot) calls report with the number of entry files read so far, every
// ProgressEvery files. report may be called from several goroutines at once. Like
// net/http/httptrace, the hook travels in the context because it observes one call (Open) deep
// inside the store, not a setting of the store.
func WithProgress(ctx context.Context, report func(indexed int)) context.Context {
	return context.WithValue(ctx, progressKey{}, &progress{report: report})
}

func progressFrom(ctx context.Context) *progress {
	p, _ := ctx.Value(progressKey{}).(*progress)
	return p
}

// read counts one entry file; p may be nil.
func (p *progress) read() {
	if p == nil {
		return
	}
	if n := p.n.Add(1); n%ProgressEvery == 0 {
		p.report(int(n))
	}
}
