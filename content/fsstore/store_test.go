package fsstore_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/entryfile"
	"cms/content/fsstore"
	"cms/content/query"
	"cms/content/search"
)

const site = `
-- resources/collections/blog.yaml --
title: Blog
blueprint: blog
route: /blog/{year}/{slug}
dated: true
-- resources/collections/pages.yaml --
title: Pages
sortable: true
defaultStatus: published
-- resources/collections/broken.yaml --
title: [unclosed
-- resources/fieldsets/seo.yaml --
fields:
  - handle: meta_title
    field: {type: text, validate: [max:60]}
-- resources/blueprints/collections/blog.yaml --
tabs:
  main:
    display: Main
    fields:
      - handle: title
        field: {type: text, required: true}
      - import: seo
-- resources/roles/editor.yaml --
handle: editor
display: Editor
permissions:
  - resource: entries
    actions: [view, edit]
    scope: blog
-- content/collections/blog/first.md --
---
title: First
slug: first
status: published
createdAt: 2026-01-01T10:00:00.000Z
updatedAt: 2026-01-01T10:00:00.000Z
rating: 3
---

Body of first.
-- content/collections/blog/second.md --
---
title: Second
status: draft
createdAt: 2026-02-01T10:00:00.000Z
rating: 5
---

Draft body.
-- content/collections/blog/bad.md --
---
title: [oops
---
-- content/collections/pages/home.md --
---
title: Home
status: published
order: 2
---
-- content/collections/pages/about.md --
---
title: About
status: published
order: 1
---
-- users/alice.yaml --
id: alice
email: Alice@Example.com
name: Alice
password_hash: scrypt:00:00
roles: [editor]
`

func TestDefinitions(t *testing.T) {
	t.Parallel()
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, site))
	var handles []string
	for _, c := range st.Collections() {
		handles = append(handles, c.Handle)
	}
	if strings.Join(handles, ",") != "blog,pages" {
		t.Errorf("collections = %v, want blog,pages (broken.yaml left out)", handles)
	}
	pages, _ := st.Collection("pages")
	if pages.Blueprint != "pages" || pages.DefaultStatus != "published" || !pages.Sortable {
		t.Errorf("pages = %+v", pages)
	}
	bp, err := st.Blueprint("collections", "blog")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := bp.Field("meta_title"); !ok {
		t.Error("fieldset import was not resolved into the blueprint")
	}
	if _, err := st.Collection("nope"); !content.IsNotFound(err) {
		t.Errorf("unknown collection err = %v", err)
	}
	probs := st.Problems()
	files := map[string]bool{}
	for _, p := range probs {
		files[p.File] = true
		if !strings.Contains(p.Message, "line") {
			t.Errorf("problem %s has no line: %s", p.File, p.Message)
		}
	}
	for _, f := range []string{"resources/collections/broken.yaml", "content/collections/blog/bad.md"} {
		if !files[f] {
			t.Errorf("problem for %s not reported; got %v", f, probs)
		}
	}
	r, err := st.Role("editor")
	if err != nil || r.Permissions[0].Scope != "blog" {
		t.Errorf("role = %+v, %v", r, err)
	}
	u, err := st.UserByEmail(" alice@EXAMPLE.com ")
	if err != nil || u.ID != "alice" {
		t.Errorf("UserByEmail = %+v, %v", u, err)
	}
}

func TestEntriesQuery(t *testing.T) {
	t.Parallel()
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, site))
	tests := []struct {
		name      string
		coll      string
		q         query.Query
		want      string
		wantTotal int
	}{
		{"all statuses, dated default order newest first", "blog", query.Query{}, "second,first", 2},
		{"published only", "blog", query.Query{Status: content.StatusPublished}, "first", 1},
		{"sortable by order", "pages", query.Query{}, "about,home", 2},
		{"sort by custom field", "blog", query.Query{Sort: []query.SortKey{{Field: "rating"}}}, "first,second", 2},
		{"filter", "blog", query.Query{Filter: map[string]any{"rating": int64(5)}}, "second", 1},
		{"limit and offset", "pages", query.Query{Offset: 1, Limit: 1}, "home", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			es, total, err := st.Entries(tt.coll, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range es {
				got = append(got, e.Slug)
				if e.Content != "" {
					t.Errorf("indexed entry %s carries its body", e.Slug)
				}
			}
			if strings.Join(got, ",") != tt.want || total != tt.wantTotal {
				t.Errorf("got %v (total %d), want %s (total %d)", got, total, tt.want, tt.wantTotal)
			}
		})
	}
}

