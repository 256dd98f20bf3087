package main

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// The starter site is a newcomer's first impression, and the CMS's own SEO audit is one of the
// first commands they try: a fresh copy has nothing to fix.
func TestStarterPassesItsOwnSEOAudit(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "site")
	if out, err := runCmd(t, map[string]string{"CMS_ADMIN_PASSWORD": "a very good password"}, "init", "--site", dir); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	out, err := runCmd(t, nil, "seo", "report", "--dir", dir)
	if err != nil || !strings.Contains(out, " 0 issues ") {
		t.Errorf("seo report on the starter: %v\n%s", err, out)
	}
}

// The home page is `/`; the pages entry that holds its text (slug home) is not a second copy at
// /home: that path moves to `/`, and the sitemap lists `/` once and not /home.
func TestStarterHomeIsOnePage(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "site")
	base, _ := startServer(t, map[string]string{"CMS_ADMIN_PASSWORD": "a very good password"}, "dev", "--site", dir, "--addr", "127.0.0.1:0")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(base + "/home")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMovedPermanently || !strings.HasSuffix(resp.Header.Get("Location"), "/") || strings.HasSuffix(resp.Header.Get("Location"), "/home") {
		t.Errorf("GET /home = %d Location %q, want a 301 to /", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, err = http.Get(base + "/sitemap.xml")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.Contains(string(body), "/home</loc>") || !strings.Contains(string(body), "<loc>http://localhost:3000/</loc>") {
		t.Errorf("sitemap lists /home, or not /:\n%s", body)
	}
}

// The token command's own example (`--role reader`) works on the starter site, and a role that
// does not exist is answered with the roles that do.
func TestStarterTokenExample(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "site")
	if out, err := runCmd(t, map[string]string{"CMS_ADMIN_PASSWORD": "a very good password"}, "init", "--site", dir); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	if out, msg, err := runSplit(t, "token", "create", "--site", dir, "--name", "Site build", "--role", "reader", "--expires", "30d"); err != nil {
		t.Errorf("the example of cms token -h fails on the starter: %v\n%s%s", err, out, msg)
	}
	_, _, err := runSplit(t, "token", "create", "--site", dir, "--name", "x", "--role", "viewer")
	if err == nil || !strings.Contains(err.Error(), `no role "viewer"`) || !strings.Contains(err.Error(), "admin, author, editor, reader") {
		t.Errorf("unknown role: %v", err)
	}
}

// cms init ends by saying how to run what it made.
func TestInitSaysHowToServe(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "site")
	out, err := runCmd(t, map[string]string{"CMS_ADMIN_PASSWORD": "a very good password"}, "init", "--site", dir)
	if err != nil || !strings.Contains(out, "cms serve --site "+dir) {
		t.Errorf("init: %v\n%s", err, out)
	}
}
