package entries_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"strings"
	"testing"

	"cms/content"
	"cms/content/query"
	"cms/handlers/entries"
	"cms/handlers/web"
	"cms/handlers/web/webtest"
)

var decodeSeeds = []string{
	`{"title":"Hello","slug":"hello","status":"published","author":"ann","content":"Body","data":{"a":1,"b":[true,null,"x"],"c":{"d":1.5}},"contentHash":"` + strings.Repeat("aB", 32) + `"}`,
	`{"title":null,"slug":null,"data":null}`,
	`{"data":{"status":"x","createdAt":1,"<<":2,"":3}}`,
	`{"title":5,"status":"live","contentHash":"zz","data":[],"extra":1,"url":"/x"}`,
	`{"title":"  "}`,
	`[1]`, `"x"`, `null`, `{`, `{"a":1}{"b":2}`, `{"data":{"x":[[[[[[]]]]]]}}`,
	`{"title":"\u0000\ud800","slug":"a/b"}`,
	`{"data":{"k":"` + "\\\"" + `[[["}}`,
}

// FuzzDecodeEntry checks that any body decodes to a well-formed Input or a 400/422, and that a
// decoded Input encodes back to a body that decodes to the same Input.
func FuzzDecodeEntry(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		in, err := entries.DecodeEntry(body)
		if err != nil {
			if we, ok := errors.AsType[*web.Error](err); ok {
				if we.Status != http.StatusBadRequest || in != nil {
					t.Fatalf("web error %v with input %v", we, in)
				}
				return
			}
			ce, ok := errors.AsType[*content.Error](err)
			if !ok || ce.Kind != content.Invalid || len(ce.Fields) == 0 || in == nil {
				t.Fatalf("error %v (%T) is not an Invalid with fields", err, err)
			}
		}
		checkInput(t, in)
		if err != nil {
			return
		}
		again, err := entries.DecodeEntry(encodeInput(t, in))
		if err != nil {
			t.Fatalf("re-encoded input does not decode: %v", err)
		}
		if !reflect.DeepEqual(plain(in), plain(again)) {
			t.Fatalf("round trip changed the input:\n%v\n%v", plain(in), plain(again))
		}
	})
}

// checkInput asserts what a decoded Input promises.
func checkInput(t *testing.T, in *entries.Input) {
	t.Helper()
	if in.Title != nil && strings.TrimSpace(*in.Title) == "" {
		t.Fatalf("blank title accepted")
	}
	if in.Slug != nil && !content.ValidHandle(*in.Slug) {
		t.Fatalf("invalid slug %q accepted", *in.Slug)
	}
	if in.Status != nil && *in.Status != "published" && *in.Status != "draft" {
		t.Fatalf("status %q accepted", *in.Status)
	}
	if h := in.ContentHash; h != "" && (len(h) != 64 || strings.ToLower(h) != h) {
		t.Fatalf("contentHash %q accepted", h)
	}
	for _, k := range in.Data.Keys() {
		if content.IsReservedEntryKey(k) || !query.ValidField(k) {
			t.Fatalf("data key %q accepted", k)
		}
	}
	if d := depth(in.Data); d > content.MaxNesting {
		t.Fatalf("data nests %d deep", d)
	}
}

func depth(v any) int {
	switch x := v.(type) {
	case *content.Map:
		d := 0
		for _, k := range x.Keys() {
			d = max(d, depth(x.Value(k)))
		}
		return d + 1
	case []any:
		d := 0
		for _, e := range x {
			d = max(d, depth(e))
		}
		return d + 1
	}
	return 0
}

