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
