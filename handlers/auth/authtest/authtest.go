// Package authtest gives end-to-end tests of protected groups real sessions without spending
// scrypt time: a site with a real store, session store and [authn.Authenticator], users written
// with a precomputed password hash, and tokens minted straight into the session store.
//
//	env := authtest.New(t, contenttest.WriteSite(t, site)) // site has resources/roles/*.yaml
//	env.AddUser(t, "ed", "editor")
//	h, _ := entries.New(entries.Deps{Store: env.Store, Auth: env.Auth, ...})
//	webtest.Do(t, h, webtest.Request{Path: "/api/entries/blog", Token: env.Token(t, "ed")})
package authtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/content/sessions"
	"cms/handlers/auth"
	"cms/handlers/authn"
	"cms/handlers/web/webtest"
)

// Password is the password of every user AddUser writes.
const Password = "correct horse battery staple"

// PasswordHash is a scrypt hash of Password in the site format, precomputed so adding users is
// free; logging in with it still costs one real scrypt verification.
const PasswordHash = "scrypt:3cdabe432241e67c104cf53d30d2646dd350a2c5d77c965d6a4f6bc0ed364e5a:" +
	"b2e7793f36b512288b9e4a410562e13602f4d39c52edfc33426d0da74cdff63f70a3367d85b740d442a8ffe6d3402ece509702f8c32955e59bf5d76838fba2de"

// Clock is a settable time source; its zero value reads as 2026-06-01T12:00:00Z.
type Clock struct{ offset atomic.Int64 }

var epoch = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// Now returns the clock's time.
func (c *Clock) Now() time.Time { return epoch.Add(time.Duration(c.offset.Load())) }

// Advance moves the clock forward.
func (c *Clock) Advance(d time.Duration) { c.offset.Add(int64(d)) }

// SessionDuration is how long sessions of an Env last.
const SessionDuration = time.Hour

// Env is a site folder with everything authentication needs.
type Env struct {
	Dir      string
	Store    *fsstore.Store
	Sessions *sessions.Store
	Auth     *authn.Authenticator
	Clock    *Clock
}

// New opens a store (no watching, no fsync) and a session store on dir, closed when the test
// ends. Sessions live in dir/.sessions and last [SessionDuration] on the Env's clock.
func New(t testing.TB, dir string) *Env {
	t.Helper()
	st := contenttest.OpenStore(t, dir)
	clock := &Clock{}
	ss, err := sessions.Open(sessions.Options{Root: st.Root(), Duration: SessionDuration, SweepInterval: -1,
		NoSync: true, Now: clock.Now, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatalf("open sessions: %v", err)
	}
	t.Cleanup(func() { ss.Close() })
	a, err := authn.NewAuthenticator(ss, st, st)
	if err != nil {
		t.Fatal(err)
	}
	return &Env{Dir: dir, Store: st, Sessions: ss, Auth: a, Clock: clock}
}

// AddUser writes users/{id}.yaml with email {id}@example.com, password [Password] and the roles.
func (e *Env) AddUser(t testing.TB, id string, roles ...string) *content.User {
	t.Helper()
	if roles == nil {
		roles = []string{}
	}
	u := &content.User{ID: id, Email: id + "@example.com", Name: "User " + id, PasswordHash: PasswordHash,
		Roles: roles, CreatedAt: "2026-05-01T00:00:00.000Z"}
	if err := e.Store.CreateUser(u); err != nil {
		t.Fatalf("add user %s: %v", id, err)
	}
	return u
}

// Token starts a session for userID directly in the session store and returns its token.
func (e *Env) Token(t testing.TB, userID string) string {
	t.Helper()
	tok, _, err := e.Sessions.Create(context.Background(), userID)
	if err != nil {
		t.Fatalf("create session: %v", err)
	}
	return string(tok)
}

// ExpiredToken writes a session file for userID that expired a minute ago, as a session left
// over from yesterday looks, and returns its token.
func (e *Env) ExpiredToken(t testing.TB, userID string) string {
	t.Helper()
	var raw [32]byte
	_, _ = rand.Read(raw[:])
	tok := hex.EncodeToString(raw[:])
	b, err := json.Marshal(map[string]string{"id": "expired-" + tok[:8], "userId": userID,
		"expiresAt": e.Clock.Now().Add(-time.Minute).Format(sessions.TimeFormat)})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(e.Dir, sessions.DefaultDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, sessions.HashToken(tok)+".json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return tok
}

// Handler builds the auth group over the Env with the real password driver.
func (e *Env) Handler(t testing.TB, mod func(*auth.Deps)) http.Handler {
	t.Helper()
	d := auth.Deps{
		Credentials:   sessions.NewPasswordValidator(e.Store, 0),
		Sessions:      e.Sessions,
		Authenticator: e.Auth,
		Now:           e.Clock.Now,
	}
	if mod != nil {
		mod(&d)
	}
	h, err := auth.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// Login posts the credentials to h (a handler serving /api/auth/login) and returns the token,
// failing the test unless the login succeeds.
func Login(t testing.TB, h http.Handler, email, password string) string {
	t.Helper()
	w := webtest.Do(t, h, webtest.Request{Method: http.MethodPost, Path: "/api/auth/login",
		Body: map[string]string{"email": email, "password": password}})
	if w.Code != http.StatusOK {
		t.Fatalf("login %s: status %d: %s", email, w.Code, w.Body.String())
	}
	var resp auth.LoginResponse
	webtest.DecodeJSON(t, w, &resp)
	return resp.Token
}
