package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"cms/content/sitegen"
)

// Start-up targets of issue 18: process start to ready, without and with the index snapshot.
const (
	targetReady10k      = 100 * time.Millisecond
	targetReady10kWarm  = 30 * time.Millisecond
	targetReady100k     = time.Second
	targetReady100kWarm = 150 * time.Millisecond
	targetRSS100k       = 400 << 20
	readyPath           = "/api/health/ready"
	publicEntriesAPI    = "/api/public/entries/" + sitegen.Collection
)

// bench holds one run's state.
type bench struct {
	o       options
	out     io.Writer
	dir     string // work folder
	ownDir  bool   // created here, removed by close
	cmsBin  string
	sites   map[int]string
	rep     *report
	started time.Time
}

func newBench(o options, out io.Writer) (*bench, error) {
	b := &bench{o: o, out: out, sites: map[int]string{}, started: time.Now()}
	b.rep = &report{
		Command: "go run ./local/bench " + strings.Join(o.args, " "),
		Machine: machine(),
		Date:    b.started.UTC().Format(time.RFC3339),
	}
	if o.workDir != "" {
		if err := os.MkdirAll(o.workDir, 0o755); err != nil {
			return nil, err
		}
		b.dir = o.workDir
	} else {
		d, err := os.MkdirTemp("", "cms-bench-*")
		if err != nil {
			return nil, err
		}
		b.dir, b.ownDir = d, true
	}
	if err := os.MkdirAll(filepath.Join(b.dir, "logs"), 0o755); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *bench) close() {
	if b.ownDir && !b.o.keep {
		if err := os.RemoveAll(b.dir); err != nil {
			b.printf("could not remove %s: %v\n", b.dir, err)
		}
		return
	}
	b.printf("work folder kept: %s\n", b.dir)
}

func (b *bench) printf(format string, args ...any) { fmt.Fprintf(b.out, format, args...) }

func (b *bench) run(ctx context.Context) error {
	b.printf("# cms benchmark\n\n%s\nmachine: %s\nwork folder: %s\n\n", b.rep.Command, b.rep.Machine, b.dir)
	b.noteLoad("at the start")
	if err := b.buildCMS(ctx); err != nil {
		return err
	}
	if b.o.soak > 0 {
		return b.soak(ctx)
	}
	for _, n := range b.o.sizes {
		if err := b.startup(ctx, n); err != nil {
			return err
		}
		if n != b.o.loadSize && !slices.Contains(b.o.uncached, n) && !b.o.keep {
			b.removeSite(n)
		}
	}
	if len(b.o.sizes) > 0 {
		b.printf("\n")
		b.rep.writeStartup(b.out)
	}
	if len(b.o.scenarios) > 0 {
		if err := b.loadRuns(ctx); err != nil {
			return err
		}
	}
	b.noteLoad("at the end")
	b.rep.Elapsed = time.Since(b.started).Round(time.Second).String()
	b.printf("\n")
	b.rep.writeSummary(b.out)
	if b.o.out != "" {
		if err := b.rep.save(b.o.out); err != nil {
			return err
		}
		b.printf("report written to %s\n", b.o.out)
	}
	return nil
}

// noteLoad records a warning when other processes keep the machine busy: absolute figures are
// then unreliable, ratios measured back to back and CPU per request much less so.
func (b *bench) noteLoad(when string) {
	l := loadAverage()
	if l <= float64(numCPU()) {
		return
	}
	n := fmt.Sprintf("load average %.1f on %d CPUs %s: other processes competed for the CPUs; absolute req/s and ms are unreliable, compare the ratios and the server CPU times", l, numCPU(), when)
	b.rep.Notes = append(b.rep.Notes, n)
	if len(b.rep.Notes) == 1 {
		b.printf("note: %s\n", n)
	}
}

