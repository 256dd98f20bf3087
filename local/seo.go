package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"cms/content"
	"cms/content/fsstore"
	"cms/content/seo"
	"cms/content/seo/redirects"
	"cms/content/seo/report"
	"cms/runtime/config"
	"cms/runtime/seoops"
)

// cmdSEO runs `cms seo report`: an SEO audit of one site, printed as text or JSON, exit status
// 1 when it finds errors or criticals so a CI pipeline can gate on it.
func cmdSEO(ctx context.Context, e env, args []string) error {
	sub := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	fl := newFlags("seo", e)
	dir := fl.String("dir", "", "site folder (default $CMS_SITE_DIR or .)")
	handle := fl.String("site", "", "the site to audit, a handle of the sites option (default: the first)")
	asJSON := fl.Bool("json", false, "print the report as JSON")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if sub != "report" || fl.NArg() > 0 {
		fmt.Fprintln(e.stderr, "usage: cms "+commands()["seo"].usage)
		return exitError(2)
	}
	cfg, _, err := config.Load(*dir, e.getenv)
	if err == nil {
		err = requireSite(cfg, "--dir")
	}
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitError(1)
	}
	sites := cfg.SEOSites()
	i := 0
	if *handle != "" {
		if i = slices.IndexFunc(sites, func(s content.Site) bool { return s.Handle == *handle }); i < 0 {
			handles := make([]string, len(sites))
			for j, s := range sites {
				handles[j] = s.Handle
			}
			fmt.Fprintf(e.stderr, "site %q is not configured (sites: %s)\n", *handle, strings.Join(handles, ", "))
			if fi, err := os.Stat(*handle); err == nil && fi.IsDir() {
				fmt.Fprintf(e.stderr, "--site names a site of the sites option; a site folder is --dir %s\n", *handle)
			}
			return exitError(2)
		}
	}
	site := sites[i]
	st, err := openStore(withIndexProgress(ctx, e), cfg, true, false)
	if err != nil {
		return err
	}
	defer st.Close()
	var rds []redirects.Redirect
	rs, err := redirects.Open(redirects.Options{Dir: filepath.Join(cfg.SiteDir, cfg.ContentPath, filepath.FromSlash(seoops.RedirectsDir)),
		Sites: sites, AllowedOrigins: cfg.SEO.AllowedRedirectOrigins})
	if err != nil {
		return err
	}
	rds = rs.List(site.Handle)
	res := seo.NewResolver(cfg.SEOConfig(), st)
	in, err := report.Gather(st, res, site, rds, cfg.SEO.SocialImages)
	if err != nil {
		return err
	}
	in.Surfaces = []string{cfg.CP.Path, "/api"}
	r := report.Audit(in, time.Now())
	if *asJSON {
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, string(b))
	} else {
		printReport(e, r)
	}
	if r.Failing() {
		return exitError(1)
	}
	return nil
}

// printReport writes a report as text: one line per issue, worst first, then the score.
func printReport(e env, r *report.Report) {
	for _, is := range r.Issues {
		subj := is.Subject.Type + " " + is.Subject.ID
		if is.Subject.Path != "" {
			subj += " (" + is.Subject.Path + ")"
		}
		fmt.Fprintf(e.stdout, "%-8s %s %s: %s. %s.\n", is.Severity, is.RuleID, subj, is.Message, is.Recommendation)
	}
	s := r.Summary
	fmt.Fprintf(e.stdout, "site %s: score %d/100, %s, %s (%d critical, %d error, %d warning, %d info)\n",
		r.Site, r.Score, count(r.Records, "record"), count(s.Total, "issue"), s.Critical, s.Error, s.Warning, s.Info)
}

// checkRedirects reports redirect files that are skipped (a wrong key, a javascript:
// destination, an id that is not the file name, a second redirect of one source).
func checkRedirects(_ *fsstore.Store, cfg config.Config) []fsstore.Problem {
	if !cfg.SEO.Enabled || !cfg.SEO.Redirects {
		return nil
	}
	rel := filepath.ToSlash(filepath.Join(cfg.ContentPath, filepath.FromSlash(seoops.RedirectsDir)))
	dir := filepath.Join(cfg.SiteDir, filepath.FromSlash(rel))
	rs, err := redirects.Open(redirects.Options{Dir: dir, Sites: cfg.SEOSites(), AllowedOrigins: cfg.SEO.AllowedRedirectOrigins})
	if err != nil {
		return []fsstore.Problem{{File: rel, Message: err.Error()}}
	}
	var out []fsstore.Problem
	for _, p := range rs.Problems() {
		file, msg, ok := strings.Cut(p, ": ")
		if name, in := strings.CutPrefix(file, dir+string(filepath.Separator)); ok && in {
			out = append(out, fsstore.Problem{File: rel + "/" + filepath.ToSlash(name), Message: msg})
		} else {
			out = append(out, fsstore.Problem{File: rel, Message: p})
		}
	}
	return out
}

// count writes n and noun, plural unless n is 1 ("1 issue", "3 issues").
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprint(n, " ", noun, "s")
}
