package forms_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"cms/handlers/forms"
)

func TestSubmitEncodings(t *testing.T) {
	t.Parallel()
	mpType, mpBody := multipartBody(t, [][2]string{
		{"name", "Ada"}, {"email", "ada@example.com"}, {"age", "36"}, {"newsletter", "on"},
		{"interests", "go"}, {"interests", "wasm"}, {"unknown", "dropped"},
	}, nil)
	tests := []struct {
		name        string
		contentType string
		body        string
	}{
		{"json", "application/json", `{"name":"Ada","email":"ada@example.com","age":36,"newsletter":true,"interests":["go","wasm"],"unknown":"dropped"}`},
		{"json without content type", "", `{"name":"Ada","email":"ada@example.com","age":36,"newsletter":true,"interests":["go","wasm"]}`},
		{"urlencoded", "application/x-www-form-urlencoded", "name=Ada&email=ada%40example.com&age=36&newsletter=on&interests=go&interests=wasm&unknown=dropped"},
		{"urlencoded with [] keys", "application/x-www-form-urlencoded; charset=utf-8", "name=Ada&email=ada%40example.com&age=36&newsletter=on&interests%5B%5D=go&interests%5B%5D=wasm"},
		{"multipart", mpType, string(mpBody)},
	}
	const want = `{"name":"Ada","email":"ada@example.com","age":36,"newsletter":true,"interests":["go","wasm"]}`
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, "")
			// Accept: application/json makes form posts answer JSON too.
			w := e.post(t, "contact", tc.contentType, []byte(tc.body), "Accept", "application/json")
			wantStatus(t, w, http.StatusCreated)
			var got submitted
			if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if got.Data.Form != "contact" || got.Data.SubmittedAt != "2026-05-06T07:08:09.000Z" || len(got.Data.ID) != 36 {
				t.Errorf("submission = %+v", got.Data)
			}
			if string(got.Data.Data) != want {
				t.Errorf("response data = %s, want %s", got.Data.Data, want)
			}
			subs := e.stored(t, "contact")
			if len(subs) != 1 {
				t.Fatalf("%d submissions stored, want 1", len(subs))
			}
			if s := dataJSON(t, subs[0].Data); s != want || subs[0].ID != got.Data.ID {
				t.Errorf("stored %s %s, want %s %s", subs[0].ID, s, got.Data.ID, want)
			}
		})
	}
}

func TestSubmitCoercion(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	w := e.postForm(t, "plain", url.Values{
		"name": {"Ada"}, "email": {"ada@example.com"}, "age": {" 42 "}, "newsletter": {"off"},
		"interests": {"yaml"}, "visit": {" 2026-01-02 "}, "source": {"footer"},
	}, "Accept", "application/json")
	wantStatus(t, w, http.StatusCreated)
	got := dataJSON(t, e.stored(t, "plain")[0].Data)
	want := `{"name":"Ada","email":"ada@example.com","age":42,"newsletter":false,"interests":["yaml"],"visit":"2026-01-02","source":"footer"}`
	if got != want {
		t.Errorf("stored %s\nwant   %s", got, want)
	}

	// A string a number field cannot take is a validation error, not a stored string.
	w = e.postForm(t, "plain", url.Values{"name": {"Ada"}, "email": {"ada@example.com"}, "age": {"forty"}}, "Accept", "application/json")
	body := wantError(t, w, http.StatusUnprocessableEntity, "VALIDATION_ERROR")
	if len(body.Error.Fields["age"]) == 0 {
		t.Errorf("fields = %v, want a message for age", body.Error.Fields)
	}
}

func TestSubmitRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	bad := map[string]any{
		"min_text": "ab", "max_text": "abcd", "min_number": 5, "max_number": 11,
		"min_list": []string{"x"}, "max_list": []string{"x", "y"}, "email": "not-an-address",
		"url": "ftp:/nope", "regex": "abc", "range": 9, "size": "abc", "in": "blue", "not_in": "root",
		"alpha": "abc1", "alpha_num": "ab-1", "alpha_dash": "a b", "lowercase": "Abc", "uppercase": "abC",
		"integer": "1.5", "numeric": "1,5", "date": "2020-13-45", "after": "2019-12-31", "before": "2020-01-02",
		"accepted": false, "choice": "c", "typed": "x",
	}
	w := e.postJSON(t, "rules", bad)
	body := wantError(t, w, http.StatusUnprocessableEntity, "VALIDATION_ERROR")
	want := map[string]string{
		"req":        "This field is required",
		"min_text":   "Must be at least 3 characters",
		"max_text":   "Must be at most 3 characters",
		"min_number": "Must be at least 10",
		"max_number": "Must be at most 10",
		"min_list":   "Must have at least 2 items",
		"max_list":   "Must have at most 1 item",
		"email":      "Must be a valid email address",
		"url":        "Must be a valid URL",
		"regex":      "Must match pattern ^[A-Z]+$",
		"range":      "Must be at most 5",
		"size":       "Must be exactly 4 characters",
		"in":         "Must be one of: red, green",
		"not_in":     "Must not be one of: root, admin",
		"alpha":      "Must contain only letters",
		"alpha_num":  "Must contain only letters and numbers",
		"alpha_dash": "Must contain only letters, numbers, dashes, and underscores",
		"lowercase":  "Must be lowercase",
		"uppercase":  "Must be uppercase",
		"integer":    "Must be a whole number",
		"numeric":    "Must be a number",
		"date":       "Must be a valid date",
		"after":      "Must be a date after 2020-01-01",
		"before":     "Must be a date before 2020-01-01",
		"accepted":   "Must be accepted",
		"choice":     "",
		"typed":      "Must be a number",
	}
	for field, msg := range want {
		got := body.Error.Fields[field]
		if len(got) == 0 {
			t.Errorf("%s: no message, want %q", field, msg)
			continue
		}
		if msg != "" && got[0] != msg {
			t.Errorf("%s: message %q, want %q", field, got[0], msg)
		}
	}
	if len(body.Error.Fields) != len(want) {
		t.Errorf("fields = %v, want exactly %d fields", body.Error.Fields, len(want))
	}
	if e.files(t, "rules") != 0 {
		t.Errorf("an invalid submission was stored")
	}

	good := map[string]any{
		"req": "x", "min_text": "abc", "max_text": "abc", "min_number": 10, "max_number": 10,
		"min_list": []string{"x", "y"}, "max_list": []string{"x"}, "email": "a@b.co", "url": "https://example.com/x",
		"regex": "ABC", "range": 5, "size": "abcd", "in": "red", "not_in": "user", "alpha": "abc", "alpha_num": "ab1",
		"alpha_dash": "a-b_c", "lowercase": "abc", "uppercase": "ABC", "integer": "15", "numeric": "1.5",
		"date": "2020-12-01", "after": "2020-01-02", "before": "2019-12-31", "accepted": true, "choice": "a", "typed": 3,
	}
	w = e.postJSON(t, "rules", good)
	wantStatus(t, w, http.StatusCreated)
	if e.files(t, "rules") != 1 {
		t.Errorf("the valid submission was not stored")
	}
}

func TestSubmitHoneypot(t *testing.T) {
	t.Parallel()
	valid := map[string]any{"name": "Ada", "email": "ada@example.com"}
	with := func(extra map[string]any) map[string]any {
		m := map[string]any{}
		for k, v := range valid {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name      string
		form      string
		body      map[string]any
		wantFiles int
	}{
		{"filled honeypot is dropped", "contact", with(map[string]any{"_honeypot": "http://spam.example"}), 0},
		{"filled honeypot of an invalid submission still looks accepted", "contact", map[string]any{"_honeypot": "x"}, 0},
		{"non-string honeypot counts as filled", "contact", with(map[string]any{"_honeypot": true}), 0},
		{"empty honeypot is stored without it", "contact", with(map[string]any{"_honeypot": ""}), 1},
		{"blank honeypot is stored", "contact", with(map[string]any{"_honeypot": "  "}), 1},
		{"form without honeypot ignores the field", "plain", with(map[string]any{"_honeypot": "x"}), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, "")
			w := e.postJSON(t, tc.form, tc.body)
			wantStatus(t, w, http.StatusCreated)
			var got submitted
			json.Unmarshal(w.Body.Bytes(), &got)
			if len(got.Data.ID) != 36 || got.Data.Form != tc.form {
				t.Errorf("response %s does not look like a stored submission", w.Body.String())
			}
			if strings.Contains(w.Body.String(), "_honeypot") {
				t.Errorf("response carries the honeypot: %s", w.Body.String())
			}
			if n := e.files(t, tc.form); n != tc.wantFiles {
				t.Fatalf("%d files stored, want %d", n, tc.wantFiles)
			}
			if tc.wantFiles == 1 {
				if d := dataJSON(t, e.stored(t, tc.form)[0].Data); strings.Contains(d, "_honeypot") {
					t.Errorf("stored data keeps the honeypot: %s", d)
				}
			}
		})
	}
}