func TestEntryCRUD(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site)
	st := contenttest.OpenStore(t, dir)
	data := content.NewMap(2)
	data.Set("rating", int64(4))
	data.Set("tags", []any{"go"})
	created, err := st.CreateEntry(&content.Entry{Collection: "blog", Slug: "third", Title: "Third", Data: data, Content: "Hello"})
	if err != nil {
		t.Fatal(err)
	}
	if created.Status != content.StatusDraft || created.CreatedAt == "" || created.Hash == "" {
		t.Errorf("created = %+v", created)
	}
	if _, err := st.CreateEntry(&content.Entry{Collection: "blog", Slug: "third", Title: "Dup"}); content.KindOf(err) != content.Conflict {
		t.Errorf("duplicate create err = %v, want Conflict", err)
	}
	if _, err := st.CreateEntry(&content.Entry{Collection: "blog", Slug: "../x", Title: "Bad"}); content.KindOf(err) != content.Invalid {
		t.Errorf("traversal slug err = %v, want Invalid", err)
	}
	got, err := st.Entry("blog", "third")
	if err != nil || got.Content != "Hello" || got.Data.Value("rating") != int64(4) || got.Hash != created.Hash {
		t.Fatalf("read back = %+v, %v", got, err)
	}
	// pages default to published
	p, err := st.CreateEntry(&content.Entry{Collection: "pages", Slug: "contact", Title: "Contact"})
	if err != nil || p.Status != content.StatusPublished {
		t.Errorf("pages default status = %v, %v", p, err)
	}

	next := *got
	next.Title = "Third, edited"
	upd, err := st.UpdateEntry("blog", "third", got.Hash, &next)
	if err != nil {
		t.Fatal(err)
	}
	if upd.Hash == got.Hash || upd.CreatedAt != got.CreatedAt {
		t.Errorf("update = %+v", upd)
	}
	_, err = st.UpdateEntry("blog", "third", got.Hash, &next)
	var ce *content.Error
	if !errors.As(err, &ce) || ce.Kind != content.Conflict {
		t.Fatalf("stale update err = %v, want Conflict", err)
	}
	if d, ok := ce.Details.(fsstore.ConflictDetails); !ok || d.CurrentHash != upd.Hash || d.SubmittedHash != got.Hash {
		t.Errorf("conflict details = %+v", ce.Details)
	}
	// rename
	renamed := *upd
	renamed.Slug = "third-renamed"
	if _, err := st.UpdateEntry("blog", "third", upd.Hash, &renamed); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "content/collections/blog/third.md")); !os.IsNotExist(err) {
		t.Error("old file still exists after rename")
	}
	if _, err := st.EntryMeta("blog", "third-renamed"); err != nil {
		t.Errorf("renamed entry not indexed: %v", err)
	}
	if _, err := st.EntryMeta("blog", "third"); !content.IsNotFound(err) {
		t.Errorf("old slug still indexed: %v", err)
	}
	if err := st.DeleteEntry("blog", "third-renamed"); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteEntry("blog", "third-renamed"); !content.IsNotFound(err) {
		t.Errorf("second delete err = %v", err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "content/collections/blog"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp.") {
			t.Errorf("temp file left behind: %s", e.Name())
		}
	}
}

