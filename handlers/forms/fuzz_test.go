package forms_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"mime/multipart"
	"strings"
	"testing"
	"unicode/utf8"

	"cms/content"
	"cms/handlers/forms"
	"cms/handlers/web"
)

// checkDecoded fails unless a decoder returned either a map or a client error (4xx).
func checkDecoded(t *testing.T, m *content.Map, err error) {
	t.Helper()
	if err != nil {
		status, _, _ := web.Describe(err)
		if status < 400 || status >= 500 {
			t.Fatalf("decoder error %v maps to %d, want a 4xx", err, status)
		}
		return
	}
	if m == nil {
		t.Fatal("no map and no error")
	}
	for _, k := range m.Keys() {
		if !utf8.ValidString(k) {
			t.Fatalf("key %q is not UTF-8", k)
		}
	}
	if _, err := m.MarshalJSON(); err != nil {
		t.Fatalf("decoded values do not encode as JSON: %v", err)
	}
}

func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{"name":"Ada","age":36,"tags":["a","b"],"nested":{"x":null}}`, `[]`, `"x"`, `{`, ``, `{"a":1e400}`, `{"a":"\ud800"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := forms.DecodeJSON(body)
		checkDecoded(t, m, err)
	})
}

func FuzzDecodeURLEncoded(f *testing.F) {
	for _, s := range []string{"name=Ada&age=36&tags[]=a&tags[]=b", "a=1&a=2&a=3", "=x&&y=", "%zz=1", "a=%ff%fe", "a[]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := forms.DecodeURLEncoded(body)
		checkDecoded(t, m, err)
		if err != nil {
			return
		}
		for _, k := range m.Keys() {
			switch v := m.Value(k).(type) {
			case string:
			case []any:
				for _, e := range v {
					if _, ok := e.(string); !ok {
						t.Fatalf("%s: list item %#v is not a string", k, e)
					}
				}
			default:
				t.Fatalf("%s: value %#v is neither a string nor a list", k, v)
			}
		}
	})
}

func FuzzDecodeMultipart(f *testing.F) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.SetBoundary("BOUNDARY")
	mw.WriteField("name", "Ada")
	mw.WriteField("tags[]", "a")
	fw, _ := mw.CreateFormFile("file", "f.txt")
	fw.Write([]byte("data"))
	mw.Close()
	f.Add(buf.Bytes(), "BOUNDARY")
	f.Add([]byte("--B\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nv\r\n--B--\r\n"), "B")
	f.Add([]byte("garbage"), "B")
	f.Fuzz(func(t *testing.T, body []byte, boundary string) {
		m, err := forms.DecodeMultipart(body, boundary)
		checkDecoded(t, m, err)
	})
}

// FuzzCSVWriter checks that any values come back from a CSV reader as the writer meant them:
// one record per submission with the right number of fields, text kept (but for the CRLF a
// reader folds to LF), and no cell a spreadsheet would run as a formula.
func FuzzCSVWriter(f *testing.F) {
	for _, s := range []string{"plain", "=1+1", `a "quoted", value`, "multi\nline\r\nvalue", " -2", "@x", "\t=y", ""} {
		f.Add(s, "other", int64(-3))
	}
	f.Fuzz(func(t *testing.T, a, b string, n int64) {
		if !utf8.ValidString(a) || !utf8.ValidString(b) {
			return // values reach the writer from JSON or YAML, both UTF-8
		}
		var out bytes.Buffer
		cw := forms.NewCSVWriter(&out)
		if err := cw.WriteHeader([]string{"a", "b", "n"}); err != nil {
			t.Fatal(err)
		}
		d := content.NewMap(3)
		d.Set("a", a)
		d.Set("b", []any{b, a})
		d.Set("n", n)
		if err := cw.WriteSubmission(&content.Submission{ID: "id", SubmittedAt: "t", Data: d}); err != nil {
			t.Fatal(err)
		}
		if err := cw.Flush(); err != nil {
			t.Fatal(err)
		}
		r := csv.NewReader(&out)
		r.FieldsPerRecord = 5
		rows, err := r.ReadAll()
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) && strings.ContainsRune(a+b, '\r') {
				return // encoding/csv's reader cannot read back a lone CR inside quotes; spreadsheets can
			}
			t.Fatalf("output does not parse: %v\n%q", err, out.String())
		}
		if len(rows) != 2 {
			t.Fatalf("%d records, want 2: %q", len(rows), out.String())
		}
		crlf := func(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
		if got, want := rows[1][2], crlf(forms.Neutralise(a)); got != want {
			t.Errorf("a = %q, want %q", got, want)
		}
		for _, cell := range rows[1][2:4] {
			if t0 := strings.TrimLeft(cell, " "); t0 != "" && strings.ContainsRune("=+-@\t\r", rune(t0[0])) {
				t.Errorf("cell %q would run as a formula", cell)
			}
		}
	})
}
