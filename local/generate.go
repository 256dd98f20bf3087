package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"cms/content/codegen"
	"cms/content/fsstore"
	"cms/runtime/config"
	"cms/runtime/wire"
)

// generateDebounce is how long --watch waits for definitions to stop changing before it runs.
const generateDebounce = 300 * time.Millisecond

func cmdGenerate(ctx context.Context, e env, args []string) error {
	fl := newFlags("generate", e)
	site := fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
	out := fl.String("out", "", "output folder (default .cms/generated inside the site)")
	watch := fl.Bool("watch", false, "regenerate whenever a definition or blueprint changes")
	check := fl.Bool("check", false, "write nothing; exit 1 listing the files that would change")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *watch && *check {
		return errors.New("--watch and --check cannot be combined")
	}
	cfg, _, err := config.Load(*site, e.getenv)
	if err != nil {
		return err
	}
	if err := requireSite(cfg, "--site"); err != nil {
		return err
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join(cfg.SiteDir, ".cms", "generated")
	}
	if !*watch {
		changed, err := generateOnce(ctx, e, cfg, dir, *check)
		if err != nil {
			return err
		}
		if *check && len(changed) > 0 {
			return exitError(1)
		}
		return nil
	}
	return generateWatch(ctx, e, cfg, dir)
}

// generateOnce generates into dir (or, with check, compares with it) and prints the summary
// line. It returns the paths that differ: written, or that would be.
func generateOnce(ctx context.Context, e env, cfg config.Config, dir string, check bool) ([]string, error) {
	start := time.Now()
	// Definitions only: the generation watch mode loads the entry index on first use, which
	// generating never makes, so a site of any size opens at once.
	o := wire.StoreOptions(cfg)
	o.ReadOnly, o.Snapshot, o.Watch, o.Log = true, true, fsstore.WatchGeneration, slog.New(slog.DiscardHandler)
	st, err := fsstore.Open(ctx, o)
	if err != nil {
		return nil, err
	}
	site := codegen.Load(st, cfg.Public.BasePath, cfg.GraphQL.Path)
	st.Close()
	for _, s := range site.Skipped {
		fmt.Fprintln(e.stderr, "warning: blueprint left out:", s)
	}
	files, err := codegen.Generate(site)
	if err != nil {
		return nil, err
	}
	changed, err := syncDir(dir, files, check)
	if err != nil {
		return nil, err
	}
	ms := time.Since(start).Milliseconds()
	if check {
		for _, p := range changed {
			fmt.Fprintln(e.stdout, "changed:", p)
		}
		if len(changed) > 0 {
			fmt.Fprintf(e.stdout, "%d of %d file(s) in %s are out of date; run cms generate\n", len(changed), len(files), dir)
		} else {
			fmt.Fprintf(e.stdout, "%d blueprint(s), %d file(s) up to date in %d ms\n", site.BlueprintCount(), len(files), ms)
		}
		return changed, nil
	}
	fmt.Fprintf(e.stdout, "%d blueprint(s), %d file(s) in %d ms (%d changed) -> %s\n", site.BlueprintCount(), len(files), ms, len(changed), dir)
	return changed, nil
}

// manifestName lists, inside the output folder, the files the last run wrote, so a later run
// removes only files it generated, never others a user keeps there.
const manifestName = ".manifest"

// syncDir makes dir hold files: it writes those that differ (each through a temporary file and a
// rename) and removes files the previous run generated that are no longer generated. With check
// it writes nothing. It returns the paths that differ, sorted, removed ones included.
func syncDir(dir string, files []codegen.File, check bool) ([]string, error) {
	var list strings.Builder
	want := make(map[string]bool, len(files))
	for _, f := range files {
		want[f.Path] = true
		list.WriteString(f.Path + "\n")
	}
	files = append(files, codegen.File{Path: manifestName, Data: []byte(list.String())})
	var changed []string
	if old, err := os.ReadFile(filepath.Join(dir, manifestName)); err == nil {
		for _, p := range strings.Split(string(old), "\n") {
			if p == "" || want[p] || !fs.ValidPath(p) {
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
				continue
			}
			changed = append(changed, p)
			if !check {
				if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		old, err := os.ReadFile(p)
		if err == nil && bytes.Equal(old, f.Data) {
			continue
		}
		if f.Path != manifestName {
			changed = append(changed, f.Path)
		}
		if check {
			continue
		}
		if err := writeFileAtomic(p, f.Data); err != nil {
			return nil, err
		}
	}
	slices.Sort(changed)
	return changed, nil
}

func writeFileAtomic(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}

// generateWatch runs once, then again each time the definitions stop changing for
// generateDebounce, until ctx ends. It polls a fingerprint of the resources folder and the
// configuration file: simple, and the same on every platform.
func generateWatch(ctx context.Context, e env, cfg config.Config, dir string) error {
	fingerprint := func() [32]byte {
		h := sha256.New()
		roots := []string{filepath.Join(cfg.SiteDir, cfg.ResourcesPath), filepath.Join(cfg.SiteDir, "cms.config.yaml")}
		for _, root := range roots {
			_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
					return nil
				}
				if info, err := d.Info(); err == nil {
					fmt.Fprintf(h, "%s\x00%d\x00%d\n", p, info.Size(), info.ModTime().UnixNano())
				}
				return nil
			})
		}
		var sum [32]byte
		copy(sum[:], h.Sum(nil))
		return sum
	}
	last := fingerprint()
	if _, err := generateOnce(ctx, e, cfg, dir, false); err != nil {
		fmt.Fprintln(e.stderr, "error:", err)
	}
	tick := time.NewTicker(generateDebounce / 3)
	defer tick.Stop()
	var changedAt time.Time
	pending := false
	for {
		select {
		case <-ctx.Done():
			return nil
		case now := <-tick.C:
			if fp := fingerprint(); fp != last {
				last, pending, changedAt = fp, true, now
				continue
			}
			if pending && now.Sub(changedAt) >= generateDebounce {
				pending = false
				if _, err := generateOnce(ctx, e, cfg, dir, false); err != nil {
					fmt.Fprintln(e.stderr, "error:", err)
				}
			}
		}
	}
}