func TestReadOnly(t *testing.T) {
	t.Parallel()
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: contenttest.WriteSite(t, site), ReadOnly: true, Watch: fsstore.WatchNone})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = st.CreateEntry(&content.Entry{Collection: "blog", Slug: "x", Title: "x"})
	if content.KindOf(err) != content.Forbidden {
		t.Errorf("write on a read-only store err = %v", err)
	}
}

// Concurrent updates with the same hash: exactly one wins.
func TestConcurrentUpdatesOneWins(t *testing.T) {
	t.Parallel()
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, site))
	cur, err := st.Entry("blog", "first")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins, conflicts := 0, 0
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := *cur
			n.Title = fmt.Sprintf("Edit %d", i)
			_, err := st.UpdateEntry("blog", "first", cur.Hash, &n)
			mu.Lock()
			defer mu.Unlock()
			switch content.KindOf(err) {
			case content.Conflict:
				conflicts++
			default:
				if err == nil {
					wins++
				} else {
					t.Errorf("update: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	if wins != 1 || conflicts != 31 {
		t.Errorf("wins = %d, conflicts = %d; want 1 and 31", wins, conflicts)
	}
	if _, err := st.Entry("blog", "first"); err != nil {
		t.Errorf("entry no longer parses: %v", err)
	}
}

// A file edited, added or deleted by hand is seen on a later request (notifications).
func TestHandEditsAreSeen(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{fsstore.WatchNotify, fsstore.WatchPoll} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			dir := contenttest.WriteSite(t, site)
			st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: mode, PollInterval: 20 * time.Millisecond, NoSync: true, Log: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			write := func(rel, body string) {
				if err := os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("content/collections/blog/hand.md", "---\ntitle: By hand\nstatus: published\n---\n")
			eventually(t, func() bool { _, err := st.EntryMeta("blog", "hand"); return err == nil })
			write("content/collections/blog/first.md", "---\ntitle: First, edited by hand\nstatus: published\n---\n")
			eventually(t, func() bool {
				e, _ := st.EntryMeta("blog", "first")
				return e != nil && e.Title == "First, edited by hand"
			})
			if err := os.Remove(filepath.Join(dir, "content/collections/blog/hand.md")); err != nil {
				t.Fatal(err)
			}
			eventually(t, func() bool { _, err := st.EntryMeta("blog", "hand"); return content.IsNotFound(err) })
			write("resources/collections/news.yaml", "title: News\n")
			eventually(t, func() bool { _, err := st.Collection("news"); return err == nil })
		})
	}
}

func eventually(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute) // a failure guard only; load must never trip it
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("condition never met")
}

