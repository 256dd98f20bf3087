package assets_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

func listRequest(dir string) func() *http.Request {
	return func() *http.Request {
		r := httptest.NewRequest("GET", "/api/assets?directory="+dir, nil)
		r.Header.Set("Authorization", "Bearer "+viewer)
		return r
	}
}

// BenchmarkUpload uploads a 256 KiB image (multipart parsing, sniffing, atomic write).
func BenchmarkUpload(b *testing.B) {
	h, _ := newHandler(b, opts{})
	data := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{7}, 256<<10)...)
	i := 0
	for b.Loop() {
		i++
		w := do(b, h, upload{token: manager, filename: fmt.Sprintf("img%d.png", i), data: data}.request(b))
		if w.Code != 201 {
			b.Fatal(w.Code, w.Body)
		}
	}
}

// BenchmarkList lists a folder of 200 files.
func BenchmarkList(b *testing.B) {
	h, _ := newHandler(b, opts{})
	for i := range 200 {
		if w := do(b, h, upload{token: manager, filename: fmt.Sprintf("f%03d.png", i), data: []byte("\x89PNG\r\n\x1a\n"), fields: map[string]string{"directory": "many"}}.request(b)); w.Code != 201 {
			b.Fatal(w.Code)
		}
	}
	req := listRequest("many")
	for b.Loop() {
		if w := do(b, h, req()); w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}
