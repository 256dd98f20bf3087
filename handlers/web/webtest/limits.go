package webtest

import (
	"bytes"
	"errors"
	"io/fs"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// Nested returns a JSON value that nests n lists around a 0 ([JSONNesting] n).
func Nested(n int) string {
	return strings.Repeat("[", n) + "0" + strings.Repeat("]", n)
}

// YAMLBomb returns a JSON value nested depth lists deep that is small as JSON but whose YAML is
// longer than yamlBytes: YAML indents each of the zeros at the bottom on its own line by two
// spaces per level, so every two bytes of JSON become more than 2*depth bytes of YAML.
func YAMLBomb(depth, yamlBytes int) string {
	n := yamlBytes/(2*depth) + 1
	var b strings.Builder
	b.Grow(2*depth + 2*n)
	b.WriteString(strings.Repeat("[", depth))
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('0')
	}
	b.WriteString(strings.Repeat("]", depth))
	return b.String()
}

// WantError fails the test unless w is an error envelope with status and code, and returns it.
func WantError(t testing.TB, w *httptest.ResponseRecorder, status int, code string) ErrorBody {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status = %d, want %d: %.300s", w.Code, status, w.Body)
	}
	e := DecodeError(t, w)
	if e.Error.Code != code {
		t.Fatalf("code = %s, want %s: %.300s", e.Error.Code, code, w.Body)
	}
	return e
}

// Unchanged records the bytes of a file (or that it does not exist) and returns a check that
// fails the test when that is no longer so.
func Unchanged(t testing.TB, path string) func() {
	t.Helper()
	before, errBefore := os.ReadFile(path)
	return func() {
		t.Helper()
		after, err := os.ReadFile(path)
		switch {
		case errors.Is(errBefore, fs.ErrNotExist):
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s was created (%d bytes, err %v)", path, len(after), err)
			}
		case errBefore != nil:
			t.Fatalf("read %s: %v", path, errBefore)
		case err != nil || !bytes.Equal(before, after):
			t.Errorf("%s changed: %d bytes before, %d after (err %v)", path, len(before), len(after), err)
		}
	}
}
