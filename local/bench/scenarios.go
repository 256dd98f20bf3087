package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"cms/content/sitegen"
	"cms/local/bench/load"
)

// Ratio targets of the load scenarios (issue 2: entry, list; issue 3: auth-entry; issue 5:
// graphql-list against the REST list).
const (
	targetEntry     = 0.7 // issue 18 (issue 2 asked 0.5)
	targetList      = 0.3
	targetAuthEntry = 0.3
	targetGraphQL   = 0.3
	targetPage      = 0.4 // issue 11: a rendered entry page with layout, menu and a 5-item list
)

// listQuery is the query of the list scenario: ten entries of one category by rating.
func listQuery() string {
	return "limit=10&sort=-rating&filter=" + url.QueryEscape(`{"category":"news"}`)
}

// graphQLListNames are the list query names tried for the posts collection, in order: the
// GraphQL naming rule (handlers/graphql queryNames) gives postsList (the plural of "posts" equals the singular).
func graphQLListNames() []string { return []string{"postsList", "posts"} }

// siteFacts are what the load scenarios need to know about the site, derived from sitegen.
type siteFacts struct {
	published []string // slugs of published entries
	pages     []string // their public page paths (the posts route /blog/{year}/{month}/{slug})
}

func factsOf(n int) siteFacts {
	var f siteFacts
	o := sitegen.Options{}
	for i := range n {
		if m := sitegen.Post(i, o); m.Published {
			f.published = append(f.published, m.Slug)
			f.pages = append(f.pages, m.CreatedAt.UTC().Format("/blog/2006/01/")+m.Slug)
		}
	}
	return f
}

