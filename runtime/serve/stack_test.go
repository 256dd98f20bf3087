package serve_test

import (
	"bytes"
	"context"
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
		w.Header().Add("X-Frame-Options", "SAMEORIGIN") // the handler's own value stays alone
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
			strings.Join(hd.Values("X-Frame-Options"), ",") != "SAMEORIGIN" {
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

// pcHandler records the program counters of the records it handles.
type pcHandler struct {
	slog.Handler
	pcs *[]uintptr
}

func (h pcHandler) Handle(ctx context.Context, r slog.Record) error {
	*h.pcs = append(*h.pcs, r.PC)
	return h.Handler.Handle(ctx, r)
}

// The access line is the same one line per request, written without looking up the caller's
// program counter (a stack walk per request, for a source the line never shows).
func TestAccessLineWithoutCallerLookup(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	var pcs []uintptr
	h := serve.Stack(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "gone", http.StatusGone)
	}), slog.New(pcHandler{slog.NewTextHandler(&buf, nil), &pcs}))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/x?q=1", nil))
	if len(pcs) != 1 || pcs[0] != 0 {
		t.Errorf("program counters of the access line: %v, want one 0", pcs)
	}
	line := buf.String()
	if !strings.HasPrefix(line, "time=") || !strings.Contains(line, " level=INFO msg=request method=GET path=/x route=\"\" status=410 duration=") ||
		!strings.Contains(line, " request_id="+w.Header().Get("X-Request-Id")+"\n") || strings.Count(line, "\n") != 1 {
		t.Errorf("access line %q", line)
	}
}

// A document (anything not JSON, and an error of unknown type) gets X-Frame-Options: DENY and
// the referrer policy; a JSON response, which no browser renders as a page, gets neither and
// keeps to the headers a map holds without growing.
func TestStackDocumentHeaders(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ctype    string
		document bool
	}{
		{"text/html; charset=utf-8", true},
		{"", true},
		{"image/svg+xml", true},
		{"application/json; charset=utf-8", false},
		{"application/problem+json", false},
		{"Application/JSON", false},
	} {
		for _, explicit := range []bool{false, true} {
			h := serve.Stack(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.ctype != "" {
					w.Header().Set("Content-Type", tc.ctype)
				}
				if explicit {
					w.WriteHeader(http.StatusTeapot)
				}
				_, _ = w.Write([]byte("{}"))
			}), slog.New(slog.DiscardHandler))
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/x", nil))
			hd := w.Header()
			got := hd.Get("X-Frame-Options") == "DENY" && hd.Get("Referrer-Policy") == "strict-origin-when-cross-origin"
			none := hd.Get("X-Frame-Options") == "" && hd.Get("Referrer-Policy") == ""
			if tc.document && !got || !tc.document && !none || hd.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("%q (WriteHeader %v): headers %v", tc.ctype, explicit, hd)
			}
		}
	}
}