func TestSubmitVisibility(t *testing.T) {
	t.Parallel()
	tests := []struct {
		topic string
		want  string
	}{
		{"general", `{"name":"Ada","email":"ada@example.com","topic":"general"}`},
		{"sales", `{"name":"Ada","email":"ada@example.com","topic":"sales","company":"ACME"}`},
	}
	for _, tc := range tests {
		t.Run(tc.topic, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, "")
			w := e.postJSON(t, "plain", map[string]any{"name": "Ada", "email": "ada@example.com", "topic": tc.topic, "company": "ACME"})
			wantStatus(t, w, http.StatusCreated)
			if got := dataJSON(t, e.stored(t, "plain")[0].Data); got != tc.want {
				t.Errorf("stored %s, want %s", got, tc.want)
			}
		})
	}
}

func TestSubmitNotStored(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	w := e.postJSON(t, "nostore", map[string]any{"name": "Ada", "email": "ada@example.com"})
	wantStatus(t, w, http.StatusCreated)
	var got submitted
	json.Unmarshal(w.Body.Bytes(), &got)
	if len(got.Data.ID) != 36 || string(got.Data.Data) != `{"name":"Ada","email":"ada@example.com"}` {
		t.Errorf("response = %s", w.Body.String())
	}
	if n := e.files(t, "nostore"); n != 0 {
		t.Errorf("%d files stored for store_submissions: false", n)
	}
}

func TestSubmitErrors(t *testing.T) {
	t.Parallel()
	big := `{"name":"` + strings.Repeat("x", forms.DefaultMaxBodyBytes) + `"}`
	tests := []struct {
		name        string
		form        string
		contentType string
		body        string
		chunked     bool
		status      int
		code        string
	}{
		{"unknown form", "nope", "application/json", `{}`, false, 404, "NOT_FOUND"},
		{"invalid handle", "a.b", "application/json", `{}`, false, 404, "NOT_FOUND"},
		{"blueprint with a forbidden required type", "broken", "application/json", `{}`, false, 500, forms.CodeMisconfigured},
		{"missing blueprint", "orphan", "application/json", `{}`, false, 500, forms.CodeMisconfigured},
		{"too large", "contact", "application/json", big, false, 413, "PAYLOAD_TOO_LARGE"},
		{"too large without Content-Length", "contact", "application/json", big, true, 413, "PAYLOAD_TOO_LARGE"},
		{"too large for an unknown form", "nope", "application/json", big, false, 413, "PAYLOAD_TOO_LARGE"},
		{"malformed JSON", "contact", "application/json", `{"name":`, false, 400, "BAD_REQUEST"},
		{"empty JSON body", "contact", "application/json", ``, false, 400, "BAD_REQUEST"},
		{"JSON array", "contact", "application/json", `["x"]`, false, 422, "VALIDATION_ERROR"},
		{"JSON string", "contact", "application/json", `"x"`, false, 422, "VALIDATION_ERROR"},
		{"unsupported type", "contact", "text/plain", `name=x`, false, 415, "UNSUPPORTED_MEDIA_TYPE"},
		{"malformed content type", "contact", "application/json; =", `{}`, false, 400, "BAD_REQUEST"},
		{"bad URL encoding", "contact", "application/x-www-form-urlencoded", `name=%zz`, false, 400, "BAD_REQUEST"},
		{"multipart without boundary", "contact", "multipart/form-data", `x`, false, 400, "BAD_REQUEST"},
		{"hook not installed", "gated", "application/json", `{"code":"x"}`, false, 503, "HOOK_UNAVAILABLE"},
		{"hook not installed, field empty", "gated", "application/json", `{}`, false, 503, "HOOK_UNAVAILABLE"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, "")
			r := newRequest(tc.form, tc.contentType, tc.body, tc.chunked)
			r.Header.Set("Accept", "application/json")
			w := serve(e.h, r)
			wantError(t, w, tc.status, tc.code)
			if n := e.files(t, tc.form); n != 0 {
				t.Errorf("%d files stored", n)
			}
		})
	}
}

