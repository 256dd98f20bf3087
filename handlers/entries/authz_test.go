package entries_test

import (
	"net/http"
	"testing"

	"cms/handlers/entries"
	"cms/handlers/web/webtest"
)

// endpoint is one protected endpoint and a request that succeeds for a caller allowed to make it.
type endpoint struct {
	name   string
	method string
	path   string
	body   func(e *env) any
	ok     int
}

func endpoints() []endpoint {
	hashBody := func(slug string) func(e *env) any {
		return func(e *env) any { return map[string]any{"contentHash": e.hashOfNoT(slug), "content": "edited"} }
	}
	return []endpoint{
		{"list", "GET", "/api/entries/blog", nil, 200},
		{"get", "GET", "/api/entries/blog/hello", nil, 200},
		{"create", "POST", "/api/entries/blog", func(*env) any { return map[string]any{"title": "Matrix post"} }, 201},
		{"update", "PUT", "/api/entries/blog/second", hashBody("second"), 200},
		{"delete", "DELETE", "/api/entries/blog/second", nil, 200},
		{"collections", "GET", "/api/collections", nil, 200},
		{"collection", "GET", "/api/collections/blog", nil, 200},
		{"blueprint", "GET", "/api/collections/blog/blueprint", nil, 200},
		{"markdown", "POST", "/api/collections/blog/markdown", func(*env) any { return map[string]any{"markdown": "*hi*"} }, 200},
	}
}

// TestAuthorization runs every endpoint for every kind of caller. Each case gets its own site so
// that the successful writes do not disturb one another.
func TestAuthorization(t *testing.T) {
	t.Parallel()
	noToken := errCase{401, "AUTHENTICATION_ERROR", "Authentication required", nil}
	unauth := errCase{401, "AUTHENTICATION_ERROR", "Invalid or expired session", nil}
	forbidden := func(action, resource string) errCase {
		return errCase{403, "AUTHORIZATION_ERROR", "Insufficient permissions to " + action + " " + resource, nil}
	}
	action := map[string]string{"list": "view", "get": "view", "create": "create", "update": "edit", "delete": "delete", "collections": "view", "collection": "view", "blueprint": "view", "markdown": "view"}
	resource := func(ep endpoint) string {
		if ep.name == "collections" || ep.name == "collection" {
			return "collections"
		}
		return "entries"
	}
	callers := []struct {
		name  string
		token string
		// allowed reports whether the caller may use the endpoint; nil means never.
		allowed func(ep endpoint) bool
		fail    func(ep endpoint) errCase
	}{
		{"no token", "", nil, func(endpoint) errCase { return noToken }},
		{"invalid token", "bogus", nil, func(endpoint) errCase { return unauth }},
		{"role without the permission", tokNothing, nil, func(ep endpoint) errCase { return forbidden(action[ep.name], resource(ep)) }},
		{"role with the permission", tokAdmin, func(endpoint) bool { return true }, nil},
		{"role scoped to another collection", tokNewsOnly, nil, func(ep endpoint) errCase { return forbidden(action[ep.name], resource(ep)) }},
		{"role scoped to this collection", tokAuthor,
			func(ep endpoint) bool { return ep.name != "delete" },
			func(ep endpoint) errCase { return forbidden(action[ep.name], resource(ep)) }},
		{"collections:view scoped to blog", tokBlogColls,
			func(ep endpoint) bool { return ep.name == "collection" },
			func(ep endpoint) errCase { return forbidden(action[ep.name], resource(ep)) }},
	}
	for _, c := range callers {
		for _, ep := range endpoints() {
			t.Run(c.name+"/"+ep.name, func(t *testing.T) {
				t.Parallel()
				e := newEnv(t)
				before := e.hashOfNoT("second")
				req := webtest.Request{Method: ep.method, Path: ep.path, Token: c.token}
				if ep.body != nil {
					req.Body = ep.body(e)
				}
				w := e.do(t, req)
				if c.allowed != nil && c.allowed(ep) {
					if w.Code != ep.ok {
						t.Fatalf("status = %d, want %d; body %s", w.Code, ep.ok, w.Body)
					}
					return
				}
				checkError(t, w, c.fail(ep))
				if e.hashOfNoT("second") != before {
					t.Errorf("a refused request changed an entry")
				}
			})
		}
	}
}

