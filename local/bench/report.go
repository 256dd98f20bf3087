package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
)

// report is everything a run measured; it prints as Markdown tables and saves as JSON.
type report struct {
	Command    string       `json:"command"`
	Machine    string       `json:"machine"`
	Date       string       `json:"date"`
	Elapsed    string       `json:"elapsed"`
	Generated  []genRow     `json:"generated"`
	StartupCmd string       `json:"startupCommand"`
	Startup    []startupRow `json:"startup"`
	Load       *loadReport  `json:"load,omitempty"`
	Notes      []string     `json:"notes,omitempty"`
}

type genRow struct {
	Entries int     `json:"entries"`
	Seconds float64 `json:"seconds"`
}

type startupRow struct {
	Entries        int     `json:"entries"`
	Run            string  `json:"run"` // cold (first start) or warm (second)
	SnapshotBefore bool    `json:"snapshotBefore"`
	ReadyMs        float64 `json:"readyMs"`
	RSSMiB         float64 `json:"rssMiB"`
	PeakMiB        float64 `json:"peakMiB"`
	Requests       int     `json:"requestsBeforeMemory"`
	Load1          float64 `json:"loadAverage1m"` // when the process was started
	HeapProfile    string  `json:"heapProfile,omitempty"`
	CPUms          float64 `json:"cpuMsToReady"` // server CPU time (user+system) when ready
	Target         string  `json:"target,omitempty"`
	Verdict        string  `json:"verdict,omitempty"`
}

// judge applies issue 18's start-up targets (a first start, and one from the index snapshot) and
// the 100,000-entry memory target.
func (r *startupRow) judge() {
	var targets []string
	pass := true
	switch {
	case r.Entries == 10_000:
		target := targetReady10k
		if r.SnapshotBefore {
			target = targetReady10kWarm
		}
		targets = append(targets, fmt.Sprintf("ready <= %v", target))
		pass = r.ReadyMs <= ms(target)
	case r.Entries == 100_000:
		target := targetReady100k
		if r.SnapshotBefore {
			target = targetReady100kWarm
		}
		targets = append(targets, fmt.Sprintf("ready <= %v", target), fmt.Sprintf("RSS <= %d MiB", targetRSS100k>>20))
		pass = r.ReadyMs <= ms(target) && r.RSSMiB <= float64(targetRSS100k>>20)
	}
	if len(targets) == 0 {
		return
	}
	r.Target = strings.Join(targets, ", ")
	r.Verdict = "FAIL"
	if pass {
		r.Verdict = "PASS"
	}
}

func (r *startupRow) verdictText() string {
	if r.Verdict == "" {
		return ""
	}
	return "  " + r.Verdict + " (" + r.Target + ")"
}

type loadReport struct {
	Site       int        `json:"siteEntries"`
	Conns      int        `json:"conns"`
	Duration   string     `json:"duration"`
	Warmup     string     `json:"warmup"`
	ServerCmd  string     `json:"serverCommand"`
	TrivialCmd string     `json:"trivialCommand"`
	Generator  string     `json:"generator"`
	TrivialRPS float64    `json:"trivialRps"` // mean of the first and last trivial runs
	TrivialCPU float64    `json:"trivialCpuUsPerRequest"`
	Rows       []*loadRow `json:"scenarios"`
	// Memory is the highest peak RSS of cms per site during the load, against issue 18's targets.
	Memory []memoryRow `json:"peakRss,omitempty"`
}

// memoryRow is the highest VmHWM of the cms serving one site over the load scenarios run
// against it (each scenario's own peak, so the caches filled by the scenarios before count).
type memoryRow struct {
	Entries  int     `json:"siteEntries"`
	PeakMiB  float64 `json:"peakRssMiB"`
	Scenario string  `json:"scenario"` // the scenario during which it was reached
	Target   string  `json:"target,omitempty"`
	Verdict  string  `json:"verdict,omitempty"`
}