// buildCMS builds ./local into the work folder once (or uses -cms-bin).
func (b *bench) buildCMS(ctx context.Context) error {
	if b.o.cmsBin != "" {
		b.cmsBin = b.o.cmsBin
		b.printf("cms binary: %s\n", b.cmsBin)
		return nil
	}
	b.cmsBin = filepath.Join(b.dir, "cms")
	args := []string{"build", "-trimpath", "-o", b.cmsBin, "./local"}
	b.printf("building: go %s\n", strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Stdout, cmd.Stderr = b.out, b.out
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build ./local failed (compiler output above; run from the repository root): %w", err)
	}
	b.printf("built in %v\n", time.Since(t0).Round(time.Millisecond))
	return nil
}

// siteConfig is the cms.config.yaml of generated sites: form rate limiting off (the form
// scenario measures the handler, not the limiter) and the chosen server log level.
func (b *bench) siteConfig() string {
	c := sitegen.DefaultConfig + "log:\n  level: " + b.o.serverLog + "\n"
	var mem string
	if b.o.soak > 0 && b.o.soakLimitMiB > 0 {
		mem += "  limitMiB: " + strconv.Itoa(b.o.soakLimitMiB) + "\n"
	}
	if b.o.cacheMiB > 0 {
		mem += "  cacheMiB: " + strconv.Itoa(b.o.cacheMiB) + "\n"
	}
	if mem != "" {
		c += "memory:\n" + mem
	}
	return c
}

// site generates (once) the site of n entries and returns its folder.
func (b *bench) site(n int) (string, error) {
	if d, ok := b.sites[n]; ok {
		return d, nil
	}
	d := filepath.Join(b.dir, "site-"+strconv.Itoa(n))
	if err := os.RemoveAll(d); err != nil {
		return "", err
	}
	t0 := time.Now()
	if err := sitegen.Generate(d, n, sitegen.Options{Config: b.siteConfig()}); err != nil {
		return "", err
	}
	el := time.Since(t0)
	b.printf("generated %d entries in %v (%s)\n", n, el.Round(time.Millisecond), d)
	b.rep.Generated = append(b.rep.Generated, genRow{Entries: n, Seconds: el.Seconds()})
	b.sites[n] = d
	return d, nil
}

func (b *bench) removeSite(n int) {
	if d, ok := b.sites[n]; ok {
		_ = os.RemoveAll(d)
		delete(b.sites, n)
	}
}

// serveArgs is the cms command line; {port} is filled in by startProc.
func serveArgs(site string) []string {
	return []string{"serve", "--site", site, "--addr", "127.0.0.1:{port}"}
}

// startCMS starts cms serve on the site of n entries and waits until it is ready.
// With -profile it also serves pprof on a loopback port of its own (CMS_PPROF_ADDR).
func (b *bench) startCMS(ctx context.Context, n int, label string) (*proc, time.Duration, error) {
	site, err := b.site(n)
	if err != nil {
		return nil, 0, err
	}
	// The load generator is one client address with up to 4096 connections.
	env := []string{"CMS_SERVER_MAX_CONNECTIONS_PER_ADDRESS=0", "CMS_SERVER_MAX_CONNECTIONS=0"}
	pprofAddr := ""
	if b.o.profileDir != "" {
		if err := os.MkdirAll(b.o.profileDir, 0o755); err != nil {
			return nil, 0, err
		}
		port, err := freePort()
		if err != nil {
			return nil, 0, err
		}
		pprofAddr = "127.0.0.1:" + strconv.Itoa(port)
		env = append(env, "CMS_PPROF_ADDR="+pprofAddr)
	}
	logPath := filepath.Join(b.dir, "logs", fmt.Sprintf("cms-%d-%s.log", n, label))
	p, err := startProc(ctx, "cms serve", b.cmsBin, serveArgs(site), logPath, childEnv(env...))
	if err != nil {
		return nil, 0, err
	}
	p.pprof = pprofAddr
	ready, err := p.waitReady(ctx, readyPath, b.o.readyTimeout)
	if err != nil {
		p.stop()
		return nil, 0, err
	}
	return p, ready, nil
}

// settleTimeout bounds the wait for a server's background work before a load scenario (at
// 100,000 entries the first start's snapshots take a few seconds of CPU).
const settleTimeout = 2 * time.Minute

