package cpbrowser

import (
	"strings"
	"testing"
)

// TestControlPanel drives the Control Panel as an editor would, one screen after another in one
// browser (starting Chromium is the slow part, so the steps share it).
func TestControlPanel(t *testing.T) {
	s := startSite(t, "")
	b := newBrowser(t)
	b.signIn(s)
	b.waitJS(`document.querySelector('main h1')?.textContent.startsWith('Welcome')`)
	b.shot("dashboard")
	if got := b.text("#user-name"); !strings.Contains(got, "Ada Admin") {
		t.Errorf("signed-in user shown as %q, want Ada Admin", got)
	}
	b.checkConsole()
}
