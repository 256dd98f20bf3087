package sitegen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/password"
	"cms/content/query"
	"cms/content/sitegen"
	"cms/content/validate"
)

func TestGenerateLoads(t *testing.T) {
	t.Parallel()
	const n = 60
	dir := t.TempDir()
	opts := sitegen.Options{Seed: 7}
	if err := sitegen.Generate(dir, n, opts); err != nil {
		t.Fatal(err)
	}
	st := contenttest.OpenStore(t, dir)
	if p := st.Problems(); len(p) > 0 {
		t.Fatalf("store problems: %+v", p)
	}

	all, total, err := st.Entries(sitegen.Collection, query.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if total != n || len(all) != n {
		t.Fatalf("Entries: total %d, len %d, want %d", total, len(all), n)
	}
	wantPublished := 0
	for i := range n {
		if sitegen.Post(i, opts).Published {
			wantPublished++
		}
	}
	_, published, err := st.Entries(sitegen.Collection, query.Query{Status: content.StatusPublished})
	if err != nil {
		t.Fatal(err)
	}
	if published != wantPublished {
		t.Errorf("published entries = %d, want %d (from Post)", published, wantPublished)
	}
	if wantPublished == 0 || wantPublished == n {
		t.Errorf("published = %d of %d: want a mix of statuses", wantPublished, n)
	}

	bp, err := st.Blueprint(content.BlueprintCollections, sitegen.Collection)
	if err != nil {
		t.Fatal(err)
	}
	if p := validate.CheckBlueprint(bp, content.BlueprintCollections); len(p) > 0 {
		t.Errorf("posts blueprint problems: %+v", p)
	}
	for i := range n {
		m := sitegen.Post(i, opts)
		e, err := st.Entry(sitegen.Collection, m.Slug)
		if err != nil {
			t.Fatalf("entry %d (%s): %v", i, m.Slug, err)
		}
		if e.Title != m.Title || e.Status != m.Status() {
			t.Errorf("entry %s: title %q status %q, want %q %q", m.Slug, e.Title, e.Status, m.Title, m.Status())
		}
		if got, _ := e.Data.String("category"); got != m.Category {
			t.Errorf("entry %s: category %q, want %q", m.Slug, got, m.Category)
		}
		if got := e.Data.Value("rating"); got != int64(m.Rating) {
			t.Errorf("entry %s: rating %#v, want %d", m.Slug, got, m.Rating)
		}
		if len(e.Content) < 1500 || len(e.Content) > 3500 {
			t.Errorf("entry %s: body is %d bytes, want about 2 KB", m.Slug, len(e.Content))
		}
		vals := e.Data.Clone()
		vals.Set("title", e.Title)
		fe, err := validate.Values(t.Context(), bp.Fields(), vals, validate.Options{})
		if err != nil || len(fe) > 0 {
			t.Errorf("entry %s does not validate against its blueprint: %v %v", m.Slug, fe, err)
		}
		// What the store writes back is what the generator wrote: the generated form is canonical.
		raw, err := os.ReadFile(filepath.Join(dir, "content", "collections", sitegen.Collection, m.Slug+".md"))
		if err != nil {
			t.Fatal(err)
		}
		if i < 5 && !bytes.Equal(raw, sitegen.EntryFile(i, opts)) {
			t.Errorf("entry %s on disk differs from EntryFile", m.Slug)
		}
	}

	u, err := st.UserByEmail(sitegen.DefaultEmail)
	if err != nil {
		t.Fatal(err)
	}
	if !password.Verify(sitegen.DefaultPassword, u.PasswordHash) {
		t.Error("admin password does not verify")
	}
	if len(u.Roles) != 1 || u.Roles[0] != "admin" {
		t.Errorf("admin roles = %v", u.Roles)
	}
	if _, err := st.Role("admin"); err != nil {
		t.Errorf("admin role: %v", err)
	}
}

func TestContactForm(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := sitegen.Generate(dir, 0, sitegen.Options{}); err != nil {
		t.Fatal(err)
	}
	st := contenttest.OpenStore(t, dir)
	if _, err := st.FormDef(sitegen.Form); err != nil {
		t.Fatal(err)
	}
	bp, err := st.Blueprint(content.BlueprintForms, sitegen.Form)
	if err != nil {
		t.Fatal(err)
	}
	if p := validate.CheckBlueprint(bp, content.BlueprintForms); len(p) > 0 {
		t.Errorf("contact blueprint problems: %+v", p)
	}
	if got := len(bp.Fields()); got != 10 {
		t.Errorf("contact form has %d fields, want 10", got)
	}
	for i := range 6 {
		sub := sitegen.ContactSubmission(i)
		if len(sub) != 10 {
			t.Fatalf("submission has %d fields, want 10", len(sub))
		}
		m := content.NewMap(len(sub))
		for k, v := range sub {
			switch x := v.(type) {
			case int:
				m.Set(k, int64(x))
			default:
				m.Set(k, x)
			}
		}
		fe, err := validate.Values(t.Context(), bp.Fields(), m, validate.Options{})
		if err != nil || len(fe) > 0 {
			t.Errorf("submission %d does not validate: %v %v", i, fe, err)
		}
	}
}

func TestGeneratePassword(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := sitegen.Generate(dir, 1, sitegen.Options{Email: "Someone@Example.com", Password: "another-password-42"}); err != nil {
		t.Fatal(err)
	}
	u, err := contenttest.OpenStore(t, dir).UserByEmail("someone@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if u.PasswordHash == sitegen.DefaultPasswordHash || !password.Verify("another-password-42", u.PasswordHash) {
		t.Error("the chosen password is not the one stored")
	}
}

func TestDeterministic(t *testing.T) {
	t.Parallel()
	a, b := sitegen.Options{Seed: 3}, sitegen.Options{Seed: 4}
	for i := range 20 {
		if !bytes.Equal(sitegen.EntryFile(i, a), sitegen.EntryFile(i, a)) {
			t.Fatalf("entry %d differs between two calls", i)
		}
	}
	if bytes.Equal(sitegen.EntryFile(1, a), sitegen.EntryFile(1, b)) {
		t.Error("different seeds give the same entry")
	}
	seen := map[string]bool{}
	for i := range 2000 {
		s := sitegen.Slug(i, a)
		if !content.ValidHandle(s) {
			t.Fatalf("slug %q is not a valid handle", s)
		}
		if seen[s] {
			t.Fatalf("slug %q repeats", s)
		}
		seen[s] = true
	}
}

func TestGenerateErrors(t *testing.T) {
	t.Parallel()
	if err := sitegen.Generate(t.TempDir(), -1, sitegen.Options{PasswordHash: "x"}); err == nil {
		t.Error("negative n: no error")
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := sitegen.Generate(file, 1, sitegen.Options{PasswordHash: "x"}); err == nil {
		t.Error("dir is a file: no error")
	}
}

func BenchmarkEntryFile(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		_ = sitegen.EntryFile(i, sitegen.Options{})
	}
}

func BenchmarkGenerate1000(b *testing.B) {
	for b.Loop() {
		if err := sitegen.Generate(b.TempDir(), 1000, sitegen.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
