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
