package graphql_test

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/query"
	"cms/handlers/graphql"
	"cms/handlers/web/webtest"
)

func TestTransportErrors(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.MaxBodyBytes = 1024
	h := newHandler(t, site, cfg)
	big := `{ blogs { slug } }` + strings.Repeat(" ", 2000)
	tests := []struct {
		name       string
		req        webtest.Request
		wantStatus int
		wantCode   string
		wantAllow  string
	}{
		{name: "mutation via GET", req: webtest.Request{Path: "/api/graphql?query=" + url.QueryEscape(`mutation { x }`), Token: adminTok}, wantStatus: 405, wantCode: "METHOD_NOT_ALLOWED", wantAllow: "POST"},
		{name: "named mutation via GET", req: webtest.Request{Path: "/api/graphql?operationName=M&query=" + url.QueryEscape(`query Q { __typename } mutation M { x }`), Token: adminTok}, wantStatus: 405, wantCode: "METHOD_NOT_ALLOWED", wantAllow: "POST"},
		{name: "GET without query", req: webtest.Request{Path: "/api/graphql", Token: adminTok}, wantStatus: 400, wantCode: "BAD_REQUEST"},
		{name: "GET with two queries", req: webtest.Request{Path: "/api/graphql?query=a&query=b", Token: adminTok}, wantStatus: 400, wantCode: "BAD_REQUEST"},
		{name: "GET with variables that are not an object", req: webtest.Request{Path: "/api/graphql?variables=%5B1%5D&query=" + url.QueryEscape(`{ __typename }`)}, wantStatus: 400, wantCode: "BAD_REQUEST"},
		{name: "GET too long", req: webtest.Request{Path: "/api/graphql?query=" + url.QueryEscape(big)}, wantStatus: 413, wantCode: "PAYLOAD_TOO_LARGE"},
		{name: "POST body too large", req: webtest.Request{Method: "POST", Path: "/api/graphql", Body: map[string]any{"query": big}, Token: adminTok}, wantStatus: 413, wantCode: "PAYLOAD_TOO_LARGE"},
		{name: "POST malformed JSON", req: webtest.Request{Method: "POST", Path: "/api/graphql", Body: `{"query":`, Token: adminTok}, wantStatus: 400, wantCode: "BAD_REQUEST"},
		{name: "POST JSON that is not an object", req: webtest.Request{Method: "POST", Path: "/api/graphql", Body: `["{ __typename }"]`}, wantStatus: 400, wantCode: "BAD_REQUEST"},
		{name: "POST without query", req: webtest.Request{Method: "POST", Path: "/api/graphql", Body: `{"variables":{}}`}, wantStatus: 400, wantCode: "BAD_REQUEST"},
		{name: "POST query of the wrong type", req: webtest.Request{Method: "POST", Path: "/api/graphql", Body: `{"query":5}`}, wantStatus: 400, wantCode: "BAD_REQUEST"},
		{name: "POST variables not an object", req: webtest.Request{Method: "POST", Path: "/api/graphql", Body: `{"query":"{ __typename }","variables":"x"}`}, wantStatus: 400, wantCode: "BAD_REQUEST"},
		{name: "POST variables nested too deeply", req: webtest.Request{Method: "POST", Path: "/api/graphql", Body: `{"query":"{ __typename }","variables":{"a":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}}`}, wantStatus: 400, wantCode: "BAD_REQUEST"},
		{name: "POST form body", req: webtest.Request{Method: "POST", Path: "/api/graphql", Body: "query=x", Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}}, wantStatus: 415, wantCode: "UNSUPPORTED_MEDIA_TYPE"},
		{name: "PUT", req: webtest.Request{Method: "PUT", Path: "/api/graphql", Body: `{}`}, wantStatus: 405, wantCode: "METHOD_NOT_ALLOWED", wantAllow: "GET, HEAD, POST"},
		{name: "cookie session from another site", req: webtest.Request{Method: "POST", Path: "/api/graphql", Body: `{"query":"{ blogs { slug } }"}`,
			Cookies: []*http.Cookie{{Name: "cms_session", Value: adminTok}}, Header: http.Header{"Origin": {"https://evil.example"}}}, wantStatus: 403, wantCode: "CSRF_REJECTED"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := webtest.Do(t, h, tc.req)
			if w.Code != tc.wantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, tc.wantStatus, w.Body.String())
			}
			if e := webtest.DecodeError(t, w); e.Error.Code != tc.wantCode {
				t.Errorf("code = %q, want %q (%s)", e.Error.Code, tc.wantCode, e.Error.Message)
			}
			if got := w.Header().Get("Allow"); got != tc.wantAllow {
				t.Errorf("Allow = %q, want %q", got, tc.wantAllow)
			}
		})
	}
}

