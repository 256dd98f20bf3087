package auth_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"cms/content/contenttest"
	"cms/content/frontmatter"
	"cms/content/sessions"
	"cms/handlers/auth"
	"cms/handlers/auth/authtest"
	"cms/handlers/web/webtest"
)

// readUsers returns every file of users/ by name.
func readUsers(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, "users"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, "users", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

// 64 parallel logins, from one address and with the default limits, all succeed (in-flight
// attempts reserve no slot of the failure limits); they leave every user file byte-identical
// and parseable, and every session file valid JSON; each user keeps its newest 20 sessions
// (sessions.DefaultMaxPerUser), and exactly those tokens work. Under the race detector, where
// one scrypt costs about half a second, 16 logins keep the package fast while still racing
// each other.
func TestParallelLogins(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	h := env.Handler(t, nil)
	before := readUsers(t, env.Dir)
	n := 64
	if raceEnabled {
		n = 16
	}
	toks := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			email := []string{"alice@example.com", "bob@example.com"}[i%2]
			w := webtest.Do(t, h, login(email, authtest.Password))
			if w.Code != 200 {
				t.Errorf("login %d: status %d: %s", i, w.Code, w.Body)
				return
			}
			var resp auth.LoginResponse
			webtest.DecodeJSON(t, w, &resp)
			toks[i] = resp.Token
		})
	}
	wg.Wait()
	after := readUsers(t, env.Dir)
	if len(after) != len(before) {
		t.Fatalf("users/ had %d files, now %d", len(before), len(after))
	}
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Errorf("%s changed:\nbefore %s\nafter  %s", name, b, after[name])
		}
		if _, err := frontmatter.ParseYAMLMap(after[name], 1); err != nil {
			t.Errorf("%s does not parse: %v", name, err)
		}
	}
	ents, err := os.ReadDir(filepath.Join(env.Dir, ".sessions"))
	if err != nil {
		t.Fatal(err)
	}
	perUser := min(n/2, sessions.DefaultMaxPerUser)
	if len(ents) != 2*perUser {
		t.Errorf("%d session files, want %d", len(ents), 2*perUser)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(env.Dir, ".sessions", e.Name()))
		if err != nil || !json.Valid(b) {
			t.Errorf("session file %s unreadable or not JSON: %v", e.Name(), err)
		}
	}
	seen := map[string]bool{}
	valid := 0
	for i, tok := range toks {
		if seen[tok] {
			t.Errorf("token %d issued twice", i)
		}
		seen[tok] = true
		switch w := webtest.Do(t, h, webtest.Request{Path: "/api/auth/validate", Token: tok}); w.Code {
		case 200:
			valid++
		case 401: // ended by the per-user cap
		default:
			t.Errorf("token %d: validate %d", i, w.Code)
		}
	}
	if valid != 2*perUser {
		t.Errorf("%d tokens work, want %d", valid, 2*perUser)
	}
}

// User files written by the system we follow log in unchanged.
func TestExistingSiteUsersLogIn(t *testing.T) {
	t.Parallel()
	dir := contenttest.CopyFixture(t, "madori-site")
	env := authtest.New(t, dir)
	h := env.Handler(t, nil)
	before := readUsers(t, dir)
	for _, c := range []struct{ email, password, id string }{
		{"admin@example.com", "correct horse battery", "admin"},
		{"editor@example.com", "editor password 1", "editor"},
	} {
		tok := authtest.Login(t, h, c.email, c.password)
		w := webtest.Do(t, h, webtest.Request{Path: "/api/auth/validate", Token: tok})
		if w.Code != 200 || !bytes.Contains(w.Body.Bytes(), []byte(`"userId":"`+c.id+`"`)) {
			t.Errorf("%s: validate %d %s", c.email, w.Code, w.Body)
		}
		p, err := env.Auth.Authenticate(bearer(tok))
		if err != nil || len(p.Roles) != 1 || p.Roles[0].Handle != c.id {
			t.Errorf("%s: roles not loaded: %+v %v", c.email, p, err)
		}
	}
	if w := webtest.Do(t, h, login("admin@example.com", "editor password 1")); w.Code != 401 {
		t.Errorf("another user's password: status %d", w.Code)
	}
	for name, b := range readUsers(t, dir) {
		if !bytes.Equal(before[name], b) {
			t.Errorf("login rewrote %s", name)
		}
	}
}

func bearer(tok string) *http.Request {
	r, _ := http.NewRequest("GET", "/", nil)
	r.Header.Set("Authorization", "Bearer "+tok)
	return r
}
