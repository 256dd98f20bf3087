// Command bench is the benchmark behind `make bench`. It generates sites of 1,000, 10,000 and
// 100,000 entries, measures how long `cms serve` takes to become ready on each (first and second
// start) and its resident memory, then runs load scenarios against the 10,000-entry site and a
// trivial net/http handler in the same run, printing each scenario's throughput as a ratio to
// the trivial handler against the targets of issues 2 to 5.
//
// Usage:
//
//	go run ./local/bench [-sizes 1000,10000,100000] [-skip-100k] [-duration 5s] [-conns 32]
//	                     [-scenarios trivial,entry,list,...] [-uncached-sizes 100000] [-wrk=false]
//	                     [-out report.md|report.json]
//	go run ./local/bench -soak 5m [-load-size 10000] [-soak-limit-mib N]
//
// GET scenarios with a fixed set of paths run under wrk when it is on PATH (else, or with
// -wrk=false, under the Go generator in local/bench/load); every row names its generator, the
// server's CPU time per request and its peak RSS (VmHWM) during that scenario.
//
// Everything listens on 127.0.0.1; every loop is bounded in count and time. `bench trivial
// -addr HOST:PORT` is the trivial server, run by the benchmark as its own child process.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// scenarioNames lists the load scenarios in the order they run (trivial runs first and last).
func scenarioNames() []string {
	return []string{"trivial", "entry", "page", "list", "list-uncached", "auth-entry", "login", "graphql-list", "form-submit"}
}

// options are the parsed flags.
type options struct {
	sizes        []int
	skip100k     bool
	loadSize     int
	duration     time.Duration
	warmup       time.Duration
	conns        int
	scenarios    []string
	out          string
	cmsBin       string
	workDir      string
	keep         bool
	useWrk       bool
	uncached     []int // extra sites the list-uncached scenario also runs against
	serverLog    string
	readyTimeout time.Duration
	logins       int
	profileDir   string
	soak         time.Duration // > 0: run the soak (soak.go) instead of the benchmark
	soakLimitMiB int           // memory.limitMiB of the soak's site; 0 = default settings
	cacheMiB     int           // memory.cacheMiB of the generated sites; 0 = the default
	args         []string
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sizes := fs.String("sizes", "1000,10000,100000", "entry counts of the generated sites (start-up and memory)")
	fs.BoolVar(&o.skip100k, "skip-100k", false, "leave out sizes of 100,000 entries or more")
	fs.IntVar(&o.loadSize, "load-size", 10000, "entries of the site the load scenarios run against")
	fs.DurationVar(&o.duration, "duration", 5*time.Second, "measured time per load scenario")
	fs.DurationVar(&o.warmup, "warmup", time.Second, "unmeasured warm-up per load scenario")
	fs.IntVar(&o.conns, "conns", 32, "concurrent keep-alive connections of the load generator")
	scen := fs.String("scenarios", "all", "comma-separated load scenarios ("+strings.Join(scenarioNames(), ",")+"), all, or none")
	fs.StringVar(&o.out, "out", "", "also write the report to this file (.json for JSON, else Markdown)")
	fs.StringVar(&o.cmsBin, "cms-bin", "", "use this cms binary instead of building ./local")
	fs.StringVar(&o.workDir, "dir", "", "work folder for sites and logs (default: a new temporary folder, removed at the end)")
	fs.BoolVar(&o.keep, "keep", false, "keep the work folder")
	fs.BoolVar(&o.useWrk, "wrk", true, "use wrk for the GET scenarios with fixed paths when it is on PATH (false: always the Go generator)")
	uncached := fs.String("uncached-sizes", "100000", "entry counts of further sites the list-uncached scenario runs against (besides -load-size); empty for none")
	fs.StringVar(&o.serverLog, "server-log", "info", "log.level of cms serve (info logs one access line per request)")
	fs.DurationVar(&o.readyTimeout, "ready-timeout", 3*time.Minute, "longest wait for a server to become ready")
	fs.IntVar(&o.logins, "logins", 5, "sequential logins timed by the login scenario")
	fs.StringVar(&o.profileDir, "profile", "", "write a CPU profile of cms serve per load scenario into this folder (sets CMS_PPROF_ADDR)")
	fs.DurationVar(&o.soak, "soak", 0, "instead of the benchmark, run a mixed load this long against cms on the -load-size site and fail if its peak RSS exceeds the budget (make soak)")
	fs.IntVar(&o.soakLimitMiB, "soak-limit-mib", 0, "with -soak: memory.limitMiB of the site; the budget is then that plus 32 MiB, as a Lambda function's memory (default: default settings and issue 18's peak RSS target for the size)")
	fs.IntVar(&o.cacheMiB, "cache-mib", 0, "memory.cacheMiB of the generated sites, to see what a cache budget costs or saves (0: the default; the peak RSS verdicts are for default settings)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	for s := range strings.SplitSeq(*sizes, ",") {
		s = strings.TrimSpace(strings.ReplaceAll(s, "_", ""))
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > 1_000_000 {
			return o, fmt.Errorf("-sizes: %q is not an entry count (0..1000000)", s)
		}
		if o.skip100k && n >= 100_000 {
			continue
		}
		o.sizes = append(o.sizes, n)
	}
	for s := range strings.SplitSeq(*uncached, ",") {
		s = strings.TrimSpace(strings.ReplaceAll(s, "_", ""))
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 1_000_000 {
			return o, fmt.Errorf("-uncached-sizes: %q is not an entry count (1..1000000)", s)
		}
		if (o.skip100k && n >= 100_000) || n == o.loadSize || slices.Contains(o.uncached, n) {
			continue
		}
		o.uncached = append(o.uncached, n)
	}
	switch *scen {
	case "all", "":
		o.scenarios = scenarioNames()
	case "none":
	default:
		for s := range strings.SplitSeq(*scen, ",") {
			s = strings.TrimSpace(s)
			if !slices.Contains(scenarioNames(), s) {
				return o, fmt.Errorf("-scenarios: unknown scenario %q (have %s)", s, strings.Join(scenarioNames(), ", "))
			}
			o.scenarios = append(o.scenarios, s)
		}
	}
	if o.conns < 1 || o.conns > 4096 {
		return o, fmt.Errorf("-conns must be 1..4096")
	}
	if o.duration <= 0 || o.duration > 10*time.Minute {
		return o, fmt.Errorf("-duration must be positive and at most 10m")
	}
	if o.warmup < 0 || o.warmup > time.Minute {
		return o, fmt.Errorf("-warmup must be 0..1m")
	}
	if o.soak < 0 || o.soak > time.Hour {
		return o, fmt.Errorf("-soak must be 0..1h")
	}
	if o.cacheMiB < 0 {
		return o, fmt.Errorf("-cache-mib: %d is negative", o.cacheMiB)
	}
	if o.soakLimitMiB < 0 {
		return o, fmt.Errorf("-soak-limit-mib must not be negative")
	}
	if o.loadSize < 1 || o.loadSize > 1_000_000 {
		return o, fmt.Errorf("-load-size must be 1..1000000")
	}
	o.logins = min(max(o.logins, 1), 100)
	o.args = args
	return o, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "trivial" {
		return runTrivial(ctx, args[1:], stderr)
	}
	o, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	b, err := newBench(o, stdout)
	if err != nil {
		return err
	}
	defer b.close()
	return b.run(ctx)
}

// machine describes where the figures were measured.
func machine() string {
	return fmt.Sprintf("%s/%s, %d CPUs, %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
}
