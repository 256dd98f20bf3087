package globals_test

import (
	"testing"

	"cms/handlers/web/webtest"
)

// BenchmarkGet reads a global from disk.
func BenchmarkGet(b *testing.B) {
	h, _ := newHandler(b)
	req := webtest.Request{Path: "/api/globals/site", Token: viewer}
	for b.Loop() {
		if w := webtest.Do(b, h, req); w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}

// BenchmarkPut validates and writes a global (atomic write, no fsync in tests).
func BenchmarkPut(b *testing.B) {
	h, _ := newHandler(b)
	req := webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: []byte(`{"site_name":"Bench","gallery":["a.png","b.png"],"legacy":"x"}`)}
	for b.Loop() {
		if w := webtest.Do(b, h, req); w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}
