package sessions_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/content/sessions"
)

func tokenRoles() roleMap {
	return roleMap{
		"reader": {Handle: "reader", Permissions: []content.Permission{{Resource: "entries", Actions: []string{"view"}}}},
		"writer": {Handle: "writer", Permissions: []content.Permission{{Resource: "entries", Actions: []string{"view", "edit"}}}},
		"admin":  {Handle: "admin", Permissions: []content.Permission{{Resource: "entries", Actions: []string{"view"}}}},
	}
}

// TestAPITokenLifeCycle: create, use (acting with the role), last use recorded at most once a
// minute, expiry by the injected clock, revocation at once; only the hash is on disk, mode 0600.
func TestAPITokenLifeCycle(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	users := userMap{"ed": {ID: "ed", Roles: []string{"writer"}}}
	res, err := sessions.NewResolver(f.st, users, tokenRoles())
	if err != nil {
		t.Fatal(err)
	}
	tok, rec, err := f.st.CreateAPIToken(t.Context(), "Frontend build", "reader", "ed", 48*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tok, "cms_tok_"+rec.ID+"_") || rec.Hash == "" || rec.ExpiresAt != "2026-06-03T12:00:00.000Z" {
		t.Fatalf("token %q, record %+v", tok, rec)
	}

	// At rest: the hash, never the token; owner-only permissions.
	file := filepath.Join(f.dir, ".sessions", "tokens", "api-tokens.json")
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	secret := tok[len(tok)-64:]
	if strings.Contains(string(raw), secret) || !strings.Contains(string(raw), rec.Hash) {
		t.Fatalf("token file holds the secret or lacks the hash:\n%s", raw)
	}
	if info, _ := os.Stat(file); info.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v, want 0600", info.Mode().Perm())
	}
	if info, _ := os.Stat(filepath.Dir(file)); info.Mode().Perm() != 0o700 {
		t.Errorf("token folder mode %v, want 0700", info.Mode().Perm())
	}

	// Use: the role's permissions, a principal that is not the creator.
	p, err := res.Principal(t.Context(), tok, false)
	if err != nil {
		t.Fatal(err)
	}
	if p.TokenID != rec.ID || p.User.ID != "token:"+rec.ID || !p.Can("entries", "view", "blog") || p.Can("entries", "edit", "blog") {
		t.Fatalf("principal %+v (user %+v)", p, p.User)
	}
	if _, err := res.Principal(t.Context(), tok, true); !isKind(err, content.Unauthenticated) {
		t.Errorf("token in a cookie: %v, want unauthenticated", err)
	}
	flipped := []byte(tok)
	flipped[len(flipped)-1] ^= 1 // another hex digit
	for _, bad := range []string{string(flipped), tok + "0", "cms_tok_" + rec.ID, strings.ToUpper(tok)} {
		if _, err := res.Principal(t.Context(), bad, false); !isKind(err, content.Unauthenticated) {
			t.Errorf("altered token %q: %v, want unauthenticated", bad, err)
		}
	}

	// Last use: written on first use, then not again within a minute.
	list, _ := f.st.APITokens()
	if len(list) != 1 || list[0].LastUsedAt != "2026-06-01T12:00:00.000Z" {
		t.Fatalf("list %+v", list)
	}
	before, _ := os.ReadFile(file)
	f.clock.Advance(30 * time.Second)
	if _, err := res.Principal(t.Context(), tok, false); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Error("a second use within a minute rewrote the token file")
	}
	if list, _ := f.st.APITokens(); list[0].LastUsedAt != "2026-06-01T12:00:30.000Z" {
		t.Errorf("listed last use %q, want the latest use", list[0].LastUsedAt)
	}
	f.clock.Advance(time.Minute)
	if _, err := res.Principal(t.Context(), tok, false); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(file); !strings.Contains(string(after), "2026-06-01T12:01:30.000Z") {
		t.Errorf("a use a minute later was not written:\n%s", after)
	}

	// Expiry.
	f.clock.Advance(48 * time.Hour)
	if _, err := res.Principal(t.Context(), tok, false); !isKind(err, content.Unauthenticated) {
		t.Errorf("expired token: %v, want unauthenticated", err)
	}

	// Revocation, at once.
	tok2, rec2, err := f.st.CreateAPIToken(t.Context(), "CI", "reader", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.Principal(t.Context(), tok2, false); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.RevokeAPIToken(t.Context(), rec2.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := res.Principal(t.Context(), tok2, false); !isKind(err, content.Unauthenticated) {
		t.Errorf("revoked token: %v, want unauthenticated", err)
	}
	if _, err := f.st.RevokeAPIToken(t.Context(), rec2.ID); !content.IsNotFound(err) {
		t.Errorf("revoking twice: %v, want not found", err)
	}
}

// TestAPITokenBoundByCreator: a token never does more than its creator can now: a creator who
// lost a permission of the role, or was deleted, disables the token; the admin role needs an
// administrator.
func TestAPITokenBoundByCreator(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	ed := &content.User{ID: "ed", Roles: []string{"writer"}}
	users := userMap{"ed": ed}
	res, err := sessions.NewResolver(f.st, users, tokenRoles())
	if err != nil {
		t.Fatal(err)
	}
	tok, _, err := f.st.CreateAPIToken(t.Context(), "t", "writer", "ed", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.Principal(t.Context(), tok, false); err != nil {
		t.Fatal(err)
	}
	ed.Roles = []string{"reader"} // lost entries:edit
	if _, err := res.Principal(t.Context(), tok, false); !isKind(err, content.Unauthenticated) {
		t.Errorf("creator lost a permission: %v, want unauthenticated", err)
	}
	ed.Roles = []string{"writer"}
	delete(users, "ed")
	if _, err := res.Principal(t.Context(), tok, false); !isKind(err, content.Unauthenticated) {
		t.Errorf("creator deleted: %v, want unauthenticated", err)
	}
	users["ed"] = ed
	admTok, _, err := f.st.CreateAPIToken(t.Context(), "t", "admin", "ed", 0)
	if err != nil {
		t.Fatal(err)
	}
	// ed holds every grant of "admin" (entries:view) but not the role itself.
	if _, err := res.Principal(t.Context(), admTok, false); !isKind(err, content.Unauthenticated) {
		t.Errorf("admin token of a non-admin: %v, want unauthenticated", err)
	}
}

// TestAPITokenLimits: bad names, roles and lifetimes are refused with the field named, and a
// read-only store refuses to create.
func TestAPITokenLimits(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	for _, tc := range []struct {
		name, role string
		ttl        time.Duration
		field      string
	}{
		{"", "reader", 0, "name"},
		{strings.Repeat("x", 101), "reader", 0, "name"},
		{"a\nb", "reader", 0, "name"},
		{"ok", "../x", 0, "role"},
		{"ok", "reader", 367 * 24 * time.Hour, "expiresIn"},
		{"ok", "reader", time.Second, "expiresIn"},
	} {
		_, _, err := f.st.CreateAPIToken(t.Context(), tc.name, tc.role, "", tc.ttl)
		ce, ok := errors.AsType[*content.Error](err)
		if !ok || ce.Kind != content.Invalid || len(ce.Fields[tc.field]) == 0 {
			t.Errorf("%q %q %v: %v, want invalid %s", tc.name, tc.role, tc.ttl, err, tc.field)
		}
	}
	ro := open(t, func(o *sessions.Options) { o.ReadOnly = true })
	if _, _, err := ro.st.CreateAPIToken(t.Context(), "x", "reader", "", 0); err == nil {
		t.Error("a read-only store created a token")
	}
}

func isKind(err error, k content.Kind) bool { return err != nil && content.KindOf(err) == k }

// TestAPITokenRevokedByAnotherProcess: a server notices a revocation by the CLI (another store
// on the same folder) at the next file check, and never writes the revoked token back.
func TestAPITokenRevokedByAnotherProcess(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	cli, err := sessions.Open(sessions.Options{Root: f.root, SweepInterval: -1, NoSync: true, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	tok, rec, err := cli.CreateAPIToken(t.Context(), "CI", "reader", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.ValidateAPIToken(t.Context(), tok); err != nil {
		t.Fatal(err)
	}
	if _, err := cli.RevokeAPIToken(t.Context(), rec.ID); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(sessions.DefaultRecheckAfter)
	if _, err := f.st.ValidateAPIToken(t.Context(), tok); !isKind(err, content.Unauthenticated) {
		t.Errorf("after the CLI revoked it: %v, want unauthenticated", err)
	}
	if list, _ := cli.APITokens(); len(list) != 0 {
		t.Errorf("the revoked token came back: %+v", list)
	}
}

// BenchmarkValidateAPIToken is BenchmarkValidate for an API token (one mutex, one SHA-256, no
// I/O between file checks): go test -run XXX -bench Validate -benchtime 100000x ./content/sessions/
func BenchmarkValidateAPIToken(b *testing.B) {
	root, err := os.OpenRoot(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	st, err := sessions.Open(sessions.Options{Root: root, SweepInterval: -1, NoSync: true, RecheckAfter: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	tok, _, err := st.CreateAPIToken(b.Context(), "bench", "reader", "", 0)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := st.ValidateAPIToken(b.Context(), tok); err != nil {
				b.Fatal(err)
			}
		}
	})
}
