package settings_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/content/lru"
	"cms/handlers/settings"
	"cms/handlers/web/webtest"
)

// fakeCache holds a number of pages; Clear empties it.
type fakeCache struct{ pages int }

func (c *fakeCache) Stats() lru.Stats {
	return lru.Stats{Entries: c.pages, Bytes: int64(c.pages) * 100, Hits: 7, Misses: 3}
}
func (c *fakeCache) Clear() (int, error) { n := c.pages; c.pages = 0; return n, nil }

func newCacheHandler(t *testing.T, pc settings.PageCache) (*fakeCache, func(webtest.Request) (int, string)) {
	t.Helper()
	auth := webtest.NewAuth(t)
	auth.Add(viewer, "v", webtest.Role("viewer", webtest.Grant("settings", "view")))
	auth.Add(editor, "e", webtest.Role("editor", webtest.Grant("settings", "view", "edit")))
	auth.Add(other, "o", webtest.Role("other", webtest.Grant("globals", "view", "edit")))
	fc, _ := pc.(*fakeCache)
	d := settings.Deps{Store: contenttest.OpenStore(t, contenttest.WriteSite(t, "")), Auth: auth, Log: slog.New(slog.DiscardHandler)}
	if fc != nil {
		d.PageCache = fc
		d.Warm = func(context.Context) (settings.WarmResult, error) {
			fc.pages += 3
			return settings.WarmResult{Requested: 4, Stored: 3, Failed: 1}, nil
		}
	}
	h, err := settings.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return fc, func(req webtest.Request) (int, string) {
		w := webtest.Do(t, h, req)
		body := strings.TrimSpace(w.Body.String())
		if w.Code >= 400 {
			var e struct{ Error struct{ Code string } }
			_ = json.Unmarshal(w.Body.Bytes(), &e)
			body = e.Error.Code
		}
		return w.Code, body
	}
}

func TestCacheEndpoints(t *testing.T) {
	t.Parallel()
	fc, do := newCacheHandler(t, &fakeCache{pages: 5})
	cases := []struct {
		name       string
		req        webtest.Request
		wantStatus int
		want       string // the body, or the error code
	}{
		{"stats anonymous", webtest.Request{Path: "/api/cache"}, 401, "AUTHENTICATION_ERROR"},
		{"stats without settings", webtest.Request{Path: "/api/cache", Token: other}, 403, "AUTHORIZATION_ERROR"},
		{"stats", webtest.Request{Path: "/api/cache", Token: viewer}, 200, `{"data":{"entries":5,"bytes":500,"maxBytes":0,"hits":7,"misses":3}}`},
		{"clear view only", webtest.Request{Method: "POST", Path: "/api/cache/clear", Token: viewer}, 403, "AUTHORIZATION_ERROR"},
		{"warm view only", webtest.Request{Method: "POST", Path: "/api/cache/warm", Token: viewer}, 403, "AUTHORIZATION_ERROR"},
		{"clear", webtest.Request{Method: "POST", Path: "/api/cache/clear", Token: editor}, 200, `{"data":{"cleared":5}}`},
		{"empty after clear", webtest.Request{Path: "/api/cache", Token: viewer}, 200, `{"data":{"entries":0,"bytes":0,"maxBytes":0,"hits":7,"misses":3}}`},
		{"warm", webtest.Request{Method: "POST", Path: "/api/cache/warm", Token: editor}, 200, `{"data":{"requested":4,"stored":3,"cached":0,"failed":1}}`},
		{"clear after warm", webtest.Request{Method: "POST", Path: "/api/cache/clear", Token: editor}, 200, `{"data":{"cleared":3}}`},
		{"clear by GET", webtest.Request{Path: "/api/cache/clear", Token: editor}, 405, "METHOD_NOT_ALLOWED"},
		{"unknown", webtest.Request{Path: "/api/cache/other", Token: editor}, 404, "NOT_FOUND"},
	}
	for _, c := range cases { // in order: clear and warm change the cache
		status, body := do(c.req)
		if status != c.wantStatus || body != c.want {
			t.Errorf("%s: %d %s, want %d %s", c.name, status, body, c.wantStatus, c.want)
		}
	}
	if fc.pages != 0 {
		t.Errorf("pages = %d after the last clear", fc.pages)
	}
}

func TestCacheEndpointsDisabled(t *testing.T) {
	t.Parallel()
	_, do := newCacheHandler(t, nil)
	for _, req := range []webtest.Request{
		{Path: "/api/cache", Token: viewer},
		{Method: "POST", Path: "/api/cache/clear", Token: editor},
		{Method: "POST", Path: "/api/cache/warm", Token: editor},
	} {
		if status, code := do(req); status != 409 || code != "DISABLED" {
			t.Errorf("%s %s: %d %s, want 409 DISABLED", req.Method, req.Path, status, code)
		}
	}
	// The permission check comes first: the state of the cache is not told to the unauthorised.
	if status, code := do(webtest.Request{Method: "POST", Path: "/api/cache/clear", Token: viewer}); status != 403 {
		t.Errorf("clear view only while off: %d %s, want 403", status, code)
	}
}
