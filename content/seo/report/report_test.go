package report_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/seo"
	"cms/content/seo/redirects"
	"cms/content/seo/report"
)

var site = content.Site{Handle: "default", URL: "https://example.com", Locale: "en-US", Default: true}

var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// auditFaults audits the test site of testdata/faults.txtar, where every rule has a planted fault.
func auditFaults(t *testing.T) *report.Report {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "faults.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := contenttest.WriteSite(t, string(b))
	st := contenttest.OpenStore(t, dir)
	rs, err := redirects.Open(redirects.Options{Dir: filepath.Join(dir, "content", "seo", "redirects"), Sites: []content.Site{site}})
	if err != nil {
		t.Fatal(err)
	}
	res := seo.NewResolver(seo.Config{Enabled: true, Metadata: true, StructuredData: true}, st)
	in, err := report.Gather(st, res, site, rs.List("default"), false)
	if err != nil {
		t.Fatal(err)
	}
	return report.Audit(in, now)
}

func TestEveryRuleFindsItsPlantedFault(t *testing.T) {
	t.Parallel()
	r := auditFaults(t)
	found := map[string][]string{}
	for _, is := range r.Issues {
		found[is.RuleID] = append(found[is.RuleID], is.Subject.ID)
		if is.Message == "" || is.Recommendation == "" || is.Subject.Site != "default" {
			t.Errorf("incomplete issue %+v", is)
		}
	}
	want := []struct {
		rule, severity string
		subjects       []string
	}{
		{"seo.title.missing", report.Error, []string{"blog/untitled"}},
		{"seo.title.short", report.Warning, []string{"blog/short"}},
		{"seo.title.long", report.Warning, []string{"blog/long"}},
		{"seo.title.duplicate", report.Warning, []string{"blog/twin-a", "blog/twin-b"}},
		{"seo.description.missing", report.Warning, []string{"blog/nodesc"}},
		{"seo.description.short", report.Warning, []string{"blog/shortdesc"}},
		{"seo.description.long", report.Warning, []string{"blog/longdesc"}},
		{"seo.description.duplicate", report.Warning, []string{"blog/twin-a", "blog/twin-b"}},
		{"seo.canonical.invalid", report.Error, []string{"blog/badcanon"}},
		{"seo.canonical.redirect", report.Warning, []string{"blog/canon-redirect"}},
		{"seo.canonical.broken", report.Error, []string{"blog/canon-404"}},
		{"seo.sitemap.noindex-conflict", report.Warning, []string{"blog/noindex"}},
		{"seo.social.image.missing", report.Info, []string{"blog/noimage"}},
		{"seo.social.image.asset-missing", report.Warning, []string{"blog/badimage"}},
		{"seo.link.internal.broken", report.Error, []string{"blog/good", "main"}},
		{"seo.link.internal.redirect", report.Warning, []string{"blog/good"}},
		{"seo.link.invalid", report.Warning, []string{"blog/good"}},
		{"seo.redirect.chain", report.Warning, []string{"chain-a"}},
		{"seo.redirect.cycle", report.Critical, []string{"loop-a", "loop-b"}},
		{"seo.link.orphan", report.Info, []string{"blog/lonely"}},
	}
	for _, w := range want {
		got := slices.Clone(found[w.rule])
		slices.Sort(got)
		if strings.Join(got, " ") != strings.Join(w.subjects, " ") {
			t.Errorf("%s: subjects %v, want %v", w.rule, got, w.subjects)
		}
		for _, is := range r.Issues {
			if is.RuleID == w.rule && is.Severity != w.severity {
				t.Errorf("%s: severity %s, want %s", w.rule, is.Severity, w.severity)
			}
		}
		delete(found, w.rule)
	}
	for rule, subjects := range found {
		t.Errorf("unexpected %s on %v", rule, subjects)
	}
	// The draft's broken link is not audited; published records only.
	if r.Records != 16 {
		t.Errorf("%d records audited, want the 16 published", r.Records)
	}
	// Score and summary (notes 14.7): 100 − (info 1, warning 4, error 10, critical 20), at least 0.
	s := r.Summary
	if s.Total != len(r.Issues) || s.Info+s.Warning+s.Error+s.Critical != s.Total {
		t.Errorf("summary %+v for %d issues", s, len(r.Issues))
	}
	if want := max(0, 100-s.Info-4*s.Warning-10*s.Error-20*s.Critical); r.Score != want {
		t.Errorf("score %d, want %d", r.Score, want)
	}
	if !r.Failing() || r.Issues[0].Severity != report.Critical {
		t.Errorf("failing %v, first issue %+v", r.Failing(), r.Issues[0])
	}
	if !strings.HasPrefix(r.ID, "seo_report_") || len(r.ID) != len("seo_report_")+24 || r.CreatedAt != "2026-03-01T12:00:00Z" {
		t.Errorf("id %q, createdAt %q", r.ID, r.CreatedAt)
	}
}