// Issue 18's peak RSS targets during the bench's load, with default settings.
func peakTargetMiB(entries int) float64 {
	switch entries {
	case 10_000:
		return 150
	case 100_000:
		return 400
	}
	return 0
}

// judgeMemory finds the highest peak RSS per site: the load site's rows, and each
// "list-uncached Nk" row, which runs on a cms of its own.
func (lr *loadReport) judgeMemory() {
	lr.Memory = nil
	add := func(entries int, r *loadRow) {
		for i := range lr.Memory {
			if m := &lr.Memory[i]; m.Entries == entries {
				if r.PeakMiB > m.PeakMiB {
					m.PeakMiB, m.Scenario = r.PeakMiB, r.Scenario
				}
				return
			}
		}
		lr.Memory = append(lr.Memory, memoryRow{Entries: entries, PeakMiB: r.PeakMiB, Scenario: r.Scenario})
	}
	for _, r := range lr.Rows {
		if r.PeakMiB <= 0 || strings.HasPrefix(r.Scenario, "trivial") {
			continue
		}
		entries := lr.Site
		if strings.HasPrefix(r.Scenario, "list-uncached ") {
			if _, err := fmt.Sscanf(r.Scenario, "list-uncached %dk", &entries); err != nil {
				continue
			}
			entries *= 1000
		}
		add(entries, r)
	}
	for i := range lr.Memory {
		m := &lr.Memory[i]
		if t := peakTargetMiB(m.Entries); t > 0 {
			m.Target = fmt.Sprintf("<= %.0f MiB", t)
			m.Verdict = "FAIL"
			if m.PeakMiB <= t {
				m.Verdict = "PASS"
			}
		}
	}
}

type loadRow struct {
	Scenario  string  `json:"scenario"`
	Request   string  `json:"request"`
	OK        int64   `json:"ok"`
	Errors    int64   `json:"errors"`
	RPS       float64 `json:"rps"`
	P50ms     float64 `json:"p50ms"`
	P99ms     float64 `json:"p99ms"`
	Ratio     float64 `json:"ratioToTrivial,omitempty"`
	RatioREST float64 `json:"ratioToREST,omitempty"`
	// CPURatio is the trivial handler's CPU per request over this scenario's: the throughput
	// ratio the scenario would reach if server CPU were the only limit.
	CPURatio float64 `json:"cpuRatioToTrivial,omitempty"`
	Target   string  `json:"target,omitempty"`
	Verdict  string  `json:"verdict,omitempty"` // PASS, FAIL, INFO, SKIP, ERROR
	Note     string  `json:"note,omitempty"`
	// ServerCPUus is the server's CPU time (user+system, all threads) per request during the
	// measured run: unlike req/s it hardly changes when other processes compete for the CPUs.
	ServerCPUus float64       `json:"serverCpuUsPerRequest,omitempty"`
	Load1       float64       `json:"loadAverage1m"`
	Statuses    map[int]int64 `json:"statuses,omitempty"`
	FirstError  string        `json:"firstError,omitempty"`
	Profile     string        `json:"profile,omitempty"` // CPU profile file (-profile)
	// HeapProfile is the server's heap profile right after the scenario (-profile).
	HeapProfile string `json:"heapProfile,omitempty"`
	BodyBytes   int64  `json:"avgBodyBytes,omitempty"`
	// Generator is the load generator that produced the row: wrk or go (local/bench/load).
	Generator string `json:"generator,omitempty"`
	// PeakMiB is the server's VmHWM at the end of the measured run, reset just before it
	// (/proc/<pid>/clear_refs), so it is the scenario's own peak RSS; PeakSinceStart marks a
	// peak that could not be reset and so covers the process's whole life.
	PeakMiB        float64 `json:"peakRssMiB,omitempty"`
	PeakSinceStart bool    `json:"peakSinceStart,omitempty"`
}

// Load generators named in the rows.
const (
	generatorWrk = "wrk"
	generatorGo  = "go"
)