func TestGraphQLLevelErrors(t *testing.T) {
	t.Parallel()
	h := newHandler(t, site, testConfig())
	tests := []struct {
		name string
		req  gqlReq
		code string
		msg  string
	}{
		{name: "syntax error", req: gqlReq{token: adminTok, query: `{ blogs { slug `}, code: graphql.CodeParseFailed, msg: "Syntax Error"},
		{name: "unknown field", req: gqlReq{token: adminTok, query: `{ posts { slug } }`}, code: graphql.CodeValidationFailed, msg: "posts"},
		{name: "mutation (there are none)", req: gqlReq{token: adminTok, query: `mutation { x }`}, code: graphql.CodeValidationFailed},
		{name: "several operations without a name", req: gqlReq{token: adminTok, query: `query A { __typename } query B { __typename }`}, code: graphql.CodeBadRequest, msg: "operationName"},
		{name: "unknown operation name", req: gqlReq{token: adminTok, query: `query A { __typename }`, opName: "B"}, code: graphql.CodeBadRequest, msg: `"B"`},
		{name: "only fragments", req: gqlReq{token: adminTok, query: `fragment F on Query { __typename }`}, code: graphql.CodeBadRequest},
		{name: "required variable missing", req: gqlReq{token: adminTok, query: `query($s: String!) { blog(slug: $s) { slug } }`}, code: graphql.CodeBadRequest, msg: "$s"},
		{name: "variable of the wrong type", req: gqlReq{token: adminTok, query: `query($s: String!) { blog(slug: $s) { slug } }`, variables: map[string]any{"s": 5}}, code: graphql.CodeBadRequest, msg: "must be a String"},
		{name: "int variable out of range", req: gqlReq{token: adminTok, query: `query($n: Int) { blogs(limit: $n) { slug } }`, variables: map[string]any{"n": 1e12}}, code: graphql.CodeBadRequest, msg: "Int"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := post(t, h, tc.req)
			if len(r.Errors) == 0 || r.Errors[0].Extensions.Code != tc.code {
				t.Fatalf("codes = %v, want %s: %s", r.codes(), tc.code, r.raw)
			}
			if !strings.Contains(r.Errors[0].Message, tc.msg) {
				t.Errorf("message = %q, want it to contain %q", r.Errors[0].Message, tc.msg)
			}
			if r.Data != nil {
				t.Errorf("data = %v, want none: nothing ran", r.Data)
			}
		})
	}
	t.Run("operation chosen by name", func(t *testing.T) {
		t.Parallel()
		r := post(t, h, gqlReq{token: adminTok, query: `query A { blogs(limit: 1) { slug } } query B { pages(slug: "about") { title } }`, opName: "B"})
		noErrors(t, r)
		if r.Data["pages"].(map[string]any)["title"] != "About" || r.Data["blogs"] != nil {
			t.Errorf("data = %v", r.Data)
		}
	})
}

func TestGET(t *testing.T) {
	t.Parallel()
	h := newHandler(t, site, testConfig())
	r := get(t, h, adminTok, `{ blogs(limit: 2, sort: "title:desc") { slug } }`)
	noErrors(t, r)
	if got := slugs(t, r, "blogs"); strings.Join(got, ",") != "gamma,beta" {
		t.Errorf("blogs = %v", got)
	}
	w := webtest.Do(t, h, webtest.Request{Path: "/api/graphql?query=" + url.QueryEscape(`query($s: String!) { blog(slug: $s) { title } }`) +
		"&variables=" + url.QueryEscape(`{"s":"beta"}`), Token: adminTok})
	r = decode(t, w)
	noErrors(t, r)
	if r.Data["blog"].(map[string]any)["title"] != "Beta" {
		t.Errorf("data = %v", r.Data)
	}
	if got := w.Header().Get("Cache-Control"); got != "private, no-store" {
		t.Errorf("Cache-Control = %q", got)
	}

	// A cookie session works for GET, and for POST from the same site.
	w = webtest.Do(t, h, webtest.Request{Path: "/api/graphql?query=" + url.QueryEscape(`{ blogs(limit: 1) { slug } }`), Cookies: []*http.Cookie{{Name: "cms_session", Value: readerTok}}})
	noErrors(t, decode(t, w))
	w = webtest.Do(t, h, webtest.Request{Method: "POST", Path: "/api/graphql", Body: map[string]any{"query": `{ blogs(limit: 1) { slug } }`},
		Cookies: []*http.Cookie{{Name: "cms_session", Value: readerTok}}, Header: http.Header{"Origin": {"http://example.com"}}})
	noErrors(t, decode(t, w))
}

