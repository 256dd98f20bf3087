package fsstore_test

import (
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
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
	if d := fsstore.NavDepth(items); d != 1 {
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
		if got := fsstore.NavDepth(c.items); got != c.want {
			t.Errorf("NavDepth(%v) = %d, want %d", c.items, got, c.want)
		}
	}
}
