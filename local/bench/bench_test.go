package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cms/content/query"
	"cms/content/sitegen"
	"cms/runtime/config"
	"cms/runtime/groups"
	"cms/runtime/wire"
)

// TestMain lets the test binary play the trivial server child (see TestProcLifecycle).
func TestMain(m *testing.M) {
	if os.Getenv("BENCH_TEST_CHILD") == "trivial" {
		ctx, stop := context.WithTimeout(context.Background(), time.Minute) // never outlive the test
		defer stop()
		if err := run(ctx, []string{"trivial", "-addr", os.Getenv("BENCH_TEST_ADDR")}, os.Stdout, os.Stderr); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestParseFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		args      []string
		wantErr   string
		wantSizes []int
		wantScen  int
	}{
		{name: "defaults", wantSizes: []int{1000, 10000, 100000}, wantScen: len(scenarioNames())},
		{name: "skip 100k", args: []string{"-skip-100k"}, wantSizes: []int{1000, 10000}, wantScen: len(scenarioNames())},
		{name: "sizes with underscores", args: []string{"-sizes", "1_000, 20"}, wantSizes: []int{1000, 20}, wantScen: len(scenarioNames())},
		{name: "some scenarios", args: []string{"-scenarios", "entry,list"}, wantSizes: []int{1000, 10000, 100000}, wantScen: 2},
		{name: "no scenarios", args: []string{"-scenarios", "none", "-sizes", "5"}, wantSizes: []int{5}},
		{name: "bad size", args: []string{"-sizes", "ten"}, wantErr: "not an entry count"},
		{name: "negative size", args: []string{"-sizes", "-5"}, wantErr: "not an entry count"},
		{name: "unknown scenario", args: []string{"-scenarios", "entry,nope"}, wantErr: `unknown scenario "nope"`},
		{name: "zero conns", args: []string{"-conns", "0"}, wantErr: "-conns"},
		{name: "zero duration", args: []string{"-duration", "0s"}, wantErr: "-duration"},
		{name: "long warmup", args: []string{"-warmup", "2h"}, wantErr: "-warmup"},
		{name: "bad load size", args: []string{"-load-size", "0"}, wantErr: "-load-size"},
		{name: "stray argument", args: []string{"extra"}, wantErr: "unexpected arguments"},
		{name: "unknown flag", args: []string{"-nope"}, wantErr: "not defined"},
		{name: "bad uncached size", args: []string{"-uncached-sizes", "lots"}, wantErr: "-uncached-sizes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o, err := parseFlags(tt.args, io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !equalInts(o.sizes, tt.wantSizes) || len(o.scenarios) != tt.wantScen {
				t.Errorf("sizes %v scenarios %v, want %v and %d scenarios", o.sizes, o.scenarios, tt.wantSizes, tt.wantScen)
			}
		})
	}
}

// wrk is used by default (when on PATH), and the uncached list also runs at 100k unless that
// size is left out or is the load site itself.
func TestParseFlagsGeneratorAndUncachedSizes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args     []string
		wrk      bool
		uncached []int
	}{
		{nil, true, []int{100000}},
		{[]string{"-wrk=false"}, false, []int{100000}},
		{[]string{"-skip-100k"}, true, nil},
		{[]string{"-uncached-sizes", ""}, true, nil},
		{[]string{"-uncached-sizes", "10000,50_000,50000"}, true, []int{50000}},
		{[]string{"-load-size", "100000"}, true, nil},
	} {
		o, err := parseFlags(tt.args, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if o.useWrk != tt.wrk || !equalInts(o.uncached, tt.uncached) {
			t.Errorf("%v: wrk %v, uncached sizes %v; want %v, %v", tt.args, o.useWrk, o.uncached, tt.wrk, tt.uncached)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestTrivialHandler(t *testing.T) {
	t.Parallel()
	body := trivialBody()
	if len(body) != trivialBodySize || !json.Valid(body) {
		t.Fatalf("trivial body: %d bytes, valid JSON %v", len(body), json.Valid(body))
	}
	rec := httptest.NewRecorder()
	trivialHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/anything", nil))
	if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), body) || rec.Header().Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("status %d, content type %q, %d bytes", rec.Code, rec.Header().Get("Content-Type"), rec.Body.Len())
	}
	// /sized/{n}: the same with a body of exactly n bytes.
	for _, n := range []int{10, 6144, 70000} {
		rec := httptest.NewRecorder()
		trivialHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/sized/"+strconv.Itoa(n), nil))
		if rec.Code != 200 || rec.Body.Len() != n || !json.Valid(rec.Body.Bytes()) || rec.Header().Get("Content-Length") != strconv.Itoa(n) {
			t.Errorf("/sized/%d: status %d, %d bytes, valid %v", n, rec.Code, rec.Body.Len(), json.Valid(rec.Body.Bytes()))
		}
	}
	for _, p := range []string{"/sized/9", "/sized/x", "/sized/2000000"} {
		rec := httptest.NewRecorder()
		trivialHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
		if rec.Code != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", p, rec.Code)
		}
	}
}

