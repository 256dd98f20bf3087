package users

import (
	"errors"
	"net/http"
	"slices"
	"testing"

	"cms/content"
	"cms/content/password"
	"cms/handlers/web"
)

var fuzzSeeds = []string{
	`{"id":"u1","email":"a@b.co","name":"A","password":"twelve chars","roles":["admin"]}`,
	`{"email":"a@b.co","name":"A","password":"twelve chars","theme":"dark"}`,
	`{"display":"X","permissions":[{"resource":"entries","actions":["view"],"scope":"blog"}],"handle":"x"}`,
	`{"currentPassword":"a","newPassword":"twelve chars!"}`,
	`{"roles":null,"id":null}`, `{"permissions":[null,1]}`, `[]`, `null`, `""`, ``, `{`, `{"a":{"b":[1,{"c":2}]}}`,
}

// checkDecodeErr accepts the only errors a decoder may return: 400 for bad JSON, 422 otherwise.
func checkDecodeErr(t *testing.T, err error) {
	t.Helper()
	if we, ok := errors.AsType[*web.Error](err); ok {
		if we.Status != http.StatusBadRequest {
			t.Fatalf("web error %v", we)
		}
		return
	}
	if content.KindOf(err) != content.Invalid {
		t.Fatalf("unexpected error %v", err)
	}
}

func FuzzParseCreate(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := parseCreate(body)
		if err != nil {
			checkDecodeErr(t, err)
			return
		}
		if !emailRE.MatchString(req.Email) || req.Name == "" || password.CheckPolicy(req.Password) != "" ||
			(req.ID != "" && !content.ValidHandle(req.ID)) || slices.Contains(reservedIDs, req.ID) {
			t.Fatalf("accepted invalid user %+v", req)
		}
		for _, r := range req.Roles {
			if !roleRE.MatchString(r) {
				t.Fatalf("accepted role %q", r)
			}
		}
	})
}

func FuzzParseUpdate(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := parseUpdate("u1", body)
		if err != nil {
			checkDecodeErr(t, err)
			return
		}
		if req.Password != nil && password.CheckPolicy(*req.Password) != "" {
			t.Fatalf("accepted weak password")
		}
		if req.Theme != nil && *req.Theme != "light" && *req.Theme != "dark" {
			t.Fatalf("accepted theme %q", *req.Theme)
		}
	})
}

func FuzzParseRole(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := parseRole("", body)
		if err != nil {
			checkDecodeErr(t, err)
			return
		}
		if !roleRE.MatchString(r.Handle) || r.Display == "" || r.Permissions == nil {
			t.Fatalf("accepted invalid role %+v", r)
		}
		for _, p := range r.Permissions {
			if !slices.Contains(roleResources, p.Resource) || len(p.Actions) == 0 {
				t.Fatalf("accepted permission %+v", p)
			}
		}
	})
}

func FuzzParsePassword(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := parsePassword(body, true)
		if err != nil {
			checkDecodeErr(t, err)
			return
		}
		if req.Current == "" || password.CheckPolicy(req.New) != "" {
			t.Fatalf("accepted %+v", req)
		}
	})
}
