package imaging

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path"
	"sync"
	"sync/atomic"
	"time"

	"cms/content"
	"cms/content/imgurl"
	"cms/content/internal/atomicfile"
	"cms/content/lru"
)

// DerivativesDir is where a writable site keeps derivatives, relative to the site folder. Like
// everything under .cms/ it may be deleted at any time: derivatives are made again on demand.
const DerivativesDir = ".cms/derivatives"

// maxDerivativeBytes bounds a derivative read back from disk (a 4096×4096 PNG of noise is about
// 64 MiB; anything larger is not ours).
const maxDerivativeBytes = 96 << 20

// refusedBytes is the budget of the refusals remembered (about a thousand).
const refusedBytes = 256 << 10

// Options configure a Transformer.
type Options struct {
	// MaxPixels is the largest source decoded; 0 means DefaultMaxPixels.
	MaxPixels int64
	// MaxConcurrent transforms run at once (each holds a decoded image); 0 means 2.
	MaxConcurrent int
	// MaxPending transforms may wait for a slot; beyond that Get refuses with Unavailable
	// (503), so a flood of distinct requests queues no unbounded work. 0 means 32.
	MaxPending int
	// MemoryBytes is the budget of the in-memory cache; <= 0 keeps nothing in memory.
	MemoryBytes int64
	// Dir is the site folder, whose DerivativesDir holds derivatives on disk; "" keeps none
	// there (a read-only site).
	Dir string
	// NoSync skips fsyncs of disk writes (tests and benchmarks only).
	NoSync bool
	Log    *slog.Logger
}

// Transformer makes and caches derivatives. It is safe for concurrent use.
type Transformer struct {
	opts   Options
	memory *lru.Cache[string, *Derivative]
	// refused remembers sources refused as Invalid (too large, not an image) by key, so asking
	// again costs no second decode attempt.
	refused *lru.Cache[string, error]
	disk    *os.Root // nil: no disk cache
	slots   chan struct{}

	mu      sync.Mutex
	flights map[string]*flight
	running sync.WaitGroup // flights, until their disk write is done

	made atomic.Uint64
}

type flight struct {
	done    chan struct{}
	waiters int // requests that asked for it (under Transformer.mu)
	d       *Derivative
	err     error
}

