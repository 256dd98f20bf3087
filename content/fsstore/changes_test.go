package fsstore_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
)

// changeLog collects what a store reports through Options.OnChange.
type changeLog struct {
	mu  sync.Mutex
	all []content.Change
}

func (l *changeLog) add(c content.Change) { l.mu.Lock(); l.all = append(l.all, c); l.mu.Unlock() }
func (l *changeLog) list() []content.Change {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.all)
}

func openReporting(t *testing.T, watch string) (string, *fsstore.Store, *changeLog) {
	t.Helper()
	dir := contenttest.WriteSite(t, site+"-- content/globals/site.yaml --\nname: Site\n-- content/navigation/main.yaml --\nitems: []\n")
	l := &changeLog{}
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: watch, NoSync: true, Log: slog.New(slog.DiscardHandler), OnChange: l.add})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return dir, st, l
}

func TestWritesReportTheirPathsAndEditor(t *testing.T) {
	t.Parallel()
	_, st, l := openReporting(t, fsstore.WatchNone)
	alice := content.Editor{Name: "Alice", Email: "alice@example.com"}
	as := st.As(alice)

	e, err := as.CreateEntry(&content.Entry{Collection: "blog", Slug: "new", Title: "New", Data: content.NewMap(0)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = as.UpdateEntry("blog", "new", e.Hash, &content.Entry{Slug: "renamed", Title: "New", Data: content.NewMap(0)})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteEntry("blog", "renamed"); err != nil {
		t.Fatal(err)
	}
	data := content.NewMap(1)
	data.Set("name", "Renamed site")
	if _, err := as.SaveGlobal("site", data, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := as.SaveAsset("img/a.png", strings.NewReader("png"), false); err != nil {
		t.Fatal(err)
	}
	if _, err := as.MoveAsset("img/a.png", "img/b.png"); err != nil {
		t.Fatal(err)
	}
	// A refused write reports nothing.
	if _, err := as.CreateEntry(&content.Entry{Collection: "blog", Slug: "first", Data: content.NewMap(0)}); err == nil {
		t.Fatal("duplicate slug accepted")
	}

	want := []content.Change{
		{Paths: []string{"content/collections/blog/new.md"}, Message: "Created entry blog/new", Editor: alice},
		{Paths: []string{"content/collections/blog/new.md", "content/collections/blog/renamed.md"}, Message: "Renamed entry blog/new to blog/renamed", Editor: alice},
		{Paths: []string{"content/collections/blog/renamed.md"}, Message: "Deleted entry blog/renamed"},
		{Paths: []string{"content/globals/site.yaml"}, Message: "Updated global site", Editor: alice},
		{Paths: []string{"public/assets/img/a.png"}, Message: "Uploaded asset img/a.png", Editor: alice},
		{Paths: []string{"public/assets/img/a.png", "public/assets/img/b.png", "public/assets/img/a.png.meta.yaml", "public/assets/img/b.png.meta.yaml"}, Message: "Moved asset img/a.png to img/b.png", Editor: alice},
	}
	got := l.list()
	if len(got) != len(want) {
		t.Fatalf("got %d changes, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if !slices.Equal(got[i].Paths, want[i].Paths) || got[i].Message != want[i].Message || got[i].Editor != want[i].Editor || got[i].External {
			t.Errorf("change %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestHandEditsAreReportedOnceAsExternal(t *testing.T) {
	t.Parallel()
	dir, st, l := openReporting(t, fsstore.WatchNotify)
	if _, err := st.As(content.Editor{Name: "Alice", Email: "a@example.com"}).SaveNavigation("main", nil, ""); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "content/globals/site.yaml"), []byte("name: By hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool {
		for _, c := range l.list() {
			if c.External && slices.Equal(c.Paths, []string{"content/globals/site.yaml"}) {
				return true
			}
		}
		return false
	})
	for _, c := range l.list() {
		if c.External && slices.Contains(c.Paths, "content/navigation/main.yaml") {
			t.Errorf("the store's own write was reported again as external: %+v", c)
		}
		if c.External && c.Message != content.ExternalChangeMessage {
			t.Errorf("external change message = %q", c.Message)
		}
		for _, p := range c.Paths {
			if strings.HasPrefix(filepath.Base(p), ".") {
				t.Errorf("temp file reported: %q", p)
			}
		}
	}
}

// Every other kind of write reports its files too: terms, settings, hooks, users, roles, asset
// metadata and deletions, submissions.
func TestEveryWriteReports(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site+"-- resources/taxonomies/tags.yaml --\ntitle: Tags\n-- resources/forms/contact.yaml --\ntitle: Contact\n")
	l := &changeLog{}
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: fsstore.WatchNone, NoSync: true, OnChange: l.add})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ed := content.Editor{Name: "Bob", Email: "bob@example.com"}
	s := st.As(ed)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	_, h, err := s.CreateTerm(&content.Term{Taxonomy: "tags", Slug: "go", Title: "Go", Data: content.NewMap(0)})
	must(err)
	_, _, err = s.UpdateTerm(&content.Term{Taxonomy: "tags", Slug: "go", Title: "Golang", Data: content.NewMap(0)}, h)
	must(err)
	must(s.DeleteTerm("tags", "go"))
	_, err = s.UpdateSettings("", func(cur *content.Map) (*content.Map, error) { cur.Set("site_name", "X"); return cur, nil })
	must(err)
	_, err = s.PutHook(content.Hook{Name: "isbn", SHA256: "00", Size: 4}, []byte("\x00asm"))
	must(err)
	must(s.DeleteHook("isbn"))
	must(s.CreateUser(&content.User{ID: "carol", Email: "carol@example.com", Name: "Carol", Roles: []string{}}))
	_, _, err = s.UpdateUser("carol", "", func(u *content.User) error { u.Name = "Caroline"; return nil })
	must(err)
	must(s.DeleteUser("carol"))
	must(s.CreateRole(&content.Role{Handle: "writer", Display: "Writer"}))
	_, _, err = s.UpdateRole("writer", "", func(r *content.Role) error { r.Display = "Writers"; return nil })
	must(err)
	must(s.DeleteRole("writer"))
	_, err = s.SaveAsset("a.txt", strings.NewReader("a"), false)
	must(err)
	meta := content.NewMap(1)
	meta.Set("alt", "A")
	must(s.SaveAssetMeta("a.txt", meta))
	must(s.DeleteAsset("a.txt"))
	sub, err := s.CreateSubmission("contact", content.NewMap(0), time.Time{})
	must(err)
	must(s.DeleteSubmission("contact", sub.ID))

	want := []string{
		"Created term tags/go", "Updated term tags/go", "Deleted term tags/go", "Updated settings",
		"Saved hook isbn", "Deleted hook isbn", "Created user carol", "Updated user carol", "Deleted user carol",
		"Created role writer", "Updated role writer", "Deleted role writer",
		"Uploaded asset a.txt", "Updated asset metadata a.txt", "Deleted asset a.txt",
		"Received submission contact/" + sub.ID, "Deleted submission contact/" + sub.ID,
	}
	got := l.list()
	if len(got) != len(want) {
		t.Fatalf("%d changes, want %d: %+v", len(got), len(want), got)
	}
	for i, c := range got {
		if c.Message != want[i] || c.Editor != ed || len(c.Paths) == 0 {
			t.Errorf("change %d = %+v, want %q by %v", i, c, want[i], ed)
		}
		for _, p := range c.Paths {
			if strings.HasPrefix(p, "/") || strings.Contains(p, "..") {
				t.Errorf("change %d: path %q is not site-relative", i, p)
			}
		}
	}
	if p := got[4].Paths; len(p) != 2 || p[0] != "resources/hooks/isbn.wasm" || p[1] != "resources/hooks/isbn.meta.yaml" {
		t.Errorf("hook paths = %v", p)
	}
}
