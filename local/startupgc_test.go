package main

import (
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"cms/runtime/wire"
)

func forcedGCs() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

var sink [][]byte

// TestStartupGC: a start that allocated little (from the index snapshot) does not wait for a
// forced collection; one that allocated much hands its garbage back after serving began; either
// way the collector's settings are restored. Not parallel: other tests' collections would count.
func TestStartupGC(t *testing.T) {
	gc, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	want := &wire.Services{}

	before := forcedGCs()
	got, err := withStartupGC(func() (*wire.Services, error) { return want, nil })
	if got != want || err != nil {
		t.Fatalf("withStartupGC = %p, %v; want the build's result", got, err)
	}
	if n := forcedGCs() - before; n != 0 {
		t.Errorf("a start that allocated nothing forced %d collections", n)
	}
	if g, l := debug.SetGCPercent(gc), debug.SetMemoryLimit(limit); g != 100 || l != limit {
		t.Errorf("after start-up: GC percent %d, memory limit %d; want 100, %d", g, l, limit)
	}
	debug.SetGCPercent(100)

	before = forcedGCs()
	if _, err := withStartupGC(func() (*wire.Services, error) {
		for range startupGarbage >> 20 {
			sink = append(sink, make([]byte, 1<<20))
		}
		sink = nil
		return want, nil
	}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); forcedGCs() == before; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the garbage of a large start-up was never handed back")
		}
	}
	debug.SetGCPercent(gc)
}