// New builds a Transformer; with Options.Dir it creates the derivatives folder.
func New(o Options) (*Transformer, error) {
	if o.MaxPixels <= 0 {
		o.MaxPixels = DefaultMaxPixels
	}
	if o.MaxConcurrent <= 0 {
		o.MaxConcurrent = 2
	}
	if o.MaxPending <= 0 {
		o.MaxPending = 32
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	t := &Transformer{
		opts:    o,
		memory:  lru.New[string, *Derivative](o.MemoryBytes),
		refused: lru.New[string, error](refusedBytes),
		slots:   make(chan struct{}, o.MaxConcurrent),
		flights: map[string]*flight{},
	}
	if o.Dir != "" {
		root, err := os.OpenRoot(o.Dir)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		if err := root.MkdirAll(DerivativesDir, 0o755); err != nil {
			return nil, err
		}
		if t.disk, err = root.OpenRoot(DerivativesDir); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Wait waits until the transforms under way are made and stored.
func (t *Transformer) Wait() { t.running.Wait() }

// Close waits for the transforms under way and releases the disk cache's folder.
func (t *Transformer) Close() error {
	t.Wait()
	if t.disk != nil {
		return t.disk.Close()
	}
	return nil
}

// Cache is the in-memory cache, for the readiness details.
func (t *Transformer) Cache() lru.Statser { return t.memory }

// Made is how many derivatives were made (not found in a cache) so far.
func (t *Transformer) Made() uint64 { return t.made.Load() }

// Source is the image a derivative is made from. Size and ModTime name its version: a changed
// file gets new derivatives.
type Source struct {
	Path    string // relative to the assets folder
	Size    int64
	ModTime time.Time
	Open    func() (io.ReadSeekCloser, error)
}

// Key names the derivative of src with p: a hash of the path, the source's version and p's
// canonical query.
func Key(src Source, p imgurl.Params) string {
	h := sha256.New()
	h.Write([]byte(src.Path))
	var v [17]byte
	binary.BigEndian.PutUint64(v[1:], uint64(src.Size))
	binary.BigEndian.PutUint64(v[9:], uint64(src.ModTime.UnixNano()))
	h.Write(v[:])
	h.Write([]byte(p.Encode()))
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Get returns p's derivative of src: from memory, from disk, or made now. Requests for one
// derivative share one transform; a request whose ctx ends stops waiting, the transform goes on
// for the others and the caches.
func (t *Transformer) Get(ctx context.Context, src Source, p imgurl.Params) (*Derivative, error) {
	key := Key(src, p)
	if d, ok := t.memory.Get(key); ok {
		return d, nil
	}
	if err, ok := t.refused.Get(key); ok {
		return nil, err
	}
	if d := t.readDisk(key); d != nil {
		t.memory.Put(key, d, int64(len(d.Data)+len(key)))
		return d, nil
	}
	t.mu.Lock()
	f, ok := t.flights[key]
	if !ok {
		if len(t.flights) >= t.opts.MaxConcurrent+t.opts.MaxPending {
			t.mu.Unlock()
			return nil, &content.Error{Kind: content.Unavailable, Op: "imaging.Get", Code: "TRANSFORMS_BUSY",
				Message: "Too many image transforms are in progress; try again shortly"}
		}
		f = &flight{done: make(chan struct{})}
		t.flights[key] = f
		t.running.Add(1)
		go t.run(key, f, src, p)
	}
	f.waiters++
	t.mu.Unlock()
	select {
	case <-f.done:
		return f.d, f.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// run makes one derivative when a slot is free, caches it and releases the flight's waiters.
// The flight stays findable (and done) until the derivative is on disk, so nobody makes it again
// meanwhile.
func (t *Transformer) run(key string, f *flight, src Source, p imgurl.Params) {
	defer t.running.Done()
	t.slots <- struct{}{}
	start := time.Now()
	f.d, f.err = t.make(src, p, key)
	<-t.slots
	switch {
	case f.err == nil:
		t.made.Add(1)
		t.opts.Log.Info("derivative made", "path", src.Path, "params", p.Encode(), "bytes", len(f.d.Data), "ms", time.Since(start).Milliseconds())
		t.memory.Put(key, f.d, int64(len(f.d.Data)+len(key)))
	case content.KindOf(f.err) == content.Invalid:
		t.refused.Put(key, f.err, 128)
	default:
		t.opts.Log.Error("image transform failed", "path", src.Path, "params", p.Encode(), "err", f.err)
	}
	close(f.done)
	if f.err == nil && t.disk != nil {
		name := path.Join(key[:2], key)
		if err := atomicfile.Write(t.disk, name, f.d.Data, atomicfile.Options{NoSync: t.opts.NoSync}); err != nil {
			t.opts.Log.Warn("derivative not stored on disk", "path", src.Path, "err", err)
		}
	}
	t.mu.Lock()
	delete(t.flights, key)
	t.mu.Unlock()
}

// make runs outside any request, so a panic in a decoder is turned into an error here rather
// than ending the process.
func (t *Transformer) make(src Source, p imgurl.Params, key string) (d *Derivative, err error) {
	defer func() {
		if v := recover(); v != nil {
			d, err = nil, content.Internalf("imaging.Transform", src.Path, fmt.Errorf("panic: %v", v))
		}
	}()
	r, err := src.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, ctype, err := Transform(r, p, t.opts.MaxPixels)
	if err != nil {
		if ce, ok := errors.AsType[*content.Error](err); ok {
			ce.Path = src.Path
		}
		return nil, err
	}
	return &Derivative{Data: data, ContentType: ctype, ETag: `"` + key + `"`}, nil
}

// readDisk returns the derivative stored under key, or nil.
func (t *Transformer) readDisk(key string) *Derivative {
	if t.disk == nil {
		return nil
	}
	f, err := t.disk.Open(path.Join(key[:2], key))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			t.opts.Log.Warn("derivative not read from disk", "err", err)
		}
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxDerivativeBytes+1))
	if err != nil || len(data) == 0 || len(data) > maxDerivativeBytes {
		return nil
	}
	// Only what this package writes is served: anything else there is a miss, made again.
	ctype := http.DetectContentType(data)
	if ctype != "image/webp" && ctype != "image/jpeg" && ctype != "image/png" {
		return nil
	}
	return &Derivative{Data: data, ContentType: ctype, ETag: `"` + key + `"`}
}
