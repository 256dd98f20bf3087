//go:build !race

package cpbrowser

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"cms/content/contenttest"
	"cms/content/password"
	"cms/local/starter"
	"cms/runtime/config"
	"cms/runtime/groups"
	"cms/runtime/wire"
)

//go:embed testdata/a11y.js
var a11yScript string

// Credentials of the test site's administrator.
const (
	adminEmail    = "admin@example.com"
	adminPassword = "correct horse battery staple"
)

// findChromium returns the browser to drive: $CMS_CHROME, else the first of the usual names on
// PATH.
func findChromium() string {
	if p := os.Getenv("CMS_CHROME"); p != "" {
		return p
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// requireBrowser says whether a missing browser fails the tests instead of skipping them: always
// in CI, and wherever CMS_REQUIRE_BROWSER=1.
func requireBrowser() bool {
	return os.Getenv("CI") != "" || os.Getenv("CMS_REQUIRE_BROWSER") == "1"
}

// site is a running server on a copy of the starter site plus the test's own files.
type site struct {
	dir string
	url string
}

// startSite copies the starter site, adds an administrator and extra files (txtar-like, see
// contenttest.AddFiles), and serves every group on a loopback port as `cms serve` does.
func startSite(t *testing.T, extra string) *site {
	t.Helper()
	return serveSite(t, newSiteDir(t, extra))
}

// newSiteDir writes the site of startSite without serving it.
func newSiteDir(t *testing.T, extra string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "site")
	if err := starter.CopyTo(dir); err != nil {
		t.Fatal(err)
	}
	hash, err := password.Hash(adminPassword)
	if err != nil {
		t.Fatal(err)
	}
	contenttest.AddFiles(t, dir, "-- users/admin.yaml --\nid: admin\nemail: "+adminEmail+"\nname: Ada Admin\npassword_hash: "+hash+"\nroles: [admin]\n"+extra)
	return dir
}

// serveSite serves every group on the site folder on a loopback port.
func serveSite(t *testing.T, dir string) *site {
	t.Helper()
	env := map[string]string{"CMS_WATCH": "none", "CMS_LOG_LEVEL": "warn", "CMS_HOOKS_CACHE_DIR": t.TempDir()}
	cfg, _, err := config.Load(dir, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	svc, err := wire.NewServices(t.Context(), cfg, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	for _, p := range svc.Store.Problems() {
		t.Errorf("test site problem: %s: %s", p.File, p.Message)
	}
	mux, err := groups.Mux(svc)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &site{dir: dir, url: srv.URL}
}

// browser is one headless Chromium with a tab, the console messages and failed requests it
// saw, and the folder its screenshots go to.
type browser struct {
	t     *testing.T
	ctx   context.Context
	shots string
	n     int

	mu       sync.Mutex
	problems []string // console errors, exceptions and failed requests not expected
	expected []string // substrings of network errors a step provokes on purpose
	dialogs  []string // substrings of dialog messages a step expects
	// dialogsSeen are the messages of every dialog so far.
	dialogsSeen []string
	// axeSource is axe.min.js, "" when axe-core is not installed (axe.go).
	axeSource string
}

// newBrowser starts Chromium, or skips (fails in CI) when there is none.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	exe := findChromium()
	if exe == "" {
		msg := "no Chromium found (install the Debian package chromium, or set CMS_CHROME to a Chrome binary)"
		if requireBrowser() {
			t.Fatal(msg + "; CI or CMS_REQUIRE_BROWSER=1 needs the browser tests to run")
		}
		t.Skip(msg + ": skipping the Control Panel browser tests")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // CI containers run as root, where Chrome's sandbox cannot start
		chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900),
		chromedp.UserDataDir(t.TempDir()),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	b := &browser{t: t, ctx: ctx, shots: os.Getenv("CMS_ARTIFACTS"), axeSource: axeSource(t)}
	if b.shots == "" {
		b.shots = t.TempDir()
		t.Logf("screenshots go to %s (removed after the test; set CMS_ARTIFACTS to keep them)", b.shots)
	} else {
		// One folder per test, emptied first, so a run's screenshots are never mixed with older ones.
		b.shots = filepath.Join(b.shots, "cp-screenshots", t.Name())
		if err := os.RemoveAll(b.shots); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshots go to %s", b.shots)
	}
	if err := os.MkdirAll(b.shots, 0o755); err != nil {
		t.Fatal(err)
	}
	// The first Run starts the browser; it must run without a deadline (see chromedp.Run).
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	// Dialogs (confirm before a delete, the unsaved-changes guard) are accepted, so a step never
	// hangs on one; those a step did not announce with expectDialog are reported.
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.dialogsSeen = append(b.dialogsSeen, ev.Message)
			ok := slices.ContainsFunc(b.dialogs, func(s string) bool { return strings.Contains(ev.Message, s) })
			if !ok {
				b.problems = append(b.problems, fmt.Sprintf("unexpected %s dialog: %q", ev.Type, ev.Message))
			}
			b.mu.Unlock()
			_, _ = chromedp.Run(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
				_, err := cdp.Call(ctx, t, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
				return err
			}))
		}
	}()
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			b.console(m)
		}
	}()
	return b
}

// console records messages that show something went wrong: errors the page logged, uncaught
// exceptions, and failed requests (which the browser logs with the source "network").
func (b *browser) console(m chromedp.ConsoleMessage) {
	if m.Type != chromedp.ConsoleError && !m.IsException() {
		return
	}
	line := fmt.Sprintf("%s %s (%s)", m.Type, m.Text, m.URL)
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.expected {
		if strings.Contains(line, e) {
			return
		}
	}
	b.problems = append(b.problems, line)
}

