package serve_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cms/runtime/serve"
)

// Every request gets the security headers, a unique request ID (or the client's, when it is a
// short token) and exactly one structured access line naming that ID.
func TestStackHeadersIDsAndAccessLine(t *testing.T) {
	t.Parallel()
	var logBuf bytes.Buffer
	h := serve.Stack(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("X-Frame-Options", "SAMEORIGIN") // an Add must not disturb the other headers
		_, _ = w.Write([]byte("ok"))
	}), slog.New(slog.NewJSONHandler(&logBuf, nil)))
	seen := map[string]bool{}
	const n = 200
	for range n {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/x", nil))
		id := w.Header().Get("X-Request-Id")
		if len(id) != 16 || seen[id] {
			t.Fatalf("request id %q: not 16 characters or repeated", id)
		}
		seen[id] = true
		hd := w.Header()
		if hd.Get("X-Content-Type-Options") != "nosniff" || hd.Get("Referrer-Policy") != "strict-origin-when-cross-origin" ||
			strings.Join(hd.Values("X-Frame-Options"), ",") != "DENY,SAMEORIGIN" {
			t.Fatalf("headers = %v", hd)
		}
	}
	for _, tt := range []struct{ sent, want string }{
		{"client-id_1", "client-id_1"},
		{"bad id with spaces", ""},
		{strings.Repeat("a", 65), ""},
	} {
		r := httptest.NewRequest(http.MethodGet, "/x", nil)
		r.Header.Set("X-Request-Id", tt.sent)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		got := w.Header().Get("X-Request-Id")
		if tt.want != "" && got != tt.want || tt.want == "" && (got == tt.sent || len(got) != 16) {
			t.Errorf("sent %q: request id %q", tt.sent, got)
		}
	}
	lines := strings.Split(strings.TrimSpace(logBuf.String()), "\n")
	if len(lines) != n+3 {
		t.Fatalf("%d access lines for %d requests", len(lines), n+3)
	}
	var line map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &line); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"method", "path", "status", "duration", "request_id"} {
		if _, ok := line[k]; !ok {
			t.Errorf("access line lacks %s: %s", k, lines[0])
		}
	}
	if line["msg"] != "request" || line["status"] != 200.0 || !seen[line["request_id"].(string)] {
		t.Errorf("access line = %s", lines[0])
	}
}