const wrkSample = `Running 5s test @ http://127.0.0.1:8080/
  2 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   265.27us  130.43us   4.59ms   86.52%
    Req/Sec    60.59k     3.54k   67.38k    74.00%
  Latency Distribution
     50%  240.00us
     75%  299.00us
     90%  400.00us
     99%    1.37ms
  603219 requests in 5.00s, 1.00GB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 16
Requests/sec: 120630.92
Transfer/sec:    204.13MB
`

func TestParseWrk(t *testing.T) {
	t.Parallel()
	m, err := parseWrk(wrkSample)
	if err != nil {
		t.Fatal(err)
	}
	if m.errors != 19 || m.ok != 603200 {
		t.Errorf("ok %d errors %d, want 603200 and 19", m.ok, m.errors)
	}
	if m.p50 != 240*time.Microsecond || m.p99 != 1370*time.Microsecond {
		t.Errorf("p50 %v p99 %v", m.p50, m.p99)
	}
	if m.rps < 120620 || m.rps > 120631 {
		t.Errorf("rps %v", m.rps)
	}
	if _, err := parseWrk("wrk: connection refused\n"); err == nil {
		t.Error("garbage: no error")
	}
	script := string(wrkScript([]string{"/a", `/b?x="1"`}))
	if !strings.Contains(script, `"/a",`) || !strings.Contains(script, `"/b?x=\"1\"",`) || !strings.Contains(script, "math.random(#paths)") {
		t.Errorf("script:\n%s", script)
	}
}

func TestHelpers(t *testing.T) {
	t.Parallel()
	for _, n := range []uint64{1, 2, 7, 30, 4890, 60000} {
		st := coprimeStep(n)
		seen := map[uint64]bool{}
		for k := range n {
			seen[(k*st)%n] = true
		}
		if uint64(len(seen)) != n {
			t.Errorf("coprimeStep(%d) = %d does not permute", n, st)
		}
	}
	for body, want := range map[string]string{`{"token":"a"}`: "a", `{"data":{"token":"b"}}`: "b", `{}`: "", `nope`: ""} {
		if got := tokenOf([]byte(body)); got != want {
			t.Errorf("tokenOf(%s) = %q, want %q", body, got, want)
		}
	}
	if m, err := readMemory(os.Getpid()); err != nil || m.RSS <= 0 || m.HWM < m.RSS {
		t.Errorf("readMemory: %+v %v", m, err)
	}
	if _, err := cpuTime(os.Getpid()); err != nil {
		t.Errorf("cpuTime: %v", err)
	}
	if _, err := cpuTime(-1); err == nil {
		t.Error("cpuTime(-1): no error")
	}
	if loadAverage() < 0 {
		t.Error("no load average")
	}
	for _, kv := range childEnv("X=1") {
		if strings.HasPrefix(kv, "CMS_") || strings.HasPrefix(kv, "GOMAXPROCS=") {
			t.Errorf("child environment keeps %s", kv)
		}
	}
}

