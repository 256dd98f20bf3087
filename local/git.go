package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"text/tabwriter"
	"time"

	"cms/content/gitsync"
	"cms/runtime/config"
	"cms/runtime/wire"
)

// cmdGit runs git sync by hand, offline, for deploy pipelines and for a stopped server:
//
//	cms git status [--site DIR]                 each repository: branch, status, queued paths, last error
//	cms git sync [--site DIR]                   commit what is queued now and push what is pending
//	cms git retry [--site DIR] [--repository ID] run failed or pending work now (ID: from status; default: all)
//
// A running server does the same through /api/git/*; both serialise on git's own locks.
func cmdGit(ctx context.Context, e env, args []string) error {
	const usage = "usage: cms git status|sync|retry [--site DIR] [--repository ID]"
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 {
			fl := newFlags("git", e)
			fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
			if err := fl.Parse(args); err != nil {
				return err
			}
		}
		fmt.Fprintln(e.stderr, usage)
		return exitError(2)
	}
	sub := args[0]
	fl := newFlags("git "+sub, e)
	site := fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
	repo := ""
	if sub == "retry" || sub == "sync" {
		fl.StringVar(&repo, "repository", "", "repository id (from cms git status); default: every repository")
	}
	if err := fl.Parse(args[1:]); err != nil {
		return err
	}
	if fl.NArg() != 0 || (sub != "status" && sub != "sync" && sub != "retry") {
		fmt.Fprintln(e.stderr, usage)
		return exitError(2)
	}
	cfg, _, err := config.Load(*site, e.getenv)
	if err != nil {
		return err
	}
	if err := requireSite(cfg, "--site"); err != nil {
		return err
	}
	if !cfg.Git.Enabled {
		return fmt.Errorf("%s: git sync is not enabled (git.enabled)", cfg.SiteDir)
	}
	o := wire.GitOptions(cfg, slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	o.Clock = heldClock{} // only what this command asks for runs
	s, err := gitsync.New(o)
	if err != nil {
		return err
	}
	defer s.Close()
	if sub == "status" {
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tREPOSITORY\tBRANCH\tSTATUS\tQUEUED\tPUSH PENDING\tREMOTE\tERROR")
		for _, r := range s.Status() {
			q := r.Counts.Added + r.Counts.Modified + r.Counts.Deleted
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%v\t%s\t%s\n", r.ID[:12], r.Label, r.Branch, r.Status, q, r.PushPending, r.Remote, r.Error)
		}
		return tw.Flush()
	}
	var results []gitsync.Result
	if repo != "" && len(repo) < 64 { // a prefix, as status prints
		for _, r := range s.Status() {
			if strings.HasPrefix(r.ID, repo) {
				repo = r.ID
				break
			}
		}
	}
	results, err = s.Sync(ctx, repo) // retry and sync do the same work offline: all that waits
	if err != nil {
		return err
	}
	failed := false
	for _, r := range results {
		line := fmt.Sprintf("%s: %d path(s)", r.Repository[:12], r.PathCount)
		if r.Committed {
			line += ", committed " + r.Commit[:12]
		}
		if r.Pushed {
			line += ", pushed"
		}
		if r.PendingPush {
			line += ", push pending"
		}
		if r.Error != "" {
			line += ": " + r.Error
			failed = true
		}
		fmt.Fprintln(e.stdout, line)
	}
	if failed {
		return exitError(1)
	}
	return nil
}

// heldClock never fires: the command's own calls do the work.
type heldClock struct{}

func (heldClock) Now() time.Time                              { return time.Now() }
func (heldClock) AfterFunc(time.Duration, func()) func() bool { return func() bool { return true } }
