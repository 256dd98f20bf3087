//go:build !race

package cpbrowser

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// axe-core, the accessibility engine, checks every screen a test screenshots when it is
// installed: .ci/run installs the pinned axe-core into $CMS_TS_TOOLS with the TypeScript tools
// (npm install axe-core@4.10.3). Without it the tests fall back to testdata/a11y.js alone and
// say so, except where the browser tests are required (CI, CMS_REQUIRE_BROWSER=1): there a
// missing axe-core fails them.

// axeFile is where .ci/run puts axe-core's browser bundle.
func axeFile() string {
	dir := os.Getenv("CMS_TS_TOOLS")
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "node_modules", "axe-core", "axe.min.js")
}

var axeOnce = sync.OnceValues(func() (string, error) {
	p := axeFile()
	if p == "" {
		return "", os.ErrNotExist
	}
	b, err := os.ReadFile(p)
	return string(b), err
})

// axeSource returns axe.min.js, or "" (logged, or fatal where the browser tests are required)
// when it is not installed.
func axeSource(t *testing.T) string {
	t.Helper()
	src, err := axeOnce()
	if err != nil {
		msg := "axe-core not found (set CMS_TS_TOOLS to a folder where `npm install axe-core@4.10.3` ran; .ci/run does)"
		if requireBrowser() {
			t.Fatalf("%s: %v; CI or CMS_REQUIRE_BROWSER=1 needs it", msg, err)
		}
		t.Logf("%s: only the in-page check (testdata/a11y.js) runs", msg)
		return ""
	}
	return src
}

// axeRun runs axe-core on the document with the WCAG 2 A and AA rules and the best practices,
// and lists the violations of serious or critical impact, each with the elements it found.
const axeRun = `(async () => {
	const r = await axe.run(document, {resultTypes: ['violations']});
	return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) =>
		v.id + ' (' + v.impact + '): ' + v.help + ': ' + v.nodes.slice(0, 5).map((n) => n.target.join(' ') + (n.failureSummary ? ' [' + n.failureSummary.replace(/\s+/g, ' ') + ']' : '')).join('; '));
})()`

// axe returns the serious and critical violations axe-core finds on the screen, none when it
// is not installed. It injects axe-core once per document.
func (b *browser) axe() []string {
	b.t.Helper()
	if b.axeSource == "" {
		return nil
	}
	if !eval[bool](b, `typeof window.axe === 'object'`) {
		eval[any](b, b.axeSource+";true")
	}
	return eval[[]string](b, axeRun)
}