func encodeInput(t *testing.T, in *entries.Input) []byte {
	t.Helper()
	m := content.NewMap(7)
	for k, p := range map[string]*string{"title": in.Title, "slug": in.Slug, "status": in.Status, "author": in.Author, "content": in.Content} {
		if p != nil {
			m.Set(k, *p)
		}
	}
	if in.Data != nil {
		m.Set("data", in.Data)
	}
	if in.ContentHash != "" {
		m.Set("contentHash", in.ContentHash)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

func plain(in *entries.Input) string {
	s := func(p *string) string {
		if p == nil {
			return "<nil>"
		}
		return fmt.Sprintf("%q", *p)
	}
	data, _ := json.Marshal(in.Data)
	return fmt.Sprintf("title=%s slug=%s status=%s author=%s content=%s hash=%q data=%s (nil %v)",
		s(in.Title), s(in.Slug), s(in.Status), s(in.Author), s(in.Content), in.ContentHash, data, in.Data == nil)
}

// FuzzSlugify checks that a derived slug is empty or a valid handle of at most MaxSlugLen
// characters, and that deriving again changes nothing.
func FuzzSlugify(f *testing.F) {
	for _, s := range []string{"Hello World", "Crème Brûlée & Straße", "---", "日本語", "a'b’c", strings.Repeat("ab ", 60), "ǅ", "İstanbul"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, title string) {
		s := entries.Slugify(title)
		if s == "" {
			return
		}
		if !content.ValidHandle(s) || len(s) > entries.MaxSlugLen || strings.HasSuffix(s, "-") || strings.Contains(s, "--") {
			t.Fatalf("Slugify(%q) = %q", title, s)
		}
		if again := entries.Slugify(s); again != s {
			t.Fatalf("Slugify(%q) = %q, but Slugify of that is %q", title, s, again)
		}
	})
}

// FuzzCreateEntry posts arbitrary bodies to a collection without a blueprint: the answer is never
// a 500, and what was created reads back from its file exactly as the create response showed it.
func FuzzCreateEntry(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add(s)
	}
	for _, s := range []string{
		`{"title":"Dates","data":{"d":"2026-01-02","t":"2026-01-02T10:00:00Z","n":"012","y":"yes","f":1e300,"neg":-0,"big":12345678901234567890}}`,
		`{"title":"Odd text","content":"---\nfoo: bar\n---\n","data":{"s":"a: b","m":"line\nbreak","q":"'\"","e":"","sp":" x "}}`,
		`{"title":"Nested","data":{"list":[{"a":[1,{"b":null}]}],"empty":{},"none":[]}}`,
	} {
		f.Add(s)
	}
	e := newEnv(f)
	fresh := e.withAuth(f, newAuth(f)) // its own cache: a GET through it reads the file
	n := 0
	f.Fuzz(func(t *testing.T, body string) {
		n++
		// A fresh slug each time, so duplicates do not hide the round trip.
		var m content.Map
		if err := m.UnmarshalJSON([]byte(body)); err == nil {
			m.Set("slug", fmt.Sprintf("fuzz-%d", n))
			b, _ := json.Marshal(&m)
			body = string(b)
		}
		w := e.do(t, webtest.Request{Method: "POST", Path: "/api/entries/pages", Token: tokAdmin, Body: body})
		switch w.Code {
		case http.StatusCreated:
		case http.StatusBadRequest, http.StatusUnprocessableEntity, http.StatusConflict, http.StatusRequestEntityTooLarge:
			webtest.DecodeError(t, w)
			return
		default:
			t.Fatalf("status %d for %q: %s", w.Code, body, w.Body)
		}
		var created struct{ Data json.RawMessage }
		webtest.DecodeJSON(t, w, &created)
		var got wireEntry
		_ = json.Unmarshal(created.Data, &got)
		r := webtest.Do(t, fresh, webtest.Request{Path: "/api/entries/pages/" + got.Slug, Token: tokAdmin})
		if r.Code != http.StatusOK {
			t.Fatalf("GET after create: %d %s", r.Code, r.Body)
		}
		var read struct{ Data json.RawMessage }
		webtest.DecodeJSON(t, r, &read)
		if string(read.Data) != string(created.Data) {
			t.Fatalf("entry changed on its way through the file:\nsent    %s\ncreated %s\nread    %s\nfile:\n%s", body, created.Data, read.Data, readFile(e, got.Slug))
		}
	})
}

func readFile(e *env, slug string) string {
	b, _ := os.ReadFile(e.file("pages", slug))
	return string(b)
}
