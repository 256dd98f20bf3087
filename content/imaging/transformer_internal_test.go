package imaging

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cms/content/imaging/imagingtest"
	"cms/content/imgurl"
)

type readSeekNopCloser struct{ *bytes.Reader }

func (readSeekNopCloser) Close() error { return nil }

// N requests for one derivative while it is being made share one transform and get the same
// bytes; the source is opened once.
func TestSingleFlight(t *testing.T) {
	t.Parallel()
	tr, err := New(Options{MemoryBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	jpg := imagingtest.JPEG(imagingtest.Quadrants(64, 48), 0, "")
	release := make(chan struct{})
	var opens atomic.Int32
	src := Source{Path: "a.jpg", Size: int64(len(jpg)), ModTime: time.Unix(1, 0), Open: func() (io.ReadSeekCloser, error) {
		opens.Add(1)
		<-release // hold the transform until every request waits for it
		return readSeekNopCloser{bytes.NewReader(jpg)}, nil
	}}
	p := imgurl.Params{Width: 32, Format: imgurl.PNG}
	const n = 8
	var wg sync.WaitGroup
	results := make([]*Derivative, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { results[i], errs[i] = tr.Get(context.Background(), src, p) })
	}
	waiters := func() int {
		tr.mu.Lock()
		defer tr.mu.Unlock()
		if f := tr.flights[Key(src, p)]; f != nil {
			return f.waiters
		}
		return 0
	}
	for deadline := time.Now().Add(time.Minute); waiters() < n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) { // a failure guard only
			t.Fatalf("only %d of %d requests joined the transform", waiters(), n)
		}
	}
	close(release)
	wg.Wait()
	for i := range n {
		if errs[i] != nil || results[i] == nil || !bytes.Equal(results[i].Data, results[0].Data) {
			t.Fatalf("request %d: %v", i, errs[i])
		}
	}
	if tr.Made() != 1 || opens.Load() != 1 {
		t.Errorf("made %d derivatives and opened the source %d times, want 1 and 1", tr.Made(), opens.Load())
	}
	// Later requests are cache hits.
	if _, err := tr.Get(context.Background(), src, p); err != nil || tr.Made() != 1 {
		t.Errorf("cached Get: %v, made %d", err, tr.Made())
	}
}

// Beyond MaxConcurrent running and MaxPending waiting transforms, Get refuses at once.
func TestPendingBound(t *testing.T) {
	t.Parallel()
	tr, err := New(Options{MaxConcurrent: 1, MaxPending: 1})
	if err != nil {
		t.Fatal(err)
	}
	jpg := imagingtest.JPEG(imagingtest.Quadrants(16, 16), 0, "")
	release := make(chan struct{})
	src := func(name string) Source {
		return Source{Path: name, Open: func() (io.ReadSeekCloser, error) {
			<-release
			return readSeekNopCloser{bytes.NewReader(jpg)}, nil
		}}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := imgurl.Params{Width: 8}
	var wg sync.WaitGroup
	for _, name := range []string{"a.jpg", "b.jpg"} {
		wg.Go(func() { _, _ = tr.Get(ctx, src(name), p) })
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		tr.mu.Lock()
		n := len(tr.flights)
		tr.mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("transforms did not start")
		}
	}
	_, err = tr.Get(ctx, src("c.jpg"), p)
	if err == nil || !strings.Contains(err.Error(), "Too many image transforms") {
		t.Errorf("third transform: %v, want a refusal", err)
	}
	close(release)
	wg.Wait()
}

// A refused source (here: not decodable past its header) is tried once; asking again returns
// the same refusal without opening it.
func TestRefusalRemembered(t *testing.T) {
	t.Parallel()
	tr, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	bad := imagingtest.HugePNG(100, 100) // a header of 100×100, the data of 1×1
	var opens atomic.Int32
	src := Source{Path: "bad.png", Size: int64(len(bad)), Open: func() (io.ReadSeekCloser, error) {
		opens.Add(1)
		return readSeekNopCloser{bytes.NewReader(bad)}, nil
	}}
	for range 3 {
		if _, err := tr.Get(context.Background(), src, imgurl.Params{Width: 10}); err == nil || !strings.Contains(err.Error(), "can be transformed") {
			t.Fatalf("Get = %v, want a refusal", err)
		}
	}
	if opens.Load() != 1 {
		t.Errorf("source opened %d times, want 1", opens.Load())
	}
}

// A panic while making a derivative (it runs outside any request) is an error for its waiters,
// not the end of the process.
func TestPanicIsAnError(t *testing.T) {
	t.Parallel()
	tr, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := Source{Path: "p.jpg", Open: func() (io.ReadSeekCloser, error) { panic("decoder bug") }}
	if _, err := tr.Get(context.Background(), src, imgurl.Params{Width: 1}); err == nil || !strings.Contains(err.Error(), "decoder bug") {
		t.Errorf("Get = %v, want the panic as an error", err)
	}
}
