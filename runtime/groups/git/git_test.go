package git_test

import (
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/handlers/git"
	"cms/handlers/web/webtest"
	"cms/runtime/config"
	gitgroup "cms/runtime/groups/git"
	"cms/runtime/groups/globals"
	"cms/runtime/wire"
)

var (
	editor = webtest.Token("editor")
	viewer = webtest.Token("viewer")
	other  = webtest.Token("other")
)

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_AUTHOR_NAME=Owner", "GIT_AUTHOR_EMAIL=owner@example.com",
		"GIT_COMMITTER_NAME=Owner", "GIT_COMMITTER_EMAIL=owner@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimRight(string(out), "\n")
}

// serve builds the globals and git groups over a site that is a Git repository, with the given
// configuration file, as the local server would, and callers: editor (globals and git edit),
// viewer (git view) and other (globals only).
func serve(t *testing.T, cfgYAML string) (http.Handler, string) {
	t.Helper()
	dir := contenttest.WriteSite(t, "-- cms.config.yaml --\n"+cfgYAML+"\n-- content/globals/site.yaml --\nname: Site\n-- .gitignore --\n.sessions/\n.cms/\nstorage/\n")
	run(t, dir, "init", "-q", "-b", "main")
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "initial")
	cfg, _, err := config.Load(dir, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	s, err := wire.NewServices(t.Context(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	auth := webtest.NewAuth(t)
	auth.Add(editor, "eve", webtest.Role("editor", webtest.Grant("globals", "view", "edit"), webtest.Grant("git", "view", "edit")))
	auth.Add(viewer, "vic", webtest.Role("viewer", webtest.Grant("git", "view")))
	auth.Add(other, "olga", webtest.Role("other", webtest.Grant("globals", "view", "edit")))
	s.Auth = auth
	h, err := wire.Mount(s, globals.Group(), gitgroup.Group())
	if err != nil {
		t.Fatal(err)
	}
	return h, dir
}

// An edit through the API is committed, attributed to the editor who made it, once synced.
func TestEditIsCommittedAsItsEditor(t *testing.T) {
	t.Parallel()
	h, dir := serve(t, "watch: none\ngit:\n  enabled: true\n  debounceMs: 600000\n  commitPrefix: '[Site]'")
	w := webtest.Do(t, h, webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `{"name":"Edited"}`})
	if w.Code != http.StatusOK {
		t.Fatalf("PUT global: %d %s", w.Code, w.Body)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "storage/git-sync/*.json")); len(files) != 1 {
		t.Errorf("queue files after the write was acknowledged: %v", files)
	}
	w = webtest.Do(t, h, webtest.Request{Method: "POST", Path: "/api/git/sync", Token: editor})
	var sync struct{ Data git.SyncResult }
	webtest.DecodeJSON(t, w, &sync)
	if w.Code != http.StatusOK || len(sync.Data.Results) != 1 || !sync.Data.Results[0].Committed || sync.Data.Results[0].PathCount != 1 {
		t.Fatalf("sync: %d %s", w.Code, w.Body)
	}
	if got := run(t, dir, "log", "-1", "--format=%an <%ae>|%s"); got != "eve <eve@example.com>|[Site] Updated global site" {
		t.Errorf("HEAD = %q", got)
	}
	if got := run(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status = %q: only content is committed, and nothing else is left modified", got)
	}
	w = webtest.Do(t, h, webtest.Request{Path: "/api/git/status", Token: viewer})
	var st struct{ Data git.Status }
	webtest.DecodeJSON(t, w, &st)
	if w.Code != http.StatusOK || len(st.Data.Repositories) != 1 || st.Data.Repositories[0].Status != "clean" || st.Data.Repositories[0].Branch != "main" {
		t.Errorf("status: %d %s", w.Code, w.Body)
	}
}

func TestAuthorisationAndErrors(t *testing.T) {
	t.Parallel()
	on, _ := serve(t, "watch: none\ngit:\n  enabled: true")
	off, _ := serve(t, "watch: none")
	id := strings.Repeat("a", 64)
	cases := []struct {
		name       string
		h          http.Handler
		req        webtest.Request
		wantStatus int
		wantCode   string
	}{
		{"status unauthenticated", on, webtest.Request{Path: "/api/git/status"}, 401, "AUTHENTICATION_ERROR"},
		{"status without git", on, webtest.Request{Path: "/api/git/status", Token: other}, 403, "AUTHORIZATION_ERROR"},
		{"status viewer", on, webtest.Request{Path: "/api/git/status", Token: viewer}, 200, ""},
		{"sync unauthenticated", on, webtest.Request{Method: "POST", Path: "/api/git/sync"}, 401, "AUTHENTICATION_ERROR"},
		{"sync viewer", on, webtest.Request{Method: "POST", Path: "/api/git/sync", Token: viewer}, 403, "AUTHORIZATION_ERROR"},
		{"sync without git", on, webtest.Request{Method: "POST", Path: "/api/git/sync", Token: other}, 403, "AUTHORIZATION_ERROR"},
		{"sync editor", on, webtest.Request{Method: "POST", Path: "/api/git/sync", Token: editor}, 200, ""},
		{"sync one", on, webtest.Request{Method: "POST", Path: "/api/git/sync", Token: editor, Body: `{"repository":"` + id + `"}`}, 404, "UNKNOWN_REPOSITORY"},
		{"sync bad id", on, webtest.Request{Method: "POST", Path: "/api/git/sync", Token: editor, Body: `{"repository":"../x"}`}, 422, "VALIDATION_ERROR"},
		{"sync malformed", on, webtest.Request{Method: "POST", Path: "/api/git/sync", Token: editor, Body: `{`}, 400, "BAD_REQUEST"},
		{"retry viewer", on, webtest.Request{Method: "POST", Path: "/api/git/retry", Token: viewer, Body: `{"repository":"` + id + `"}`}, 403, "AUTHORIZATION_ERROR"},
		{"retry without repository", on, webtest.Request{Method: "POST", Path: "/api/git/retry", Token: editor, Body: `{}`}, 422, "VALIDATION_ERROR"},
		{"retry unknown", on, webtest.Request{Method: "POST", Path: "/api/git/retry", Token: editor, Body: `{"repository":"` + id + `"}`}, 404, "UNKNOWN_REPOSITORY"},
		{"wrong method", on, webtest.Request{Method: "DELETE", Path: "/api/git/status", Token: editor}, 405, "METHOD_NOT_ALLOWED"},
		{"unknown route", on, webtest.Request{Path: "/api/git/log", Token: editor}, 404, "NOT_FOUND"},
		{"off: status", off, webtest.Request{Path: "/api/git/status", Token: viewer}, 409, "DISABLED"},
		{"off: sync", off, webtest.Request{Method: "POST", Path: "/api/git/sync", Token: editor}, 409, "DISABLED"},
		{"off: retry", off, webtest.Request{Method: "POST", Path: "/api/git/retry", Token: editor, Body: `{"repository":"` + id + `"}`}, 409, "DISABLED"},
		{"off: permission first", off, webtest.Request{Path: "/api/git/status", Token: other}, 403, "AUTHORIZATION_ERROR"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := webtest.Do(t, c.h, c.req)
			if w.Code != c.wantStatus {
				t.Fatalf("status %d, want %d: %s", w.Code, c.wantStatus, w.Body)
			}
			if c.wantCode != "" {
				if e := webtest.DecodeError(t, w); e.Error.Code != c.wantCode {
					t.Errorf("code %q, want %q", e.Error.Code, c.wantCode)
				}
			}
		})
	}
}
