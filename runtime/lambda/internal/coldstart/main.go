// Command coldstart measures the cold start of the Lambda bootstraps on this machine: process
// start to the first response through a Runtime API emulator, on generated sites
// (content/sitegen) with and without the index snapshot. It is a benchmark, not a test (not
// part of make test):
//
//	go run ./runtime/lambda/internal/coldstart -entries 10000,100000 -runs 7
//
// Each run starts a fresh process on a site folder that is already in the page cache (one
// untimed warm-up run first), sends one API Gateway v2 event and stops the process. "cpu" is
// the process's user+system time, which is steadier than wall time on a busy machine. The
// public-entries frontend is read-only, so without a snapshot it parses every entry file on
// every start; with one it reads a single file. On EFS each of those file reads costs about a
// quarter of a millisecond more than here.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"cms/content/fsstore"
	"cms/content/query"
	"cms/content/sitegen"
	"cms/runtime/lambda/internal/runtimeapi"
)

func main() {
	entries := flag.String("entries", "10000,100000", "comma-separated site sizes")
	runs := flag.Int("runs", 7, "timed starts per case")
	keep := flag.String("dir", "", "folder for the generated sites and binaries (default: a temporary folder, removed)")
	flag.Parse()
	if err := run(*entries, *runs, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "coldstart:", err)
		os.Exit(1)
	}
}

func run(sizes string, runs int, dir string) error {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "coldstart-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	bins := filepath.Join(dir, "bin")
	build := exec.Command("go", "build", "-tags", "lambda.norpc", "-trimpath", "-ldflags", "-s -w", "-o", bins+"/",
		"./runtime/lambda/publicentries", "./runtime/lambda/health")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("build: %v\n%s", err, out)
	}
	fmt.Printf("%-10s %-9s %-22s %10s %10s %10s\n", "entries", "snapshot", "function / request", "wall p50", "wall min", "cpu p50")
	for _, s := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("bad size %q", s)
		}
		site := filepath.Join(dir, fmt.Sprintf("site-%d", n))
		if _, err := os.Stat(site); err != nil {
			t0 := time.Now()
			if err := sitegen.Generate(site, n, sitegen.Options{}); err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "generated %d entries in %v\n", n, time.Since(t0).Round(time.Millisecond))
		}
		list := event("GET", "/api/public/entries/posts", "limit=10")
		byRating := event("GET", "/api/public/entries/posts", "limit=10&sort=-rating")
		i := 0
		for !sitegen.Post(i, sitegen.Options{}).Published {
			i++
		}
		one := event("GET", "/api/public/entries/posts/"+sitegen.Slug(i, sitegen.Options{}), "")
		live := event("GET", "/api/health/live", "")
		if err := os.RemoveAll(filepath.Join(site, ".cms")); err != nil {
			return err
		}
		for _, snap := range []bool{false, true} {
			if snap {
				if err := writeSnapshot(site); err != nil {
					return err
				}
			}
			cases := []struct {
				name, bin string
				ev        []byte
			}{
				{"publicentries list", "publicentries", list},
				{"list sort=-rating", "publicentries", byRating},
				{"publicentries entry", "publicentries", one},
				{"health live", "health", live},
			}
			for _, c := range cases {
				var walls, cpus []time.Duration
				for i := 0; i <= runs; i++ {
					wall, cpu, err := coldStart(filepath.Join(bins, c.bin), site, c.ev)
					if err != nil {
						return fmt.Errorf("%s on %d entries: %w", c.name, n, err)
					}
					if i > 0 { // the first run only warms the page cache
						walls, cpus = append(walls, wall), append(cpus, cpu)
					}
				}
				fmt.Printf("%-10d %-9v %-22s %10s %10s %10s\n", n, snap, c.name, ms(median(walls)), ms(slices.Min(walls)), ms(median(cpus)))
			}
		}
	}
	return nil
}

// writeSnapshot does what the writer function (or `cms snapshot --sort posts:-rating`) does
// after a change: the snapshot keeps the order by rating, as a writer's does once it sorted by it.
func writeSnapshot(site string) error {
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: site, Snapshot: true, Watch: fsstore.WatchNone, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		return err
	}
	if _, _, err := st.Entries("posts", query.Query{Sort: []query.SortKey{{Field: "rating", Desc: true}}, Limit: 1}); err != nil {
		st.Close()
		return err
	}
	if err := st.WriteSnapshot(context.Background()); err != nil {
		st.Close()
		return err
	}
	return st.Close()
}

// coldStart starts bin, sends ev and returns the time from process start to the response and
// the process's CPU time.
func coldStart(bin, site string, ev []byte) (wall, cpu time.Duration, err error) {
	emu, err := runtimeapi.New()
	if err != nil {
		return 0, 0, err
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		emu.Close(ctx)
	}()
	cmd := exec.Command(bin)
	cmd.Env = []string{"AWS_LAMBDA_RUNTIME_API=" + emu.Addr(), "CMS_SITE_DIR=" + site, "NODE_ENV=production", "CMS_LOG_LEVEL=warn"}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := emu.Invoke(ctx, ev)
	wall = time.Since(start)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if err != nil {
		return 0, 0, fmt.Errorf("%w\n%s", err, out.String())
	}
	var resp struct {
		StatusCode int `json:"statusCode"`
	}
	if json.Unmarshal(res.Body, &resp); res.Error || resp.StatusCode != 200 {
		return 0, 0, fmt.Errorf("response %s\n%s", res.Body, out.String())
	}
	if ps := cmd.ProcessState; ps != nil {
		cpu = ps.UserTime() + ps.SystemTime()
	}
	return wall, cpu, nil
}

func event(method, path, query string) []byte {
	ev := map[string]any{
		"version": "2.0", "routeKey": "$default", "rawPath": path, "rawQueryString": query,
		"headers":        map[string]string{"host": "cms.example.com", "accept": "application/json"},
		"requestContext": map[string]any{"stage": "$default", "http": map[string]string{"method": method, "path": path, "sourceIp": "203.0.113.7"}},
	}
	b, _ := json.Marshal(ev)
	return b
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