func TestSubmitRefusesFiles(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	ct, body := multipartBody(t, [][2]string{{"name", "Ada"}, {"email", "ada@example.com"}}, map[string]string{"attachment": "data"})
	w := e.post(t, "contact", ct, body, "Accept", "application/json")
	body2 := wantError(t, w, http.StatusBadRequest, "BAD_REQUEST")
	if !strings.Contains(body2.Error.Message, "attachment") {
		t.Errorf("message %q does not name the field", body2.Error.Message)
	}
	// An empty file input is simply absent.
	ct, body = multipartBody(t, [][2]string{{"name", "Ada"}, {"email", "ada@example.com"}}, map[string]string{"attachment": ""})
	wantStatus(t, e.post(t, "contact", ct, body, "Accept", "application/json"), http.StatusCreated)
}

func TestSubmitRateLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "", func(d *forms.Deps) { d.RateLimit = 2 })
	body := map[string]any{"name": "Ada", "email": "ada@example.com"}
	from := func(addr, form string) *http.Request {
		b, _ := json.Marshal(body)
		r := newRequest(form, "application/json", string(b), false)
		r.RemoteAddr = addr
		return r
	}
	for i := range 2 {
		wantStatus(t, serve(e.h, from("192.0.2.1:1000", "contact")), http.StatusCreated)
		_ = i
	}
	w := serve(e.h, from("192.0.2.1:2000", "contact"))
	wantError(t, w, http.StatusTooManyRequests, "RATE_LIMITED")
	if ra := w.Header().Get("Retry-After"); ra != "60" {
		t.Errorf("Retry-After = %q, want 60", ra)
	}
	// Other forms and other addresses have their own budget; an IPv6 client its /64.
	wantStatus(t, serve(e.h, from("192.0.2.1:1000", "plain")), http.StatusCreated)
	wantStatus(t, serve(e.h, from("192.0.2.2:1000", "contact")), http.StatusCreated)
	wantStatus(t, serve(e.h, from("[2001:db8::1]:1", "contact")), http.StatusCreated)
	wantStatus(t, serve(e.h, from("[2001:db8::2]:1", "contact")), http.StatusCreated)
	wantError(t, serve(e.h, from("[2001:db8::3]:1", "contact")), http.StatusTooManyRequests, "RATE_LIMITED")
	if n := e.files(t, "contact"); n != 5 {
		t.Errorf("%d stored, want 5", n)
	}
	// An unknown form is 404 before it can use up a budget.
	wantError(t, serve(e.h, from("192.0.2.9:1", "nope")), http.StatusNotFound, "NOT_FOUND")
}

