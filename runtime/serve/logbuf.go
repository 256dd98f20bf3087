package serve

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// LogBuffer batches log lines: one access line per request written straight to a file or pipe
// is one write system call per request, a large share of a cached read's cost. Lines wait at
// most the given interval (or until size bytes wait) and keep their order; Close writes what
// is left. It writes directly until Batch is called, so start-up messages come out at once and
// in order with what the program prints. For long-running servers only: a Lambda function is
// frozen between invocations, so it writes its lines directly.
type LogBuffer struct {
	mu    sync.Mutex
	out   io.Writer
	buf   *bufio.Writer
	every time.Duration
	timer *time.Timer // pending flush; nil when nothing waits
	batch bool
}

// NewLogBuffer returns a LogBuffer in front of out.
func NewLogBuffer(out io.Writer, size int, every time.Duration) *LogBuffer {
	return &LogBuffer{out: out, buf: bufio.NewWriterSize(out, size), every: every}
}

// Write buffers p and makes sure it is written within the interval.
func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.batch {
		return b.out.Write(p)
	}
	n, err := b.buf.Write(p)
	if b.buf.Buffered() > 0 && b.timer == nil {
		b.timer = time.AfterFunc(b.every, b.flush)
	}
	return n, err
}

func (b *LogBuffer) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.timer = nil
	_ = b.buf.Flush()
}

// Batch starts batching lines.
func (b *LogBuffer) Batch() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.batch = true
}

// Close writes what waits; later lines are written directly.
func (b *LogBuffer) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	b.batch = false
	return b.buf.Flush()
}
