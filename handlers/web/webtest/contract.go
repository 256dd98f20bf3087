package webtest

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"cms/content/codegen"
)

// The contract check: every request Do sends and every response it records is checked against
// the OpenAPI document of the HTTP API (content/codegen, built once per test binary), so the
// document cannot drift from the server. A request that matches no documented route is not
// checked here: runtime/groups' TestEveryRouteIsDocumented names undocumented routes, once.
//
// Checked: the status is documented for the route (any 4xx/5xx is the error envelope); a JSON
// response body matches its schema (the Error schema for errors); a body's media type is the
// documented one; and the JSON body of a request the server accepted (2xx) matches the request
// schema.

type contract struct {
	doc    *openapi3.T
	mux    *http.ServeMux
	routes map[string]codegen.Route // pattern -> route
	err    error
}

var loadContract = sync.OnceValue(func() *contract {
	c := &contract{mux: http.NewServeMux(), routes: map[string]codegen.Route{}}
	b, err := codegen.DocumentJSON(&codegen.Site{}, codegen.DocumentOptions{})
	if err != nil {
		c.err = err
		return c
	}
	doc, err := openapi3.NewLoader().LoadFromData(b)
	if err == nil {
		err = doc.Validate(openapi3.NewLoader().Context)
	}
	if err != nil {
		c.err = fmt.Errorf("the OpenAPI document does not load: %w", err)
		return c
	}
	c.doc = doc
	nop := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	for _, r := range codegen.Routes {
		// HEAD routes have no body to check; the website's catch-all would claim every
		// undocumented route (which must stay unchecked here); and the route tables' "GET /" is
		// the root only (web.Router), which net/http spells "GET /{$}".
		pattern := r.Pattern
		if strings.HasPrefix(pattern, "HEAD ") || pattern == "GET /{path...}" {
			continue
		}
		if pattern == "GET /" {
			pattern = "GET /{$}"
		}
		c.routes[pattern] = r
		c.mux.Handle(pattern, nop)
	}
	return c
})

// checkContract reports where req (with its body) and the recorded response break the document.
func checkContract(t testing.TB, r *http.Request, reqBody []byte, w *httptest.ResponseRecorder) {
	t.Helper()
	c := loadContract()
	if c.err != nil {
		t.Errorf("contract: %v", c.err)
		return
	}
	_, pattern := c.mux.Handler(r)
	route, ok := c.routes[pattern]
	if !ok {
		return // not a documented route: TestEveryRouteIsDocumented's business
	}
	method, path, _ := strings.Cut(pattern, " ")
	item := c.doc.Paths.Find(codegen.OpenAPIPath(path))
	if item == nil {
		t.Errorf("contract: %s is in the route table but not in the document", pattern)
		return
	}
	op := item.GetOperation(method)
	if op == nil && r.Method == http.MethodHead {
		op = item.GetOperation(http.MethodGet)
	}
	if op == nil {
		t.Errorf("contract: %s has no operation in the document", pattern)
		return
	}
	where := fmt.Sprintf("contract: %s %s (route %s) answered %d", r.Method, r.URL.Path, pattern, w.Code)
	status := w.Code
	res := op.Responses.Status(status)
	if res == nil {
		if status < 400 {
			t.Errorf("%s: status %d is not documented for the route (add it in content/codegen/openapi_routes.go)", where, status)
			return
		}
		res = op.Responses.Default()
	}
	ct := w.Header().Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	if w.Body.Len() > 0 && r.Method != http.MethodHead && res.Value != nil && res.Value.Content != nil {
		media := res.Value.Content.Get(mt)
		if media == nil && res.Value.Content.Get("*/*") != nil {
			media = nil // any file type; nothing more to check
		} else if media == nil {
			if status >= 400 && route.Responses[200] != "" && !strings.HasPrefix(route.Responses[200], "data:") && mediaOf(route.Responses[200]) != "application/json" {
				return // an HTML or file route may answer an error in its own media type
			}
			t.Errorf("%s: Content-Type %q is not documented (want %s)", where, ct, strings.Join(keys(res.Value.Content), " or "))
			return
		}
		if media != nil && media.Schema != nil && strings.HasSuffix(mt, "json") {
			var v any
			if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
				t.Errorf("%s: body is not JSON: %v", where, err)
				return
			}
			if err := media.Schema.Value.VisitJSON(v, openapi3.EnableJSONSchema2020()); err != nil {
				t.Errorf("%s: body does not match the document: %v\nbody: %.500s", where, err, w.Body.String())
			}
		}
	}
	if status < 200 || status > 299 || op.RequestBody == nil || len(reqBody) == 0 {
		return
	}
	rmt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if !strings.HasSuffix(rmt, "json") {
		return
	}
	media := op.RequestBody.Value.Content.Get("application/json")
	if media == nil {
		t.Errorf("%s: a JSON request body was accepted but the document has none", where)
		return
	}
	var v any
	if err := json.Unmarshal(reqBody, &v); err != nil {
		return
	}
	if err := media.Schema.Value.VisitJSON(v, openapi3.EnableJSONSchema2020()); err != nil {
		t.Errorf("%s: the accepted request body does not match the document: %v", where, err)
	}
}

func mediaOf(word string) string {
	switch word {
	case "html":
		return "text/html"
	case "csv":
		return "text/csv"
	case "file":
		return "*/*"
	}
	return "application/json"
}

func keys(c openapi3.Content) []string {
	var out []string
	for k := range c {
		out = append(out, k)
	}
	return out
}
