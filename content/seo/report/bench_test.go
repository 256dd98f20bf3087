package report_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"cms/content/contenttest"
	"cms/content/seo"
	"cms/content/seo/report"
)

// BenchmarkReport10000 is issue 14's figure: a report for a site of 10,000 published entries,
// gathered from the store (bodies read, metadata resolved) and audited. Run it with
// -benchtime 1x; the site is written once.
func BenchmarkReport10000(b *testing.B) {
	dir := contenttest.WriteSite(b, "-- resources/collections/blog.yaml --\ntitle: Blog\nroute: /blog/{slug}\n")
	posts := filepath.Join(dir, "content", "collections", "blog")
	if err := os.MkdirAll(posts, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 10_000 {
		body := fmt.Sprintf("---\ntitle: Post number %d of the blog\nstatus: published\nsummary: A summary long enough to pass the description rule, number %d.\n---\nNext: [post](/blog/post-%d), [gone](/blog/none-%d).\n", i, i, (i+1)%10_000, i%10)
		if err := os.WriteFile(filepath.Join(posts, fmt.Sprintf("post-%d.md", i)), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	st := contenttest.OpenStore(b, dir)
	res := seo.NewResolver(seo.Config{Enabled: true, Metadata: true, StructuredData: true}, st)
	for b.Loop() {
		start := time.Now()
		in, err := report.Gather(st, res, site, nil, false)
		if err != nil {
			b.Fatal(err)
		}
		r := report.Audit(in, now)
		if r.Records != 10_000 {
			b.Fatalf("%d records", r.Records)
		}
		b.Logf("gather + audit of %d entries: %v (%d issues)", r.Records, time.Since(start), r.Summary.Total)
	}
}
