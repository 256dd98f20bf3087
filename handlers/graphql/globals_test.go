package graphql_test

import (
	"reflect"
	"testing"

	"cms/content/contenttest"
	"cms/handlers/graphql"
)

func TestGlobals(t *testing.T) {
	t.Parallel()
	h := newHandler(t, site, testConfig())

	t.Run("one", func(t *testing.T) {
		t.Parallel()
		r := post(t, h, gqlReq{token: adminTok, query: `{ global(handle: "site-settings") { handle title data } }`})
		noErrors(t, r)
		want := map[string]any{
			"handle": "site-settings", "title": "Site Settings",
			"data": map[string]any{"site_name": "Test Site", "social": []any{map[string]any{"_type": "social_link", "url": "https://example.com"}}},
		}
		if got := r.Data["global"]; !reflect.DeepEqual(got, want) {
			t.Errorf("global = %#v\nwant %#v", got, want)
		}
	})
	t.Run("defined without data", func(t *testing.T) {
		t.Parallel()
		r := post(t, h, gqlReq{token: adminTok, query: `{ global(handle: "footer") { data } }`})
		noErrors(t, r)
		if got := r.Data["global"].(map[string]any)["data"]; !reflect.DeepEqual(got, map[string]any{}) {
			t.Errorf("data = %#v, want {}", got)
		}
	})
	t.Run("list", func(t *testing.T) {
		t.Parallel()
		r := post(t, h, gqlReq{token: adminTok, query: `{ globals { handle title } }`})
		noErrors(t, r)
		want := []any{map[string]any{"handle": "footer", "title": "Footer"}, map[string]any{"handle": "site-settings", "title": "Site Settings"}}
		if got := r.Data["globals"]; !reflect.DeepEqual(got, want) {
			t.Errorf("globals = %v, want %v", got, want)
		}
	})
	for _, h0 := range []string{"nope", "../secret", ""} {
		t.Run("unknown "+h0, func(t *testing.T) {
			t.Parallel()
			r := post(t, h, gqlReq{token: adminTok, query: `query($h: String!) { global(handle: $h) { handle } }`, variables: map[string]any{"h": h0}})
			oneError(t, r, graphql.CodeNotFound, "not found")
			if r.Data["global"] != nil {
				t.Errorf("global = %v, want null", r.Data["global"])
			}
		})
	}
}

func TestNavigation(t *testing.T) {
	t.Parallel()
	h := newHandler(t, site, testConfig())
	const tree = `{ navigation(handle: "main") { handle title items { label url entry external children { label url entry external children { label url external children { label } } } } } }`
	r := post(t, h, gqlReq{token: adminTok, query: tree})
	noErrors(t, r)
	leaf := func(label string, url any, entry any, external bool, children ...any) map[string]any {
		m := map[string]any{"label": label, "url": url, "entry": entry, "external": external}
		if children == nil {
			children = []any{}
		}
		m["children"] = children
		return m
	}
	want := map[string]any{
		"handle": "main", "title": "Main",
		"items": []any{
			leaf("Home", "/", nil, false),
			leaf("Blog", nil, nil, false,
				leaf("Alpha", "/blog/alpha", "blog/alpha", false),
				leaf("Draft", nil, "blog/draft-post", false,
					map[string]any{"label": "Deep", "url": "/deep", "external": true, "children": []any{}})),
			leaf("About", "/about", "pages/about", false),
		},
	}
	if got := r.Data["navigation"]; !reflect.DeepEqual(got, want) {
		t.Errorf("navigation =\n%s\nwant\n%s", mustJSON(got), mustJSON(want))
	}

	t.Run("list", func(t *testing.T) {
		t.Parallel()
		r := post(t, h, gqlReq{token: adminTok, query: `{ navigations { handle items { label } } }`})
		noErrors(t, r)
		got := r.Data["navigations"].([]any)
		if len(got) != 2 || got[0].(map[string]any)["handle"] != "empty" || len(got[0].(map[string]any)["items"].([]any)) != 0 ||
			len(got[1].(map[string]any)["items"].([]any)) != 3 {
			t.Errorf("navigations = %s", mustJSON(got))
		}
	})
	t.Run("unknown", func(t *testing.T) {
		t.Parallel()
		oneError(t, post(t, h, gqlReq{token: adminTok, query: `{ navigation(handle: "footer") { handle } }`}), graphql.CodeNotFound, `"footer"`)
	})
}

func TestNavigationHandEditSeenNextRequest(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site)
	h := newHandlerOn(t, contenttest.OpenStore(t, dir), testConfig())
	q := gqlReq{token: adminTok, query: `{ navigation(handle: "main") { items { label } } }`}
	noErrors(t, post(t, h, q))
	contenttest.AddFiles(t, dir, `
-- content/navigation/main.yaml --
items:
  - label: Edited by hand
`)
	r := post(t, h, q)
	noErrors(t, r)
	want := []any{map[string]any{"label": "Edited by hand"}}
	if got := r.Data["navigation"].(map[string]any)["items"]; !reflect.DeepEqual(got, want) {
		t.Errorf("items = %v, want %v", got, want)
	}
}

// TestNavigationURLAndEntry: an item edited by hand to have both a url and an entry resolves
// like the CP API does, to its entry (null while the entry is unpublished), never to the url.
func TestNavigationURLAndEntry(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site)
	contenttest.AddFiles(t, dir, `
-- content/navigation/main.yaml --
items:
  - label: Both
    url: /stale
    entry: pages/about
  - label: Group
    children:
      - label: Draft
        url: /old-draft
        entry: blog/draft-post
`)
	h := newHandlerOn(t, contenttest.OpenStore(t, dir), testConfig())
	r := post(t, h, gqlReq{token: adminTok, query: `{ navigation(handle: "main") { items { label url entry children { label url entry } } } }`})
	noErrors(t, r)
	want := []any{
		map[string]any{"label": "Both", "url": "/about", "entry": "pages/about", "children": []any{}},
		map[string]any{"label": "Group", "url": nil, "entry": nil, "children": []any{
			map[string]any{"label": "Draft", "url": nil, "entry": "blog/draft-post"}}},
	}
	if got := r.Data["navigation"].(map[string]any)["items"]; !reflect.DeepEqual(got, want) {
		t.Errorf("items =\n%s\nwant\n%s", mustJSON(got), mustJSON(want))
	}
}
