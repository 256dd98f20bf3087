package preview_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/content/preview"
)

func root(t *testing.T) (*os.Root, string) {
	t.Helper()
	dir := t.TempDir()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, dir
}

// TestPreviewTokenScopeAndExpiry: a token opens exactly its entry until it expires; anything
// altered, another entry, or a key of another site opens nothing.
func TestPreviewTokenScopeAndExpiry(t *testing.T) {
	t.Parallel()
	r, dir := root(t)
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s := preview.New(r, false, clock)
	tok, exp, err := s.Sign("blog", "plan", 30*time.Minute)
	if err != nil || !exp.Equal(now.Add(30*time.Minute)) {
		t.Fatalf("Sign = %q %v %v", tok, exp, err)
	}
	if err := s.Verify(tok, "blog", "plan"); err != nil {
		t.Fatalf("own entry: %v", err)
	}
	other, _ := root(t)
	for name, check := range map[string]func() error{
		"another slug":               func() error { return s.Verify(tok, "blog", "other") },
		"another collection":         func() error { return s.Verify(tok, "pages", "plan") },
		"slug moved into collection": func() error { return s.Verify(tok, "blog\x00plan", "") },
		"later expiry":               func() error { return s.Verify(strings.Replace(tok, ".", ".9", 1), "blog", "plan") },
		"altered signature":          func() error { return s.Verify(tok[:len(tok)-2]+"AA", "blog", "plan") },
		"empty":                      func() error { return s.Verify("", "blog", "plan") },
		"another site's key": func() error {
			_, _, _ = preview.New(other, false, clock).Sign("x", "y", 0)
			return preview.New(other, false, clock).Verify(tok, "blog", "plan")
		},
	} {
		if err := check(); content.KindOf(err) != content.Unauthenticated {
			t.Errorf("%s: %v, want unauthenticated", name, err)
		}
	}
	now = now.Add(30 * time.Minute)
	if err := s.Verify(tok, "blog", "plan"); content.KindOf(err) != content.Unauthenticated {
		t.Errorf("expired: %v, want unauthenticated", err)
	}
	info, err := os.Stat(filepath.Join(dir, preview.KeyFile))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("key file: %v %v, want mode 0600", info, err)
	}
	// A long lifetime is capped.
	if _, exp, _ := s.Sign("blog", "plan", 48*time.Hour); !exp.Equal(now.Add(preview.MaxTTL)) {
		t.Errorf("expiry %v, want capped at %v", exp, preview.MaxTTL)
	}
}

// TestPreviewReadOnly: a read-only deployment never creates the key; it verifies with the one a
// writer created, even one created after it started.
func TestPreviewReadOnly(t *testing.T) {
	t.Parallel()
	r, _ := root(t)
	ro := preview.New(r, true, nil)
	if _, _, err := ro.Sign("blog", "x", 0); content.KindOf(err) != content.Unavailable {
		t.Fatalf("read-only Sign without a key: %v, want unavailable", err)
	}
	if err := ro.Verify("v1.99999999999.AAAA", "blog", "x"); content.KindOf(err) != content.Unavailable {
		t.Fatalf("read-only Verify without a key: %v, want unavailable", err)
	}
	tok, _, err := preview.New(r, false, nil).Sign("blog", "x", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := ro.Verify(tok, "blog", "x"); err != nil {
		t.Errorf("read-only Verify with the writer's key: %v", err)
	}
}

// FuzzVerify: no input panics, and nothing but the signed token opens the entry.
func FuzzVerify(f *testing.F) {
	r, err := os.OpenRoot(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	defer r.Close()
	s := preview.New(r, false, nil)
	tok, _, err := s.Sign("blog", "plan", 0)
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{tok, "", "v1..", "v1.1.", "v1.-1.AAAA", "v2." + tok[3:], tok + "=", strings.Repeat("v1.", 50)} {
		f.Add(seed, "blog", "plan")
	}
	f.Fuzz(func(t *testing.T, token, collection, slug string) {
		err := s.Verify(token, collection, slug)
		if err == nil && (token != tok || collection != "blog" || slug != "plan") {
			t.Fatalf("Verify(%q, %q, %q) accepted", token, collection, slug)
		}
	})
}
