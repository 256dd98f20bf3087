package assetfiles_test

import "testing"

// BenchmarkServe serves a small image.
func BenchmarkServe(b *testing.B) {
	h, _ := newHandler(b)
	for b.Loop() {
		if w := get(h, "GET", "/assets/logo.png", nil); w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}
