package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/gitsync"
	"cms/runtime/config"
	"cms/runtime/wire"
)

func gitCLI(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_AUTHOR_NAME=Owner", "GIT_AUTHOR_EMAIL=owner@example.com",
		"GIT_COMMITTER_NAME=Owner", "GIT_COMMITTER_EMAIL=owner@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// cms git status shows what a stopped server left queued; cms git sync commits it.
func TestGitCommand(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, "-- cms.config.yaml --\ngit:\n  enabled: true\n-- content/globals/site.yaml --\nname: Site\n-- .gitignore --\nstorage/\n")
	gitCLI(t, dir, "init", "-q", "-b", "main")
	gitCLI(t, dir, "add", "-A")
	gitCLI(t, dir, "commit", "-q", "-m", "initial")

	// A server queued a change and stopped before its commit.
	cfg, _, err := config.Load(dir, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	o := wire.GitOptions(cfg, nil)
	o.Clock = heldClock{}
	s, err := gitsync.New(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "content/globals/site.yaml"), []byte("name: Queued\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.Enqueue(content.Change{Paths: []string{"content/globals/site.yaml"}, Message: "Updated global site", Editor: content.Editor{Name: "Ann", Email: "ann@example.com"}})
	s.Close()

	out, err := runCmd(t, nil, "git", "status", "--site", dir)
	if err != nil || !strings.Contains(out, "main") || !strings.Contains(out, "pending") {
		t.Fatalf("git status: %v\n%s", err, out)
	}
	out, err = runCmd(t, nil, "git", "sync", "--site", dir)
	if err != nil || !strings.Contains(out, "1 path(s), committed") {
		t.Fatalf("git sync: %v\n%s", err, out)
	}
	if got := gitCLI(t, dir, "log", "-1", "--format=%an|%s"); got != "Ann|[CMS] Updated global site" {
		t.Errorf("HEAD = %q", got)
	}
	if out, err := runCmd(t, nil, "git", "status", "--site", dir); err != nil || !strings.Contains(out, "clean") {
		t.Errorf("git status after sync: %v\n%s", err, out)
	}
	if _, err := runCmd(t, nil, "git", "frob", "--site", dir); err == nil {
		t.Error("unknown subcommand accepted")
	}
	off := contenttest.WriteSite(t, "-- content/globals/site.yaml --\nname: Site\n")
	if out, err := runCmd(t, nil, "git", "status", "--site", off); err == nil || !strings.Contains(err.Error(), "not enabled") {
		t.Errorf("git status with git sync off: %v\n%s", err, out)
	}
}
