//go:build !race

package cpbrowser

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestCachePanel: with staticCache.enabled the settings screen shows the cache's statistics,
// and its Warm and Clear buttons fill and empty the cache.
func TestCachePanel(t *testing.T) {
	dir := newSiteDir(t, "")
	cfg := filepath.Join(dir, "cms.config.yaml")
	raw, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(raw, "\nstaticCache: {enabled: true}\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	s := serveSite(t, dir)
	b := newBrowser(t)
	b.expect("/api/git/status")
	b.signIn(s)
	b.run(chromedp.Navigate(s.url + "/cp/settings"))
	b.waitJS(`document.querySelector('.cache-panel:not([hidden]) .cache-stats dd')?.textContent === '0'`)
	b.click(`.cache-panel .actions button:nth-child(2)`) // Warm cache
	b.waitJS(`/^Requested \d+ pages: [1-9]\d* stored/.test(document.querySelector('.cache-panel .notice')?.textContent ?? '')`)
	if n := eval[string](b, `document.querySelector('.cache-panel .cache-stats dd').textContent`); n == "0" {
		t.Errorf("pages after warm = %s", n)
	}
	b.click(`.cache-panel .actions button:nth-child(1)`) // Clear cache
	b.waitJS(`/^Cleared [1-9]\d* pages\./.test(document.querySelector('.cache-panel .notice')?.textContent ?? '')`)
	b.waitJS(`document.querySelector('.cache-panel .cache-stats dd')?.textContent === '0'`)
	b.checkConsole()
}
