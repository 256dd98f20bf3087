package users_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"cms/content/contenttest"
	"cms/content/sessions"
	"cms/handlers/auth"
	"cms/handlers/auth/authtest"
	"cms/handlers/users"
	"cms/handlers/web/webtest"
)

const site = `
-- resources/roles/admin.yaml --
handle: admin
display: Administrator
permissions:
  - resource: users
    actions: [view, create, edit, delete]
  - resource: entries
    actions: [view, create, edit, delete, publish]
-- resources/roles/viewer.yaml --
handle: viewer
display: User viewer
permissions:
  - resource: users
    actions: [view]
-- resources/roles/author.yaml --
# Writes blog posts only.
handle: author
display: Author
permissions:
  - resource: entries
    scope: blog
    actions: [view, create, edit]
-- resources/roles/spare.yaml --
handle: spare
display: Spare
permissions:
  - resource: forms
    actions: [view]
-- resources/collections/blog.yaml --
title: Blog
blueprint: blog
-- resources/collections/pages.yaml --
title: Pages
blueprint: pages
`

// testEnv is a site with users alice (admin), vic (viewer) and ann (author), and the auth and
// users groups mounted on one mux as the local server mounts them.
type testEnv struct {
	*authtest.Env
	h    http.Handler
	seq  atomic.Int64
	auth http.Handler
}

func newEnv(t testing.TB) *testEnv {
	t.Helper()
	return newEnvWith(t, "")
}

// newEnvWith is newEnv on the site with extra files (txtar, as in site) added.
func newEnvWith(t testing.TB, extra string) *testEnv {
	t.Helper()
	env := authtest.New(t, contenttest.WriteSite(t, site+extra))
	env.AddUser(t, "alice", "admin")
	env.AddUser(t, "vic", "viewer")
	env.AddUser(t, "ann", "author")
	uh, err := users.New(users.Deps{
		Store:       env.Store,
		Sessions:    env.Sessions,
		Credentials: sessions.NewPasswordValidator(env.Store, 0),
		Auth:        env.Auth,
		Now:         env.Clock.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	ah := env.Handler(t, nil)
	mux := http.NewServeMux()
	for _, p := range users.Prefixes() {
		mux.Handle(p, uh)
	}
	for _, p := range auth.Prefixes() {
		mux.Handle(p, ah)
	}
	return &testEnv{Env: env, h: mux, auth: ah}
}

// newID returns a fresh id for a throw-away user or role.
func (e *testEnv) newID(prefix string) string { return fmt.Sprintf("%s-%d", prefix, e.seq.Add(1)) }

func (e *testEnv) do(t testing.TB, req webtest.Request) *httptest.ResponseRecorder {
	t.Helper()
	w := webtest.Do(t, e.h, req)
	noSecrets(t, w)
	return w
}

// noSecrets fails the test when a response carries anything of a password hash.
func noSecrets(t testing.TB, w *httptest.ResponseRecorder) {
	t.Helper()
	body := w.Body.String()
	for _, s := range []string{"scrypt:", authtest.PasswordHash[7:40], authtest.Password} {
		if strings.Contains(body, s) {
			t.Errorf("response leaks %q: %s", s, body)
		}
	}
}

// sessionFiles counts the session files of a user.
func (e *testEnv) sessionCount(t testing.TB, tokens ...string) int {
	t.Helper()
	n := 0
	for _, tok := range tokens {
		if _, err := os.Stat(filepath.Join(e.Dir, sessions.DefaultDir, sessions.HashToken(tok)+".json")); err == nil {
			n++
		}
	}
	return n
}

// valid reports whether a token still authenticates.
func (e *testEnv) valid(t testing.TB, tok string) bool {
	t.Helper()
	return webtest.Do(t, e.h, webtest.Request{Path: "/api/auth/validate", Token: tok}).Code == http.StatusOK
}

func wantError(t testing.TB, w *httptest.ResponseRecorder, status int, code string) webtest.ErrorBody {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status = %d, want %d: %s", w.Code, status, w.Body)
	}
	e := webtest.DecodeError(t, w)
	if e.Error.Code != code {
		t.Errorf("code = %s, want %s (%s)", e.Error.Code, code, e.Error.Message)
	}
	return e
}
