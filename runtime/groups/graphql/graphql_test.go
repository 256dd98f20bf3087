package graphql_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/runtime/config"
	"cms/runtime/groups/graphql"
	"cms/runtime/wire"
)

const site = `
-- cms.config.yaml --
watch: none
-- resources/collections/blog.yaml --
title: Blog
`

// serve mounts the group on a site configured by env and answers one POST.
func serve(t *testing.T, env map[string]string, path, query string) *httptest.ResponseRecorder {
	t.Helper()
	dir := contenttest.WriteSite(t, site)
	cfg, _, err := config.Load(dir, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	s, err := wire.NewServices(t.Context(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	h, err := wire.Mount(s, graphql.Group())
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(`{"query":`+mustJSON(query)+`}`))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestWiring(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		env        map[string]string
		path       string
		query      string
		wantStatus int
		wantBody   string
	}{
		{name: "enabled by default", path: "/api/graphql", query: `{ __typename }`, wantStatus: 200, wantBody: `{"data":{"__typename":"Query"}}`},
		{name: "disabled: the path is a 404", env: map[string]string{"CMS_GRAPHQL_ENABLED": "false"}, path: "/api/graphql", query: `{ __typename }`, wantStatus: 404, wantBody: `"code":"NOT_FOUND"`},
		// Introspection that is on asks an anonymous caller to sign in; off refuses everyone.
		{name: "introspection on in development", path: "/api/graphql", query: `{ __schema { queryType { name } } }`, wantStatus: 200, wantBody: `GraphQL introspection needs a session`},
		{name: "introspection off in production", env: map[string]string{"NODE_ENV": "production"}, path: "/api/graphql", query: `{ __schema { queryType { name } } }`, wantStatus: 200, wantBody: `GraphQL introspection is disabled`},
		{name: "introspection on in production when configured", env: map[string]string{"NODE_ENV": "production", "CMS_GRAPHQL_INTROSPECTION": "true"}, path: "/api/graphql", query: `{ __schema { queryType { name } } }`, wantStatus: 200, wantBody: `GraphQL introspection needs a session`},
		{name: "configured path", env: map[string]string{"CMS_GRAPHQL_PATH": "/graph"}, path: "/graph", query: `{ __typename }`, wantStatus: 200, wantBody: `"Query"`},
		{name: "old path unmounted when moved", env: map[string]string{"CMS_GRAPHQL_PATH": "/api/gql"}, path: "/api/graphql", query: `{ __typename }`, wantStatus: 404, wantBody: `"code":"NOT_FOUND"`},
		{name: "no session: fields answer UNAUTHENTICATED", path: "/api/graphql", query: `{ blogs { slug } }`, wantStatus: 200, wantBody: `"code":"UNAUTHENTICATED"`},
		{name: "configured depth", env: map[string]string{"CMS_GRAPHQL_MAX_DEPTH": "1"}, path: "/api/graphql", query: `{ blogs { slug } }`, wantStatus: 200, wantBody: `"code":"QUERY_TOO_DEEP"`},
		{name: "configured body limit", env: map[string]string{"CMS_GRAPHQL_MAX_BODY_BYTES": "16"}, path: "/api/graphql", query: `{ __typename }`, wantStatus: 413, wantBody: `"code":"PAYLOAD_TOO_LARGE"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := serve(t, tc.env, tc.path, tc.query)
			if w.Code != tc.wantStatus || !strings.Contains(w.Body.String(), tc.wantBody) {
				t.Errorf("status %d body %s, want %d with %s", w.Code, w.Body.String(), tc.wantStatus, tc.wantBody)
			}
		})
	}
}

func TestPrefixes(t *testing.T) {
	t.Parallel()
	c := config.Default()
	if got := graphql.Prefixes(c); len(got) != 1 || got[0] != "/api/graphql" {
		t.Errorf("Prefixes = %v, want [/api/graphql]", got)
	}
}
