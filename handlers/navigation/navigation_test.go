package navigation_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/handlers/navigation"
	"cms/handlers/web/webtest"
)

const site = `
-- resources/collections/pages.yaml --
title: Pages
route: /{slug}
-- resources/collections/blog.yaml --
title: Blog
route: /blog/{slug}
-- resources/collections/secret.yaml --
title: Secret
-- content/collections/pages/about.md --
---
title: About
status: published
---
-- content/collections/blog/post.md --
---
title: Post
status: draft
---
-- content/collections/secret/x.md --
---
title: X
---
-- resources/navigations/main.yaml --
title: Main
max_depth: 2
collections: [pages, blog]
blueprint: main
-- resources/blueprints/navigations/main.yaml --
tabs:
  main:
    fields:
      - handle: label
        field: {type: text, required: true}
      - handle: icon
        field: {type: select, options: {options: [home, star]}}
-- resources/navigations/flat.yaml --
title: Flat
max_depth: 0
-- resources/navigations/open.yaml --
title: Open
-- content/navigation/main.yaml --
items:
  - label: Home
    url: /
    icon: home
  - label: About
    entry: pages/about
  - label: Gone
    entry: pages/gone
  - label: Blog
    children:
      - label: Post
        entry: blog/post
-- content/navigation/legacy.yaml --
items:
  - label: Old
    url: /old
-- content/navigation/broken.yaml --
items: [
`

// Session tokens of the callers (webtest.Auth.Add starts their sessions).
var (
	viewer = webtest.Token("viewer")
	editor = webtest.Token("editor")
	other  = webtest.Token("other")
)