func (r *loadRow) fill(m measured) {
	r.OK, r.Errors, r.RPS = m.ok, m.errors, m.rps
	r.P50ms, r.P99ms = ms(m.p50), ms(m.p99)
	r.Statuses, r.FirstError = m.statuses, m.firstError
	if n := m.ok + m.errors; n > 0 {
		r.BodyBytes = m.bytes / n
	}
	if m.errors > 0 && r.Note == "" {
		r.Note = fmt.Sprintf("%d errors, first: %s", m.errors, m.firstError)
	}
}

func (r *loadRow) verdict(ratio, target float64, of string) {
	r.Target = fmt.Sprintf(">= %.1f x %s", target, of)
	r.Verdict = "FAIL"
	if ratio >= target {
		r.Verdict = "PASS"
	}
}

// Targets of issue 18 for an uncached list on a larger site: server CPU per query, absolute and
// against the load site's figure.
const (
	targetUncachedCPUus  = 100
	targetUncachedGrowth = 2.0
)

// judgeUncached judges the list-uncached row of a larger site against base, the load site's.
func (r *loadRow) judgeUncached(base *loadRow) {
	r.Target = fmt.Sprintf("<= %d us CPU", targetUncachedCPUus)
	ok := r.ServerCPUus <= targetUncachedCPUus
	if base != nil && base.ServerCPUus > 0 {
		r.Target += fmt.Sprintf(", <= %.0f x list-uncached", targetUncachedGrowth)
		ok = ok && r.ServerCPUus <= targetUncachedGrowth*base.ServerCPUus
		r.Note = strings.TrimSpace(r.Note + fmt.Sprintf(" %.1f x the list-uncached CPU", r.ServerCPUus/base.ServerCPUus))
	}
	r.Verdict = "FAIL"
	if ok {
		r.Verdict = "PASS"
	}
}

// line is the progress line printed as soon as a scenario has run.
func (r *loadRow) line() string {
	if r.Verdict == "SKIP" || r.Verdict == "ERROR" {
		return r.Verdict + ": " + r.Note
	}
	if r.Scenario == "login" {
		return r.Note
	}
	s := fmt.Sprintf("%9.0f req/s  p50 %7.2f ms  p99 %7.2f ms  (%d ok, %d errors)", r.RPS, r.P50ms, r.P99ms, r.OK, r.Errors)
	if r.Errors > 0 {
		s += " first error: " + r.FirstError
	}
	return s
}

// table writes a Markdown table with aligned columns.
func table(w io.Writer, head []string, rows [][]string) {
	width := make([]int, len(head))
	for i, h := range head {
		width[i] = len(h)
	}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		b.WriteString("|")
		for i, c := range cells {
			fmt.Fprintf(&b, " %-*s |", width[i], c)
		}
		fmt.Fprintln(w, b.String())
	}
	line(head)
	sep := make([]string, len(head))
	for i := range sep {
		sep[i] = strings.Repeat("-", width[i])
	}
	line(sep)
	for _, r := range rows {
		line(r)
	}
}

