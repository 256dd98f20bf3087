package atomicfile

import "sync"

// Batcher is a group commit: concurrent callers of Do hand it items, and one of them at a time
// (the leader) passes every item waiting at that moment to commit in one call, so that writers
// share one flush instead of paying one each. Do returns only after the commit that covered its
// item has returned, with that item's error. There is no background goroutine: the leader is a
// caller, and when it is done it hands the lead to a waiting caller.
type Batcher[T any] struct {
	// commit makes items durable and sets errs[i] for a failure of items[i].
	commit func(items []T, errs []error)

	mu      sync.Mutex
	leading bool
	queue   []*waiter[T]
}

type waiter[T any] struct {
	item T
	err  error
	wake chan bool // true: lead the next batch; false: committed, err is set
}

// NewBatcher returns a Batcher that commits with commit.
func NewBatcher[T any](commit func(items []T, errs []error)) *Batcher[T] {
	return &Batcher[T]{commit: commit}
}

// Do commits item, together with the items of concurrent callers, and returns its error.
func (b *Batcher[T]) Do(item T) error {
	w := &waiter[T]{item: item, wake: make(chan bool, 1)}
	b.mu.Lock()
	b.queue = append(b.queue, w)
	lead := !b.leading
	b.leading = true
	b.mu.Unlock()
	if !lead && !<-w.wake {
		return w.err
	}
	// Leading: this caller's item is still queued, since only a leader takes the queue.
	b.mu.Lock()
	batch := b.queue
	b.queue = nil
	b.mu.Unlock()
	b.run(batch)
	b.mu.Lock()
	if len(b.queue) > 0 {
		b.queue[0].wake <- true // the lead passes on; b.leading stays set
	} else {
		b.leading = false
	}
	b.mu.Unlock()
	return w.err
}

// run commits one batch and wakes its callers (the leader's own wake is buffered and unread).
func (b *Batcher[T]) run(batch []*waiter[T]) {
	if len(batch) == 0 {
		return
	}
	items := make([]T, len(batch))
	for i, w := range batch {
		items[i] = w.item
	}
	errs := make([]error, len(batch))
	b.commit(items, errs)
	for i, w := range batch {
		w.err = errs[i]
		w.wake <- false
	}
}
