package config_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"cms/runtime/config"
)

func TestGitKeys(t *testing.T) {
	t.Parallel()
	c, warns, err := config.Load(site(t, `git:
  enabled: true
  automatic: false
  push: true
  debounceMs: 500
  remote: upstream
  branch: publish
  author: {useAuthenticated: false, name: Bot, email: bot@example.com}
  commitPrefix: "[Bot]"
  commandTimeoutMs: 5000
  trackedPaths:
    - root: content
      exclude: ["forms/**", "drafts/*.md"]
    - assets
`), env(nil))
	if err != nil || len(warns) != 0 {
		t.Fatalf("load: %v %q", err, warns)
	}
	g := c.Git
	if !g.Enabled || g.Automatic || !g.Push || g.Debounce != 500*time.Millisecond || g.Remote != "upstream" || g.Branch != "publish" ||
		g.Author.UseAuthenticated || g.Author.Name != "Bot" || g.Author.Email != "bot@example.com" || g.CommitPrefix != "[Bot]" || g.CommandTimeout != 5*time.Second {
		t.Errorf("git = %+v", g)
	}
	want := []config.GitTracked{{Root: "content", Exclude: []string{"forms/**", "drafts/*.md"}}, {Root: "assets"}}
	if !reflect.DeepEqual(g.TrackedPaths, want) {
		t.Errorf("trackedPaths = %+v", g.TrackedPaths)
	}

	d := config.Default().Git
	if d.Enabled || !d.Automatic || d.Push || d.Debounce != 2*time.Second || d.Remote != "origin" || !d.Author.UseAuthenticated ||
		!reflect.DeepEqual(d.TrackedPaths, []config.GitTracked{{Root: "content", Exclude: []string{"forms/**"}}, {Root: "resources"}}) {
		t.Errorf("defaults = %+v", d)
	}

	for _, bad := range []string{
		"git:\n  enabled: true\n  remote: 'https://x'\n",
		"git:\n  enabled: true\n  branch: 'a b'\n",
		"git:\n  enabled: true\n  author: {name: ''}\n",
		"git:\n  enabled: true\n  trackedPaths: [{root: ../outside}]\n",
		"git:\n  trackedPaths: [{root: content, exclude: 3}]\n",
	} {
		if _, _, err := config.Load(site(t, bad), env(nil)); err == nil || !strings.Contains(err.Error(), "git") {
			t.Errorf("%q: err = %v, want a git error", bad, err)
		}
	}
}
