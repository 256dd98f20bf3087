package auth

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"cms/content"
	"cms/handlers/web"
)

// FuzzParseLogin feeds arbitrary bodies to the login decoder: it never panics, and every input
// ends as two non-empty strings, a 400 or a 422 with field errors.
func FuzzParseLogin(f *testing.F) {
	for _, s := range []string{
		`{"email":"a@b.c","password":"pw"}`, `{"email":"","password":""}`, `{"email":1}`, `[]`, `null`,
		`"x"`, ``, `{`, `{"email":"a","password":"b","extra":{"deep":[1,2,3]}}`, "{\"email\":\"\\u0000\",\"password\":\"\\ud800\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		email, pw, err := parseLogin(body)
		if err == nil {
			if email == "" || pw == "" || strings.TrimSpace(email) != email {
				t.Fatalf("accepted %q/%q from %q", email, pw, body)
			}
			return
		}
		if we, ok := errors.AsType[*web.Error](err); ok {
			if we.Status != http.StatusBadRequest {
				t.Fatalf("web error %v", we)
			}
			return
		}
		if ce, ok := errors.AsType[*content.Error](err); !ok || ce.Kind != content.Invalid || len(ce.Fields) == 0 {
			t.Fatalf("unexpected error %v", err)
		}
	})
}
