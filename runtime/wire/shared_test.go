package wire_test

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"cms/runtime/wire"
)

func TestShared(t *testing.T) {
	t.Parallel()
	s := &wire.Services{}
	var builds atomic.Int32
	var wg sync.WaitGroup
	got := make([]*int, 8)
	for i := range got {
		wg.Go(func() {
			v, err := wire.Shared(s, "n", func() (*int, error) {
				builds.Add(1)
				n := 42
				return &n, nil
			})
			if err != nil {
				t.Error(err)
			}
			got[i] = v
		})
	}
	wg.Wait()
	if builds.Load() != 1 {
		t.Errorf("built %d times, want once", builds.Load())
	}
	for _, v := range got {
		if v != got[0] || *v != 42 {
			t.Fatalf("callers got different values")
		}
	}
	boom := errors.New("boom")
	for range 2 {
		if _, err := wire.Shared(s, "bad", func() (string, error) { return "", boom }); err != boom {
			t.Errorf("err = %v, want the build error every time", err)
		}
	}
}