// loadRuns starts the trivial server and cms on the load site and runs the chosen scenarios.
func (b *bench) loadRuns(ctx context.Context) error {
	n := b.o.loadSize
	facts := factsOf(n)
	if len(facts.published) == 0 {
		return fmt.Errorf("the load site has no published entries")
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if slices.Contains(b.o.scenarios, "page") {
		site, err := b.site(n)
		if err != nil {
			return err
		}
		if err := writeTheme(site, facts); err != nil {
			return err
		}
	}
	triv, err := startProc(ctx, "trivial server", self, []string{"trivial", "-addr", "127.0.0.1:{port}"},
		filepath.Join(b.dir, "logs", "trivial.log"), childEnv())
	if err != nil {
		return err
	}
	defer triv.stop()
	if _, err := triv.waitReady(ctx, "/", 30*time.Second); err != nil {
		return err
	}
	cms, _, err := b.startCMS(ctx, n, "load")
	if err != nil {
		return err
	}
	defer cms.stop()
	if err := b.settle(ctx, cms, n); err != nil {
		return err
	}

	lr := &loadReport{
		Site:       n,
		Conns:      b.o.conns,
		Duration:   b.o.duration.String(),
		Warmup:     b.o.warmup.String(),
		ServerCmd:  strings.ReplaceAll(cms.commandLine(), b.sites[n], "SITE"),
		TrivialCmd: "bench trivial -addr " + strings.TrimPrefix(triv.base, "http://"),
		Generator:  b.generatorName(),
	}
	b.rep.Load = lr
	b.printf("\nload runs on the %d-entry site: %s, %d connections, %v each after %v warm-up\n", n, lr.Generator, b.o.conns, b.o.duration, b.o.warmup)
	b.printf("  cms:     %s (pid %d, GOMAXPROCS default)\n  trivial: %s (pid %d)\n", lr.ServerCmd, cms.pid(), lr.TrivialCmd, triv.pid())
	b.printf("  the load generator runs in this process and shares the %d cores with the server under test\n\n", numCPU())

	s := &session{b: b, cms: cms, triv: triv, facts: facts}
	want := func(name string) bool { return slices.Contains(b.o.scenarios, name) }
	// The trivial handler is measured first and last (the mean is the yardstick), so drift
	// during the run shows and is averaged out.
	s.measure(ctx, s.trivial("trivial (first)"))
	if want("entry") {
		s.measure(ctx, s.entry())
		if n := s.entryBodyBytes(); n > 0 {
			s.measure(ctx, s.trivialSized(n))
		}
	}
	if want("page") {
		s.measure(ctx, s.page())
	}
	if want("list") || want("graphql-list") {
		s.measure(ctx, s.list())
	}
	if want("list-uncached") {
		s.measure(ctx, s.listUncached())
	}
	if want("auth-entry") || want("login") || want("graphql-list") {
		s.login(ctx)
	}
	if want("auth-entry") {
		s.measure(ctx, s.authEntry(ctx))
	}
	if want("login") {
		s.loginLatency(ctx)
	}
	if want("graphql-list") {
		s.measure(ctx, s.graphQLList(ctx))
	}
	if want("form-submit") {
		s.measure(ctx, s.formSubmit(ctx))
	}
	s.measure(ctx, s.trivial("trivial (last)"))
	if want("list-uncached") {
		cms.stop() // one server at a time: the peak RSS of each is its own
		for _, n2 := range b.o.uncached {
			if err := b.listUncachedOn(ctx, s, n2); err != nil {
				return err
			}
		}
	}
	s.judge()
	b.printf("\n")
	b.rep.writeLoad(b.out)
	return ctx.Err()
}

// listUncachedOn runs the list-uncached scenario against a cms serving the site of n entries,
// as its own row, so the cost of an uncached query can be compared across site sizes.
func (b *bench) listUncachedOn(ctx context.Context, s *session, n int) error {
	cms, _, err := b.startCMS(ctx, n, "load")
	if err != nil {
		return err
	}
	defer cms.stop()
	if err := b.settle(ctx, cms, n); err != nil {
		return err
	}
	other := &session{b: b, cms: cms, triv: s.triv, facts: factsOf(n)}
	sc := other.listUncached()
	sc.name = uncachedName(n)
	b.printf("  (cms on the %d-entry site: pid %d)\n", n, cms.pid())
	other.measure(ctx, sc)
	return nil
}

// uncachedName is the row of the list-uncached scenario on a site of n entries other than the
// load site.
func uncachedName(n int) string { return fmt.Sprintf("list-uncached %dk", n/1000) }

func (b *bench) generatorName() string {
	if b.o.useWrk {
		if p, err := lookWrk(); err == nil {
			return "wrk (" + p + ") for GET scenarios with fixed paths, the Go generator (local/bench/load) for the others; the generator column names each"
		}
		return "Go generator (local/bench/load, net/http keep-alive); wrk is not on PATH"
	}
	return "Go generator (local/bench/load, net/http keep-alive); wrk off (-wrk=false)"
}

// session is one load run: the two servers, the site facts and the results so far.
type session struct {
	b     *bench
	cms   *proc
	triv  *proc
	facts siteFacts
	token string // session token from login; "" when login is not available
	// loginNote says why auth scenarios are skipped, if they are.
	loginNote string
}

// scenario is one load scenario. A scenario with a skip note is reported and not run.
type scenario struct {
	name    string
	request string // what is sent, for the report
	base    *proc
	method  string
	header  http.Header
	// paths returns the URL path (and query) of a worker's seq-th request; body its body.
	path func(worker int, seq uint64) string
	body func(worker int, seq uint64) []byte
	// fixedPaths, when set, lists every path the scenario uses (lets wrk run it).
	fixedPaths []string
	// firstPass, when set, is requested once in order before the warm-up and reported as its
	// own row: the cost of responses that are not cached yet.
	firstPass []string
	skip      string
}

// measure warms up, runs and records one scenario.
func (s *session) measure(ctx context.Context, sc scenario) {
	if len(sc.firstPass) > 0 && sc.skip == "" && ctx.Err() == nil {
		s.measureFirstPass(ctx, sc)
	}
	row := &loadRow{Scenario: sc.name, Request: sc.request}
	defer s.add(row)
	if sc.skip != "" {
		row.Verdict, row.Note = "SKIP", sc.skip
		return
	}
	if ctx.Err() != nil {
		row.Verdict, row.Note = "SKIP", "interrupted"
		return
	}
	runner := s.goRunner(sc)
	row.Generator = generatorGo
	if s.b.o.useWrk && sc.method == http.MethodGet && len(sc.fixedPaths) > 0 {
		if _, err := lookWrk(); err == nil {
			runner = func(ctx context.Context, d time.Duration, _ int64) (measured, error) {
				return runWrk(ctx, sc, s.b.o, s.b.dir, d)
			}
			row.Generator = generatorWrk
		}
	}
	if s.b.o.warmup > 0 {
		if _, err := runner(ctx, s.b.o.warmup, 0); err != nil {
			row.Verdict, row.Note = "ERROR", err.Error()
			return
		}
	}
	s.record(ctx, sc, row, runner, s.b.o.duration, 0)
}

// measureFirstPass requests every path of sc.firstPass once, in order, before anything else
// touched them: the cost of a response the server has not cached yet.
func (s *session) measureFirstPass(ctx context.Context, sc scenario) {
	paths := sc.firstPass
	var next atomic.Uint64
	fp := sc
	fp.name = sc.name + " (first pass)"
	fp.request = fmt.Sprintf("the same, each of the %d paths once (nothing cached yet)", len(paths))
	fp.path = func(int, uint64) string { return paths[(next.Add(1)-1)%uint64(len(paths))] }
	row := &loadRow{Scenario: fp.name, Request: fp.request, Generator: generatorGo}
	defer s.add(row)
	// Bounded by count, and by time in case the server is very slow.
	s.record(ctx, fp, row, s.goRunner(fp), 10*time.Minute, int64(len(paths)))
	if row.Verdict == "" {
		row.Verdict = "INFO"
	}
}

func (s *session) add(row *loadRow) {
	s.b.rep.Load.Rows = append(s.b.rep.Load.Rows, row)
	s.b.printf("  %-20s %s\n", row.Scenario, row.line())
}

// runner runs a scenario for d, or until max requests when max > 0.
type runner func(ctx context.Context, d time.Duration, max int64) (measured, error)

// record runs the measured part of a scenario, with the server's CPU time and a profile.
func (s *session) record(ctx context.Context, sc scenario, row *loadRow, run runner, d time.Duration, max int64) {
	row.Load1 = loadAverage()
	profiled := s.startProfile(ctx, sc, row)
	peakReset := resetPeak(sc.base.pid()) == nil
	cpu0, cpuErr := cpuTime(sc.base.pid())
	m, err := run(ctx, d, max)
	profiled()
	if mem, err := readMemory(sc.base.pid()); err == nil {
		row.PeakMiB, row.PeakSinceStart = mib(mem.HWM), !peakReset
	}
	if sc.base == s.cms {
		// What the server holds after the scenario (with -profile): where its peak RSS went.
		row.HeapProfile = s.b.heapProfile(ctx, s.cms, "heap-"+strings.ReplaceAll(sc.name, " ", "_")+".pprof")
	}
	if err != nil {
		row.Verdict, row.Note = "ERROR", err.Error()
		return
	}
	if cpu1, err := cpuTime(sc.base.pid()); err == nil && cpuErr == nil && m.ok+m.errors > 0 {
		row.ServerCPUus = float64(cpu1-cpu0) / float64(time.Microsecond) / float64(m.ok+m.errors)
	}
	row.fill(m)
}

// goRunner runs a scenario with the Go load generator.
func (s *session) goRunner(sc scenario) runner {
	next := func(w int, seq uint64) (*http.Request, error) {
		var body io.Reader
		if sc.body != nil {
			body = bytes.NewReader(sc.body(w, seq))
		}
		req, err := http.NewRequest(sc.method, sc.base.base+sc.path(w, seq), body)
		if err != nil {
			return nil, err
		}
		for k, v := range sc.header {
			req.Header[k] = v
		}
		return req, nil
	}
	return func(ctx context.Context, d time.Duration, max int64) (measured, error) {
		res, err := load.Run(ctx, load.Options{Conns: s.b.o.conns, Duration: d, MaxRequests: max}, next)
		if err != nil {
			return measured{}, err
		}
		return fromLoad(res), nil
	}
}

// measured is a scenario's outcome, from either generator.
type measured struct {
	ok, errors int64
	rps        float64
	p50, p99   time.Duration
	firstError string
	statuses   map[int]int64
	bytes      int64 // response body bytes read; 0 when unknown (wrk)
}

func fromLoad(r *load.Result) measured {
	return measured{ok: r.OK, errors: r.Errors, rps: r.RPS(), p50: r.Latency.Quantile(0.5), p99: r.Latency.Quantile(0.99),
		firstError: r.FirstError, statuses: r.Statuses, bytes: r.BytesRead}
}

func (s *session) trivial(name string) scenario {
	return scenario{name: name, request: "GET / (fixed 1.5 KB JSON)", base: s.triv, method: http.MethodGet,
		path: func(int, uint64) string { return "/" }, fixedPaths: []string{"/"}}
}

// trivialSizedName is the row of the trivial handler sending an entry's size.
const trivialSizedName = "trivial (entry-sized)"

// trivialSized is the trivial handler with a body of n bytes: the most a handler sending an
// entry's bytes through net/http can reach, next to which the entry row's cost is its own.
func (s *session) trivialSized(n int) scenario {
	p := "/sized/" + strconv.Itoa(n)
	return scenario{name: trivialSizedName, request: fmt.Sprintf("GET %s (a fixed %d-byte JSON body, the entries' mean size)", p, n),
		base: s.triv, method: http.MethodGet, path: func(int, uint64) string { return p }, fixedPaths: []string{p}}
}

// entryBodyBytes is the mean body size of the entry scenario's first pass, 0 when unknown.
func (s *session) entryBodyBytes() int {
	for _, r := range s.b.rep.Load.Rows {
		if r.Scenario == "entry (first pass)" && r.BodyBytes > 0 {
			return int(r.BodyBytes)
		}
	}
	return 0
}

// workerRand gives each worker its own deterministic generator.
func workerRand(w int) *rand.Rand { return rand.New(rand.NewPCG(uint64(w)+1, 42)) }

func (s *session) entry() scenario {
	slugs := s.facts.published
	rngs := make([]*rand.Rand, s.b.o.conns)
	for i := range rngs {
		rngs[i] = workerRand(i)
	}
	paths := make([]string, len(slugs))
	for i, sl := range slugs {
		paths[i] = publicEntriesAPI + "/" + sl
	}
	// The first pass visits every slug once in a shuffled order, so the measured run that
	// follows sees a server that has served each entry before.
	shuffled := append([]string(nil), paths...)
	workerRand(1<<20).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	return scenario{name: "entry", request: fmt.Sprintf("GET %s/{slug}, random over %d published slugs (after a first pass over all of them)", publicEntriesAPI, len(slugs)),
		base: s.cms, method: http.MethodGet, fixedPaths: paths, firstPass: shuffled,
		path: func(w int, _ uint64) string { return paths[rngs[w].IntN(len(paths))] }}
}

// page requests rendered entry pages of the public website (the theme of theme.go: a layout
// with a menu, the entry and a 5-item list of the latest posts).
func (s *session) page() scenario {
	paths := s.facts.pages
	rngs := make([]*rand.Rand, s.b.o.conns)
	for i := range rngs {
		rngs[i] = workerRand(i)
	}
	shuffled := append([]string(nil), paths...)
	workerRand(1<<21).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	// Accept-Encoding as every browser sends it: cached pages are kept (and sent) gzip-compressed.
	return scenario{name: "page", request: fmt.Sprintf("GET /blog/{year}/{month}/{slug} with Accept-Encoding: gzip: the rendered page (layout, menu, 5-item list), random over %d published entries (after a first pass over all of them)", len(paths)),
		base: s.cms, method: http.MethodGet, fixedPaths: paths, firstPass: shuffled, header: http.Header{"Accept-Encoding": {"gzip"}},
		path: func(w int, _ uint64) string { return paths[rngs[w].IntN(len(paths))] }}
}

func (s *session) list() scenario {
	p := publicEntriesAPI + "?" + listQuery()
	return scenario{name: "list", request: "GET " + publicEntriesAPI + `?limit=10&sort=-rating&filter={"category":"news"}`,
		base: s.cms, method: http.MethodGet, fixedPaths: []string{p},
		path: func(int, uint64) string { return p }}
}

// listUncached cycles through many distinct list queries — category × featured (absent, true,
// false) × sort key × offset 0..99 — so a query repeats only after uncachedQueries requests and
// the response cache rarely helps. Offsets stay within the first pages, where real clients
// read; deep pages cost more still (see the report's notes).
func (s *session) listUncached() scenario {
	cats := sitegen.Categories()
	featured := []string{"", `,"featured":true`, `,"featured":false`}
	sorts := []string{"-rating", "rating", "title", "-title", "-createdAt", "createdAt"}
	const offsets = 100
	combos := uint64(len(cats) * len(featured) * len(sorts) * offsets)
	var counter atomic.Uint64
	// A fixed permutation step (coprime with combos) spreads consecutive requests over the space.
	step := coprimeStep(combos)
	pathOf := func(k uint64) string {
		k = (k * step) % combos
		c := cats[k%uint64(len(cats))]
		k /= uint64(len(cats))
		f := featured[k%uint64(len(featured))]
		k /= uint64(len(featured))
		so := sorts[k%uint64(len(sorts))]
		k /= uint64(len(sorts))
		return fmt.Sprintf("%s?limit=10&offset=%d&sort=%s&filter=%s", publicEntriesAPI, k, so, url.QueryEscape(`{"category":"`+c+`"`+f+`}`))
	}
	return scenario{name: "list-uncached",
		request: fmt.Sprintf(`GET %s?limit=10&offset=0..99&sort=S&filter={"category":C[,"featured":F]}, %d distinct queries in turn (repeats only after that many requests)`, publicEntriesAPI, combos),
		base:    s.cms, method: http.MethodGet,
		path: func(int, uint64) string { return pathOf(counter.Add(1) - 1) }}
}

func coprimeStep(n uint64) uint64 {
	gcd := func(a, b uint64) uint64 {
		for b != 0 {
			a, b = b, a%b
		}
		return a
	}
	for step := n/2 + 1; step > 1; step-- {
		if gcd(step, n) == 1 {
			return step
		}
	}
	return 1
}

// login gets a session token for the auth scenarios, or notes why there is none.
func (s *session) login(ctx context.Context) {
	status, body, _, err := s.post(ctx, "/api/auth/login", map[string]any{"email": sitegen.DefaultEmail, "password": sitegen.DefaultPassword}, nil)
	switch {
	case err != nil:
		s.loginNote = "login failed: " + err.Error()
	case status == http.StatusNotFound:
		s.loginNote = "POST /api/auth/login answers 404: the auth group is not mounted yet"
	case status != http.StatusOK:
		s.loginNote = fmt.Sprintf("POST /api/auth/login answered %d: %s", status, clip(body))
	default:
		s.token = tokenOf(body)
		if s.token == "" {
			s.loginNote = "login answered 200 without a token: " + clip(body)
		}
	}
}

// tokenOf finds the token in {"token":...} or {"data":{"token":...}}.
func tokenOf(body []byte) string {
	var v struct {
		Token string `json:"token"`
		Data  struct {
			Token string `json:"token"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	if v.Token != "" {
		return v.Token
	}
	return v.Data.Token
}

func (s *session) bearer() http.Header {
	return http.Header{"Authorization": {"Bearer " + s.token}}
}

func (s *session) authEntry(ctx context.Context) scenario {
	slugs := s.facts.published
	rngs := make([]*rand.Rand, s.b.o.conns)
	for i := range rngs {
		rngs[i] = workerRand(i)
	}
	paths := make([]string, len(slugs))
	for i, sl := range slugs {
		paths[i] = "/api/entries/" + sitegen.Collection + "/" + sl
	}
	sc := scenario{name: "auth-entry", base: s.cms, method: http.MethodGet, fixedPaths: paths,
		request: fmt.Sprintf("GET /api/entries/%s/{slug} with a Bearer token, random over %d published slugs", sitegen.Collection, len(slugs)),
		path:    func(w int, _ uint64) string { return paths[rngs[w].IntN(len(paths))] }}
	if s.token == "" {
		sc.skip = s.loginNote
		return sc
	}
	sc.header = s.bearer()
	status, body, err := s.get(ctx, sc.fixedPaths[0], sc.header)
	switch {
	case err != nil:
		sc.skip = err.Error()
	case status == http.StatusNotFound:
		sc.skip = "GET " + sc.fixedPaths[0] + " answers 404: the entries group is not mounted yet"
	case status != http.StatusOK:
		sc.skip = fmt.Sprintf("probe answered %d: %s", status, clip(body))
	}
	return sc
}

// loginLatency times a few sequential logins (scrypt makes each one deliberately slow).
func (s *session) loginLatency(ctx context.Context) {
	row := &loadRow{Scenario: "login", Request: fmt.Sprintf("POST /api/auth/login, %d sequential", s.b.o.logins)}
	defer s.add(row)
	if s.token == "" {
		row.Verdict, row.Note = "SKIP", s.loginNote
		return
	}
	var lat []time.Duration
	for range s.b.o.logins {
		t0 := time.Now()
		status, body, _, err := s.post(ctx, "/api/auth/login", map[string]any{"email": sitegen.DefaultEmail, "password": sitegen.DefaultPassword}, nil)
		d := time.Since(t0)
		if err != nil || status != http.StatusOK {
			row.Verdict, row.Note = "ERROR", fmt.Sprintf("login answered %d: %v %s", status, err, clip(body))
			return
		}
		lat = append(lat, d)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	row.OK = int64(len(lat))
	row.P50ms, row.P99ms = ms(lat[len(lat)/2]), ms(lat[len(lat)-1])
	row.Verdict = "INFO"
	row.Note = fmt.Sprintf("min %.1f ms, median %.1f ms, max %.1f ms", ms(lat[0]), row.P50ms, row.P99ms)
}

// graphQLQuery is the GraphQL equivalent of the list scenario, selecting five fields.
func graphQLQuery(name string) string {
	return `{ ` + name + `(filter: {category: "news"}, limit: 10, sort: "rating:desc") { title slug createdAt category rating } }`
}

func (s *session) graphQLList(ctx context.Context) scenario {
	sc := scenario{name: "graphql-list", base: s.cms, method: http.MethodPost,
		request: "POST /api/graphql " + graphQLQuery(graphQLListNames()[0])}
	if s.token == "" {
		sc.skip = "GraphQL needs a session; " + s.loginNote
		return sc
	}
	var lastErr string
	for _, name := range graphQLListNames() {
		body, _ := json.Marshal(map[string]any{"query": graphQLQuery(name)})
		status, resp, _, err := s.post(ctx, "/api/graphql", json.RawMessage(body), s.bearer())
		if err != nil {
			sc.skip = err.Error()
			return sc
		}
		if status == http.StatusNotFound {
			sc.skip = "POST /api/graphql answers 404: the graphql group is not mounted yet (or graphql.enabled is false)"
			return sc
		}
		var out struct {
			Data   map[string][]map[string]any `json:"data"`
			Errors []struct {
				Message string `json:"message"`
			} `json:"errors"`
		}
		if status == http.StatusOK && json.Unmarshal(resp, &out) == nil && len(out.Errors) == 0 && len(out.Data[name]) == 10 {
			sc.request = "POST /api/graphql " + graphQLQuery(name)
			sc.header = s.bearer()
			sc.header.Set("Content-Type", "application/json")
			sc.path = func(int, uint64) string { return "/api/graphql" }
			sc.body = func(int, uint64) []byte { return body }
			return sc
		}
		lastErr = fmt.Sprintf("%s: status %d %s", name, status, clip(resp))
	}
	sc.skip = "no working list query (tried " + strings.Join(graphQLListNames(), ", ") + "); last answer " + lastErr
	return sc
}

func (s *session) formSubmit(ctx context.Context) scenario {
	path := "/api/forms/" + sitegen.Form + "/submit"
	sc := scenario{name: "form-submit", base: s.cms, method: http.MethodPost,
		request: "POST " + path + " JSON with 10 fields (validated, stored, fsync on)",
		header:  http.Header{"Content-Type": {"application/json"}},
		path:    func(int, uint64) string { return path },
		body: func(w int, seq uint64) []byte {
			b, _ := json.Marshal(sitegen.ContactSubmission(w*1_000_000 + int(seq%1_000_000)))
			return b
		},
	}
	status, body, _, err := s.post(ctx, path, sitegen.ContactSubmission(0), nil)
	switch {
	case err != nil:
		sc.skip = err.Error()
	case status == http.StatusNotFound:
		sc.skip = "POST " + path + " answers 404: the forms group is not mounted yet"
	case status != http.StatusCreated && status != http.StatusOK:
		sc.skip = fmt.Sprintf("probe answered %d: %s", status, clip(body))
	}
	return sc
}

// get and post send one probe request to cms.
func (s *session) get(ctx context.Context, path string, h http.Header) (int, []byte, error) {
	status, body, _, err := s.do(ctx, http.MethodGet, path, nil, h)
	return status, body, err
}

func (s *session) post(ctx context.Context, path string, v any, h http.Header) (int, []byte, http.Header, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return 0, nil, nil, err
	}
	if h == nil {
		h = http.Header{}
	} else {
		h = h.Clone()
	}
	h.Set("Content-Type", "application/json")
	return s.do(ctx, http.MethodPost, path, b, h)
}

func (s *session) do(ctx context.Context, method, path string, body []byte, h http.Header) (int, []byte, http.Header, error) {
	req, err := http.NewRequestWithContext(ctx, method, s.cms.base+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	for k, v := range h {
		req.Header[k] = v
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, b, resp.Header, err
}

func clip(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// judge computes ratios and verdicts once every scenario has run.
func (s *session) judge() {
	targets := map[string]string{
		"entry":        fmt.Sprintf(">= %.1f x trivial", targetEntry),
		"page":         fmt.Sprintf(">= %.1f x trivial", targetPage),
		"list":         fmt.Sprintf(">= %.1f x trivial", targetList),
		"auth-entry":   fmt.Sprintf(">= %.1f x trivial", targetAuthEntry),
		"graphql-list": fmt.Sprintf(">= %.1f x REST list", targetGraphQL),
	}
	lr := s.b.rep.Load
	var first, last, rest, uncached, sized *loadRow
	for _, r := range lr.Rows {
		switch r.Scenario {
		case trivialSizedName:
			sized = r
		case "list-uncached":
			uncached = r
		case "trivial (first)":
			first = r
		case "trivial (last)":
			last = r
		case "list":
			rest = r
		}
	}
	var trivial, trivialCPU float64
	var n, nc int
	for _, r := range []*loadRow{first, last} {
		if r != nil && r.RPS > 0 {
			trivial += r.RPS
			n++
		}
		if r != nil && r.ServerCPUus > 0 {
			trivialCPU += r.ServerCPUus
			nc++
		}
	}
	if n > 0 {
		lr.TrivialRPS = trivial / float64(n)
	}
	if nc > 0 {
		lr.TrivialCPU = trivialCPU / float64(nc)
	}
	lr.judgeMemory()
	for _, r := range lr.Rows {
		if r.Verdict == "SKIP" || r.Verdict == "ERROR" {
			if t, ok := targets[r.Scenario]; ok {
				r.Target = t
			}
			continue
		}
		if r.Scenario == "login" {
			continue
		}
		if lr.TrivialRPS > 0 {
			r.Ratio = r.RPS / lr.TrivialRPS
		}
		if lr.TrivialCPU > 0 && r.ServerCPUus > 0 {
			r.CPURatio = lr.TrivialCPU / r.ServerCPUus
		}
		switch r.Scenario {
		case "entry":
			r.verdict(r.Ratio, targetEntry, "trivial")
			if sized != nil && sized.RPS > 0 && r.RPS > 0 {
				r.Note = strings.TrimSpace(r.Note + fmt.Sprintf(" %.2f x the trivial handler sending as many bytes (%.2f x trivial), %.0f vs %.0f us CPU",
					r.RPS/sized.RPS, sized.RPS/lr.TrivialRPS, r.ServerCPUus, sized.ServerCPUus))
			}
		case "page":
			r.verdict(r.Ratio, targetPage, "trivial")
		case "list":
			r.verdict(r.Ratio, targetList, "trivial")
		case "auth-entry":
			r.verdict(r.Ratio, targetAuthEntry, "trivial")
		case "graphql-list":
			if rest != nil && rest.RPS > 0 {
				r.RatioREST = r.RPS / rest.RPS
				r.verdict(r.RatioREST, targetGraphQL, "REST list")
			}
		default:
			if strings.HasPrefix(r.Scenario, "list-uncached ") && r.ServerCPUus > 0 {
				r.judgeUncached(uncached)
			}
			if r.Verdict == "" {
				r.Verdict = "INFO"
			}
		}
		if r.Errors > 0 && r.Verdict == "PASS" {
			r.Verdict = "FAIL"
			r.Note = strings.TrimSpace(r.Note + fmt.Sprintf(" %d errors", r.Errors))
		}
	}
}

// startProfile fetches a CPU profile of cms for the measured duration of a cms scenario into
// the -profile folder, and returns a function that waits for it.
func (s *session) startProfile(ctx context.Context, sc scenario, row *loadRow) (wait func()) {
	if s.cms.pprof == "" || sc.base != s.cms {
		return func() {}
	}
	secs := max(1, int(s.b.o.duration.Round(time.Second)/time.Second))
	file := filepath.Join(s.b.o.profileDir, strings.ReplaceAll(sc.name, " ", "_")+".pprof")
	done := make(chan struct{})
	go func() {
		defer close(done)
		u := fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", s.cms.pprof, secs)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return
		}
		resp, err := (&http.Client{Timeout: time.Duration(secs+30) * time.Second}).Do(req)
		if err != nil {
			row.Profile = "profile failed: " + err.Error()
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			row.Profile = fmt.Sprintf("profile failed: %d %v", resp.StatusCode, err)
			return
		}
		if err := os.WriteFile(file, b, 0o644); err != nil {
			row.Profile = "profile failed: " + err.Error()
			return
		}
		row.Profile = file
	}()
	return func() { <-done }
}
