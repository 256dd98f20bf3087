package serve_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"cms/runtime/serve"
)

// echo answers with what it saw of the request, sets two cookies, and serves a few bodies that
// are hard to carry in a JSON string.
func echo(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/img.png":
		w.Header().Set("Content-Type", "image/png")
		w.Write(pngBytes)
		return
	case "/latin1.txt":
		w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
		w.Write([]byte("caf\xe9"))
		return
	case "/sniffed":
		w.Write(pngBytes) // no Content-Type: sniffed as image/png
		return
	case "/huge":
		w.Header().Set("Content-Type", "text/plain")
		w.Write(bytes.Repeat([]byte("x"), serve.MaxResponseBytes+1))
		return
	}
	body, _ := io.ReadAll(r.Body)
	cookies := []string{}
	for _, c := range r.Cookies() {
		cookies = append(cookies, c.Name+"="+c.Value)
	}
	http.SetCookie(w, &http.Cookie{Name: "a", Value: "1", Path: "/", HttpOnly: true})
	http.SetCookie(w, &http.Cookie{Name: "b", Value: "2", Path: "/"})
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"method": r.Method, "path": r.URL.Path, "rawPath": r.URL.RawPath, "requestURI": r.RequestURI,
		"query": r.URL.RawQuery, "host": r.Host, "hostHeader": r.Header.Get("Host"), "remoteAddr": r.RemoteAddr,
		"cookieHeaders": len(r.Header["Cookie"]), "cookies": cookies, "contentLength": r.ContentLength,
		"body": string(body),
	})
}

var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")

type v2Response struct {
	StatusCode      int               `json:"statusCode"`
	Headers         map[string]string `json:"headers"`
	Cookies         []string          `json:"cookies"`
	Body            string            `json:"body"`
	IsBase64Encoded bool              `json:"isBase64Encoded"`
}

func (r v2Response) bytes(t *testing.T) []byte {
	t.Helper()
	if !r.IsBase64Encoded {
		return []byte(r.Body)
	}
	b, err := base64.StdEncoding.DecodeString(r.Body)
	if err != nil {
		t.Fatalf("body is not base64: %v", err)
	}
	return b
}

func invoke(t *testing.T, opts serve.LambdaOptions, payload []byte) v2Response {
	t.Helper()
	h := serve.LambdaHandler(http.HandlerFunc(echo), opts)
	out, err := h.Invoke(t.Context(), payload)
	if err != nil {
		t.Fatalf("Invoke: %v", err)
	}
	var resp v2Response
	if err := json.Unmarshal(out, &resp); err != nil {
		t.Fatalf("response %s: %v", out, err)
	}
	return resp
}

func event(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// simple builds a GET event for path with the $default stage.
func simple(t *testing.T, method, path, stage string) []byte {
	t.Helper()
	ev := events.APIGatewayV2HTTPRequest{Version: "2.0", RawPath: path, Headers: map[string]string{"host": "x.example"}}
	ev.RequestContext.HTTP.Method = method
	ev.RequestContext.HTTP.SourceIP = "192.0.2.1"
	ev.RequestContext.Stage = stage
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decodeEcho(t *testing.T, r v2Response) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.bytes(t), &m); err != nil {
		t.Fatalf("echo body %q: %v", r.Body, err)
	}
	return m
}

func TestLambdaRequestAdaptation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		opts    serve.LambdaOptions
		payload func(t *testing.T) []byte
		want    map[string]any
	}{
		{
			name:    "stage prefix stripped, query kept",
			payload: func(t *testing.T) []byte { return event(t, "get_query_stage.json") },
			want: map[string]any{
				"method": "GET", "path": "/api/public/entries/blog", "requestURI": "/api/public/entries/blog?limit=2&sort=-title&filter=%7B%22featured%22%3Atrue%7D",
				"query": "limit=2&sort=-title&filter=%7B%22featured%22%3Atrue%7D", "host": "abc123.execute-api.eu-west-1.amazonaws.com",
				"hostHeader": "", "remoteAddr": "203.0.113.7:0", "contentLength": float64(0),
			},
		},
		{
			name:    "cookies joined into one header, base64 body decoded",
			payload: func(t *testing.T) []byte { return event(t, "post_json_cookie.json") },
			want: map[string]any{
				"method": "POST", "path": "/api/echo/items", "host": "cms.example.com", "remoteAddr": "198.51.100.23:0",
				"cookieHeaders": float64(1), "cookies": []any{"cms_session=tok123", "theme=dark"},
				"contentLength": float64(27), "body": `{"title":"Hello é"}       `,
			},
		},
		{
			name:    "configured base path stripped",
			opts:    serve.LambdaOptions{BasePath: "/cms/"},
			payload: func(t *testing.T) []byte { return simple(t, "GET", "/cms/api/x", "$default") },
			want:    map[string]any{"path": "/api/x", "requestURI": "/api/x"},
		},
		{
			name:    "base path alone becomes /",
			opts:    serve.LambdaOptions{BasePath: "/cms"},
			payload: func(t *testing.T) []byte { return simple(t, "GET", "/cms", "$default") },
			want:    map[string]any{"path": "/"},
		},
		{
			name:    "stage and base path both stripped",
			opts:    serve.LambdaOptions{BasePath: "/cms"},
			payload: func(t *testing.T) []byte { return simple(t, "GET", "/v1/cms/api/x", "v1") },
			want:    map[string]any{"path": "/api/x"},
		},
		{
			name:    "path that only starts like the stage is kept",
			payload: func(t *testing.T) []byte { return simple(t, "GET", "/prodx/api", "prod") },
			want:    map[string]any{"path": "/prodx/api"},
		},
		{
			name:    "$default stage is not a prefix",
			payload: func(t *testing.T) []byte { return simple(t, "GET", "/$default/api", "$default") },
			want:    map[string]any{"path": "/$default/api"},
		},
		{
			name:    "escaped path survives stripping",
			payload: func(t *testing.T) []byte { return simple(t, "GET", "/prod/api/a%2Fb", "prod") },
			want:    map[string]any{"path": "/api/a/b", "rawPath": "/api/a%2Fb", "requestURI": "/api/a%2Fb"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp := invoke(t, tt.opts, tt.payload(t))
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status = %d, want 200", resp.StatusCode)
			}
			got := decodeEcho(t, resp)
			for k, want := range tt.want {
				gb, _ := json.Marshal(got[k])
				wb, _ := json.Marshal(want)
				if !bytes.Equal(gb, wb) {
					t.Errorf("%s = %s, want %s", k, gb, wb)
				}
			}
		})
	}
}

