//go:build !race

package cpbrowser

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestTimings measures, and only reports, how fast the CP is on this machine: the first screen
// of a cold browser (no cache) after signing in, and paging a 10,000-entry collection in the
// entry list. It asserts nothing about time (that would be flaky) and runs only with
// CMS_CP_TIMINGS=1:
//
//	CMS_CP_TIMINGS=1 go test -run TestTimings -v ./local/cpbrowser/
func TestTimings(t *testing.T) {
	if os.Getenv("CMS_CP_TIMINGS") != "1" {
		t.Skip("set CMS_CP_TIMINGS=1 to measure the Control Panel's timings")
	}
	site := newSiteDir(t, "-- resources/collections/big.yaml --\ntitle: Big\nroute: /big/{slug}\n")
	dir := filepath.Join(site, "content", "collections", "big")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 10000 {
		body := fmt.Sprintf("---\ntitle: Entry %05d\nstatus: published\nupdatedAt: 2026-01-01T00:00:00.000Z\n---\n\nBody %d.\n", i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("entry-%05d.md", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := serveSite(t, site)
	br := newBrowser(t)
	br.signIn(s)
	br.waitJS(`document.querySelector('main h1')?.textContent.startsWith('Welcome')`)
	// The sign-in page sent the browser on with location.assign: a full load of the shell.
	load := eval[float64](br, `performance.getEntriesByName('cp:interactive')[0]?.startTime ?? -1`)
	t.Logf("dashboard interactive (heading and collections drawn) %.0f ms after the page load started (cold cache but for the sign-in page's stylesheet and logo)", load)
	br.waitJS(`document.querySelector('.dash')`)
	t.Logf("dashboard complete (counts, recent edits, submissions) at about %.0f ms (polled every 100 ms)", eval[float64](br, `performance.now()`))

	br.run(chromedp.Navigate(s.url + "/cp/entries/big"))
	br.waitJS(`document.querySelectorAll('main table tbody tr').length === 20`)
	// The first screen drawn marks cp:interactive (app.js), here the list with its rows.
	t.Logf("10,000-entry list, first page: %.0f ms from navigation start to the rows drawn", eval[float64](br, `performance.getEntriesByName('cp:interactive')[0]?.startTime ?? -1`))
	// Where that time went: the document, then each request (start and end, ms from navigation).
	t.Logf("  breakdown: %s", eval[string](br, `(() => {
		const nav = performance.getEntriesByType('navigation')[0];
		const parts = ['document ' + Math.round(nav.responseEnd) + ', DOMContentLoaded ' + Math.round(nav.domContentLoadedEventEnd)];
		for (const r of performance.getEntriesByType('resource')) {
			const u = new URL(r.name);
			parts.push(u.pathname.replace(/^\/cp\/assets\/|^\/api/, '') + u.search + ' ' + Math.round(r.startTime) + '–' + Math.round(r.responseEnd));
		}
		return parts.join('; ');
	})()`))
	for _, sort := range []string{"", "title", "-updatedAt"} {
		br.run(chromedp.Navigate(s.url + "/cp/entries/big?sort=" + sort))
		br.waitJS(`document.querySelectorAll('main table tbody tr').length === 20`)
		ms := eval[[]float64](br, `(async () => {
			const t0 = performance.now();
			document.querySelector('.pager a:last-child').click();
			await new Promise((res) => { const check = () => document.querySelector('.pager .muted')?.textContent.startsWith('21–40') ? res() : requestAnimationFrame(check); check(); });
			const r = performance.getEntriesByType('resource').filter((r) => r.name.includes('/api/entries/big?')).pop();
			return [performance.now() - t0, r.responseEnd - r.startTime, r.encodedBodySize];
		})()`)
		t.Logf("10,000-entry list, next page (sort %q): %.0f ms from the click to the rows drawn (the request %.0f ms, %.0f bytes)", sort, ms[0], ms[1], ms[2])
	}
}
