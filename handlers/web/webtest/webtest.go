// Package webtest helps black-box tests of endpoint groups: the production authenticator over a
// temporary session store, with callers holding given roles ([NewAuth]), and small request helpers.
package webtest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"cms/content"
)

// Role builds a role granting actions on resource (unscoped, or scoped when scope != "").
func Role(handle string, grants ...content.Permission) *content.Role {
	return &content.Role{Handle: handle, Display: handle, Permissions: grants}
}

// Grant is shorthand for a permission.
func Grant(resource string, actions ...string) content.Permission {
	return content.Permission{Resource: resource, Actions: actions}
}

// Request describes one call.
type Request struct {
	Method  string
	Path    string
	Body    any // string, []byte, or a value encoded as JSON
	Token   string
	Header  http.Header
	Cookies []*http.Cookie
}

// Do runs req against h and returns the recorded response, after checking both against the
// OpenAPI document (contract.go).
func Do(t testing.TB, h http.Handler, req Request) *httptest.ResponseRecorder {
	t.Helper()
	var body io.Reader
	var raw []byte
	switch b := req.Body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			t.Fatalf("encode body: %v", err)
		}
	}
	if req.Body != nil {
		body = bytes.NewReader(raw)
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	r := httptest.NewRequest(method, req.Path, body)
	if body != nil && req.Header.Get("Content-Type") == "" {
		r.Header.Set("Content-Type", "application/json")
	}
	for k, vs := range req.Header {
		for _, v := range vs {
			r.Header.Add(k, v)
		}
	}
	if req.Token != "" {
		r.Header.Set("Authorization", "Bearer "+req.Token)
	}
	for _, c := range req.Cookies {
		r.AddCookie(c)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	checkContract(t, r, raw, w)
	return w
}

// ErrorBody is the decoded error envelope.
type ErrorBody struct {
	Error struct {
		Code    string              `json:"code"`
		Message string              `json:"message"`
		Fields  map[string][]string `json:"fields"`
	} `json:"error"`
}

// DecodeError decodes an error envelope, failing the test if the body is not one.
func DecodeError(t testing.TB, w *httptest.ResponseRecorder) ErrorBody {
	t.Helper()
	var e ErrorBody
	if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error.Code == "" {
		t.Fatalf("body is not an error envelope (status %d): %s", w.Code, w.Body.String())
	}
	return e
}

// DecodeJSON decodes a JSON body into v, failing the test on error.
func DecodeJSON(t testing.TB, w *httptest.ResponseRecorder, v any) {
	t.Helper()
	if err := json.Unmarshal(w.Body.Bytes(), v); err != nil {
		t.Fatalf("decode body (status %d): %v: %s", w.Code, err, w.Body.String())
	}
}

// Serve runs a request the test built itself against h and returns the recorded response, after
// checking both against the OpenAPI document, as Do does.
func Serve(t testing.TB, h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	t.Helper()
	var raw []byte
	if r.Body != nil {
		var err error
		if raw, err = io.ReadAll(r.Body); err != nil {
			t.Fatalf("read request body: %v", err)
		}
		r.Body = io.NopCloser(bytes.NewReader(raw))
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	checkContract(t, r, raw, w)
	return w
}
