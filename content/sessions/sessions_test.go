package sessions_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cms/content"
	"cms/content/sessions"
)

// clock is a settable time source shared by a test's store.
type clock struct{ ns atomic.Int64 }

func newClock() *clock {
	c := &clock{}
	c.ns.Store(time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	return c
}
func (c *clock) Now() time.Time          { return time.Unix(0, c.ns.Load()).UTC() }
func (c *clock) Advance(d time.Duration) { c.ns.Add(int64(d)) }

type fixture struct {
	dir   string
	root  *os.Root
	clock *clock
	st    *sessions.Store
}

func open(t *testing.T, mod func(*sessions.Options)) *fixture {
	t.Helper()
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	c := newClock()
	o := sessions.Options{Root: root, Duration: time.Hour, SweepInterval: -1, NoSync: true, Now: c.Now}
	if mod != nil {
		mod(&o)
	}
	st, err := sessions.Open(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &fixture{dir: dir, root: root, clock: c, st: st}
}

func (f *fixture) file(tok sessions.Token) string {
	sum := sha256.Sum256([]byte(tok))
	return filepath.Join(f.dir, ".sessions", hex.EncodeToString(sum[:])+".json")
}

func (f *fixture) create(t *testing.T, user string) sessions.Token {
	t.Helper()
	tok, _, err := f.st.Create(t.Context(), user)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func wantInvalid(t *testing.T, err error) {
	t.Helper()
	if content.KindOf(err) != content.Unauthenticated {
		t.Fatalf("err = %v, want an Unauthenticated error", err)
	}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func TestCreateWritesHashedFileWithoutSecret(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	tok, sess, err := f.st.Create(t.Context(), "alice")
	if err != nil {
		t.Fatal(err)
	}
	if len(tok) != 64 || strings.Trim(string(tok), "0123456789abcdef") != "" {
		t.Fatalf("token %q is not 64 lowercase hex digits", tok)
	}
	if sess.Hash != sessions.HashToken(string(tok)) {
		t.Errorf("Hash = %s, want sha256 of the token", sess.Hash)
	}
	if want := f.clock.Now().Add(time.Hour); !sess.ExpiresAt.Equal(want) {
		t.Errorf("ExpiresAt = %v, want %v", sess.ExpiresAt, want)
	}
	raw, err := os.ReadFile(f.file(tok))
	if err != nil {
		t.Fatalf("session file not at sha256(token).json: %v", err)
	}
	if strings.Contains(string(raw), string(tok)) {
		t.Errorf("session file contains the token: %s", raw)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "userId", "expiresAt", "createdAt"} {
		if _, ok := m[k]; !ok {
			t.Errorf("session file lacks %q: %s", k, raw)
		}
	}
	if m["userId"] != "alice" || m["expiresAt"] != "2026-06-01T13:00:00.000Z" {
		t.Errorf("file = %s", raw)
	}
	if fi, _ := os.Stat(f.file(tok)); fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode = %v, want 0600", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(filepath.Join(f.dir, ".sessions")); fi.Mode().Perm() != 0o700 {
		t.Errorf("folder mode = %v, want 0700", fi.Mode().Perm())
	}
	got, err := f.st.Validate(t.Context(), string(tok))
	if err != nil || got.UserID != "alice" || got.ID != sess.ID {
		t.Fatalf("Validate = %+v, %v", got, err)
	}
	if ll, ok := f.st.LastLogin("alice"); !ok || !ll.Equal(sess.CreatedAt) {
		t.Errorf("LastLogin = %v, %v", ll, ok)
	}
}

func TestValidateRejects(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	good := f.create(t, "alice")
	for name, tok := range map[string]string{
		"empty":        "",
		"short":        "abc",
		"not hex":      strings.Repeat("z", 64),
		"path":         "../../etc/passwd" + strings.Repeat("a", 48),
		"unknown":      strings.Repeat("ab", 32),
		"other case":   strings.ToUpper(string(good)),
		"token suffix": string(good) + "0",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := f.st.Validate(t.Context(), tok)
			wantInvalid(t, err)
		})
	}
}

// A session file written by the system we follow (pretty JSON, no createdAt) still validates.
func TestValidateExistingSiteFile(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	tok := strings.Repeat("0123456789abcdef", 4)
	writeFile(t, f, tok, `{
  "id": "6f1c2f4e-2b7a-4c55-9a1d-3e5b7c9d1f20",
  "userId": "admin",
  "expiresAt": "2026-06-01T12:30:00.000Z"
}`)
	s, err := f.st.Validate(t.Context(), tok)
	if err != nil || s.UserID != "admin" {
		t.Fatalf("Validate = %+v, %v", s, err)
	}
}

func writeFile(t *testing.T, f *fixture, tok, body string) string {
	t.Helper()
	p := f.file(sessions.Token(tok))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMalformedFilesAreRemoved(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	for name, body := range map[string]string{
		"not json":       "garbage",
		"no id":          `{"userId":"a","expiresAt":"2026-06-02T00:00:00.000Z"}`,
		"no user":        `{"id":"x","expiresAt":"2026-06-02T00:00:00.000Z"}`,
		"numeric user":   `{"id":"x","userId":7,"expiresAt":"2026-06-02T00:00:00.000Z"}`,
		"bad expiry":     `{"id":"x","userId":"a","expiresAt":"tomorrow"}`,
		"missing expiry": `{"id":"x","userId":"a"}`,
		"too large":      `{"id":"x","userId":"a","expiresAt":"2026-06-02T00:00:00.000Z","pad":"` + strings.Repeat("x", 5000) + `"}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tok := hex.EncodeToString([]byte(fmt.Sprintf("%-32s", name)))
			p := writeFile(t, f, tok, body)
			_, err := f.st.Validate(t.Context(), tok)
			wantInvalid(t, err)
			if exists(p) {
				t.Errorf("malformed session file was kept")
			}
		})
	}
}

func TestExpiry(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	tok := f.create(t, "alice")
	f.clock.Advance(time.Hour - time.Millisecond)
	if _, err := f.st.Validate(t.Context(), string(tok)); err != nil {
		t.Fatalf("valid just before expiry: %v", err)
	}
	f.clock.Advance(time.Millisecond) // now == expiresAt
	_, err := f.st.Validate(t.Context(), string(tok))
	wantInvalid(t, err)
	if exists(f.file(tok)) {
		t.Error("expired session file was kept")
	}

	// An expired file not in the cache (another process wrote it) is removed on access too.
	old := strings.Repeat("cd", 32)
	p := writeFile(t, f, old, `{"id":"x","userId":"a","expiresAt":"2026-06-01T00:00:00.000Z"}`)
	_, err = f.st.Validate(t.Context(), old)
	wantInvalid(t, err)
	if exists(p) {
		t.Error("expired session file was kept")
	}
}

// A cached session needs no I/O until RecheckAfter; then one stat notices a removed file.
func TestCacheRecheck(t *testing.T) {
	t.Parallel()
	f := open(t, func(o *sessions.Options) { o.RecheckAfter = time.Minute })
	tok := f.create(t, "alice")
	if err := os.Remove(f.file(tok)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.Validate(t.Context(), string(tok)); err != nil {
		t.Fatalf("cached session should validate without reading its file: %v", err)
	}
	f.clock.Advance(time.Minute)
	_, err := f.st.Validate(t.Context(), string(tok))
	wantInvalid(t, err)
}

func TestDestroy(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	a, b := f.create(t, "alice"), f.create(t, "alice")
	if err := f.st.Destroy(t.Context(), string(a)); err != nil {
		t.Fatal(err)
	}
	_, err := f.st.Validate(t.Context(), string(a))
	wantInvalid(t, err)
	if exists(f.file(a)) {
		t.Error("destroyed session file was kept")
	}
	if _, err := f.st.Validate(t.Context(), string(b)); err != nil {
		t.Errorf("the other session ended too: %v", err)
	}
	for _, tok := range []string{"", "junk", string(a)} {
		if err := f.st.Destroy(t.Context(), tok); err != nil {
			t.Errorf("Destroy(%q) = %v, want nil", tok, err)
		}
	}
}

func TestRevokeUser(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	a1, a2, b := f.create(t, "alice"), f.create(t, "alice"), f.create(t, "bob")
	writeFile(t, f, strings.Repeat("ee", 32), "junk") // malformed files are skipped, not fatal
	n, err := f.st.RevokeUser(t.Context(), "alice")
	if err != nil || n != 2 {
		t.Fatalf("RevokeUser = %d, %v; want 2, nil", n, err)
	}
	for _, tok := range []sessions.Token{a1, a2} {
		_, err := f.st.Validate(t.Context(), string(tok))
		wantInvalid(t, err)
	}
	if _, err := f.st.Validate(t.Context(), string(b)); err != nil {
		t.Errorf("another user's session was revoked: %v", err)
	}
	if n, err := f.st.RevokeUser(t.Context(), "nobody"); err != nil || n != 0 {
		t.Errorf("RevokeUser(nobody) = %d, %v", n, err)
	}
}

// Sessions created while a user's sessions are revoked either survive as new sessions created
// after the revocation or are revoked; validation racing revocation never resurrects a session.
func TestRevokeRacesCreateAndValidate(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	toks := make([]sessions.Token, 8)
	for i := range toks {
		toks[i] = f.create(t, "alice")
	}
	var wg sync.WaitGroup
	for _, tok := range toks {
		wg.Go(func() {
			for range 20 {
				_, _ = f.st.Validate(context.Background(), string(tok))
			}
		})
	}
	late := make(chan sessions.Token, 4)
	for range 4 {
		wg.Go(func() {
			tok, _, err := f.st.Create(context.Background(), "alice")
			if err != nil {
				t.Error(err)
			}
			late <- tok
		})
	}
	if _, err := f.st.RevokeUser(t.Context(), "alice"); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(late)
	for _, tok := range toks {
		_, err := f.st.Validate(t.Context(), string(tok))
		wantInvalid(t, err)
	}
	// A session created concurrently is either revoked (file gone) or alive (file there),
	// never alive without its file.
	for tok := range late {
		_, err := f.st.Validate(t.Context(), string(tok))
		if (err == nil) != exists(f.file(tok)) {
			t.Errorf("session valid=%v but file exists=%v", err == nil, exists(f.file(tok)))
		}
	}
}

// Logout racing validations of the same token never leaves the token valid.
func TestDestroyRacesValidate(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	for i := range 20 {
		// Written by hand, so it is not cached and validations read the file.
		tok := sessions.Token(fmt.Sprintf("%064x", i+1))
		writeFile(t, f, string(tok), `{"id":"x","userId":"alice","expiresAt":"2026-06-02T00:00:00.000Z"}`)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() { _, _ = f.st.Validate(context.Background(), string(tok)) })
		}
		if err := f.st.Destroy(t.Context(), string(tok)); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		_, err := f.st.Validate(t.Context(), string(tok))
		wantInvalid(t, err)
	}
}

func TestCleanExpired(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	oldTok := f.create(t, "alice")
	f.clock.Advance(30 * time.Minute)
	newTok := f.create(t, "bob")
	bad := writeFile(t, f, strings.Repeat("ab", 32), "{")
	tmp := filepath.Join(f.dir, ".sessions", ".x.json.tmp.0011223344556677")
	if err := os.WriteFile(tmp, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(tmp, old, old); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(31 * time.Minute) // alice's session expired, bob's not
	n, err := f.st.CleanExpired(t.Context())
	if err != nil || n != 2 {
		t.Fatalf("CleanExpired = %d, %v; want 2 (one expired, one malformed)", n, err)
	}
	if exists(f.file(oldTok)) || exists(bad) {
		t.Error("expired or malformed file kept")
	}
	if !exists(f.file(newTok)) {
		t.Error("live session removed")
	}
	if exists(tmp) {
		t.Error("stale temp file kept")
	}
}

// The background sweep removes expired files without any request, and stops on Close.
func TestSweep(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	st, err := sessions.Open(sessions.Options{Root: f.root, Dir: "swept", Duration: time.Minute, SweepInterval: time.Millisecond, NoSync: true, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	tok, _, err := st.Create(t.Context(), "alice")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(f.dir, "swept", sessions.HashToken(string(tok))+".json")
	f.clock.Advance(time.Hour)
	deadline := time.Now().Add(10 * time.Second)
	for exists(p) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if exists(p) {
		t.Error("sweep did not remove the expired file")
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatalf("second Close = %v", err)
	}
}

func TestOptions(t *testing.T) {
	t.Parallel()
	t.Run("absolute folder", func(t *testing.T) {
		t.Parallel()
		dir := filepath.Join(t.TempDir(), "elsewhere", "sessions")
		st, err := sessions.Open(sessions.Options{Dir: dir, SweepInterval: -1, NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		tok, _, err := st.Create(t.Context(), "alice")
		if err != nil {
			t.Fatal(err)
		}
		if !exists(filepath.Join(dir, sessions.HashToken(string(tok))+".json")) {
			t.Error("session file not in the absolute folder")
		}
		if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
			t.Errorf("folder mode = %v", fi.Mode().Perm())
		}
	})
	t.Run("escaping folder", func(t *testing.T) {
		t.Parallel()
		f := open(t, nil)
		_, err := sessions.Open(sessions.Options{Root: f.root, Dir: "../outside"})
		if content.KindOf(err) != content.Invalid {
			t.Errorf("err = %v, want Invalid", err)
		}
	})
	t.Run("read-only", func(t *testing.T) {
		t.Parallel()
		f := open(t, nil)
		tok := f.create(t, "alice")
		ro, err := sessions.Open(sessions.Options{Root: f.root, ReadOnly: true, Now: f.clock.Now})
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close()
		if _, _, err := ro.Create(t.Context(), "alice"); content.KindOf(err) != content.Forbidden {
			t.Errorf("Create on read-only = %v, want Forbidden", err)
		}
		if _, err := ro.Validate(t.Context(), string(tok)); err != nil {
			t.Errorf("read-only store cannot validate: %v", err)
		}
		f.clock.Advance(2 * time.Hour)
		_, err = ro.Validate(t.Context(), string(tok))
		wantInvalid(t, err)
		if !exists(f.file(tok)) {
			t.Error("read-only store removed a file")
		}
	})
}

func TestCreateNeedsUser(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	if _, _, err := f.st.Create(t.Context(), ""); content.KindOf(err) != content.Invalid {
		t.Errorf("err = %v, want Invalid", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, _, err := f.st.Create(ctx, "alice"); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestTokenLogValueHidesToken(t *testing.T) {
	t.Parallel()
	tok := sessions.Token(strings.Repeat("a", 64))
	if v := tok.LogValue().String(); strings.Contains(v, "aaaa") {
		t.Errorf("LogValue = %q", v)
	}
}

func TestConcurrentCreates(t *testing.T) {
	t.Parallel()
	f := open(t, func(o *sessions.Options) { o.MaxPerUser = -1 }) // the cap has its own tests
	var wg sync.WaitGroup
	toks := make([]sessions.Token, 32)
	for i := range toks {
		wg.Go(func() {
			tok, _, err := f.st.Create(context.Background(), "alice")
			if err != nil {
				t.Error(err)
			}
			toks[i] = tok
		})
	}
	wg.Wait()
	ents, err := os.ReadDir(filepath.Join(f.dir, ".sessions"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != len(toks) {
		t.Errorf("%d files, want %d", len(ents), len(toks))
	}
	err = fs.WalkDir(os.DirFS(filepath.Join(f.dir, ".sessions")), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(filepath.Join(f.dir, ".sessions", p))
		if err != nil {
			return err
		}
		if !json.Valid(b) {
			t.Errorf("%s is not valid JSON", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkValidate measures validating a cached session: no scrypt, no file I/O.
func BenchmarkValidate(b *testing.B) {
	dir := b.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	st, err := sessions.Open(sessions.Options{Root: root, SweepInterval: -1, NoSync: true, RecheckAfter: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	tok, _, err := st.Create(context.Background(), "alice")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := st.Validate(ctx, string(tok)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// valid reports whether tok still validates.
func (f *fixture) valid(t *testing.T, tok sessions.Token) bool {
	t.Helper()
	_, err := f.st.Validate(t.Context(), string(tok))
	if err != nil && content.KindOf(err) != content.Unauthenticated {
		t.Fatal(err)
	}
	return err == nil
}

// A user has at most MaxPerUser sessions: logging in once more ends the oldest one, and only
// that user's.
func TestSessionCapPerUser(t *testing.T) {
	t.Parallel()
	f := open(t, func(o *sessions.Options) { o.MaxPerUser = 3 })
	var alice []sessions.Token
	bob := f.create(t, "bob")
	for range 5 {
		alice = append(alice, f.create(t, "alice"))
		f.clock.Advance(time.Second)
	}
	for i, tok := range alice {
		if want := i >= 2; f.valid(t, tok) != want || exists(f.file(tok)) != want {
			t.Errorf("session %d: valid %v, file %v; want %v", i, f.valid(t, tok), exists(f.file(tok)), want)
		}
	}
	if !f.valid(t, bob) {
		t.Error("another user's session ended")
	}
	// A session that ended by logout or expiry leaves room.
	if err := f.st.Destroy(t.Context(), string(alice[2])); err != nil {
		t.Fatal(err)
	}
	late := f.create(t, "alice")
	if !f.valid(t, alice[3]) || !f.valid(t, alice[4]) || !f.valid(t, late) {
		t.Error("a session ended although a logout made room")
	}
	f.clock.Advance(time.Hour - 3*time.Second) // alice[3] and alice[4] expire, late not yet
	fresh := []sessions.Token{f.create(t, "alice"), f.create(t, "alice")}
	if !f.valid(t, late) || !f.valid(t, fresh[0]) || !f.valid(t, fresh[1]) {
		t.Error("a live session ended although expired ones made room")
	}
	// After revocation the count starts again.
	if _, err := f.st.RevokeUser(t.Context(), "alice"); err != nil {
		t.Fatal(err)
	}
	again := []sessions.Token{f.create(t, "alice"), f.create(t, "alice"), f.create(t, "alice")}
	for i, tok := range again {
		if !f.valid(t, tok) {
			t.Errorf("session %d after revocation ended", i)
		}
	}
}

// The cap counts the sessions already in the folder when the store opens, oldest first, and
// applies by default.
func TestSessionCapCountsExistingFiles(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	var old []string
	for i := range sessions.DefaultMaxPerUser {
		tok := fmt.Sprintf("%064x", i+1)
		exp := f.clock.Now().Add(time.Duration(i+1) * time.Minute).Format(sessions.TimeFormat)
		writeFile(t, f, tok, `{"id":"x`+fmt.Sprint(i)+`","userId":"alice","expiresAt":"`+exp+`"}`)
		old = append(old, tok)
	}
	st, err := sessions.Open(sessions.Options{Root: f.root, Duration: time.Hour, SweepInterval: -1, NoSync: true, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tok, _, err := st.Create(t.Context(), "alice")
	if err != nil {
		t.Fatal(err)
	}
	if exists(f.file(sessions.Token(old[0]))) {
		t.Error("the oldest existing session was kept beyond the cap")
	}
	for _, o := range append(old[1:], string(tok)) {
		if _, err := st.Validate(t.Context(), o); err != nil {
			t.Errorf("session %s… ended: %v", o[:8], err)
		}
	}
}

func TestSessionCapOff(t *testing.T) {
	t.Parallel()
	f := open(t, func(o *sessions.Options) { o.MaxPerUser = -1 })
	var toks []sessions.Token
	for range sessions.DefaultMaxPerUser + 5 {
		toks = append(toks, f.create(t, "alice"))
	}
	for i, tok := range toks {
		if !f.valid(t, tok) {
			t.Errorf("session %d ended without a cap", i)
		}
	}
}

// Parallel logins of one user end with exactly MaxPerUser sessions, every one of them valid.
func TestSessionCapConcurrent(t *testing.T) {
	t.Parallel()
	f := open(t, func(o *sessions.Options) { o.MaxPerUser = 5 })
	toks := make([]sessions.Token, 40)
	var wg sync.WaitGroup
	for i := range toks {
		wg.Go(func() {
			tok, _, err := f.st.Create(context.Background(), "alice")
			if err != nil {
				t.Error(err)
			}
			toks[i] = tok
		})
	}
	wg.Wait()
	ents, err := os.ReadDir(filepath.Join(f.dir, ".sessions"))
	if err != nil {
		t.Fatal(err)
	}
	live := 0
	for _, tok := range toks {
		if f.valid(t, tok) {
			live++
		}
	}
	if len(ents) != 5 || live != 5 {
		t.Errorf("%d files and %d valid tokens, want 5 of each", len(ents), live)
	}
}

// Opening a writable store sweeps expired sessions at once, not only after the first interval.
func TestSweepAtStartUp(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	expired := writeFile(t, f, strings.Repeat("1a", 32), `{"id":"x","userId":"a","expiresAt":"2026-06-01T11:00:00.000Z"}`)
	live := writeFile(t, f, strings.Repeat("2b", 32), `{"id":"y","userId":"a","expiresAt":"2026-06-01T13:00:00.000Z"}`)
	st, err := sessions.Open(sessions.Options{Root: f.root, SweepInterval: time.Hour, NoSync: true, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil { // waits for the start-up sweep
		t.Fatal(err)
	}
	if exists(expired) {
		t.Error("start-up sweep kept the expired session")
	}
	if !exists(live) {
		t.Error("start-up sweep removed a live session")
	}
}
