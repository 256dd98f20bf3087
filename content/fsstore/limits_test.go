package fsstore_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
)

func deepList(n int) any {
	v := any("leaf")
	for range n {
		v = []any{v}
	}
	return v
}

func wantLimitErr(t *testing.T, err error, kind content.Kind, code string) {
	t.Helper()
	ce, ok := errors.AsType[*content.Error](err)
	if !ok || ce.Kind != kind || ce.Code != code {
		t.Fatalf("err = %v, want a %s error with code %s", err, kind, code)
	}
}

// A global whose YAML is exactly content.MaxDocumentBytes is written and read back; one byte more
// is refused with the limit's error and the file keeps its bytes.
func TestDocumentSizeLimit(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, "-- content/globals/g.yaml --\nkept: true\n")
	st := contenttest.OpenStore(t, dir)
	file := filepath.Join(dir, "content/globals/g.yaml")
	doc := func(n int) *content.Map { return mapOf("a", strings.Repeat("x", n)) } // "a: xxx…\n"

	_, err := st.SaveGlobal("g", doc(content.MaxDocumentBytes-len("a: \n")+1), "")
	wantLimitErr(t, err, content.TooLarge, content.CodeDocumentTooLarge)
	if got := readFile(t, dir, "content/globals/g.yaml"); got != "kept: true\n" {
		t.Fatalf("file after the refusal = %.40q", got)
	}

	if _, err := st.SaveGlobal("g", doc(content.MaxDocumentBytes-len("a: \n")), ""); err != nil {
		t.Fatalf("saving a document of exactly the limit: %v", err)
	}
	if fi, err := os.Stat(file); err != nil || fi.Size() != content.MaxDocumentBytes {
		t.Fatalf("file is %v bytes (%v), want %d", fi.Size(), err, content.MaxDocumentBytes)
	}
	back, err := st.Global("g")
	if err != nil {
		t.Fatalf("reading back a document of exactly the limit: %v", err)
	}
	if s, _ := back.Data.String("a"); len(s) != content.MaxDocumentBytes-len("a: \n") {
		t.Errorf("read back %d bytes of a", len(s))
	}
}

// Writers other than the YAML documents keep the same limits: nothing is written, and the error
// is the limit's rather than an internal one.
func TestWritersRefuseValuesNestedTooDeeply(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, "-- resources/collections/blog.yaml --\ntitle: Blog\n")
	st := contenttest.OpenStore(t, dir)
	deep := mapOf("x", deepList(content.MaxNesting))

	_, err := st.CreateEntry(&content.Entry{Collection: "blog", Slug: "deep", Title: "Deep", Data: deep})
	wantLimitErr(t, err, content.Invalid, content.CodeNestingTooDeep)
	_, err = st.CreateSubmission("contact", deep, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	wantLimitErr(t, err, content.Invalid, content.CodeNestingTooDeep)
	err = st.CreateUser(&content.User{ID: "deep", Email: "deep@example.com", Name: "Deep", PasswordHash: "x", Extra: deep})
	wantLimitErr(t, err, content.Invalid, content.CodeNestingTooDeep)
	for _, p := range []string{"content/collections/blog/deep.md", "content/forms/contact", "users/deep.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, p)); !os.IsNotExist(err) {
			t.Errorf("%s was written (%v)", p, err)
		}
	}
}