// Permission is checked before anything is read: a caller without it learns nothing about which
// collections or entries exist, and a bad body is not even looked at.
func TestForbiddenBeforeReading(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, req := range []webtest.Request{
		{Path: "/api/entries/no-such-collection"},
		{Path: "/api/entries/no-such-collection/x"},
		{Method: "POST", Path: "/api/entries/no-such-collection", Body: "not json"},
		{Method: "PUT", Path: "/api/entries/blog/no-such-entry", Body: "not json"},
		{Method: "DELETE", Path: "/api/entries/blog/no-such-entry"},
		{Path: "/api/collections/no-such-collection"},
	} {
		req.Token = tokNothing
		w := e.do(t, req)
		if w.Code != http.StatusForbidden {
			t.Errorf("%s %s: status %d, want 403; body %s", req.Method, req.Path, w.Code, w.Body)
		}
	}
}

func TestNoAuthenticator(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	h, err := entries.New(entries.Deps{Store: e.store})
	if err != nil {
		t.Fatal(err)
	}
	for _, ep := range endpoints() {
		w := webtest.Do(t, h, webtest.Request{Method: ep.method, Path: ep.path, Token: tokAdmin, Body: map[string]any{}})
		checkError(t, w, errCase{401, "AUTHENTICATION_ERROR", "Authentication required", nil})
	}
}

func TestCSRF(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cookie := []*http.Cookie{{Name: "cms_session", Value: tokAdmin}}
	rejected := errCase{403, "CSRF_REJECTED", "", nil}
	for _, ep := range endpoints() {
		if ep.method == "GET" {
			continue
		}
		req := webtest.Request{Method: ep.method, Path: ep.path, Cookies: cookie, Body: map[string]any{"title": "csrf"}}
		checkError(t, e.do(t, req), rejected)
		req.Header = http.Header{"Origin": {"https://evil.example"}}
		checkError(t, e.do(t, req), rejected)
	}
	if e.hashOfNoT("second") == "" {
		t.Fatal("a cross-site DELETE removed the entry")
	}
	// Same origin (httptest requests are for example.com), and reads, pass.
	w := e.do(t, webtest.Request{Method: "POST", Path: "/api/entries/blog", Cookies: cookie, Header: http.Header{"Origin": {"http://example.com"}}, Body: map[string]any{"title": "Same origin"}})
	if w.Code != http.StatusCreated {
		t.Errorf("same-origin cookie POST: status %d; body %s", w.Code, w.Body)
	}
	w = e.do(t, webtest.Request{Method: "PUT", Path: "/api/entries/blog/second", Cookies: cookie, Header: http.Header{"Referer": {"http://example.com/cp/entries"}},
		Body: map[string]any{"contentHash": e.hashOfNoT("second"), "content": "ok"}})
	if w.Code != http.StatusOK {
		t.Errorf("same-origin (Referer) cookie PUT: status %d; body %s", w.Code, w.Body)
	}
	if w := e.do(t, webtest.Request{Path: "/api/entries/blog", Cookies: cookie}); w.Code != http.StatusOK {
		t.Errorf("cookie GET: status %d", w.Code)
	}
}

func TestMethodsAndRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		method, path string
		status       int
		code, allow  string
	}{
		{"DELETE", "/api/entries/blog", 405, "METHOD_NOT_ALLOWED", "GET, HEAD, POST"},
		{"PATCH", "/api/entries/blog/hello", 405, "METHOD_NOT_ALLOWED", "DELETE, GET, HEAD, PUT"},
		{"POST", "/api/collections", 405, "METHOD_NOT_ALLOWED", "GET, HEAD"},
		{"DELETE", "/api/collections/blog", 405, "METHOD_NOT_ALLOWED", "GET, HEAD"},
		{"GET", "/api/entries/", 404, "NOT_FOUND", ""},
		{"GET", "/api/collections/blog/entries", 404, "NOT_FOUND", ""},
	}
	for _, tc := range cases {
		w := e.do(t, webtest.Request{Method: tc.method, Path: tc.path, Token: tokAdmin})
		checkError(t, w, errCase{tc.status, tc.code, "", nil})
		if got := w.Header().Get("Allow"); got != tc.allow {
			t.Errorf("%s %s: Allow = %q, want %q", tc.method, tc.path, got, tc.allow)
		}
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	if _, err := entries.New(entries.Deps{}); err == nil {
		t.Error("New without a store succeeded")
	}
	if got := entries.Prefixes(); len(got) != 4 {
		t.Errorf("Prefixes = %v", got)
	}
}
