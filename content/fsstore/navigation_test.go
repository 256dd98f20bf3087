package fsstore_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/content/navtree"
)

func TestNavigationRoundTrip(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- content/navigation/main.yaml --
items:
  - label: Home
    url: /
    icon: house
  - just a string
  - label: Blog
    external: "true"
    children:
      - label: Post
        entry: blog/post
        children: not-a-list
`)
	st := contenttest.OpenStore(t, dir)
	tree, err := st.Navigation("main")
	if err != nil || !tree.Exists {
		t.Fatalf("Navigation = %+v, %v", tree, err)
	}
	items := tree.Items
	if len(items) != 3 || items[0].Extra.Value("icon") != "house" || items[1].Label != "" || !items[2].External ||
		items[2].Children[0].Entry != "blog/post" || items[2].Children[0].Children != nil {
		t.Fatalf("items = %+v", items)
	}
	if d := navtree.Depth(items); d != 1 {
		t.Errorf("NavDepth = %d, want 1", d)
	}
	if _, err := st.SaveNavigation("main", items, "stale"); content.KindOf(err) != content.Conflict {
		t.Errorf("stale hash err = %v, want Conflict", err)
	}
	if _, err := st.SaveNavigation("main", items, tree.Hash); err != nil {
		t.Fatal(err)
	}
	want := `items:
  - label: Home
    url: /
    icon: house
  - label: ""
  - label: Blog
    external: true
    children:
      - label: Post
        entry: blog/post
`
	if got := readFile(t, dir, "content/navigation/main.yaml"); got != want {
		t.Errorf("file =\n%s\nwant\n%s", got, want)
	}
	empty, err := st.Navigation("none")
	if err != nil || empty.Exists || len(empty.Items) != 0 {
		t.Errorf("missing navigation = %+v, %v", empty, err)
	}
	if _, err := st.Navigation("a/b"); !content.IsNotFound(err) {
		t.Errorf("invalid handle err = %v, want NotFound", err)
	}
}

func TestNavDepth(t *testing.T) {
	t.Parallel()
	leaf := content.NavItem{Label: "x"}
	one := content.NavItem{Label: "y", Children: []content.NavItem{leaf}}
	two := content.NavItem{Label: "z", Children: []content.NavItem{leaf, one}}
	for _, c := range []struct {
		items []content.NavItem
		want  int
	}{{nil, 0}, {[]content.NavItem{leaf}, 0}, {[]content.NavItem{leaf, one}, 1}, {[]content.NavItem{two, leaf}, 2}} {
		if got := navtree.Depth(c.items); got != c.want {
			t.Errorf("NavDepth(%v) = %d, want %d", c.items, got, c.want)
		}
	}
}

// TestNavURLAndEntryLoggedOncePerVersion: items with both a url and an entry (a hand edit) are
// read as they are and logged once per version of the file, again after the file changes.
func TestNavURLAndEntryLoggedOncePerVersion(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- content/navigation/main.yaml --
items:
  - label: Both
    url: /x
    entry: pages/x
`)
	var logs bytes.Buffer
	var mu sync.Mutex
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: fsstore.WatchNone, NoSync: true,
		Log: slog.New(slog.NewTextHandler(lockedWriter{&mu, &logs}, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return strings.Count(logs.String(), "both url and entry")
	}
	read := func(want ...string) {
		t.Helper()
		tree, err := st.Navigation("main")
		if err != nil {
			t.Fatal(err)
		}
		if got := navtree.URLAndEntry(tree.Items); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("NavURLAndEntry = %v, want %v", got, want)
		}
	}
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "content/navigation/main.yaml"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read("items[0]")
	read("items[0]")
	if n := count(); n != 1 {
		t.Fatalf("logged %d times for one version, want 1", n)
	}
	write("items:\n  - label: H\n    children:\n      - {label: Both, url: /y, entry: pages/y}\n")
	read("items[0].children[0]")
	write("items:\n  - label: Fixed\n    entry: pages/y\n")
	read()
	write("items:\n  - label: Both\n    url: /x\n    entry: pages/x\n")
	read("items[0]")
	if n := count(); n != 3 {
		t.Errorf("logged %d times over three versions with both, want 3:\n%s", n, logs.String())
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