func TestUsers(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site)
	st := contenttest.OpenStore(t, dir)
	u := &content.User{ID: "bob", Email: "Bob@Example.com", Name: "Bob", PasswordHash: "scrypt:aa:bb", Roles: []string{"editor"}}
	if err := st.CreateUser(u); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateUser(&content.User{ID: "bob2", Email: "bob@example.com", Name: "B"}); content.KindOf(err) != content.Conflict {
		t.Errorf("duplicate email err = %v", err)
	}
	info, err := os.Stat(filepath.Join(dir, "users/bob.yaml"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("user file mode = %v, %v; want 0600", info.Mode(), err)
	}
	if _, _, err := st.UpdateUser("bob", "", func(u *content.User) error { u.Name = "Robert"; return nil }); err != nil {
		t.Fatal(err)
	}
	if again, _ := st.User("bob"); again.Name != "Robert" || again.Email != "bob@example.com" {
		t.Errorf("after update = %+v", again)
	}
	if err := st.DeleteUser("bob"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.User("bob"); !content.IsNotFound(err) {
		t.Errorf("deleted user err = %v", err)
	}
}

func TestFixtureSiteLoads(t *testing.T) {
	t.Parallel()
	dir := contenttest.CopyFixture(t, "madori-site")
	st := contenttest.OpenStore(t, dir)
	docs, total, err := st.Entries("docs", query.Query{Status: content.StatusPublished})
	if err != nil || total != 16 || len(docs) != 16 {
		t.Fatalf("docs = %d/%d, %v; want 16 published", len(docs), total, err)
	}
	if _, err := st.Collection("blog"); !content.IsNotFound(err) {
		t.Errorf("the broken blog definition should be left out, got %v", err)
	}
	probs := st.Problems()
	if len(probs) != 1 || probs[0].File != "resources/collections/blog.yaml" {
		t.Errorf("problems = %v, want only resources/collections/blog.yaml", probs)
	}
	home, err := st.Entry("pages", "home")
	if err != nil {
		t.Fatal(err)
	}
	if home.CreatedAt != "2026-06-03T08:15:33.462Z" {
		t.Errorf("createdAt = %q, want the written form", home.CreatedAt)
	}
	// Saving an unchanged entry must give back the same file (values keep their written form).
	raw, _ := os.ReadFile(filepath.Join(dir, "content/collections/docs/forms.md"))
	e, err := entryfile.Parse("docs", "forms", raw)
	if err != nil {
		t.Fatal(err)
	}
	out, err := entryfile.Format(e)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(raw) {
		t.Errorf("docs/forms.md does not round-trip byte for byte")
	}
}

// Filtered lists use a per-field equality index; it must agree with a plain scan and follow edits.
func TestFilterIndexFollowsChanges(t *testing.T) {
	t.Parallel()
	files := "-- resources/collections/items.yaml --\ntitle: Items\n"
	for i := range 40 {
		files += fmt.Sprintf("-- content/collections/items/i%02d.md --\n---\ntitle: Item %02d\nstatus: published\nkind: k%d\nn: %d\ntags: [t%d, all]\n---\n", i, i, i%4, i%5, i%3)
	}
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, files))
	count := func(filter map[string]any) int {
		t.Helper()
		_, total, err := st.Entries("items", query.Query{Filter: filter})
		if err != nil {
			t.Fatal(err)
		}
		return total
	}
	tests := []struct {
		filter map[string]any
		want   int
	}{
		{map[string]any{"kind": "k1"}, 10},
		{map[string]any{"n": int64(2)}, 8},
		{map[string]any{"n": 2.0}, 8}, // numbers match by value
		{map[string]any{"n": "2"}, 0}, // but not as text
		{map[string]any{"tags": "t0"}, 14},
		{map[string]any{"tags": "all"}, 40},
		{map[string]any{"kind": "k1", "n": int64(1)}, 2},
		{map[string]any{"kind": "nope"}, 0},
	}
	for _, tt := range tests {
		if got := count(tt.filter); got != tt.want {
			t.Errorf("filter %v matched %d, want %d", tt.filter, got, tt.want)
		}
	}
	cur, err := st.Entry("items", "i01")
	if err != nil {
		t.Fatal(err)
	}
	next := *cur
	next.Data = cur.Data.Clone()
	next.Data.Set("kind", "k2")
	if _, err := st.UpdateEntry("items", "i01", cur.Hash, &next); err != nil {
		t.Fatal(err)
	}
	if got := count(map[string]any{"kind": "k1"}); got != 9 {
		t.Errorf("after an edit, kind=k1 matched %d, want 9", got)
	}
	if got := count(map[string]any{"kind": "k2"}); got != 11 {
		t.Errorf("after an edit, kind=k2 matched %d, want 11", got)
	}
}

func TestQueryStats(t *testing.T) {
	t.Parallel()
	files := "-- resources/collections/items.yaml --\ntitle: Items\n"
	for i := range 10 {
		files += fmt.Sprintf("-- content/collections/items/i%02d.md --\n---\ntitle: Item %02d\nstatus: published\nkind: k%d\n---\n", i, i, i%2)
	}
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, files))
	for _, q := range []query.Query{
		{},
		{Status: content.StatusPublished, Filter: map[string]any{"kind": "k1"}, Sort: []query.SortKey{{Field: "title", Desc: true}}, Limit: 2},
		{Filter: map[string]any{"kind": []any{"k1"}}}, // a list value: scanned
		{Filter: map[string]any{"kind": nil}},         // null matches a missing field: scanned
	} {
		if _, _, err := st.Entries("items", q); err != nil {
			t.Fatal(err)
		}
	}
	// One order sorted: the title's (the first query takes the collection's default order).
	if got, want := st.QueryStats(), (fsstore.QueryStats{Indexed: 2, Scanned: 2, Sorted: 1}); got != want {
		t.Errorf("QueryStats = %+v, want %+v", got, want)
	}
}

