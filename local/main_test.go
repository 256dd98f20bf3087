package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cms/content/contenttest"
)

func runCmd(t *testing.T, getenv map[string]string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(t.Context(), args, func(k string) string { return getenv[k] }, strings.NewReader(""), &out, &out)
	return out.String(), err
}

func TestVersionAndUsage(t *testing.T) {
	t.Parallel()
	out, err := runCmd(t, nil, "version")
	if err != nil || !strings.HasPrefix(out, "cms ") {
		t.Errorf("version: %q %v", out, err)
	}
	out, _ = runCmd(t, nil, "help")
	for _, c := range []string{"serve", "check", "init", "dev", "version"} {
		if !strings.Contains(out, c) {
			t.Errorf("usage does not list %s:\n%s", c, out)
		}
	}
	if _, err := runCmd(t, nil, "frobnicate"); err == nil {
		t.Error("unknown command accepted")
	}
}

func TestInitAndCheckStarter(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "site")
	out, err := runCmd(t, map[string]string{"CMS_ADMIN_PASSWORD": "a very good password"}, "init", "--site", dir)
	if err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	if strings.Contains(out, "a very good password") {
		t.Error("init printed a password the user chose")
	}
	raw, err := os.ReadFile(filepath.Join(dir, "users", "admin.yaml"))
	if err != nil || !strings.Contains(string(raw), "password_hash: scrypt:") {
		t.Fatalf("admin user: %v\n%s", err, raw)
	}
	out, err = runCmd(t, nil, "check", "--site", dir)
	if err != nil {
		t.Fatalf("the starter site does not pass cms check: %v\n%s", err, out)
	}
	// A second init refuses to overwrite.
	if _, err := runCmd(t, nil, "init", "--site", dir); err == nil {
		t.Error("init overwrote an existing site")
	}
	// A generated password is printed once.
	dir2 := filepath.Join(t.TempDir(), "site2")
	out, err = runCmd(t, nil, "init", "--site", dir2)
	if err != nil || !strings.Contains(out, "Admin login: admin@example.com / ") {
		t.Errorf("init with a generated password: %v\n%s", err, out)
	}
	if _, err := runCmd(t, map[string]string{"CMS_ADMIN_PASSWORD": "short"}, "init", "--site", filepath.Join(t.TempDir(), "s3")); err == nil {
		t.Error("a weak CMS_ADMIN_PASSWORD was accepted")
	}
}

func TestCheckReportsProblems(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- resources/collections/blog.yaml --
title: Blog
-- resources/collections/broken.yaml --
content of a file that is not a definition
-- content/collections/blog/bad.md --
---
title: [unclosed
---
`)
	out, err := runCmd(t, nil, "check", "--site", dir)
	if code, ok := err.(exitError); !ok || code != 1 {
		t.Fatalf("check on a broken site: err = %v, want exit 1\n%s", err, out)
	}
	for _, want := range []string{"resources/collections/broken.yaml: line 1", "content/collections/blog/bad.md: line"} {
		if !strings.Contains(out, want) {
			t.Errorf("output does not contain %q:\n%s", want, out)
		}
	}
}

// The local server mounts every group without conflicting patterns and serves over loopback.
func TestServeEndToEnd(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "site")
	if _, err := runCmd(t, map[string]string{"CMS_ADMIN_PASSWORD": "a very good password"}, "init", "--site", dir); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	go func() {
		e := env{getenv: func(string) string { return "" }, stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
		errc <- serveSite(ctx, e, dir, "127.0.0.1:0", func(a net.Addr) { addrc <- a })
	}()
	var base string
	select {
	case a := <-addrc:
		base = "http://" + a.String()
	case err := <-errc:
		t.Fatalf("serve: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("server did not start")
	}
	get := func(path string) (int, map[string]any) {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body
	}
	tests := []struct {
		path   string
		status int
	}{
		{"/api/health/live", 200},
		{"/api/health/ready", 200},
		{"/api/public/entries/blog?limit=2", 200},
		{"/api/public/entries/blog/welcome-to-cms", 200},
		{"/api/public/entries/blog/draft-roadmap", 404},
		{"/api/does-not-exist", 404},
	}
	for _, tt := range tests {
		status, body := get(tt.path)
		if status != tt.status {
			t.Errorf("GET %s = %d, want %d: %v", tt.path, status, tt.status, body)
		}
		if status >= 400 {
			if _, ok := body["error"].(map[string]any); !ok {
				t.Errorf("GET %s: not an error envelope: %v", tt.path, body)
			}
		}
	}
	cancel()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("shutdown: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Error("server did not shut down")
	}

}