func TestCleanSiteScores100(t *testing.T) {
	t.Parallel()
	r := report.Audit(report.Input{Site: site, Records: []report.Record{{ID: "pages/home", Type: "entry", Path: "/", Home: true,
		Meta: seo.Meta{Title: "Home of the example site", Description: strings.Repeat("A fine description. ", 4), Canonical: "https://example.com/", Image: "https://cdn.example/x.png"}}}}, now)
	if r.Score != 100 || r.Failing() || len(r.Issues) != 0 {
		t.Errorf("report = %+v", r)
	}
}

// A link to the Control Panel or an API is not a page of the site, and not broken either; a path
// that only starts with the same letters is.
func TestLinksToOtherSurfaces(t *testing.T) {
	t.Parallel()
	home := report.Record{ID: "pages/home", Type: "entry", Path: "/", Home: true,
		Body: "[CP](/cp) [entries](/cp/entries) [API](/api/public/entries/blog) [lost](/cpx)",
		Meta: seo.Meta{Title: "Home of the example site", Description: strings.Repeat("A fine description. ", 4), Canonical: "https://example.com/", Image: "https://cdn.example/x.png"}}
	r := report.Audit(report.Input{Site: site, Records: []report.Record{home}, Surfaces: []string{"/cp", "/api"}}, now)
	var broken []string
	for _, is := range r.Issues {
		if is.RuleID == "seo.link.internal.broken" {
			broken = append(broken, is.Message)
		}
	}
	if len(broken) != 1 || !strings.Contains(broken[0], "/cpx") {
		t.Errorf("broken links = %q, want only /cpx", broken)
	}
}

func TestSnapshotsRetentionAndLimit(t *testing.T) {
	t.Parallel()
	clock := now
	s := &report.Snapshots{Dir: t.TempDir(), RetentionDays: 30, Limit: 3, Now: func() time.Time { return clock }, NoSync: true}
	old := report.Audit(report.Input{Site: site}, clock)
	if err := s.Save(old); err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(31 * 24 * time.Hour)
	var ids []string
	for range 4 {
		r := report.Audit(report.Input{Site: site}, clock)
		ids = append(ids, r.ID)
		if err := s.Save(r); err != nil {
			t.Fatal(err)
		}
		clock = clock.Add(time.Minute)
	}
	list, err := s.List("default")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range list {
		got = append(got, r.ID)
	}
	if want := []string{ids[3], ids[2], ids[1]}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("kept %v, want the newest three %v", got, want)
	}
	if l, err := s.List("other"); err != nil || len(l) != 0 {
		t.Errorf("another site sees %v, %v", l, err)
	}
	if _, err := s.List("../x"); err == nil {
		t.Error("a bad site handle is accepted")
	}
}

// TestReportFor10000Entries is issue 14's figure: a report for 10,000 entries. It reports the
// time and checks the outcome only (no wall-clock assertion: the machine is shared).
func TestReportFor10000Entries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 10,000 entries")
	}
	t.Parallel()
	in := report.Input{Site: site}
	for i := range 10_000 {
		p := fmt.Sprintf("/blog/post-%d", i)
		in.Records = append(in.Records, report.Record{ID: "blog/post-" + fmt.Sprint(i), Type: "entry", Path: p,
			Body: fmt.Sprintf("Next: [post](/blog/post-%d) and [missing](/blog/none-%d)", (i+1)%10_000, i%10),
			Meta: seo.Meta{Title: fmt.Sprintf("Post number %d of the blog", i), Description: strings.Repeat("d", 80) + fmt.Sprint(i), Canonical: "https://example.com" + p}})
	}
	start := time.Now()
	r := report.Audit(in, now)
	t.Logf("audit of 10,000 entries: %v, %d issues", time.Since(start), r.Summary.Total)
	if r.Summary.Error != 10_000 || r.Summary.Info != 10_000 { // a broken link and no image each
		t.Errorf("summary %+v", r.Summary)
	}
}

// A page whose path an enabled redirect moves elsewhere cannot be visited, so nothing linking to
// it is no fault (the starter's /home, moved to /, was reported as an orphan).
func TestRedirectedPageIsNoOrphan(t *testing.T) {
	t.Parallel()
	meta := seo.Meta{Title: "Home of the example site", Description: strings.Repeat("A fine description. ", 4), Canonical: "https://example.com/", Image: "https://cdn.example/x.png"}
	home := report.Record{ID: "pages/home", Type: "entry", Path: "/home", Meta: meta}
	lonely := report.Record{ID: "pages/lonely", Type: "entry", Path: "/lonely", Meta: meta}
	lonely.Meta.Canonical = "https://example.com/lonely"
	r := report.Audit(report.Input{Site: site, Records: []report.Record{home, lonely},
		Redirects: []redirects.Redirect{{ID: "home", Site: "default", Source: "/home", Destination: "/", Status: 301, Enabled: true}}}, now)
	var orphans []string
	for _, is := range r.Issues {
		if is.RuleID == "seo.link.orphan" {
			orphans = append(orphans, is.Subject.ID)
		}
	}
	if strings.Join(orphans, " ") != "pages/lonely" {
		t.Errorf("orphans = %v, want only pages/lonely", orphans)
	}
}