// expect lets failed requests whose log line contains s pass (a step that provokes a 409 or a
// 422 on purpose).
func (b *browser) expect(s string) {
	b.mu.Lock()
	b.expected = append(b.expected, s)
	b.mu.Unlock()
}

// expectDialog announces a dialog whose message contains s (it is accepted).
func (b *browser) expectDialog(s string) {
	b.mu.Lock()
	b.dialogs = append(b.dialogs, s)
	b.mu.Unlock()
}

// sawDialog reports whether a dialog whose message contains s has opened.
func (b *browser) sawDialog(s string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.ContainsFunc(b.dialogsSeen, func(m string) bool { return strings.Contains(m, s) })
}

// checkConsole fails the test for every unexpected console error or failed request so far.
func (b *browser) checkConsole() {
	b.t.Helper()
	// A message logged just now may still be on its way: a round trip to the page first.
	eval[any](b, "1")
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		b.t.Errorf("browser console: %s", p)
	}
	b.problems = nil
}

// guard bounds one step: a generous failure guard, never a statement about speed.
const guard = 30 * time.Second

// run runs actions with the guard, failing the test on error.
func (b *browser) run(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, guard)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.shot("failure")
		b.t.Fatalf("browser: %v", err)
	}
}

// eval evaluates a JavaScript expression and returns its value.
func eval[T any](b *browser, js string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, guard)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

// waitJS waits until the expression is truthy (polled every 100 ms).
func (b *browser) waitJS(js string) { b.t.Helper(); b.waitJSFor(js, guard) }

// waitJSFor is waitJS with its own failure guard, for a step whose server work is heavy (a
// hook module compiled on a busy machine).
func (b *browser) waitJSFor(js string, limit time.Duration) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, limit)
	defer cancel()
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Run(ctx, chromedp.Poll[any](js, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(limit)))
		if err != nil {
			return fmt.Errorf("waiting for %s: %w", js, err)
		}
		return nil
	}))
	if err != nil {
		b.shot("failure")
		b.t.Fatalf("browser: %v", err)
	}
}

// shot saves a full-page screenshot named after the screen, and runs the accessibility checks
// on it: testdata/a11y.js (names, ARIA references, one h1, contrast AA) and axe-core (axe.go)
// when it is installed.
func (b *browser) shot(name string) {
	b.t.Helper()
	if name != "failure" {
		for _, p := range eval[[]string](b, a11yScript) {
			b.t.Errorf("accessibility (%s): %s", name, p)
		}
		for _, p := range b.axe() {
			b.t.Errorf("axe-core (%s): %s", name, p)
		}
	}
	ctx, cancel := context.WithTimeout(b.ctx, guard)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	b.n++
	p := filepath.Join(b.shots, fmt.Sprintf("%02d-%s.png", b.n, name))
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.t.Errorf("screenshot %s: %v", name, err)
	}
}

// signIn opens the CP, which sends the browser to the sign-in page, and signs in.
func (b *browser) signIn(s *site) { b.signInAs(s, adminEmail, adminPassword) }

func (b *browser) signInAs(s *site, email, password string) {
	b.t.Helper()
	b.run(chromedp.Navigate(s.url+"/cp"), chromedp.WaitVisible(chromedp.CSS(`#email`)))
	b.shot("login")
	b.run(
		chromedp.SendKeys(chromedp.CSS(`#email`), email),
		chromedp.SendKeys(chromedp.CSS(`#password`), password),
		chromedp.Click(chromedp.CSS(`#login button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#logout`)),
	)
}

// text returns the text of the first element the CSS selector matches, "" when none does.
func (b *browser) text(sel string) string {
	b.t.Helper()
	return eval[string](b, fmt.Sprintf(`document.querySelector(%q)?.textContent ?? ""`, sel))
}

// apiClient is a second session, signed in through the API with a Bearer token: another editor
// working at the same time as the browser.
type apiClient struct {
	t     *testing.T
	base  string
	token string
}

func newAPIClient(t *testing.T, s *site) *apiClient {
	t.Helper()
	c := &apiClient{t: t, base: s.url}
	var out struct{ Token string }
	c.do("POST", "/api/auth/login", map[string]string{"email": adminEmail, "password": adminPassword}, &out)
	if out.Token == "" {
		t.Fatal("second session: login returned no token")
	}
	c.token = out.Token
	return c
}

// do sends a JSON request and decodes a 2xx answer into out; anything else fails the test.
func (c *apiClient) do(method, path string, body, out any) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(c.t.Context(), method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode/100 != 2 {
		c.t.Fatalf("second session: %s %s: %d %s", method, path, res.StatusCode, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			c.t.Fatalf("second session: %s %s: %v", method, path, err)
		}
	}
}

// click clicks the first element the CSS selector matches, once it is visible.
func (b *browser) click(sel string) {
	b.t.Helper()
	b.run(chromedp.WaitVisible(chromedp.CSS(sel)), chromedp.Click(chromedp.CSS(sel)))
}

// typeIn types text into the element, as keystrokes.
func (b *browser) typeIn(sel, text string) {
	b.t.Helper()
	b.run(chromedp.WaitVisible(chromedp.CSS(sel)), chromedp.SendKeys(chromedp.CSS(sel), text))
}

// setValue replaces an input's value and fires input and change, as a picker (date, file) or
// a paste does.
func (b *browser) setValue(sel, v string) {
	b.t.Helper()
	b.run(chromedp.WaitVisible(chromedp.CSS(sel)))
	eval[any](b, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.focus(); e.value = %q;
		e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`, sel, v))
}

// waitText waits until the element's text contains want.
func (b *browser) waitText(sel, want string) {
	b.t.Helper()
	b.waitJS(fmt.Sprintf(`(document.querySelector(%q)?.textContent ?? '').includes(%q)`, sel, want))
}
