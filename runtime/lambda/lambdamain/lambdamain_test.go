package lambdamain_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/runtime/groups/health"
	"cms/runtime/groups/publicentries"
	"cms/runtime/lambda/lambdamain"
	"cms/runtime/serve"
	"cms/runtime/wire"
)

const site = `
-- resources/collections/blog.yaml --
title: Blog
-- content/collections/blog/hello.md --
---
title: Hello
status: published
---
Hi.
`

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestGetenvDefaults(t *testing.T) {
	t.Parallel()
	get := lambdamain.Getenv(env(map[string]string{"CMS_WATCH": "none", "NODE_ENV": "production"}))
	for k, want := range map[string]string{"CMS_SITE_DIR": "/mnt/site", "CMS_WATCH": "none", "NODE_ENV": "production", "CMS_OTHER": ""} {
		if got := get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

// function builds group g as its Lambda main would, with the given environment.
func function(t *testing.T, g wire.Group, vars map[string]string) (lambda.Handler, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	h, opts, err := lambdamain.Build(t.Context(), g, env(vars), &out)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return serve.LambdaHandler(h, opts), &out
}

// get sends a GET event for path and returns the status and body.
func get(t *testing.T, h lambda.Handler, path string) (int, string) {
	t.Helper()
	ev := events.APIGatewayV2HTTPRequest{Version: "2.0", RawPath: path, Headers: map[string]string{"host": "cms.example.com"}}
	ev.RequestContext.HTTP.Method = http.MethodGet
	ev.RequestContext.Stage = "$default"
	payload, _ := json.Marshal(ev)
	out, err := h.Invoke(t.Context(), payload)
	if err != nil {
		t.Fatalf("Invoke: %v", err)
	}
	var resp struct {
		StatusCode int    `json:"statusCode"`
		Body       string `json:"body"`
	}
	if err := json.Unmarshal(out, &resp); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Body
}

func TestFrontendIsReadOnlyAndSaysSoOnce(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site)
	h, out := function(t, publicentries.Group(), map[string]string{"CMS_SITE_DIR": dir, "CMS_BASE_PATH": "/cms"})
	if status, body := get(t, h, "/cms/api/public/entries/blog/hello"); status != 200 || !strings.Contains(body, `"title":"Hello"`) {
		t.Errorf("GET under the base path = %d %s", status, body)
	}
	if status, _ := get(t, h, "/api/public/entries/blog/nope"); status != 404 {
		t.Errorf("unknown entry = %d, want 404", status)
	}
	if n := strings.Count(out.String(), "read-only frontend"); n != 1 {
		t.Errorf("read-only notice logged %d times, want once:\n%s", n, out)
	}
	if !strings.Contains(out.String(), "seo.errorTracking") || strings.Contains(out.String(), "cp.enabled") {
		t.Errorf("the notice does not name the options switched off:\n%s", out)
	}
	// A frontend never writes: no snapshot, no generation file, nothing else.
	if _, err := os.Stat(filepath.Join(dir, ".cms")); !os.IsNotExist(err) {
		t.Errorf("frontend wrote .cms/: %v", err)
	}
}

func TestEveryRequestSeesTheWritersChanges(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site)
	h, _ := function(t, publicentries.Group(), map[string]string{"CMS_SITE_DIR": dir})
	if status, _ := get(t, h, "/api/public/entries/blog/new"); status != 404 {
		t.Fatalf("before the write: %d, want 404", status)
	}
	// The writer is another process on the same folder (here another store).
	w, err := fsstore.Open(t.Context(), fsstore.Options{Dir: dir, Snapshot: true, Watch: fsstore.WatchGeneration, NoSync: true, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.CreateEntry(&content.Entry{Collection: "blog", Slug: "new", Title: "New", Status: content.StatusPublished, Data: content.NewMap(0)}); err != nil {
		t.Fatal(err)
	}
	if status, body := get(t, h, "/api/public/entries/blog/new"); status != 200 || !strings.Contains(body, `"title":"New"`) {
		t.Errorf("after the write: %d %s, want the new entry", status, body)
	}
}

func TestUnknownPathsGetTheJSON404(t *testing.T) {
	t.Parallel()
	h, _ := function(t, health.Group(), map[string]string{"CMS_SITE_DIR": contenttest.WriteSite(t, site)})
	status, body := get(t, h, "/api/not-a-group")
	if status != 404 || !strings.Contains(body, `"code":"NOT_FOUND"`) {
		t.Errorf("unknown path = %d %s, want the JSON 404", status, body)
	}
	if status, _ := get(t, h, "/api/health/live"); status != 200 {
		t.Errorf("live = %d", status)
	}
}

func TestBuildReportsBadConfiguration(t *testing.T) {
	t.Parallel()
	for name, vars := range map[string]map[string]string{
		"missing site folder": {"CMS_SITE_DIR": filepath.Join(t.TempDir(), "nope")},
		"bad watch mode":      {"CMS_SITE_DIR": t.TempDir(), "CMS_WATCH": "sometimes"},
		"bad base path":       {"CMS_SITE_DIR": t.TempDir(), "CMS_BASE_PATH": "cms/"},
	} {
		if _, _, err := lambdamain.Build(t.Context(), health.Group(), env(vars), &bytes.Buffer{}); err == nil {
			t.Errorf("%s: Build succeeded", name)
		}
	}
}