func TestReport(t *testing.T) {
	t.Parallel()
	rep := &report{Command: "go run ./local/bench", Machine: machine(), Elapsed: "1s",
		Startup: []startupRow{{Entries: 10000, Run: "cold", ReadyMs: 95, RSSMiB: 50}, {Entries: 100000, Run: "cold", ReadyMs: 900, RSSMiB: 500},
			{Entries: 10000, Run: "warm", SnapshotBefore: true, ReadyMs: 40, RSSMiB: 50}, {Entries: 100000, Run: "warm", SnapshotBefore: true, ReadyMs: 140, RSSMiB: 300}},
		Load: &loadReport{Site: 10, Conns: 2, Rows: []*loadRow{
			{Scenario: "trivial (first)", RPS: 1000, ServerCPUus: 10},
			{Scenario: "entry", RPS: 400, ServerCPUus: 20},
			{Scenario: trivialSizedName, RPS: 800, ServerCPUus: 12},
			{Scenario: "list", RPS: 400, ServerCPUus: 30},
			{Scenario: "graphql-list", RPS: 100, ServerCPUus: 30},
			{Scenario: "form-submit", Verdict: "SKIP", Note: "404"},
			{Scenario: "list-uncached", RPS: 100, ServerCPUus: 60, Generator: generatorGo, PeakMiB: 120},
			{Scenario: "list-uncached 100k", RPS: 50, ServerCPUus: 90, Generator: generatorGo, PeakMiB: 300},
			{Scenario: "list-uncached 1000k", RPS: 5, ServerCPUus: 130, PeakMiB: 900, PeakSinceStart: true},
			{Scenario: "trivial (last)", RPS: 1000, ServerCPUus: 10, Generator: generatorWrk},
		}},
	}
	for i := range rep.Startup {
		rep.Startup[i].judge()
	}
	s := &session{b: &bench{rep: rep}}
	s.judge()
	want := map[string]string{"entry": "FAIL", "list": "PASS", "graphql-list": "FAIL", "form-submit": "SKIP", "trivial (last)": "INFO",
		"list-uncached": "INFO", "list-uncached 100k": "PASS", "list-uncached 1000k": "FAIL"}
	for _, r := range rep.Load.Rows {
		if w, ok := want[r.Scenario]; ok && r.Verdict != w {
			t.Errorf("%s: verdict %s, want %s", r.Scenario, r.Verdict, w)
		}
	}
	if r := rep.Load.Rows[1]; r.Ratio != 0.4 || r.CPURatio != 0.5 {
		t.Errorf("entry ratio %v, cpu ratio %v", r.Ratio, r.CPURatio)
	}
	if r := rep.Load.Rows[1]; !strings.Contains(r.Note, "0.50 x the trivial handler sending as many bytes (0.80 x trivial)") {
		t.Errorf("entry note %q", r.Note)
	}
	if r := rep.Load.Rows[4]; r.RatioREST != 0.25 {
		t.Errorf("graphql ratio to REST %v", r.RatioREST)
	}
	// Issue 18: a first start within 100 ms / 1 s, one from the snapshot within 30 / 150 ms.
	for i, want := range []string{"PASS", "FAIL", "FAIL", "PASS"} { // 100k cold is over the memory target, 10k warm over 30 ms
		if got := rep.Startup[i].Verdict; got != want {
			t.Errorf("start-up %d %s: verdict %s (%s), want %s", rep.Startup[i].Entries, rep.Startup[i].Run, got, rep.Startup[i].Target, want)
		}
	}
	dir := t.TempDir()
	md, js := filepath.Join(dir, "r.md"), filepath.Join(dir, "r.json")
	if err := rep.save(md); err != nil {
		t.Fatal(err)
	}
	if err := rep.save(js); err != nil {
		t.Fatal(err)
	}
	text, _ := os.ReadFile(md)
	for _, s := range []string{"## Start-up to ready and memory", "## Load on the 10-entry site", "| entry ", "## Summary",
		"| generator ", "| peak RSS MiB ", "| list-uncached 100k    | go ", "| 300 ", "| 900 (since start) ", "| trivial (last)        | wrk ", "| trivial (entry-sized) "} {
		if !bytes.Contains(text, []byte(s)) {
			t.Errorf("markdown report lacks %q", s)
		}
	}
	raw, _ := os.ReadFile(js)
	var back report
	if err := json.Unmarshal(raw, &back); err != nil || len(back.Load.Rows) != 10 || back.Load.Rows[7].PeakMiB != 300 || back.Load.Rows[7].Generator != "go" {
		t.Errorf("json report: %v", err)
	}
}

