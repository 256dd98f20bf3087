package web_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"cms/handlers/web"
)

// fakeBatcher records how SendBody used it.
type fakeBatcher struct {
	holds, releases  int
	flushedAtRelease bool
	rec              *httptest.ResponseRecorder
}

func (b *fakeBatcher) Hold() { b.holds++ }
func (b *fakeBatcher) Release() error {
	b.releases++
	b.flushedAtRelease = b.rec.Flushed
	return nil
}

func TestSendBody(t *testing.T) {
	t.Parallel()
	parts := [][]byte{[]byte(`{"data":`), []byte(`{"a":1}`), []byte(`}`)}
	for _, tc := range []struct {
		name, method string
		batcher      bool
		wantBody     string
	}{
		{"plain", http.MethodGet, false, `{"data":{"a":1}}`},
		{"batched", http.MethodGet, true, `{"data":{"a":1}}`},
		{"head", http.MethodHead, true, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			r := httptest.NewRequest(tc.method, "/x", nil)
			b := &fakeBatcher{rec: w}
			if tc.batcher {
				r = r.WithContext(web.WithBatcher(r.Context(), b))
			}
			if err := web.SendBody(w, r, http.StatusCreated, parts...); err != nil {
				t.Fatal(err)
			}
			if w.Code != http.StatusCreated || w.Body.String() != tc.wantBody || w.Header().Get("Content-Length") != "16" {
				t.Errorf("status %d, body %q, Content-Length %q", w.Code, w.Body, w.Header().Get("Content-Length"))
			}
			wantHolds := 0
			if tc.batcher && tc.method == http.MethodGet {
				wantHolds = 1
			}
			if b.holds != wantHolds || b.releases != wantHolds || wantHolds == 1 && !b.flushedAtRelease {
				t.Errorf("holds %d, releases %d, flushed before release %v; want %d each, flushed", b.holds, b.releases, b.flushedAtRelease, wantHolds)
			}
		})
	}
}

// panicWriter panics on its first Write.
type panicWriter struct{ *httptest.ResponseRecorder }

func (p panicWriter) Write([]byte) (int, error) { panic("write failed") }

// A write that panics still releases the connection: left holding, it would hold back every
// later response on it.
func TestSendBodyReleasesOnPanic(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	b := &fakeBatcher{rec: rec}
	r := httptest.NewRequest(http.MethodGet, "/x", nil)
	r = r.WithContext(web.WithBatcher(r.Context(), b))
	func() {
		defer func() { _ = recover() }()
		_ = web.SendBody(panicWriter{rec}, r, http.StatusOK, []byte("x"))
	}()
	if b.holds != 1 || b.releases != 1 {
		t.Errorf("holds %d, releases %d; want 1 each", b.holds, b.releases)
	}
}