func TestSubmitBrowserRedirects(t *testing.T) {
	t.Parallel()
	valid := url.Values{"name": {"Ada"}, "email": {"ada@example.com"}}
	invalid := url.Values{"name": {"A"}}
	const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	tests := []struct {
		name     string
		form     string
		values   url.Values
		headers  []string
		status   int
		location string // "" for a JSON answer
		errors   string // the errors parameter, when one is expected
	}{
		{"success goes to the form's redirect", "contact", valid, []string{"Referer", "http://example.com/contact"}, 303, "/thanks?form=contact&status=ok", ""},
		{"success without redirect goes back", "plain", valid, []string{"Referer", "http://example.com/contact?x=1#form"}, 303, "http://example.com/contact?form=plain&status=ok&x=1#form", ""},
		{"configured site referer", "plain", valid, []string{"Referer", "https://www.example.com/c"}, 303, "https://www.example.com/c?form=plain&status=ok", ""},
		{"foreign referer is ignored", "plain", valid, []string{"Referer", "https://evil.example/x"}, 303, "/?form=plain&status=ok", ""},
		{"off-site redirect is ignored", "offsite", valid, []string{"Referer", "http://example.com/c"}, 303, "http://example.com/c?form=offsite&status=ok", ""},
		{"no referer", "plain", valid, nil, 303, "/?form=plain&status=ok", ""},
		{"invalid goes back with errors", "contact", invalid, []string{"Referer", "http://example.com/contact"}, 303,
			"http://example.com/contact?code=VALIDATION_ERROR&errors=%7B%22email%22%3A%5B%22This+field+is+required%22%5D%2C%22name%22%3A%5B%22Must+be+at+least+2+characters%22%5D%7D&form=contact&old=%7B%22name%22%3A%22A%22%7D&status=error",
			`{"email":["This field is required"],"name":["Must be at least 2 characters"]}`},
		{"invalid without referer goes to the redirect", "contact", invalid, nil, 303, "", `{"email":["This field is required"],"name":["Must be at least 2 characters"]}`},
		{"honeypot looks like success", "contact", url.Values{"name": {"x"}, "_honeypot": {"spam"}}, nil, 303, "/thanks?form=contact&status=ok", ""},
		{"Accept: JSON gets JSON", "contact", valid, []string{"Accept", "application/json"}, 201, "", ""},
		{"Accept: HTML with JSON body", "contact", nil, []string{"Accept", browserAccept}, 303, "/thanks?form=contact&status=ok", ""},
		{"unknown form stays JSON", "nope", valid, nil, 404, "", ""},
		{"broken form stays JSON", "broken", valid, nil, 500, "", ""},
		{"hook unavailable goes back", "gated", url.Values{"code": {"x"}}, []string{"Referer", "http://example.com/g"}, 303, "http://example.com/g?code=HOOK_UNAVAILABLE&form=gated&status=error", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, "")
			var w = e.postForm(t, tc.form, tc.values, tc.headers...)
			if tc.values == nil {
				w = e.postJSON(t, tc.form, map[string]any{"name": "Ada", "email": "ada@example.com"}, tc.headers...)
			}
			wantStatus(t, w, tc.status)
			loc := w.Header().Get("Location")
			if tc.location != "" && loc != tc.location {
				t.Errorf("Location = %q\nwant       %q", loc, tc.location)
			}
			if tc.errors != "" {
				u, err := url.Parse(loc)
				if err != nil {
					t.Fatal(err)
				}
				if got := u.Query().Get("errors"); got != tc.errors {
					t.Errorf("errors = %s, want %s", got, tc.errors)
				}
				if tc.location == "" && u.Path != "/thanks" {
					t.Errorf("Location = %q, want the form's redirect", loc)
				}
			}
			if tc.status != 303 && !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
				t.Errorf("Content-Type = %q, want JSON", w.Header().Get("Content-Type"))
			}
		})
	}
}

// A failed browser post gets back the text it sent for the form's own fields (to fill the form
// in again), within bounds: never the honeypot or unknown keys, nothing long.
func TestSubmitBrowserOldValues(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	long := strings.Repeat("x", 501)
	w := e.postForm(t, "contact", url.Values{"name": {"A"}, "email": {"not an email"}, "topic": {"sales"}, "company": {long},
		"_honeypot": {""}, "unknown": {"u"}, "newsletter": {"true"}}, "Referer", "http://example.com/contact")
	wantStatus(t, w, http.StatusSeeOther)
	u, err := url.Parse(w.Header().Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := u.Query().Get("old"), `{"email":"not an email","name":"A","newsletter":"true","topic":"sales"}`; got != want {
		t.Errorf("old = %s\nwant  %s", got, want)
	}
	// A success carries none.
	w = e.postForm(t, "contact", url.Values{"name": {"Ada"}, "email": {"ada@example.com"}}, "Referer", "http://example.com/contact")
	if loc := w.Header().Get("Location"); strings.Contains(loc, "old=") {
		t.Errorf("success Location %q", loc)
	}
}

func TestSubmitBrowserRateLimited(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "", func(d *forms.Deps) { d.RateLimit = 1 })
	vals := url.Values{"name": {"Ada"}, "email": {"ada@example.com"}}
	wantStatus(t, e.postForm(t, "plain", vals), http.StatusSeeOther)
	w := e.postForm(t, "plain", vals, "Referer", "http://example.com/p")
	wantStatus(t, w, http.StatusSeeOther)
	if loc := w.Header().Get("Location"); loc != "http://example.com/p?code=RATE_LIMITED&form=plain&status=error" {
		t.Errorf("Location = %q", loc)
	}
	if w.Header().Get("Retry-After") == "" {
		t.Errorf("no Retry-After on the redirect")
	}
}