// settle waits until cms has finished the background work of its start (see proc.waitSettled)
// and prints how long that took.
func (b *bench) settle(ctx context.Context, p *proc, n int) error {
	waited, pending, err := p.waitSettled(ctx, readyPath, settleTimeout)
	if err != nil {
		return err
	}
	if len(pending) > 0 {
		note := fmt.Sprintf("cms on the %d-entry site still had background work after %v (%s): the load scenarios include it", n, waited.Round(time.Millisecond), strings.Join(pending, ", "))
		b.rep.Notes = append(b.rep.Notes, note)
		b.printf("  note: %s\n", note)
		return nil
	}
	b.printf("  (cms on the %d-entry site: waited %v after ready for its background work to finish)\n", n, waited.Round(time.Millisecond))
	return nil
}

// startup measures ready time and memory of a first (cold: no .cms/ snapshot) and a second
// (warm) start on the site of n entries.
func (b *bench) startup(ctx context.Context, n int) error {
	site, err := b.site(n)
	if err != nil {
		return err
	}
	for _, label := range []string{"cold", "warm"} {
		snapshot := exists(filepath.Join(site, ".cms"))
		load1 := loadAverage()
		p, ready, err := b.startCMS(ctx, n, label)
		if err != nil {
			return err
		}
		cpu, _ := cpuTime(p.pid()) // right after ready: what start-up cost in CPU, whatever else ran
		if b.rep.StartupCmd == "" {
			b.rep.StartupCmd = strings.ReplaceAll(p.commandLine(), site, "SITE")
		}
		requests := b.touch(ctx, p, n)
		mem, memErr := readMemory(p.pid())
		heap := b.heapProfile(ctx, p, fmt.Sprintf("heap-%d-%s.pprof", n, label))
		if err := p.stop(); err != nil {
			b.printf("warning: %v\n", err)
		}
		if memErr != nil {
			return memErr
		}
		row := startupRow{Entries: n, Run: label, SnapshotBefore: snapshot, ReadyMs: ms(ready), RSSMiB: mib(mem.RSS), PeakMiB: mib(mem.HWM), Requests: requests, Load1: load1, HeapProfile: heap, CPUms: ms(cpu)}
		row.judge()
		b.rep.Startup = append(b.rep.Startup, row)
		b.printf("start-up %7d entries %-4s: ready in %8.1f ms (CPU %6.0f ms), RSS %6.1f MiB (peak %6.1f MiB)%s\n", n, label, row.ReadyMs, row.CPUms, row.RSSMiB, row.PeakMiB, row.verdictText())
	}
	return nil
}

// touch sends a few requests (lists and single entries) so memory is measured on a server that
// has done some work, and returns how many succeeded.
func (b *bench) touch(ctx context.Context, p *proc, n int) int {
	paths := []string{
		publicEntriesAPI + "?limit=10",
		publicEntriesAPI + "?limit=10&sort=-rating",
		publicEntriesAPI + "?limit=10&sort=-rating&filter=" + url.QueryEscape(`{"category":"news"}`),
	}
	o := sitegen.Options{}
	for i := 0; i < n && len(paths) < 23; i++ {
		if m := sitegen.Post(i*7919%n, o); m.Published {
			paths = append(paths, publicEntriesAPI+"/"+m.Slug)
		}
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{Proxy: nil}}
	defer client.CloseIdleConnections()
	ok := 0
	for _, path := range paths {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.base+path, nil)
		if err != nil {
			continue
		}
		resp, err := client.Do(req)
		if err != nil {
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			ok++
		}
	}
	return ok
}

// heapProfile saves the server's heap profile into the -profile folder and returns the file
// ("" without -profile or on failure).
func (b *bench) heapProfile(ctx context.Context, p *proc, name string) string {
	if p.pprof == "" {
		return ""
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+p.pprof+"/debug/pprof/heap", nil)
	if err != nil {
		return ""
	}
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return ""
	}
	file := filepath.Join(b.o.profileDir, name)
	if os.WriteFile(file, body, 0o644) != nil {
		return ""
	}
	return file
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
func mib(n int64) float64        { return float64(n) / (1 << 20) }
