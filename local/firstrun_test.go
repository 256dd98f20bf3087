package main

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"cms/content/contenttest"
)

// syncBuffer is a bytes.Buffer the server's goroutines and the test may share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServer runs `cms <args>` (serve or dev) in-process until the test ends and returns the
// base URL of the listener and the command's output so far.
func startServer(t *testing.T, getenv map[string]string, args ...string) (base string, out *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	out = &syncBuffer{}
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	e := env{getenv: func(k string) string { return getenv[k] }, stdin: strings.NewReader(""), stdout: out, stderr: out}
	go func() { errc <- runServer(ctx, e, args, func(a net.Addr) { addrc <- a }) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-errc:
			if err != nil {
				t.Errorf("server: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("server did not shut down")
		}
	})
	select {
	case a := <-addrc:
		return "http://" + a.String(), out
	case err := <-errc:
		errc <- err
		t.Fatalf("server did not start: %v\n%s", err, out)
	case <-time.After(60 * time.Second):
		t.Fatalf("server did not start\n%s", out)
	}
	return "", nil
}

// The server warns at start-up about a collection whose blueprint: is a list, naming the file.
func TestServeWarnsAboutBlueprintList(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- cms.config.yaml --
watch: none
-- resources/collections/blog.yaml --
title: Blog
blueprint: [post, page]
`)
	_, out := startServer(t, nil, "serve", "--site", dir, "--addr", "127.0.0.1:0")
	if s := out.String(); !strings.Contains(s, "level=WARN") || !strings.Contains(s, "resources/collections/blog.yaml") || !strings.Contains(s, "blueprint is a list") {
		t.Errorf("start-up output does not warn about the blueprint list:\n%s", s)
	}
}

// runServer runs the serve or dev command with a ready callback.
func runServer(ctx context.Context, e env, args []string, ready func(net.Addr)) error {
	e.ready = ready
	return commands()[args[0]].run(ctx, e, args[1:])
}

// In development the server listens on loopback unless --addr or PORT says otherwise: a fresh
// `make dev` prints an admin password, and must not be reachable from the network.
func TestListenAddr(t *testing.T) {
	t.Parallel()
	cases := []struct {
		flag, port string
		production bool
		want       string
	}{
		{want: "127.0.0.1:3000"},
		{production: true, want: ":3000"},
		{flag: "0.0.0.0:8080", want: "0.0.0.0:8080"},
		{flag: "127.0.0.1:0", production: true, want: "127.0.0.1:0"},
		{port: "8081", want: ":8081"},
		{port: "8081", production: true, want: ":8081"},
	}
	for _, c := range cases {
		getenv := func(k string) string {
			if k == "PORT" {
				return c.port
			}
			return ""
		}
		if got := listenAddr(c.flag, getenv, 3000, c.production); got != c.want {
			t.Errorf("listenAddr(--addr %q, PORT %q, production %v) = %q, want %q", c.flag, c.port, c.production, got, c.want)
		}
	}
}

// A first `cms dev` prints where the Control Panel and the APIs are, and / answers the starter
// site's home page, which links the Control Panel.
func TestDevFirstRun(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "site")
	base, out := startServer(t, map[string]string{"CMS_ADMIN_PASSWORD": "a very good password"}, "dev", "--site", dir, "--addr", "127.0.0.1:0")
	for _, want := range []string{
		"website:       " + base + "/",
		"Control Panel: " + base + "/cp",
		"public API:    " + base + "/api/public/entries/{collection}",
		"GraphQL:       " + base + "/api/graphql",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("start-up output does not contain %q:\n%s", want, out)
		}
	}
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `href="/cp"`) {
		t.Errorf("GET / = %d\n%s", resp.StatusCode, body)
	}
	// The starter opts its site global and main navigation into the public API, and a frontend's
	// dev server on another localhost port may read them.
	for path, want := range map[string]string{
		"/api/public/globals/site-settings": `"site_name":"Starter Site"`,
		"/api/public/navigation/main":       `"items":[`,
	} {
		req, _ := http.NewRequest("GET", base+path, nil)
		req.Header.Set("Origin", "http://localhost:5173")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) || resp.Header.Get("Access-Control-Allow-Origin") != "http://localhost:5173" {
			t.Errorf("GET %s = %d (Access-Control-Allow-Origin %q)\n%s", path, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), body)
		}
	}
}

// The starter site keeps secrets and derived state out of git, and its text about git is true
// of a fresh copy, which is not a repository: wherever it says `git diff`, it says `git init`.
func TestStarterAndGit(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "site")
	out, err := runCmd(t, map[string]string{"CMS_ADMIN_PASSWORD": "a very good password"}, "init", "--site", dir)
	if err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		t.Error("init created a git repository")
	}
	if !strings.Contains(out, "git init") {
		t.Errorf("init does not say how to keep the site in git:\n%s", out)
	}
	ignore, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(ignore), "\n")
	for _, want := range []string{".sessions/", ".cms/", "storage/"} {
		if !slices.Contains(lines, want) {
			t.Errorf(".gitignore does not list %s:\n%s", want, ignore)
		}
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || (filepath.Ext(p) != ".md" && filepath.Ext(p) != ".yaml") {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), "git diff") && !strings.Contains(string(b), "git init") {
			t.Errorf("%s tells the user to run git diff but not how to start a repository", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if out, err := runCmd(t, nil, "check", "--site", dir); err != nil {
		t.Errorf("the starter site does not pass cms check: %v\n%s", err, out)
	}
}

// When the port is taken (a second `make dev`, another project on 3000), the error says how to
// pick another address instead of only repeating the system's "address already in use".
func TestServeSaysHowToChooseAnotherPort(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dir := contenttest.WriteSite(t, "-- cms.config.yaml --\nwatch: none\n")
	out, err := runCmd(t, nil, "serve", "--site", dir, "--addr", ln.Addr().String())
	if err == nil {
		t.Fatalf("serve on a taken port succeeded\n%s", out)
	}
	for _, want := range []string{"address already in use", "--addr 127.0.0.1:", "make dev ADDR="} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %q: %v", want, err)
		}
	}
}

// `make dev` on an existing .dev-site prints no password (it was shown once), so it says how to
// get in: the admin login from the first run, or reset-password, or starting afresh.
func TestDevOnExistingSiteSaysHowToSignIn(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "site")
	if out, err := runCmd(t, map[string]string{"CMS_ADMIN_PASSWORD": "a very good password"}, "init", "--site", dir); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	_, out := startServer(t, nil, "dev", "--site", dir, "--addr", "127.0.0.1:0")
	if s := out.String(); !strings.Contains(s, "cms reset-password --site "+dir+" admin@example.com") || strings.Contains(s, "Created the starter site") {
		t.Errorf("a second dev run does not say how to sign in:\n%s", s)
	}
}

// `cms serve` in a folder that is no site (the repository's root, say) still serves, an empty
// site, but warns at once why every page is a 404.
func TestServeWarnsAboutAFolderThatIsNoSite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, out := startServer(t, map[string]string{"CMS_WATCH": "none"}, "serve", "--site", dir, "--addr", "127.0.0.1:0")
	if s := out.String(); !strings.Contains(s, "level=WARN") || !strings.Contains(s, "is not a site folder") {
		t.Errorf("start-up output does not warn that the folder is no site:\n%s", s)
	}
}
