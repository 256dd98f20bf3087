package graphql_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// checkAnswer fails unless the response is a 200 GraphQL answer or a 4xx error envelope, in JSON.
func checkAnswer(t *testing.T, w *httptest.ResponseRecorder) {
	t.Helper()
	if !json.Valid(w.Body.Bytes()) {
		t.Fatalf("status %d: body is not JSON: %q", w.Code, w.Body.String())
	}
	switch {
	case w.Code == http.StatusOK:
		var r struct {
			Errors []struct {
				Message    string         `json:"message"`
				Extensions map[string]any `json:"extensions"`
			} `json:"errors"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
			t.Fatalf("decode: %v: %s", err, w.Body.String())
		}
		for _, e := range r.Errors {
			if e.Extensions["code"] == nil || e.Extensions["code"] == "INTERNAL_ERROR" {
				t.Fatalf("error without a client code: %s", w.Body.String())
			}
		}
	case w.Code >= 400 && w.Code < 500:
		if !bytes.Contains(w.Body.Bytes(), []byte(`"error":{"code"`)) {
			t.Fatalf("status %d without the error envelope: %s", w.Code, w.Body.String())
		}
	default:
		t.Fatalf("status %d: %s", w.Code, w.Body.String())
	}
}

// FuzzVariables sends arbitrary variables with queries that declare variables of every kind: the
// answer is always a GraphQL answer or a 400, never a crash or an internal error.
func FuzzVariables(f *testing.F) {
	for _, seed := range []string{
		`{"f":{"featured":true,"reading_time":5,"rating":4.5,"tags":"go"},"n":2,"s":"title:desc","slug":"alpha"}`,
		`{"f":{"featured":"yes"}}`, `{"n":1e309}`, `{"n":-1}`, `{"n":2147483648}`, `{"f":[1,2]}`, `{"f":null}`,
		`{"slug":null}`, `{"slug":["a","b"]}`, `[]`, `"x"`, `null`, `{`, `{"a":{"b":{"c":{"d":[[[[[]]]]]}}}}`,
		`{"f":{"title":"\u0000"}}`, `{"st":"draft"}`, `{"st":"all"}`, `{"ids":[1,"2",null]}`,
	} {
		f.Add(seed)
	}
	h := newHandler(f, site, testConfig())
	queries := []string{
		`query($f: BlogFilter, $n: Int, $o: Int, $s: String, $st: String) { blogs(filter: $f, limit: $n, offset: $o, sort: $s, status: $st) { slug featured reading_time tags } }`,
		`query($slug: String!, $st: String) { blog(slug: $slug, status: $st) { slug html } }`,
		`query($h: String!) { global(handle: $h) { data } navigation(handle: $h) { items { label } } }`,
		`query($ids: [String], $b: Boolean = true, $fl: Float, $id: ID) { __typename }`,
	}
	f.Fuzz(func(t *testing.T, vars string) {
		for _, q := range queries {
			body := `{"query":` + mustJSON(q) + `,"variables":` + vars + `}`
			w := doRaw(t, h, http.MethodPost, body)
			if w.Code != http.StatusOK && w.Code != http.StatusBadRequest {
				t.Fatalf("status = %d for variables %q: %s", w.Code, vars, w.Body.String())
			}
			checkAnswer(t, w)
		}
	})
}

// FuzzQueryLimits sends arbitrary query text: the depth and complexity checks (and everything
// after them) never crash, and the answer is always well formed.
func FuzzQueryLimits(f *testing.F) {
	for _, seed := range []string{
		`{ blogs { slug } }`,
		`{ navigation(handle: "main") { items { children { children { label } } } } }`,
		`{ blogs(limit: 10) { ...E } } fragment E on Blog { slug title }`,
		`{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }`,
		`fragment A on Query { ...A } { __typename }`,
		`fragment A on Query { __typename } fragment A on Query { ...A } { ...A }`,
		`query A { __typename } query B { ...F } fragment F on Query { __schema { types { name } } }`,
		`{ __type(name: "Blog") { fields { type { ofType { ofType { name } } } } } }`,
		`{ blogs(limit: $n) { slug } }`,
		`{ a: blogs(limit: 1000) { b: __typename } }`,
		`query { blog(slug: "x") { ... on Blog { ... on Blog { slug } } } }`,
		`{ blogs(limit: 99999999999999999999) { slug } }`,
		`"""doc""" query { __typename } # comment {{{{`,
		strings.Repeat("{", 100),
		`mutation { x }`, `subscription { x }`, ``, `{`, `}`,
	} {
		f.Add(seed)
	}
	cfg := testConfig()
	cfg.MaxDepth = 6
	cfg.MaxComplexity = 300
	h := newHandler(f, site, cfg)
	f.Fuzz(func(t *testing.T, q string) {
		if len(q) > 4096 {
			return
		}
		w := doRaw(t, h, http.MethodPost, `{"query":`+mustJSON(q)+`}`)
		checkAnswer(t, w)
	})
}

func doRaw(t testing.TB, h http.Handler, method, body string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, "/api/graphql", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Authorization", "Bearer "+adminTok)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}
