package forms_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cms/content"
	"cms/handlers/forms"
	"cms/handlers/web/webtest"
)

func TestCSVCell(t *testing.T) {
	t.Parallel()
	list := func(v ...any) []any { return v }
	obj := content.NewMap(2)
	obj.Set("b", int64(1))
	obj.Set("a", "x")
	tests := []struct {
		in   any
		want string
	}{
		{nil, ""},
		{"plain", "plain"},
		{int64(-5), "-5"}, // a number is not a formula
		{1.5, "1.5"},
		{1e21, "1000000000000000000000"},
		{true, "true"},
		{"=SUM(A1:A9)", "'=SUM(A1:A9)"},
		{"+1", "'+1"},
		{"-1+2", "'-1+2"},
		{"@cmd", "'@cmd"},
		{"\tHYPERLINK", "'\tHYPERLINK"},
		{"\rx", "'\rx"},
		{"   =1+1", "'   =1+1"},
		{"a=b", "a=b"},
		{list("go", "yaml"), "go, yaml"},
		{list("=evil", "x"), "'=evil, x"},
		{list(), ""},
		{obj, `{"b":1,"a":"x"}`},
		{list(obj), `{"b":1,"a":"x"}`},
	}
	for _, tc := range tests {
		if got := forms.CSVCell(tc.in); got != tc.want {
			t.Errorf("CSVCell(%#v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCSVWriterEscaping(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	cw := forms.NewCSVWriter(&buf)
	if err := cw.WriteHeader([]string{"a", "b", "c", "=h"}); err != nil {
		t.Fatal(err)
	}
	d := content.NewMap(3)
	d.Set("a", `say "hi", twice`)
	d.Set("b", "line one\nline two")
	d.Set("c", "=HYPERLINK(\"http://evil\")")
	if err := cw.WriteSubmission(&content.Submission{ID: "id-1", SubmittedAt: "2026-01-01T00:00:00.000Z", Data: d}); err != nil {
		t.Fatal(err)
	}
	if err := cw.Flush(); err != nil {
		t.Fatal(err)
	}
	want := "id,submitted_at,a,b,c,'=h\r\n" +
		"id-1,2026-01-01T00:00:00.000Z,\"say \"\"hi\"\", twice\",\"line one\nline two\",\"'=HYPERLINK(\"\"http://evil\"\")\",\r\n"
	if buf.String() != want {
		t.Errorf("csv =\n%q\nwant\n%q", buf.String(), want)
	}
}

func TestExportCSV(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	for _, body := range []map[string]any{
		{"name": "Ada", "email": "ada@example.com", "interests": []string{"go", "wasm"}},
		{"name": "=cmd|' /C calc'!A0", "email": "b@example.com", "age": 40, "topic": "sales", "company": "Smith, Jones & \"Co\""},
	} {
		wantStatus(t, e.postJSON(t, "plain", body), http.StatusCreated)
	}
	w := webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/plain/export/csv", Token: e.viewer})
	wantStatus(t, w, http.StatusOK)
	if ct := w.Header().Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
	if cd := w.Header().Get("Content-Disposition"); cd != `attachment; filename="plain-submissions.csv"` {
		t.Errorf("Content-Disposition = %q", cd)
	}
	rows, err := csv.NewReader(strings.NewReader(w.Body.String())).ReadAll()
	if err != nil {
		t.Fatalf("not valid CSV: %v\n%s", err, w.Body.String())
	}
	if got := fmt.Sprint(rows[0]); got != "[id submitted_at age company email interests name topic]" {
		t.Errorf("header = %s", got)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	if got := fmt.Sprint(rows[1][2:]); got != "[  ada@example.com go, wasm Ada ]" {
		t.Errorf("row 1 = %q", rows[1][2:])
	}
	if rows[2][3] != `Smith, Jones & "Co"` || rows[2][6] != `'=cmd|' /C calc'!A0` || rows[2][2] != "40" {
		t.Errorf("row 2 = %q", rows[2])
	}

	// No submissions: just the header.
	w = webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/contact/export/csv", Token: e.viewer})
	wantStatus(t, w, http.StatusOK)
	if w.Body.String() != "id,submitted_at\r\n" {
		t.Errorf("empty export = %q", w.Body.String())
	}
	wantError(t, webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/nope/export/csv", Token: e.viewer}), 404, "NOT_FOUND")
}

func TestExportJSON(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	w := webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/plain/export/json", Token: e.viewer})
	wantStatus(t, w, http.StatusOK)
	if w.Body.String() != "[]\n" {
		t.Errorf("empty export = %q", w.Body.String())
	}
	subs := seed(t, e, "plain", 3)
	w = webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/plain/export/json", Token: e.viewer})
	wantStatus(t, w, http.StatusOK)
	if cd := w.Header().Get("Content-Disposition"); cd != `attachment; filename="plain-submissions.json"` {
		t.Errorf("Content-Disposition = %q", cd)
	}
	var got []struct {
		ID          string         `json:"id"`
		Form        string         `json:"form"`
		SubmittedAt string         `json:"submittedAt"`
		Data        map[string]any `json:"data"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, w.Body.String())
	}
	if len(got) != 3 || got[0].ID != subs[0].ID || got[2].Data["n"] != float64(2) || got[1].Form != "plain" || got[1].SubmittedAt != "2026-01-01T00:00:01.000Z" {
		t.Errorf("export = %+v", got)
	}
	if !strings.HasPrefix(w.Body.String(), "[\n  {\n    \"id\"") {
		t.Errorf("export is not indented: %.40q", w.Body.String())
	}
}

// store is the interface countingStore embeds: a name other than Submissions, the method.
type store = forms.Submissions

// countingStore wraps the real store and records how many submissions the exporter holds at
// once: a submission counts from when the store yields it until the exporter asks for the next.
type countingStore struct {
	store
	live, peak atomic.Int64
	yielded    atomic.Int64
}

func (c *countingStore) EachSubmission(form string) iter.Seq2[*content.Submission, error] {
	return func(yield func(*content.Submission, error) bool) {
		for s, err := range c.store.EachSubmission(form) {
			n := c.live.Add(1)
			if n > c.peak.Load() {
				c.peak.Store(n)
			}
			c.yielded.Add(1)
			more := yield(s, err)
			c.live.Add(-1)
			if !more {
				return
			}
		}
	}
}

func TestExportStreamsManySubmissions(t *testing.T) {
	t.Parallel()
	const n = 5000
	e := newEnv(t, "")
	counting := &countingStore{store: e.store}
	h, err := forms.New(forms.Deps{Definitions: e.store, Submissions: counting, Auth: e.auth, Now: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	// Written directly, as the store writes them: creating 5,000 files through atomic writes
	// would only test the disk.
	dir := filepath.Join(e.dir, "content", "forms", "plain")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		at := base.Add(time.Duration(i) * time.Second)
		id := content.NewSubmissionID(at)
		extra := ""
		if i%1000 == 0 {
			extra = fmt.Sprintf("  rare%d: x\n", i) // a key only some submissions have still gets a column
		}
		body := fmt.Sprintf("id: %s\nform: plain\nsubmitted_at: %s\ndata:\n  n: %d\n%s", id, at.Format("2006-01-02T15:04:05.000Z"), i, extra)
		if err := os.WriteFile(filepath.Join(dir, at.Format("2006-01-02T15-04-05")+"-"+id+".yaml"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := webtest.Do(t, h, webtest.Request{Path: "/api/forms/plain/export/csv", Token: e.viewer})
	wantStatus(t, w, http.StatusOK)
	rows, err := csv.NewReader(bytes.NewReader(w.Body.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != n+1 {
		t.Fatalf("%d rows, want %d", len(rows), n+1)
	}
	if got := fmt.Sprint(rows[0]); got != "[id submitted_at n rare0 rare1000 rare2000 rare3000 rare4000]" {
		t.Errorf("header = %s", got)
	}
	if rows[n][2] != fmt.Sprint(n-1) || rows[1001][3+1] != "x" {
		t.Errorf("rows out of order or misplaced: %q %q", rows[n], rows[1001])
	}
	if p := counting.peak.Load(); p != 1 {
		t.Errorf("the exporter held %d submissions at once, want 1", p)
	}
	if y := counting.yielded.Load(); y != 2*n {
		t.Errorf("%d submissions read, want %d (two passes)", y, 2*n)
	}

	counting.yielded.Store(0)
	w = webtest.Do(t, h, webtest.Request{Path: "/api/forms/plain/export/json", Token: e.viewer})
	wantStatus(t, w, http.StatusOK)
	var arr []json.RawMessage
	if err := json.Unmarshal(w.Body.Bytes(), &arr); err != nil || len(arr) != n {
		t.Fatalf("json export: %d items, %v", len(arr), err)
	}
	if y := counting.yielded.Load(); y != n || counting.peak.Load() != 1 {
		t.Errorf("json export read %d (peak %d), want %d (peak 1)", y, counting.peak.Load(), n)
	}
}
