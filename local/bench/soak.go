package main

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// soakHeadroomMiB is what a process needs beyond its Go soft limit: the binary's resident pages
// and the runtime's, as on Lambda, where a function of M MiB gets a limit of M - 32.
const soakHeadroomMiB = 32

// soakBudgetMiB is the peak RSS a soak may reach on a site of n entries: with -soak-limit-mib
// (the memory.limitMiB the soak configures), that limit plus soakHeadroomMiB, the memory a
// Lambda function with that limit has; else issue 18's target for the size with default
// settings; else 0 (no budget known).
func soakBudgetMiB(o options, n int) float64 {
	if o.soakLimitMiB > 0 {
		return float64(o.soakLimitMiB + soakHeadroomMiB)
	}
	return peakTargetMiB(n)
}

// soakMix is the soak's request mix by a worker's sequence number: mostly cached single entries,
// then uncached lists (the most garbage per request), rendered pages and a cached list.
func soakMix(entry, uncached, page, list func(int, uint64) string) func(int, uint64) string {
	return func(w int, seq uint64) string {
		switch seq % 10 {
		case 0, 1, 2, 3, 4, 5:
			return entry(w, seq)
		case 6, 7:
			return uncached(w, seq)
		case 8:
			return page(w, seq)
		default:
			return list(w, seq)
		}
	}
}

// soak runs a mixed GET load against cms on the load site for o.soak, samples its RSS every
// second and fails when the peak (VmHWM) exceeds the budget or a request fails: the opt-in
// `make soak`, which takes minutes and so is not part of `make test`.
func (b *bench) soak(ctx context.Context) error {
	n := b.o.loadSize
	budget := soakBudgetMiB(b.o, n)
	if budget <= 0 {
		return fmt.Errorf("-soak: no memory budget for %d entries; give -soak-limit-mib", n)
	}
	site, err := b.site(n)
	if err != nil {
		return err
	}
	facts := factsOf(n)
	if len(facts.published) == 0 {
		return fmt.Errorf("the load site has no published entries")
	}
	if err := writeTheme(site, facts); err != nil {
		return err
	}
	cms, _, err := b.startCMS(ctx, n, "soak")
	if err != nil {
		return err
	}
	defer cms.stop()
	// As the load scenarios do: the first start's background work (the index and full-text
	// snapshots, whose building holds every body's words for a moment) is start-up, not load.
	if err := b.settle(ctx, cms, n); err != nil {
		return err
	}
	s := &session{b: b, cms: cms, facts: facts}
	sc := scenario{name: "soak", base: cms, method: http.MethodGet,
		path: soakMix(s.entry().path, s.listUncached().path, s.page().path, s.list().path)}
	settings := "default settings"
	if b.o.soakLimitMiB > 0 {
		settings = "memory.limitMiB " + strconv.Itoa(b.o.soakLimitMiB)
	}
	b.printf("soak: %v of mixed GETs (6/10 cached entries, 2/10 uncached lists, 1/10 pages, 1/10 a cached list), %d connections, against cms on the %d-entry site (%s, pid %d); budget: peak RSS <= %.0f MiB\n",
		b.o.soak, b.o.conns, n, settings, cms.pid(), budget)
	if err := resetPeak(cms.pid()); err != nil {
		b.printf("note: could not reset the peak (%v); it covers start-up too\n", err)
	}
	var (
		mu   sync.Mutex
		peak float64
	)
	sctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		start := time.Now()
		next := time.Minute
		for {
			select {
			case <-sctx.Done():
				return
			case <-t.C:
			}
			mem, err := readMemory(cms.pid())
			if err != nil {
				continue
			}
			mu.Lock()
			peak = max(peak, mib(mem.HWM))
			p := peak
			mu.Unlock()
			if el := time.Since(start); el >= next {
				next += time.Minute
				b.printf("  %v: RSS %.0f MiB, peak %.0f MiB\n", el.Round(time.Second), mib(mem.RSS), p)
			}
		}
	}()
	m, err := s.goRunner(sc)(ctx, b.o.soak, 0)
	stop()
	<-done
	if mem, err := readMemory(cms.pid()); err == nil {
		peak = max(peak, mib(mem.HWM))
	}
	if err != nil {
		return err
	}
	b.printf("soak: %d requests (%.0f req/s), %d errors, peak RSS %.0f MiB, budget %.0f MiB\n", m.ok+m.errors, m.rps, m.errors, peak, budget)
	switch {
	case m.errors > 0:
		return fmt.Errorf("soak: %d requests failed, first: %s", m.errors, m.firstError)
	case peak > budget:
		return fmt.Errorf("soak: peak RSS %.0f MiB is over the budget of %.0f MiB", peak, budget)
	}
	b.printf("soak: PASS\n")
	return nil
}
