//go:build !race

package cpbrowser

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// status returns the status code of an anonymous GET (or one with a bearer token).
func status(t *testing.T, url, token string) int {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// entrySearchAndPreview searches a word that only a draft's body holds (the server's full-text
// search, drafts included), previews that draft, and opens the SEO panel of a published entry.
func entrySearchAndPreview(t *testing.T, s *site, b *browser) {
	b.t = t
	b.run(chromedp.Navigate(s.url+"/cp/entries/blog"), chromedp.WaitVisible(chromedp.CSS(`main table tbody tr`)))
	b.typeIn(`main form.filters input[type="search"]`, "resizing")
	b.click(`main form.filters button[type="submit"]`)
	b.waitJS(`location.search.includes('q=resizing') && document.querySelectorAll('main table tbody tr').length === 1`)
	if got := b.text(`main table tbody`); !strings.Contains(got, "What is coming next") {
		t.Errorf("search for a word of a draft's body lists %q, want the draft", got)
	}
	b.shot("entries-search")

	// Preview opens the draft's page on the website with a token that needs no session.
	b.click(`main table tbody a`)
	b.run(chromedp.WaitVisible(chromedp.CSS(`button.preview-draft`)))
	// window.open is recorded, not run: a second tab would put this one in the background, where
	// screenshots wait for frames. The test fetches the address itself instead.
	eval[any](b, `(() => { window.opened = []; window.open = (u) => { window.opened.push(u); return {}; }; })()`)
	b.click(`button.preview-draft`)
	b.waitText(`.preview-note`, "Preview link valid until")
	opened := eval[[]string](b, `window.opened`)
	var page *url.URL
	if len(opened) == 1 {
		page, _ = url.Parse(opened[0])
	}
	if page == nil || !strings.HasSuffix(page.Path, "/draft-roadmap") || page.Query().Get("preview") == "" {
		t.Fatalf("Preview opened %q, want the draft's website page with a token", opened)
	}
	// The address is on the configured site origin; this test's server listens elsewhere.
	if code := status(t, s.url+page.Path+"?"+page.RawQuery, ""); code != http.StatusOK {
		t.Errorf("the preview page answers %d to a visitor, want 200", code)
	}
	if code := status(t, s.url+page.Path, ""); code == http.StatusOK {
		t.Error("the draft's page is public without the preview token")
	}
	b.shot("entry-preview")

	// The SEO panel shows the resolved values and the layers.
	b.run(chromedp.Navigate(s.url+"/cp/entries/blog/welcome-to-cms"), chromedp.WaitVisible(chromedp.CSS(`details.seo-panel summary`)))
	b.click(`details.seo-panel summary`)
	b.waitJS(`document.querySelector('.seo-resolved') && document.querySelector('.seo-layers')`)
	if got := b.text(`.seo-resolved`); !strings.Contains(got, "canonical") || !strings.Contains(got, "welcome-to-cms") {
		t.Errorf("SEO panel shows %q, want the resolved canonical address of the entry", got)
	}
	b.shot("entry-seo-panel")
	b.checkConsole()
}

// apiTokens creates a token (its secret shown once, and it works), and revokes it (it stops).
func apiTokens(t *testing.T, s *site, b *browser) {
	b.t = t
	b.run(chromedp.Navigate(s.url+"/cp"), chromedp.WaitVisible(chromedp.CSS(`#sidebar a[href$="/cp/tokens"]`)))
	b.click(`#sidebar a[href$="/cp/tokens"]`)
	b.run(chromedp.WaitVisible(chromedp.CSS(`#f-name`)))
	b.typeIn(`#f-name`, "Build script")
	b.setValue(`#f-role`, "editor")
	b.setValue(`#f-expiresIn`, "30d")
	b.click(`main form.editor button[type="submit"]`)
	b.waitJS(`(document.getElementById('new-token')?.value ?? '').startsWith('cms_tok_')`)
	secret := eval[string](b, `document.getElementById('new-token').value`)
	if got := b.text(`main table.tokens`); !strings.Contains(got, "Build script") || !strings.Contains(got, "editor") || !strings.Contains(got, "never") {
		t.Errorf("token list shows %q, want the new token with its role, never used", got)
	}
	if code := status(t, s.url+"/api/entries/blog", secret); code != http.StatusOK {
		t.Errorf("the new token gets %d from the API, want 200", code)
	}
	b.click(`.token-secret button`)
	b.waitJS(`document.querySelector('.token-secret [role="status"]').textContent !== ''`)
	b.shot("tokens-created")

	// Reloading shows it nowhere again, and it now has a last use.
	b.run(chromedp.Navigate(s.url+"/cp/tokens"), chromedp.WaitVisible(chromedp.CSS(`main table.tokens`)))
	if eval[bool](b, `document.body.textContent.includes(`+jsString(secret)+`)`) {
		t.Error("the token's secret is shown again after a reload")
	}
	b.expectDialog("Revoke the token “Build script”")
	b.click(`main table.tokens button`)
	b.waitText(`main .notice`, "Revoked Build script.")
	if code := status(t, s.url+"/api/entries/blog", secret); code != http.StatusUnauthorized {
		t.Errorf("a revoked token gets %d, want 401", code)
	}
	b.shot("tokens-revoked")
	b.checkConsole()
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// seoScreens creates redirects (a refused chain shows at its field), promotes a 404 to a
// redirect, and runs a report whose issues link to the entry editor.
func seoScreens(t *testing.T, s *site, b *browser) {
	b.t = t
	b.run(chromedp.Navigate(s.url+"/cp/seo/redirects/_new"), chromedp.WaitVisible(chromedp.CSS(`#f-source`)))
	b.typeIn(`#f-source`, "/old-welcome")
	b.typeIn(`#f-destination`, "/blog/welcome-to-cms")
	b.click(`main form.editor button[type="submit"]`)
	b.waitJS(`/\/cp\/seo\/redirects\/[^_]/.test(location.pathname) && document.querySelector('main h1')?.textContent.includes('/old-welcome')`)

	// A redirect to /old-welcome would make a chain: refused, with the message at the destination.
	b.expect("/api/seo/redirects")
	b.run(chromedp.Navigate(s.url+"/cp/seo/redirects/_new"), chromedp.WaitVisible(chromedp.CSS(`#f-source`)))
	b.typeIn(`#f-source`, "/older")
	b.typeIn(`#f-destination`, "/old-welcome")
	b.click(`main form.editor button[type="submit"]`)
	b.waitJS(`document.getElementById('err-destination').textContent.includes('chain')`)
	if eval[string](b, `document.activeElement.id`) != "f-destination" {
		t.Error("the refused field does not get the focus")
	}
	b.shot("seo-redirect-chain")
	b.setValue(`#f-destination`, "/blog/welcome-to-cms")
	b.click(`main form.editor button[type="submit"]`)
	b.waitJS(`document.querySelector('main h1')?.textContent.includes('/older')`)
	b.run(chromedp.Navigate(s.url+"/cp/seo/redirects?q=old-welcome"), chromedp.WaitVisible(chromedp.CSS(`main table.redirects`)))
	if n := eval[float64](b, `document.querySelectorAll('main table.redirects tbody tr').length`); n != 1 {
		t.Errorf("redirect search lists %v rows, want 1", n)
	}
	b.shot("seo-redirects")

	// A visitor's 404, promoted to a redirect in one step.
	status(t, s.url+"/no-such-page", "")
	// The tracker writes its queue about once a second: wait until the API lists the path.
	api := newAPIClient(t, s)
	deadline := time.Now().Add(guard)
	for {
		var nf struct{ Data []struct{ Path string } }
		api.do("GET", "/api/seo/not-found", nil, &nf)
		if slices.ContainsFunc(nf.Data, func(o struct{ Path string }) bool { return o.Path == "/no-such-page" }) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the visitor's 404 was never recorded")
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.run(chromedp.Navigate(s.url+"/cp/seo/not-found"), chromedp.WaitVisible(chromedp.CSS(`main table.not-found tr[data-path="/no-such-page"]`)))
	b.shot("seo-not-found")
	b.click(`tr[data-path="/no-such-page"] button`)
	b.typeIn(`tr[data-path="/no-such-page"] input`, "/blog/writing-content")
	b.click(`tr[data-path="/no-such-page"] button[type="submit"]`)
	b.waitText(`main .notice`, "Redirected /no-such-page to /blog/writing-content.")
	var list struct {
		Data []struct{ Source, Destination string }
	}
	api.do("GET", "/api/seo/redirects", nil, &list)
	found := false
	for _, r := range list.Data {
		found = found || (r.Source == "/no-such-page" && r.Destination == "/blog/writing-content")
	}
	if !found {
		t.Errorf("no redirect from /no-such-page after promoting it: %+v", list.Data)
	}

	// A report: score and issues by rule, linking to the entries' editors. The starter passes its
	// own audit, so a post whose description (its excerpt) is too short is planted first.
	api.do("POST", "/api/entries/blog", map[string]any{"title": "A post the audit finds fault with", "status": "published",
		"data": map[string]any{"excerpt": "Too short."}}, nil)
	b.run(chromedp.Navigate(s.url+"/cp/seo/reports"), chromedp.WaitVisible(chromedp.CSS(`main h1`)))
	b.click(`main .toolbar button`)
	b.waitJS(`location.pathname.includes('/cp/seo/reports/') && document.querySelector('main h1')?.textContent.startsWith('Report: score')`)
	if n := eval[float64](b, `document.querySelectorAll('.report-rule a[href*="/cp/entries/"]').length`); n == 0 {
		t.Errorf("the report links no issue to an entry editor:\n%s", b.text("main"))
	}
	b.shot("seo-report")
	b.checkConsole()
}

// gitSync serves a second site whose folder is a Git repository pushing to a remote that does
// not exist: the screen lists the waiting change, Sync now commits it, the push fails, and the
// header says so.
func gitSync(t *testing.T, b *browser) {
	b.t = t
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := newSiteDir(t, "")
	cfg := filepath.Join(dir, "cms.config.yaml")
	raw, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	raw = append(raw, "\ngit:\n  enabled: true\n  automatic: false\n  push: true\n"...)
	if err := os.WriteFile(cfg, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-m", "initial"},
		{"remote", "add", "origin", filepath.Join(t.TempDir(), "missing.git")}} {
		if out, err := exec.CommandContext(t.Context(), "git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	s := serveSite(t, dir)
	b.expect(s.url + "/api/users/") // the new origin has no session yet: 401, then the sign-in page
	b.signIn(s)
	b.waitJS(`document.querySelector('main h1')?.textContent.startsWith('Welcome')`)
	if eval[bool](b, `!!document.querySelector('.git-indicator:not([hidden])')`) {
		t.Error("the header shows a git problem before any push")
	}
	// A change through the CP waits for a sync (git.automatic is off).
	newAPIClient(t, s).do("POST", "/api/entries/blog", map[string]any{"title": "Git Test", "status": "draft"}, nil)
	b.click(`#sidebar a[href$="/cp/git"]`)
	b.waitJS(`document.querySelector('.git-repo .badge')?.textContent === 'Changes waiting'`)
	b.shot("git-pending")
	b.click(`.git-repo .actions button`)
	b.waitJS(`document.querySelector('.git-repo .badge')?.textContent === 'Failed'`)
	if got := b.text(`.git-repo .facts`); !strings.Contains(got, "[CMS]") || !strings.Contains(got, "push is pending") {
		t.Errorf("after Sync now the repository shows %q, want the new commit and a pending push", got)
	}
	b.waitJS(`document.querySelector('.git-indicator:not([hidden])')?.textContent === 'Git: sync failed'`)
	b.shot("git-failed")
	b.run(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	if w := eval[float64](b, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the git screen with the header's indicator is %v px wide on a 390 px screen", w)
	}
	b.shot("phone-git-failed")
	b.run(chromedp.EmulateViewport(1280, 900))
	if eval[bool](b, `!!document.querySelector('.git-repo .actions button.secondary')`) {
		b.click(`.git-repo .actions button.secondary`)
		b.waitJS(`document.querySelector('main .notice')?.textContent !== ''`)
	}
	b.checkConsole()
}