func TestDisabled(t *testing.T) {
	t.Parallel()
	h := newHandler(t, site, graphql.Config{Enabled: false})
	for _, req := range []webtest.Request{
		{Method: "POST", Path: "/api/graphql", Body: map[string]any{"query": `{ __typename }`}, Token: adminTok},
		{Path: "/api/graphql?query=%7B__typename%7D", Token: adminTok},
	} {
		w := webtest.Do(t, h, req)
		if w.Code != http.StatusNotFound {
			t.Errorf("%s: status = %d, want 404", req.Method, w.Code)
		}
		if e := webtest.DecodeError(t, w); e.Error.Code != "NOT_FOUND" {
			t.Errorf("code = %s", e.Error.Code)
		}
	}
}

func TestCustomPath(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.Path = "/graph"
	h := newHandler(t, site, cfg)
	w := webtest.Do(t, h, webtest.Request{Method: "POST", Path: "/graph", Body: map[string]any{"query": `{ __typename }`}})
	noErrors(t, decode(t, w))
	if got := graphql.Prefixes("/graph"); len(got) != 1 || got[0] != "/graph" {
		t.Errorf("Prefixes = %v", got)
	}
}

func TestNewRefusesBadDeps(t *testing.T) {
	t.Parallel()
	if _, err := graphql.New(graphql.Deps{}); err == nil {
		t.Error("New without a Store: no error")
	}
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, site))
	if _, err := graphql.New(graphql.Deps{Store: st, Config: graphql.Config{Enabled: true, Path: "api"}}); err == nil {
		t.Error("New with a relative path: no error")
	}
}

// faultyStore injects failures into an otherwise real store.
type faultyStore struct {
	graphql.Store
	entries func(c string, q query.Query) ([]*content.Entry, int, error)
}

func (f faultyStore) Entries(c string, q query.Query) ([]*content.Entry, int, error) {
	return f.entries(c, q)
}

func TestInternalErrorsAreMaskedAndLogged(t *testing.T) {
	t.Parallel()
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, site))
	fs := faultyStore{Store: st, entries: func(string, query.Query) ([]*content.Entry, int, error) {
		return nil, 0, content.Internalf("fsstore.Entries", "/srv/secret/path", errors.New("disk on fire"))
	}}
	var logs bytes.Buffer
	h, err := graphql.New(graphql.Deps{Store: fs, Auth: newAuth(t), Config: testConfig(), Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	r := post(t, h, gqlReq{token: adminTok, query: `{ blogs { slug } blog(slug: "alpha") { slug } }`})
	oneError(t, r, graphql.CodeInternal, "Internal server error")
	if strings.Contains(r.raw, "secret") || strings.Contains(r.raw, "fire") {
		t.Errorf("the cause leaked to the client: %s", r.raw)
	}
	if !strings.Contains(logs.String(), "disk on fire") || !strings.Contains(logs.String(), "path=blogs") {
		t.Errorf("the cause was not logged: %s", logs.String())
	}
}

// TestTimeout runs in a synctest bubble, whose clock moves only when every goroutine in it waits:
// the store's read takes a minute of that clock, so the 10 ms deadline has certainly passed
// when it returns, however busy the machine. The outcome is asserted, never a duration.
func TestTimeout(t *testing.T) {
	t.Parallel()
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, site))
	synctest.Test(t, func(t *testing.T) {
		var reads atomic.Int32
		fs := faultyStore{Store: st, entries: func(c string, q query.Query) ([]*content.Entry, int, error) {
			reads.Add(1)
			time.Sleep(time.Minute) // a disk far slower than the deadline
			return st.Entries(c, q)
		}}
		cfg := testConfig()
		cfg.Timeout = 10 * time.Millisecond
		h := newHandlerOn(t, fs, cfg)
		r := post(t, h, gqlReq{token: adminTok, query: `{ a: blogs { slug } b: blogs { slug } }`})
		oneError(t, r, graphql.CodeTimeout, "The query took longer than 10ms and was stopped")
		if r.Data != nil {
			t.Errorf("data = %v, want null", r.Data)
		}
		if n := reads.Load(); n != 1 {
			t.Errorf("the store was read %d times, want 1: the second list must not start after the deadline", n)
		}
	})
}