func newHandler(t testing.TB) (http.Handler, string) {
	t.Helper()
	dir := contenttest.WriteSite(t, site)
	auth := webtest.NewAuth(t)
	auth.Add(viewer, "v", webtest.Role("viewer", webtest.Grant("navigation", "view")))
	auth.Add(editor, "e", webtest.Role("editor", webtest.Grant("navigation", "view", "edit")))
	auth.Add(other, "o", webtest.Role("other", webtest.Grant("globals", "view", "edit")))
	h, err := navigation.New(navigation.Deps{Store: contenttest.OpenStore(t, dir), Auth: auth, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return h, dir
}

func put(handle string, body any) webtest.Request {
	return webtest.Request{Method: "PUT", Path: "/api/navigation/" + handle, Token: editor, Body: body}
}

// nested returns one item with children nested depth levels deep.
func nested(depth int) string {
	s := `{"label":"leaf","url":"/x"}`
	for range depth {
		s = `{"label":"n","children":[` + s + `]}`
	}
	return `{"items":[` + s + `]}`
}

func many(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf(`{"label":"i%d","url":"/%d"}`, i, i)
	}
	return `{"items":[` + strings.Join(items, ",") + `]}`
}

func TestEndpoints(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		req        webtest.Request
		wantStatus int
		wantCode   string
		wantField  string // a key of error.fields, or a substring of a success body
	}{
		{"list unauthenticated", webtest.Request{Path: "/api/navigation"}, 401, "AUTHENTICATION_ERROR", ""},
		{"list forbidden", webtest.Request{Path: "/api/navigation", Token: other}, 403, "AUTHORIZATION_ERROR", ""},
		{"get unauthenticated", webtest.Request{Path: "/api/navigation/main"}, 401, "AUTHENTICATION_ERROR", ""},
		{"get forbidden", webtest.Request{Path: "/api/navigation/main", Token: other}, 403, "AUTHORIZATION_ERROR", ""},
		{"get defined without tree", webtest.Request{Path: "/api/navigation/open", Token: viewer}, 200, "", `{"data":{"handle":"open","title":"Open","max_depth":null,"collections":[],"items":[]}}`},
		{"get tree without definition", webtest.Request{Path: "/api/navigation/legacy", Token: viewer}, 200, "", `{"data":{"handle":"legacy","title":"Legacy","max_depth":null,"collections":[],"items":[{"label":"Old","url":"/old"}]}}`},
		{"get unknown", webtest.Request{Path: "/api/navigation/nope", Token: viewer}, 404, "NOT_FOUND", ""},
		{"blueprint", webtest.Request{Path: "/api/navigation/main/blueprint", Token: viewer}, 200, "",
			`{"data":{"kind":"navigations","handle":"main","tabs":[{"handle":"main","fields":[{"handle":"label","type":"text","required":true},{"handle":"icon","type":"select","options":{"options":["home","star"]}}]}]},"fieldsets":{}}`},
		{"blueprint none", webtest.Request{Path: "/api/navigation/open/blueprint", Token: viewer}, 200, "", `{"data":null,"fieldsets":{}}`},
		{"blueprint forbidden", webtest.Request{Path: "/api/navigation/main/blueprint", Token: other}, 403, "AUTHORIZATION_ERROR", ""},
		{"blueprint unknown", webtest.Request{Path: "/api/navigation/nope/blueprint", Token: viewer}, 404, "NOT_FOUND", ""},
		{"get invalid handle", webtest.Request{Path: "/api/navigation/a.b", Token: viewer}, 400, "BAD_REQUEST", ""},
		{"get broken file", webtest.Request{Path: "/api/navigation/broken", Token: viewer}, 500, "INTERNAL_ERROR", ""},
		{"wrong method", webtest.Request{Method: "POST", Path: "/api/navigation/main", Token: editor}, 405, "METHOD_NOT_ALLOWED", ""},
		{"unknown route", webtest.Request{Path: "/api/navigation/main/items", Token: editor}, 404, "NOT_FOUND", ""},

		{"put unauthenticated", webtest.Request{Method: "PUT", Path: "/api/navigation/main", Body: `{"items":[]}`}, 401, "AUTHENTICATION_ERROR", ""},
		{"put view only", webtest.Request{Method: "PUT", Path: "/api/navigation/main", Token: viewer, Body: `{"items":[]}`}, 403, "AUTHORIZATION_ERROR", ""},
		{"put unknown", put("nope", `{"items":[]}`), 404, "NOT_FOUND", ""},
		{"put replaces a broken file", put("broken", `{"items":[{"label":"a","url":"/a"}]}`), 200, "", `{"data":{"handle":"broken","title":"Broken","max_depth":null,"collections":[],"items":[{"label":"a","url":"/a"}]}}`},
		{"put malformed json", put("main", `{"items":[`), 400, "BAD_REQUEST", ""},
		{"put not an object", put("main", `[]`), 400, "BAD_REQUEST", ""},
		{"put items missing", put("main", `{}`), 422, "VALIDATION_ERROR", "items"},
		{"put items not a list", put("main", `{"items":{}}`), 422, "VALIDATION_ERROR", "items"},
		{"put item not an object", put("main", `{"items":["x"]}`), 422, "VALIDATION_ERROR", "items[0]"},
		{"put label missing", put("main", `{"items":[{"url":"/"}]}`), 422, "VALIDATION_ERROR", "items[0].label"},
		{"put label blank", put("main", `{"items":[{"label":"  "}]}`), 422, "VALIDATION_ERROR", "items[0].label"},
		{"put label not a string", put("main", `{"items":[{"label":1}]}`), 422, "VALIDATION_ERROR", "items[0].label"},
		{"put url and entry", put("main", `{"items":[{"label":"a"},{"label":"b"},{"label":"c","children":[{"label":"d","url":"/d","entry":"pages/about"}]}]}`), 422, "VALIDATION_ERROR", "items[2].children[0]"},
		{"put javascript url", put("main", `{"items":[{"label":"a","url":"javascript:alert(1)"}]}`), 422, "VALIDATION_ERROR", "items[0].url"},
		{"put scheme-relative url", put("main", `{"items":[{"label":"a","url":"//evil.example"}]}`), 422, "VALIDATION_ERROR", "items[0].url"},
		{"put url not a string", put("main", `{"items":[{"label":"a","url":5}]}`), 422, "VALIDATION_ERROR", "items[0].url"},
		{"put bad entry form", put("main", `{"items":[{"label":"a","entry":"about"}]}`), 422, "VALIDATION_ERROR", "items[0].entry"},
		{"put external not bool", put("main", `{"items":[{"label":"a","url":"/","external":"yes"}]}`), 422, "VALIDATION_ERROR", "items[0].external"},
		{"put children not a list", put("main", `{"items":[{"label":"a","children":"x"}]}`), 422, "VALIDATION_ERROR", "items[0].children"},
		{"put extra fails blueprint", put("main", `{"items":[{"label":"a","url":"/","icon":"rocket"}]}`), 422, "VALIDATION_ERROR", "items[0].icon"},
		{"put bad extra key", put("main", `{"items":[{"label":"a","url":"/","bad key":1}]}`), 422, "VALIDATION_ERROR", "items[0].bad key"},
		{"put too many items", put("open", many(navigation.MaxItems+1)), 422, "VALIDATION_ERROR", "items"},
		{"put nested too deep", put("open", nested(navigation.MaxNesting+1)), 422, "VALIDATION_ERROR", ""},
		{"put nesting at the bound", put("open", nested(navigation.MaxNesting)), 200, "", `"label":"leaf"`},
		{"put max items", put("open", many(navigation.MaxItems)), 200, "", `"label":"i1999"`},

		{"flat list on max_depth 0", put("flat", `{"items":[{"label":"a","url":"/a"},{"label":"b","url":"/b"}]}`), 200, "", `"items":[{"label":"a","url":"/a"},{"label":"b","url":"/b"}]`},
		{"one level on max_depth 0", put("flat", nested(1)), 422, "DEPTH_EXCEEDED", ""},
		{"exactly max_depth 2", put("main", nested(2)), 200, "", `"label":"leaf"`},
		{"one over max_depth 2", put("main", nested(3)), 422, "DEPTH_EXCEEDED", ""},
		{"no max_depth", put("open", nested(10)), 200, "", `"label":"leaf"`},

		{"entry in a collection not allowed", put("main", `{"items":[{"label":"x","entry":"secret/x"}]}`), 422, "INVALID_ENTRY_REFERENCE", "items[0].entry"},
		{"entry missing", put("main", `{"items":[{"label":"a","url":"/"},{"label":"x","children":[{"label":"y","entry":"pages/nope"}]}]}`), 422, "INVALID_ENTRY_REFERENCE", "items[1].children[0].entry"},
		{"entry of unknown collection without a list", put("open", `{"items":[{"label":"x","entry":"nope/x"}]}`), 422, "INVALID_ENTRY_REFERENCE", "items[0].entry"},
		{"any collection without a list", put("open", `{"items":[{"label":"x","entry":"secret/x"}]}`), 200, "", `{"label":"x","url":"/x","entry":"secret/x"}`},
		{"draft entry resolves", put("main", `{"items":[{"label":"p","entry":"blog/post","external":true,"icon":"star"}]}`), 200, "", `{"label":"p","url":"/blog/post","entry":"blog/post","external":true,"icon":"star"}`},
		{"resolved url sent back", put("main", `{"items":[{"label":"a","entry":"pages/about","url":"/about"}]}`), 422, "VALIDATION_ERROR", "items[0]"},
		{"missing flag sent back", put("main", `{"items":[{"label":"b","entry":"pages/about","url":null,"missing":true}]}`), 200, "", `[{"label":"b","url":"/about","entry":"pages/about"}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h, _ := newHandler(t)
			w := webtest.Do(t, h, c.req)
			if w.Code != c.wantStatus {
				t.Fatalf("status = %d, want %d: %.600s", w.Code, c.wantStatus, w.Body)
			}
			if c.wantCode == "" {
				if !strings.Contains(w.Body.String(), c.wantField) {
					t.Errorf("body = %.600s\nwant it to contain %s", w.Body, c.wantField)
				}
				return
			}
			e := webtest.DecodeError(t, w)
			if e.Error.Code != c.wantCode {
				t.Errorf("code = %s, want %s (%s)", e.Error.Code, c.wantCode, e.Error.Message)
			}
			if c.wantField != "" && len(e.Error.Fields[c.wantField]) == 0 {
				t.Errorf("fields = %v, want a message for %q", e.Error.Fields, c.wantField)
			}
		})
	}
}

func TestGetResolvesEntries(t *testing.T) {
	t.Parallel()
	h, _ := newHandler(t)
	w := webtest.Do(t, h, webtest.Request{Path: "/api/navigation/main", Token: viewer})
	want := `{"data":{"handle":"main","title":"Main","max_depth":2,"collections":["pages","blog"],"items":[` +
		`{"label":"Home","url":"/","icon":"home"},` +
		`{"label":"About","url":"/about","entry":"pages/about"},` +
		`{"label":"Gone","url":null,"entry":"pages/gone","missing":true},` +
		`{"label":"Blog","children":[{"label":"Post","url":"/blog/post","entry":"blog/post"}]}]}}`
	if w.Code != 200 || strings.TrimSpace(w.Body.String()) != want {
		t.Errorf("GET = %d\n%s\nwant\n%s", w.Code, w.Body, want)
	}
	if etag := w.Header().Get("ETag"); len(etag) != 66 {
		t.Errorf("ETag = %q", etag)
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	h, dir := newHandler(t)
	if err := os.Remove(filepath.Join(dir, "content/navigation/broken.yaml")); err != nil {
		t.Fatal(err)
	}
	w := webtest.Do(t, h, webtest.Request{Path: "/api/navigation", Token: viewer})
	var body struct {
		Data []struct {
			Handle   string           `json:"handle"`
			MaxDepth *int             `json:"max_depth"`
			Items    []map[string]any `json:"items"`
		} `json:"data"`
	}
	webtest.DecodeJSON(t, w, &body)
	var got []string
	for _, n := range body.Data {
		got = append(got, fmt.Sprintf("%s:%d", n.Handle, len(n.Items)))
	}
	if w.Code != 200 || strings.Join(got, " ") != "flat:0 legacy:1 main:4 open:0" {
		t.Errorf("list = %d %v", w.Code, got)
	}
	if body.Data[2].MaxDepth == nil || *body.Data[2].MaxDepth != 2 || body.Data[2].Items[1]["url"] != "/about" {
		t.Errorf("main in list = %+v", body.Data[2])
	}
}

func TestDepthExceededBody(t *testing.T) {
	t.Parallel()
	h, _ := newHandler(t)
	w := webtest.Do(t, h, put("main", nested(3)))
	var body struct {
		Error struct {
			Code        string `json:"code"`
			Message     string `json:"message"`
			MaxDepth    *int   `json:"maxDepth"`
			ActualDepth *int   `json:"actualDepth"`
			Details     struct {
				MaxDepth    int `json:"maxDepth"`
				ActualDepth int `json:"actualDepth"`
			} `json:"details"`
		} `json:"error"`
	}
	webtest.DecodeJSON(t, w, &body)
	e := body.Error
	if w.Code != 422 || e.Code != "DEPTH_EXCEEDED" || e.MaxDepth == nil || *e.MaxDepth != 2 || e.ActualDepth == nil || *e.ActualDepth != 3 ||
		e.Details.MaxDepth != 2 || e.Details.ActualDepth != 3 || e.Message != "Navigation tree depth (3) exceeds the configured maximum depth (2)" {
		t.Errorf("DEPTH_EXCEEDED = %d %s", w.Code, w.Body)
	}
}

func TestInvalidReferenceBody(t *testing.T) {
	t.Parallel()
	h, _ := newHandler(t)
	w := webtest.Do(t, h, put("main", `{"items":[{"label":"x","entry":"secret/x"},{"label":"y","entry":"pages/none"}]}`))
	var body struct {
		Error struct {
			Code       string                 `json:"code"`
			References []navigation.Reference `json:"references"`
		} `json:"error"`
	}
	webtest.DecodeJSON(t, w, &body)
	want := []navigation.Reference{
		{Path: "items[0]", Entry: "secret/x", Reason: "Collection is not allowed for this navigation."},
		{Path: "items[1]", Entry: "pages/none", Reason: "Referenced entry does not exist."},
	}
	if w.Code != 422 || fmt.Sprint(body.Error.References) != fmt.Sprint(want) {
		t.Errorf("INVALID_ENTRY_REFERENCE = %d %s", w.Code, w.Body)
	}
}

func TestPutWritesFileAndHandEditIsSeen(t *testing.T) {
	t.Parallel()
	h, dir := newHandler(t)
	file := filepath.Join(dir, "content/navigation/main.yaml")
	w := webtest.Do(t, h, put("main", `{"items":[{"label":"Home","url":"/","icon":"home","children":[]},{"label":"About","entry":"pages/about"}]}`))
	if w.Code != 200 {
		t.Fatalf("PUT = %d %s", w.Code, w.Body)
	}
	b, _ := os.ReadFile(file)
	if want := "items:\n  - label: Home\n    url: /\n    icon: home\n  - label: About\n    entry: pages/about\n"; string(b) != want {
		t.Errorf("file = %q\nwant %q", b, want)
	}
	if err := os.WriteFile(file, []byte("items:\n  - label: Edited by hand\n    url: /hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w = webtest.Do(t, h, webtest.Request{Path: "/api/navigation/main", Token: viewer})
	if !strings.Contains(w.Body.String(), `"items":[{"label":"Edited by hand","url":"/hand"}]`) {
		t.Errorf("GET after a hand edit = %s", w.Body)
	}
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	h, _ := newHandler(t)
	tree := `{"items":[{"label":"A","entry":"pages/about"},{"label":"B","children":[{"label":"C","entry":"blog/post","icon":"star"}]}]}`
	if w := webtest.Do(t, h, put("main", tree)); w.Code != 200 {
		t.Fatalf("PUT = %d %s", w.Code, w.Body)
	}
	got := webtest.Do(t, h, webtest.Request{Path: "/api/navigation/main", Token: editor})
	var body struct {
		Data struct {
			Items json.RawMessage `json:"items"`
		} `json:"data"`
	}
	webtest.DecodeJSON(t, got, &body)
	// Responses add the resolved url to entry items; sent back as is, those items carry both.
	if w := webtest.Do(t, h, put("main", `{"items":`+string(body.Data.Items)+`}`)); w.Code != 422 || len(webtest.DecodeError(t, w).Error.Fields["items[0]"]) == 0 {
		t.Errorf("PUT of a GET's items unchanged = %d %s", w.Code, w.Body)
	}
	// A client that drops them, as the CP does, gets the same tree back.
	var items []map[string]any
	if err := json.Unmarshal(body.Data.Items, &items); err != nil {
		t.Fatal(err)
	}
	again := webtest.Do(t, h, put("main", map[string]any{"items": stored(items)}))
	if again.Code != 200 || !strings.Contains(again.Body.String(), string(body.Data.Items)) {
		t.Errorf("PUT of a GET's items = %d %s", again.Code, again.Body)
	}
}

// stored removes from response items what the server adds to entry items (url, missing).
func stored(items []map[string]any) []map[string]any {
	for _, it := range items {
		if it["entry"] != nil {
			delete(it, "url")
			delete(it, "missing")
		}
		if c, ok := it["children"].([]any); ok {
			kids := make([]map[string]any, len(c))
			for i, k := range c {
				kids[i] = k.(map[string]any)
			}
			it["children"] = stored(kids)
		}
	}
	return items
}

// TestURLOrEntry is the table of item shapes, each placed at depth 0 and at depth 2: url alone,
// entry alone and neither (a heading, with or without children) are saved; an item with both is
// refused with its path, whether its url is the entry's own or another, and nothing is written.
func TestURLOrEntry(t *testing.T) {
	t.Parallel()
	shapes := []struct {
		name, item string
		ok         bool
	}{
		{"url alone", `{"label":"x","url":"/x"}`, true},
		{"entry alone", `{"label":"x","entry":"pages/about"}`, true},
		{"external url", `{"label":"x","url":"https://example.com/","external":true}`, true},
		{"heading", `{"label":"x"}`, true},
		{"heading with children", `{"label":"x","children":[{"label":"y","url":"/y"},{"label":"z","entry":"pages/about"}]}`, true},
		{"both, the entry's own url", `{"label":"x","url":"/about","entry":"pages/about"}`, false},
		{"both, another url", `{"label":"x","url":"/elsewhere","entry":"pages/about"}`, false},
		{"both, external", `{"label":"x","url":"https://example.com/","entry":"pages/about","external":true}`, false},
		{"both, a missing entry", `{"label":"x","url":"/x","entry":"pages/gone"}`, false},
		{"both, with children", `{"label":"x","url":"/x","entry":"pages/about","children":[{"label":"y"}]}`, false},
	}
	places := []struct {
		path string
		body func(item string) string
	}{
		{"items[0]", func(it string) string { return `{"items":[` + it + `,{"label":"after","url":"/after"}]}` }},
		{"items[1].children[0].children[1]", func(it string) string {
			return `{"items":[{"label":"a","url":"/a"},{"label":"b","children":[{"label":"c","children":[{"label":"d","url":"/d"},` + it + `]}]}]}`
		}},
	}
	for _, sh := range shapes {
		for _, pl := range places {
			t.Run(sh.name+" at "+pl.path, func(t *testing.T) {
				t.Parallel()
				h, dir := newHandler(t)
				file := filepath.Join(dir, "content/navigation/legacy.yaml")
				before, _ := os.ReadFile(file)
				w := webtest.Do(t, h, put("legacy", pl.body(sh.item)))
				after, _ := os.ReadFile(file)
				if sh.ok {
					if w.Code != 200 || !strings.Contains(w.Body.String(), `{"label":"x"`) {
						t.Errorf("PUT = %d %.600s", w.Code, w.Body)
					}
					return
				}
				if w.Code != 422 {
					t.Fatalf("PUT = %d %.600s, want 422", w.Code, w.Body)
				}
				e := webtest.DecodeError(t, w)
				if e.Error.Code != "VALIDATION_ERROR" || len(e.Error.Fields) != 1 || !strings.Contains(strings.Join(e.Error.Fields[pl.path], " "), "not both") {
					t.Errorf("error = %s %v, want VALIDATION_ERROR with fields[%q] only", e.Error.Code, e.Error.Fields, pl.path)
				}
				if string(after) != string(before) {
					t.Errorf("a refused tree was written: %q", after)
				}
			})
		}
	}
}

// TestHandEditedURLAndEntry: a file edited by hand may give an item both; it is served, the
// entry's URL wins, and the log says so once for that version of the file.
func TestHandEditedURLAndEntry(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site+`
-- content/navigation/hand.yaml --
items:
  - label: Both
    url: /stale
    entry: pages/about
  - label: Group
    children:
      - label: Deep
        url: /old-post
        entry: blog/post
`)
	var logs syncBuffer
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: fsstore.WatchNone, NoSync: true, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	auth := webtest.NewAuth(t)
	auth.Add(viewer, "v", webtest.Role("viewer", webtest.Grant("navigation", "view")))
	h, err := navigation.New(navigation.Deps{Store: st, Auth: auth})
	if err != nil {
		t.Fatal(err)
	}
	want := `"items":[{"label":"Both","url":"/about","entry":"pages/about"},{"label":"Group","children":[{"label":"Deep","url":"/blog/post","entry":"blog/post"}]}]`
	for range 2 {
		w := webtest.Do(t, h, webtest.Request{Path: "/api/navigation/hand", Token: viewer})
		if w.Code != 200 || !strings.Contains(w.Body.String(), want) {
			t.Fatalf("GET = %d %s\nwant %s", w.Code, w.Body, want)
		}
	}
	if err := os.Remove(filepath.Join(dir, "content/navigation/broken.yaml")); err != nil {
		t.Fatal(err)
	}
	if w := webtest.Do(t, h, webtest.Request{Path: "/api/navigation", Token: viewer}); w.Code != 200 || !strings.Contains(w.Body.String(), want) {
		t.Errorf("list = %d %s", w.Code, w.Body)
	}
	got := logs.String()
	if n := strings.Count(got, "both url and entry"); n != 1 || !strings.Contains(got, "content/navigation/hand.yaml") ||
		!strings.Contains(got, "items[0]") || !strings.Contains(got, "items[1].children[0]") {
		t.Errorf("log (want one line naming the file and both items):\n%s", got)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func TestIfMatch(t *testing.T) {
	t.Parallel()
	h, _ := newHandler(t)
	etag := webtest.Do(t, h, webtest.Request{Path: "/api/navigation/main", Token: editor}).Header().Get("ETag")
	req := put("main", `{"items":[]}`)
	req.Header = http.Header{"If-Match": {etag}}
	if w := webtest.Do(t, h, req); w.Code != 200 {
		t.Fatalf("PUT with a fresh ETag = %d %s", w.Code, w.Body)
	}
	if w := webtest.Do(t, h, req); w.Code != 409 || webtest.DecodeError(t, w).Error.Code != "CONFLICT" {
		t.Errorf("PUT with a stale ETag = %d %s", w.Code, w.Body)
	}
	req.Header = http.Header{"If-Match": {"nonsense"}}
	if w := webtest.Do(t, h, req); w.Code != 400 {
		t.Errorf("PUT with a malformed If-Match = %d", w.Code)
	}
}

func TestNewRequiresStore(t *testing.T) {
	t.Parallel()
	if _, err := navigation.New(navigation.Deps{}); err == nil {
		t.Fatal("New without a store succeeded")
	}
}

// FuzzNavigationItems sends arbitrary bodies to PUT: the decoder must answer every one with a
// success or a client error in the envelope, never a server error, and a saved tree must read back.
func FuzzNavigationItems(f *testing.F) {
	for _, s := range []string{`{"items":[]}`, nested(3), `{"items":[{"label":"a","url":"/","children":[{"label":"b","entry":"pages/about"}]}]}`,
		`{"items":[{"label":"a","url":"javascript:x"}]}`, `{"items":[1,null,"x",{"label":null}]}`, `{"items":[{"label":"a","icon":"home","external":true}]}`,
		`{"items":{"label":"a"}}`, `{"items":[{"label":"a","children":[[]]}]}`, `[`, `{"items":[{"label":"\u0000"}]}`} {
		f.Add(s)
	}
	h, _ := newHandler(f)
	f.Fuzz(func(t *testing.T, body string) {
		w := webtest.Do(t, h, put("open", body))
		switch w.Code {
		case 200:
			if g := webtest.Do(t, h, webtest.Request{Path: "/api/navigation/open", Token: viewer}); g.Code != 200 {
				t.Fatalf("GET after a saved tree = %d %s", g.Code, g.Body)
			}
		case 400, 413, 422:
			webtest.DecodeError(t, w)
		default:
			t.Fatalf("PUT %q = %d %s", body, w.Code, w.Body)
		}
	})
}

// TestFixtureRoundTrip reads Madori's example navigations (one without a definition) and saves
// the defined one back unchanged.
func TestFixtureRoundTrip(t *testing.T) {
	t.Parallel()
	dir := contenttest.CopyFixture(t, "madori-site")
	auth := webtest.NewAuth(t)
	auth.Add(editor, "e", webtest.Role("editor", webtest.Grant("navigation", "view", "edit")))
	h, err := navigation.New(navigation.Deps{Store: contenttest.OpenStore(t, dir), Auth: auth})
	if err != nil {
		t.Fatal(err)
	}
	list := webtest.Do(t, h, webtest.Request{Path: "/api/navigation", Token: editor})
	if list.Code != 200 || !strings.Contains(list.Body.String(), `{"handle":"docs","title":"Docs","max_depth":null,"collections":[],"items":[{"label":"Getting Started"`) {
		t.Errorf("list = %d %.300s", list.Code, list.Body)
	}
	get := webtest.Do(t, h, webtest.Request{Path: "/api/navigation/main", Token: editor})
	var body struct {
		Data struct {
			Items json.RawMessage `json:"items"`
		} `json:"data"`
	}
	webtest.DecodeJSON(t, get, &body)
	put := webtest.Do(t, h, put("main", `{"items":`+string(body.Data.Items)+`}`))
	if get.Code != 200 || put.Code != 200 || !strings.Contains(put.Body.String(), string(body.Data.Items)) {
		t.Errorf("GET = %d, PUT back = %d %s", get.Code, put.Code, put.Body)
	}
}