// TestScenariosAgainstServer runs every scenario's requests against the real handler stack on
// a small generated site, so a request the API would refuse shows up here and not as a
// benchmark full of errors.
func TestScenariosAgainstServer(t *testing.T) {
	t.Parallel()
	const n = 300
	dir := t.TempDir()
	if err := sitegen.Generate(dir, n, sitegen.Options{}); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := config.Load(dir, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.Watch = "none"
	svc, err := wire.NewServices(t.Context(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	mux, err := groups.Mux(svc)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	triv := httptest.NewServer(trivialHandler())
	t.Cleanup(triv.Close)

	o, err := parseFlags([]string{"-conns", "2", "-duration", "50ms", "-warmup", "0s", "-logins", "1", "-wrk=false"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	b := &bench{o: o, out: io.Discard, rep: &report{Load: &loadReport{}}, dir: t.TempDir()}
	s := &session{b: b, cms: &proc{base: ts.URL}, triv: &proc{base: triv.URL}, facts: factsOf(n)}

	get := func(path string) int {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, sc := range []scenario{s.entry(), s.list(), s.listUncached()} {
		for seq := range uint64(40) {
			p := sc.path(0, seq)
			if status := get(p); status != http.StatusOK {
				t.Fatalf("%s: GET %s = %d", sc.name, p, status)
			}
		}
	}
	// The uncached list asks valid, distinct queries.
	lu := s.listUncached()
	seen := map[string]bool{}
	for seq := range uint64(200) {
		p := lu.path(0, seq)
		u, err := url.Parse(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := query.ParseSort(u.Query().Get("sort")); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if _, err := query.ParseFilter(u.Query().Get("filter")); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		seen[p] = true
	}
	if len(seen) != 200 {
		t.Errorf("200 uncached list requests asked only %d distinct queries", len(seen))
	}

	// A whole (tiny) load session: every scenario runs or is skipped with a reason, and
	// nothing that runs has errors.
	ctx := t.Context()
	s.measure(ctx, s.trivial("trivial (first)"))
	s.measure(ctx, s.entry())
	s.measure(ctx, s.list())
	s.login(ctx)
	s.measure(ctx, s.authEntry(ctx))
	s.loginLatency(ctx)
	s.measure(ctx, s.graphQLList(ctx))
	s.measure(ctx, s.formSubmit(ctx))
	s.measure(ctx, s.trivial("trivial (last)"))
	s.judge()
	for _, r := range b.rep.Load.Rows {
		t.Logf("%-20s %-5s %s", r.Scenario, r.Verdict, r.line())
		switch {
		case r.Verdict == "SKIP" && r.Note == "":
			t.Errorf("%s skipped without a reason", r.Scenario)
		case r.Verdict == "ERROR" || r.Errors > 0:
			t.Errorf("%s: %s %d errors %s %s", r.Scenario, r.Verdict, r.Errors, r.Note, r.FirstError)
		case r.Verdict != "SKIP" && r.Scenario != "login" && r.OK == 0:
			t.Errorf("%s: no successful request", r.Scenario)
		case r.Verdict != "SKIP" && r.Scenario != "login" && r.Generator != generatorGo:
			t.Errorf("%s: generator %q with -wrk=false", r.Scenario, r.Generator)
		}
	}
}

// TestProcLifecycle starts the test binary as the trivial server child, waits until it is
// ready, reads its memory and CPU, and stops it.
func TestProcLifecycle(t *testing.T) {
	t.Parallel()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	env := childEnv("BENCH_TEST_CHILD=trivial", "BENCH_TEST_ADDR="+addr)
	p, err := startProc(t.Context(), "trivial", os.Args[0], []string{"-test.run=^$"}, filepath.Join(t.TempDir(), "log"), env)
	if err != nil {
		t.Fatal(err)
	}
	p.base = "http://" + addr // the child takes its address from the environment
	t.Cleanup(func() { p.stop() })
	if _, err := p.waitReady(t.Context(), "/", 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if m, err := readMemory(p.pid()); err != nil || m.RSS == 0 {
		t.Errorf("child memory %+v %v", m, err)
	}
	if _, err := cpuTime(p.pid()); err != nil {
		t.Errorf("child cpu: %v", err)
	}
	// The peak can be reset, so each scenario reports its own.
	if err := resetPeak(p.pid()); err != nil {
		t.Errorf("reset the child's peak RSS: %v", err)
	} else if m, err := readMemory(p.pid()); err != nil || m.HWM == 0 || m.HWM > m.RSS+(1<<20) {
		t.Errorf("after a reset the peak is the current RSS: %+v %v", m, err)
	}
	if err := p.stop(); err != nil {
		t.Errorf("stop: %v", err)
	}
	if err := p.stop(); err != nil {
		t.Errorf("second stop: %v", err)
	}

	// A child that exits at once is reported with its log, not waited for.
	q, err := startProc(t.Context(), "false", "/bin/false", nil, filepath.Join(t.TempDir(), "log"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.waitReady(t.Context(), "/", 10*time.Second); err == nil || !strings.Contains(err.Error(), "exited before it was ready") {
		t.Errorf("waitReady on an exiting child: %v", err)
	}
}

// FuzzParseWrk feeds arbitrary text to the wrk output reader: it must never panic, and what it
// accepts must be consistent.
func FuzzParseWrk(f *testing.F) {
	f.Add(wrkSample)
	f.Add("Requests/sec: 1\n  1 requests in 1s\n     50%  1s\n")
	f.Add("  5 requests in 1s\n  Non-2xx or 3xx responses: 9\nRequests/sec: 5\n")
	f.Add("  5 requests in 1s\n  Socket errors: connect 9223372036854775807, read 9223372036854775807, write 0, timeout 0\nRequests/sec: 5\n")
	f.Fuzz(func(t *testing.T, out string) {
		m, err := parseWrk(out)
		if err != nil {
			return
		}
		if m.ok < 0 || m.errors < 0 || m.rps < 0 || m.p50 < 0 || m.p99 < 0 {
			t.Errorf("parseWrk(%q) = %+v", out, m)
		}
	})
}

// TestReportPeakRSS: the highest peak RSS of the cms on each site is judged against issue 18's
// targets (150 MiB at 10k, 400 MiB at 100k) and listed in the summary; the trivial server's
// rows do not count.
func TestReportPeakRSS(t *testing.T) {
	t.Parallel()
	rep := &report{Command: "go run ./local/bench", Machine: machine(), Elapsed: "1s",
		Load: &loadReport{Site: 10_000, Conns: 2, Rows: []*loadRow{
			{Scenario: "trivial (first)", RPS: 1000, ServerCPUus: 10, PeakMiB: 500},
			{Scenario: "entry", RPS: 800, ServerCPUus: 14, PeakMiB: 140},
			{Scenario: "list", RPS: 400, ServerCPUus: 30, PeakMiB: 161},
			{Scenario: "list-uncached", RPS: 100, ServerCPUus: 60, PeakMiB: 120},
			{Scenario: "list-uncached 100k", RPS: 50, ServerCPUus: 90, PeakMiB: 390},
			{Scenario: "trivial (last)", RPS: 1000, ServerCPUus: 10, PeakMiB: 15},
		}},
	}
	s := &session{b: &bench{rep: rep}}
	s.judge()
	want := []memoryRow{
		{Entries: 10_000, PeakMiB: 161, Scenario: "list", Target: "<= 150 MiB", Verdict: "FAIL"},
		{Entries: 100_000, PeakMiB: 390, Scenario: "list-uncached 100k", Target: "<= 400 MiB", Verdict: "PASS"},
	}
	if !slices.Equal(rep.Load.Memory, want) {
		t.Errorf("peak RSS rows %+v, want %+v", rep.Load.Memory, want)
	}
	if r := rep.Load.Rows[1]; r.Verdict != "PASS" || r.Target != ">= 0.7 x trivial" {
		t.Errorf("entry at 0.8 x trivial: %s (%s)", r.Verdict, r.Target)
	}
	var b strings.Builder
	rep.writeSummary(&b)
	rep.writeLoad(&b)
	text := strings.Join(strings.Fields(b.String()), " ") // the tables' padding aside
	for _, s := range []string{"| peak RSS under load, 10000 entries | 161 MiB (list) | <= 150 MiB | FAIL |",
		"| peak RSS under load, 100000 entries | 390 MiB (list-uncached 100k) | <= 400 MiB | PASS |",
		"100000 entries: 390 MiB (during list-uncached 100k), target <= 400 MiB: PASS"} {
		if !strings.Contains(text, s) {
			t.Errorf("report lacks %q:\n%s", s, b.String())
		}
	}
}

// TestSoakOptions: -soak runs the soak with issue 18's budget for the size, or the
// memory.limitMiB it gives the site; the mix is mostly cached entries.
func TestSoakOptions(t *testing.T) {
	t.Parallel()
	o, err := parseFlags([]string{"-soak", "5m"}, io.Discard)
	if err != nil || o.soak != 5*time.Minute || o.loadSize != 10_000 {
		t.Fatalf("parse: %+v %v", o, err)
	}
	if got := soakBudgetMiB(o, o.loadSize); got != 150 {
		t.Errorf("default budget at 10k %v, want 150", got)
	}
	if got := soakBudgetMiB(o, 5000); got != 0 {
		t.Errorf("budget at 5k without -soak-limit-mib %v, want 0 (none known)", got)
	}
	o, err = parseFlags([]string{"-soak", "1m", "-soak-limit-mib", "256", "-load-size", "100000"}, io.Discard)
	if err != nil || soakBudgetMiB(o, o.loadSize) != 256+32 {
		t.Fatalf("with -soak-limit-mib: %+v %v", o, err)
	}
	if b := (&bench{o: o}); !strings.Contains(b.siteConfig(), "memory:\n  limitMiB: 256\n") {
		t.Errorf("site config without the limit:\n%s", b.siteConfig())
	}
	o, err = parseFlags([]string{"-cache-mib", "48", "-soak", "1m", "-soak-limit-mib", "200"}, io.Discard)
	if b := (&bench{o: o}); err != nil || !strings.Contains(b.siteConfig(), "memory:\n  limitMiB: 200\n  cacheMiB: 48\n") {
		t.Errorf("-cache-mib: %v, site config:\n%s", err, b.siteConfig())
	}
	if _, err := parseFlags([]string{"-cache-mib", "-1"}, io.Discard); err == nil {
		t.Error("-cache-mib -1 accepted")
	}
	if _, err := parseFlags([]string{"-soak", "2h"}, io.Discard); err == nil {
		t.Error("-soak 2h accepted")
	}
	mix := soakMix(func(int, uint64) string { return "e" }, func(int, uint64) string { return "u" },
		func(int, uint64) string { return "p" }, func(int, uint64) string { return "l" })
	count := map[string]int{}
	for seq := range uint64(100) {
		count[mix(0, seq)]++
	}
	if count["e"] != 60 || count["u"] != 20 || count["p"] != 10 || count["l"] != 10 {
		t.Errorf("mix %v", count)
	}
}

// waitSettled waits while the server lists background work, takes a server without the field
// as settled, and gives up after its timeout with what was still pending.
func TestWaitSettled(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/busy":
			if calls.Add(1) <= 2 {
				io.WriteString(w, `{"status":"ok","details":{"background":{"pending":["indexSnapshot","tempSweep"]}}}`)
				return
			}
			io.WriteString(w, `{"status":"ok","details":{"background":{"pending":[]}}}`)
		case "/old":
			io.WriteString(w, `{"status":"ok","details":{"caches":[]}}`)
		case "/stuck":
			io.WriteString(w, `{"status":"ok","details":{"background":{"pending":["indexSnapshot"]}}}`)
		}
	}))
	t.Cleanup(srv.Close)
	p := &proc{name: "test", base: srv.URL, done: make(chan struct{})}
	if _, pending, err := p.waitSettled(t.Context(), "/busy", time.Minute); err != nil || len(pending) != 0 || calls.Load() != 3 {
		t.Errorf("busy server: pending %v, err %v after %d polls, want settled after 3", pending, err, calls.Load())
	}
	if _, pending, err := p.waitSettled(t.Context(), "/old", time.Minute); err != nil || len(pending) != 0 {
		t.Errorf("server without background details: pending %v, err %v", pending, err)
	}
	if _, pending, err := p.waitSettled(t.Context(), "/stuck", 0); err != nil || !slices.Equal(pending, []string{"indexSnapshot"}) {
		t.Errorf("stuck server: pending %v, err %v, want the pending work and no error", pending, err)
	}
}