func TestLambdaResponseEncoding(t *testing.T) {
	t.Parallel()
	t.Run("cookies go out as the cookies array", func(t *testing.T) {
		t.Parallel()
		resp := invoke(t, serve.LambdaOptions{}, simple(t, "GET", "/x", "$default"))
		want := []string{"a=1; Path=/; HttpOnly", "b=2; Path=/"}
		if strings.Join(resp.Cookies, "|") != strings.Join(want, "|") {
			t.Errorf("cookies = %q, want %q", resp.Cookies, want)
		}
		if _, ok := resp.Headers["Set-Cookie"]; ok {
			t.Errorf("Set-Cookie also sent as a header: %q", resp.Headers["Set-Cookie"])
		}
		if resp.IsBase64Encoded {
			t.Errorf("JSON body was base64-encoded")
		}
	})
	for _, tt := range []struct{ name, path, ct string }{
		{"listed binary type", "/img.png", "image/png"},
		{"text type with bytes that are not UTF-8", "/latin1.txt", "text/plain; charset=iso-8859-1"},
		{"sniffed type", "/sniffed", "image/png"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp := invoke(t, serve.LambdaOptions{}, simple(t, "GET", tt.path, "$default"))
			if !resp.IsBase64Encoded {
				t.Errorf("isBase64Encoded = false, want true")
			}
			if got := resp.Headers["Content-Type"]; got != tt.ct {
				t.Errorf("Content-Type = %q, want %q", got, tt.ct)
			}
			want := pngBytes
			if tt.path == "/latin1.txt" {
				want = []byte("caf\xe9")
			}
			if got := resp.bytes(t); !bytes.Equal(got, want) {
				t.Errorf("body = %q, want %q", got, want)
			}
		})
	}
	t.Run("HEAD has headers but no body", func(t *testing.T) {
		t.Parallel()
		resp := invoke(t, serve.LambdaOptions{}, simple(t, "HEAD", "/img.png", "$default"))
		if resp.StatusCode != 200 || resp.Body != "" || resp.Headers["Content-Type"] != "image/png" {
			t.Errorf("HEAD = %d %q body %q, want 200 image/png and no body", resp.StatusCode, resp.Headers["Content-Type"], resp.Body)
		}
	})
}

func TestLambdaWarnsAboutOversizedResponses(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	h := serve.LambdaHandler(http.HandlerFunc(echo), serve.LambdaOptions{Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if _, err := h.Invoke(t.Context(), simple(t, "GET", "/huge", "$default")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "exceeds the Lambda payload limit") {
		t.Errorf("no warning logged: %q", logs.String())
	}
	logs.Reset()
	if _, err := h.Invoke(t.Context(), simple(t, "GET", "/x", "$default")); err != nil || logs.Len() != 0 {
		t.Errorf("small response: err %v, log %q", err, logs.String())
	}
}

func TestLambdaRejectsOtherPayloads(t *testing.T) {
	t.Parallel()
	h := serve.LambdaHandler(http.HandlerFunc(echo), serve.LambdaOptions{Log: slog.New(slog.DiscardHandler)})
	for _, payload := range []string{`{"version":"1.0","httpMethod":"GET","path":"/"}`, `not json`} {
		if out, err := h.Invoke(t.Context(), []byte(payload)); err == nil {
			t.Errorf("Invoke(%s) = %s, want an error", payload, out)
		}
	}
}

// FuzzLambdaInvoke feeds arbitrary payloads to the adapter: it must return a response or an
// error, never panic.
func FuzzLambdaInvoke(f *testing.F) {
	for _, name := range []string{"get_query_stage.json", "post_json_cookie.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"version":"2.0","rawPath":"/%zz","requestContext":{"stage":"x","http":{"method":"GET"}}}`))
	h := serve.LambdaHandler(http.HandlerFunc(echo), serve.LambdaOptions{BasePath: "/cms"})
	f.Fuzz(func(t *testing.T, payload []byte) {
		out, err := h.Invoke(t.Context(), payload)
		if err == nil && !json.Valid(out) {
			t.Fatalf("invalid JSON response %q", out)
		}
	})
}