// A range filter on a date is answered from the sorted order of that field (binary search for
// its ends), not by testing every entry, and stays right after edits.
func TestRangeFilterFromSortedOrder(t *testing.T) {
	t.Parallel()
	files := "-- resources/collections/posts.yaml --\ntitle: Posts\ndated: true\n"
	for i := range 60 {
		files += fmt.Sprintf("-- content/collections/posts/p%02d.md --\n---\ntitle: Post %02d\nstatus: published\ncreatedAt: 2026-01-%02dT10:00:00.000Z\nrating: %d\n---\n", i, i, i/2+1, i%7)
	}
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, files))
	filter, err := query.ParseFilter(`{"createdAt":{"$gte":"2026-01-10","$lt":"2026-01-12"}}`)
	if err != nil {
		t.Fatal(err)
	}
	list := func(q query.Query) (string, int) {
		t.Helper()
		es, total, err := st.Entries("posts", q)
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, e := range es {
			s = append(s, e.Slug)
		}
		return strings.Join(s, ","), total
	}
	// Days 10 and 11 are p18..p21; the collection's order is newest first, slug ascending on ties.
	if got, total := list(query.Query{Filter: filter, Limit: 3}); got != "p20,p21,p18" || total != 4 {
		t.Errorf("range = %s (total %d), want p20,p21,p18 (total 4)", got, total)
	}
	mixed, _ := query.ParseFilter(`{"createdAt":{"$gte":"2026-01-10","$lt":"2026-01-12"},"rating":{"$in":[4,5]}}`)
	if got, total := list(query.Query{Filter: mixed, Status: content.StatusPublished}); got != "p18,p19" || total != 2 {
		t.Errorf("range and $in = %s (total %d), want p18,p19", got, total)
	}
	if err := st.DeleteEntry("posts", "p20"); err != nil {
		t.Fatal(err)
	}
	if got, total := list(query.Query{Filter: filter, Limit: 2}); got != "p21,p18" || total != 3 {
		t.Errorf("after a delete = %s (total %d), want p21,p18 (total 3)", got, total)
	}
	if got, want := st.QueryStats(), (fsstore.QueryStats{Indexed: 3, Ranged: 3, Sorted: 1}); got != want {
		t.Errorf("QueryStats = %+v, want %+v (every range from one order, sorted once and kept through the delete, none scanned)", got, want)
	}
}

// The full-text index is built outside the collection's lock while entries change; whatever the
// interleaving, it ends up holding exactly the current entries.
func TestSearchBuildDuringWrites(t *testing.T) {
	t.Parallel()
	files := "-- resources/collections/posts.yaml --\ntitle: Posts\n"
	for i := range 200 {
		files += fmt.Sprintf("-- content/collections/posts/p%03d.md --\n---\ntitle: Post %d\nstatus: published\n---\nalpha text\n", i, i)
	}
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, files))
	done := make(chan error)
	go func() {
		for i := 0; i < 200; i += 4 {
			slug := fmt.Sprintf("p%03d", i)
			cur, err := st.Entry("posts", slug)
			if err != nil {
				done <- err
				return
			}
			next := *cur
			next.Content = "omega text"
			if _, err := st.UpdateEntry("posts", slug, cur.Hash, &next); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	if _, _, err := st.Search("posts", search.Query{Text: "text"}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]int{"omega": 50, "alpha": 150, "text": 200} {
		if _, total, err := st.Search("posts", search.Query{Text: q + " "}); err != nil || total != want {
			t.Errorf("%q: %d matches (%v), want %d", q, total, err, want)
		}
	}
}