func (rep *report) writeStartup(w io.Writer) {
	fmt.Fprintf(w, "## Start-up to ready and memory\n\ncommand: %s (SITE = a generated site); ready = first 200 from GET %s, polled every 5 ms, timed from process start; CPU = the server's user+system CPU time at that moment (10 ms resolution; barely affected by other load); memory = VmRSS (and VmHWM peak) from /proc/<pid>/status after ~20 requests. cold = first start (no .cms/ snapshot), warm = second start. Files are in the page cache in both (the site was just written).\n\n",
		rep.StartupCmd, readyPath)
	var rows [][]string
	for _, r := range rep.Startup {
		snap := "no"
		if r.SnapshotBefore {
			snap = "yes"
		}
		rows = append(rows, []string{fmt.Sprint(r.Entries), r.Run, snap, fmt.Sprintf("%.0f", r.ReadyMs), fmt.Sprintf("%.0f", r.CPUms), fmt.Sprintf("%.0f", r.RSSMiB), fmt.Sprintf("%.0f", r.PeakMiB), fmt.Sprintf("%.1f", r.Load1), r.Target, r.Verdict})
	}
	table(w, []string{"entries", "start", ".cms/ before", "ready ms", "CPU ms", "RSS MiB", "peak MiB", "load avg", "target", "verdict"}, rows)
	if len(rep.Generated) > 0 {
		var g []string
		for _, r := range rep.Generated {
			g = append(g, fmt.Sprintf("%d entries in %.1f s", r.Entries, r.Seconds))
		}
		fmt.Fprintf(w, "\nsite generation (sitegen, parallel, no fsync): %s\n", strings.Join(g, ", "))
	}
	for _, r := range rep.Startup {
		if r.HeapProfile != "" {
			fmt.Fprintf(w, "heap profile %d entries %s: %s\n", r.Entries, r.Run, r.HeapProfile)
		}
	}
}

func (rep *report) writeLoad(w io.Writer) {
	lr := rep.Load
	if lr == nil {
		return
	}
	fmt.Fprintf(w, "## Load on the %d-entry site\n\nserver: %s\ntrivial: %s\ngenerator: %s, %d connections, %s measured after %s warm-up per scenario; it runs in the bench process and shares the %d cores with the server (server GOMAXPROCS default)\ntrivial handler: %.0f req/s (mean of the first and last runs)\n\n",
		lr.Site, lr.ServerCmd, lr.TrivialCmd, lr.Generator, lr.Conns, lr.Duration, lr.Warmup, numCPU(), lr.TrivialRPS)
	var rows [][]string
	for _, r := range lr.Rows {
		rps, p50, p99, ratio, cpu, cpuRatio, size, peak := "-", "-", "-", "-", "-", "-", "-", "-"
		if r.Verdict != "SKIP" && r.Verdict != "ERROR" {
			if r.Scenario != "login" {
				rps = fmt.Sprintf("%.0f", r.RPS)
			}
			p50, p99 = fmt.Sprintf("%.2f", r.P50ms), fmt.Sprintf("%.2f", r.P99ms)
			if r.Ratio > 0 {
				ratio = fmt.Sprintf("%.2f", r.Ratio)
			}
			if r.RatioREST > 0 {
				ratio += fmt.Sprintf(" (%.2f x REST)", r.RatioREST)
			}
			if r.ServerCPUus > 0 {
				cpu = fmt.Sprintf("%.0f", r.ServerCPUus)
			}
			if r.CPURatio > 0 {
				cpuRatio = fmt.Sprintf("%.2f", r.CPURatio)
			}
			if r.BodyBytes > 0 {
				size = fmt.Sprintf("%.1f", float64(r.BodyBytes)/1024)
			}
			if r.PeakMiB > 0 {
				peak = fmt.Sprintf("%.0f", r.PeakMiB)
				if r.PeakSinceStart {
					peak += " (since start)"
				}
			}
		}
		if r.Scenario == "login" {
			p99 += " (max)"
		}
		load := "-"
		if r.Load1 > 0 {
			load = fmt.Sprintf("%.1f", r.Load1)
		}
		gen := r.Generator
		if gen == "" {
			gen = "-"
		}
		rows = append(rows, []string{r.Scenario, gen, rps, p50, p99, ratio, cpu, cpuRatio, peak, size, load, r.Target, r.Verdict, r.Note})
	}
	table(w, []string{"scenario", "generator", "req/s", "p50 ms", "p99 ms", "x trivial", "server CPU us/req", "x trivial by CPU", "peak RSS MiB", "KiB/resp", "load avg", "target", "verdict", "note"}, rows)
	fmt.Fprintf(w, "\nx trivial = req/s over the trivial handler's (the targets); x trivial by CPU = the trivial handler's server CPU per request over the scenario's, which other processes on the machine hardly disturb. generator = wrk or go (local/bench/load). peak RSS = the server's VmHWM during the scenario (reset before it through /proc/PID/clear_refs). load avg = 1-minute load average when the scenario started (above %d, other work competed for the CPUs).\n", numCPU())
	if len(lr.Memory) > 0 {
		fmt.Fprintln(w, "\npeak RSS of cms during the load (the highest of its scenarios' peaks, default settings):")
		for _, m := range lr.Memory {
			fmt.Fprintf(w, "  %d entries: %.0f MiB (during %s)", m.Entries, m.PeakMiB, m.Scenario)
			if m.Target != "" {
				fmt.Fprintf(w, ", target %s: %s", m.Target, m.Verdict)
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintln(w, "\nrequests:")
	for _, r := range lr.Rows {
		fmt.Fprintf(w, "  %-20s %s\n", r.Scenario, r.Request)
	}
	var profiles []string
	for _, r := range lr.Rows {
		if r.Profile != "" {
			profiles = append(profiles, fmt.Sprintf("  %-20s %s", r.Scenario, r.Profile))
		}
	}
	if len(profiles) > 0 {
		fmt.Fprintf(w, "\nCPU profiles of cms serve (go tool pprof -top CMS_BINARY FILE):\n%s\n", strings.Join(profiles, "\n"))
	}
	var heaps []string
	for _, r := range lr.Rows {
		if r.HeapProfile != "" {
			heaps = append(heaps, fmt.Sprintf("  %-20s %s", r.Scenario, r.HeapProfile))
		}
	}
	if len(heaps) > 0 {
		fmt.Fprintf(w, "\nheap profiles of cms serve after each scenario (go tool pprof -sample_index=inuse_space -top CMS_BINARY FILE):\n%s\n", strings.Join(heaps, "\n"))
	}
}

// writeSummary lists the verdicts against the issues' targets.
func (rep *report) writeSummary(w io.Writer) {
	fmt.Fprintf(w, "## Summary (%s, %s)\n\n", rep.Machine, rep.Elapsed)
	var rows [][]string
	for _, r := range rep.Startup {
		if r.Verdict != "" {
			rows = append(rows, []string{fmt.Sprintf("start-up %d entries (%s)", r.Entries, r.Run), fmt.Sprintf("%.0f ms, RSS %.0f MiB", r.ReadyMs, r.RSSMiB), r.Target, r.Verdict})
		}
	}
	if rep.Load != nil {
		for _, r := range rep.Load.Rows {
			if r.Target != "" || r.Verdict == "SKIP" && r.Scenario != "login" {
				v := fmt.Sprintf("%.2f x trivial", r.Ratio)
				if r.RatioREST > 0 {
					v = fmt.Sprintf("%.2f x REST list", r.RatioREST)
				}
				if r.Verdict == "SKIP" {
					v = "-"
				}
				rows = append(rows, []string{r.Scenario, v, r.Target, r.Verdict})
			}
		}
		for _, m := range rep.Load.Memory {
			if m.Target != "" {
				rows = append(rows, []string{fmt.Sprintf("peak RSS under load, %d entries", m.Entries), fmt.Sprintf("%.0f MiB (%s)", m.PeakMiB, m.Scenario), m.Target, m.Verdict})
			}
		}
	}
	table(w, []string{"measure", "value", "target", "verdict"}, rows)
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "\nnote: %s\n", n)
	}
}

// save writes the report as JSON (.json) or as the same Markdown as printed.
func (rep *report) save(path string) error {
	var b strings.Builder
	if strings.HasSuffix(path, ".json") {
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(&b, "# cms benchmark\n\n%s\nmachine: %s, %s\n\n", rep.Command, rep.Machine, rep.Date)
		if len(rep.Startup) > 0 {
			rep.writeStartup(&b)
			b.WriteString("\n")
		}
		if rep.Load != nil {
			rep.writeLoad(&b)
			b.WriteString("\n")
		}
		rep.writeSummary(&b)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func numCPU() int { return runtime.NumCPU() }
