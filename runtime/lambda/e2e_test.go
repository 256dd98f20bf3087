package lambda_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"cms/content/contenttest"
	"cms/content/password"
	"cms/runtime/config"
	"cms/runtime/groups"
	"cms/runtime/lambda/internal/runtimeapi"
	"cms/runtime/serve"
	"cms/runtime/wire"
)

// e2eSite is the site both runners serve (each its own copy).
const e2eSite = `
-- resources/collections/blog.yaml --
title: Blog
blueprint: blog
route: /blog/{slug}
-- resources/blueprints/collections/blog.yaml --
tabs:
  main:
    fields:
      - handle: title
        field: {type: text, required: true}
      - handle: featured
        field: {type: toggle}
-- content/collections/blog/hello-world.md --
---
title: Hello World
status: published
createdAt: 2026-03-01T09:00:00.000Z
updatedAt: 2026-03-01T09:00:00.000Z
featured: true
tags: [go, yaml]
---
Welcome to **cms**.
-- content/collections/blog/second-post.md --
---
title: Second Post
status: published
createdAt: 2026-03-02T09:00:00.000Z
featured: true
---
More text, with "quotes" & <angle brackets>.
-- content/collections/blog/draft-idea.md --
---
title: Draft Idea
status: draft
featured: true
---
-- resources/forms/contact.yaml --
title: Contact
blueprint: contact
-- resources/blueprints/forms/contact.yaml --
tabs:
  main:
    fields:
      - handle: name
        field: {type: text, required: true}
      - handle: email
        field: {type: text, required: true, validate: [email]}
      - handle: message
        field: {type: text}
`

// pngFile is a 1x1 PNG, stored as public/assets/logo.png.
var pngFile = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" +
	"\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa7\x35\x81\x84\x00\x00\x00\x00IEND\xaeB`\x82")

// e2eCase is one recorded event, sent to the function of group, and how to blank the parts of
// the response that differ between any two runs (ids, times).
type e2eCase struct {
	name   string
	group  string
	event  string
	status int  // both runners must answer it
	binary bool // the body must go out base64-encoded
	cookie bool // the response must set a cookie
	masks  []*regexp.Regexp
}

func e2eCases() []e2eCase {
	idAndTime := []*regexp.Regexp{
		regexp.MustCompile(`"id":"[^"]*"`), regexp.MustCompile(`"submittedAt":"[^"]*"`),
	}
	session := []*regexp.Regexp{ // a new random token, and times that follow the clock
		regexp.MustCompile(`"token":"[^"]*"`), regexp.MustCompile(`"expiresAt":"[^"]*"`), regexp.MustCompile(`"lastLogin":"[^"]*"`),
		regexp.MustCompile(`cms_session=[^;]+`), regexp.MustCompile(`Expires=[^;]+`), regexp.MustCompile(`Max-Age=\d+`),
	}
	return []e2eCase{
		{name: "GET with a query", group: "publicentries", event: "get_query.json", status: 200},
		{name: "stage path", group: "publicentries", event: "stage_path.json", status: 200},
		{name: "HEAD", group: "publicentries", event: "head.json", status: 200},
		{name: "binary asset", group: "assetfiles", event: "binary_asset.json", status: 200, binary: true},
		{name: "POST JSON with a cookie (405)", group: "health", event: "post_json_cookie.json", status: 405},
		{name: "unknown route ($default)", group: "site", event: "default_route.json", status: 404},
		{name: "site page, gzip ($default)", group: "site", event: "site_page.json", status: 200, binary: true},
		{name: "sitemap ($default)", group: "site", event: "site_sitemap.json", status: 200},
		{name: "form submission (appender)", group: "forms", event: "form_submit.json", status: 201, masks: idAndTime},
		{name: "login: POST JSON with a cookie, Set-Cookie back (writer)", group: "auth", event: "login.json", status: 200, cookie: true, masks: session},
	}
}

// newSite writes the e2e site with fixed file times (asset ETags and Last-Modified use them) and
// the admin user with password hash pwHash.
func newSite(t *testing.T, pwHash string) string {
	t.Helper()
	dir := contenttest.WriteSite(t, e2eSite)
	contenttest.AddFiles(t, dir, "-- users/admin.yaml --\nid: admin\nemail: admin@example.com\nname: Admin\npassword_hash: "+pwHash+"\nroles: [admin]\n")
	p := filepath.Join(dir, "public", "assets", "logo.png")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, pngFile, 0o644); err != nil {
		t.Fatal(err)
	}
	stamp := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, stamp, stamp)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// buildBootstraps builds the Lambda mains of names for this machine, as make lambda does for
// Lambda, into one folder.
func buildBootstraps(t *testing.T, names []string) map[string]string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	dir := t.TempDir()
	args := []string{"build", "-tags", "lambda.norpc", "-trimpath", "-ldflags", "-s -w", "-o", dir + string(filepath.Separator)}
	for _, n := range names {
		args = append(args, "./"+n)
	}
	cmd := exec.Command(goBin, args...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	bins := map[string]string{}
	for _, n := range names {
		bins[n] = filepath.Join(dir, n)
	}
	return bins
}

// function is a bootstrap process talking to its own Runtime API emulator.
type function struct {
	emu *runtimeapi.Emulator
	out *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startFunction starts bin as Lambda would: AWS_LAMBDA_RUNTIME_API and the configuration in the
// environment.
func startFunction(t *testing.T, bin, site string, env ...string) *function {
	t.Helper()
	emu, err := runtimeapi.New()
	if err != nil {
		t.Fatal(err)
	}
	f := &function{emu: emu, out: &syncBuffer{}}
	cmd := exec.Command(bin)
	cmd.Env = append([]string{"AWS_LAMBDA_RUNTIME_API=" + emu.Addr(), "CMS_SITE_DIR=" + site, "NODE_ENV=development",
		"AWS_LAMBDA_FUNCTION_NAME=" + filepath.Base(bin), "PATH=" + os.Getenv("PATH")}, env...)
	cmd.Stdout, cmd.Stderr = f.out, f.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		emu.Close(ctx)
		if t.Failed() {
			t.Logf("%s output:\n%s", filepath.Base(bin), f.out.String())
		}
	})
	return f
}

type lambdaResponse struct {
	StatusCode      int               `json:"statusCode"`
	Headers         map[string]string `json:"headers"`
	Cookies         []string          `json:"cookies"`
	Body            string            `json:"body"`
	IsBase64Encoded bool              `json:"isBase64Encoded"`
}

// invoke sends an event through the emulator and decodes the API Gateway v2 response.
func (f *function) invoke(t *testing.T, payload []byte) lambdaResponse {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	res, err := f.emu.Invoke(ctx, payload)
	if err != nil {
		t.Fatalf("invoke: %v", err)
	}
	if res.Error {
		t.Fatalf("function error: %s", res.Body)
	}
	var r lambdaResponse
	if err := json.Unmarshal(res.Body, &r); err != nil {
		t.Fatalf("response %s: %v", res.Body, err)
	}
	return r
}

// startLocal serves every group as `cms serve` does.
func startLocal(t *testing.T, site string) *httptest.Server {
	t.Helper()
	cfg, _, err := config.Load(site, func(k string) string {
		if k == "NODE_ENV" {
			return "development"
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Watch = "none"
	log := slog.New(slog.DiscardHandler)
	svc, err := wire.NewServices(t.Context(), cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	mux, err := groups.Mux(svc)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(serve.Stack(mux, log))
	t.Cleanup(srv.Close)
	return srv
}

// localRequest is the request an HTTP client sends for an event: the path API Gateway matched
// (without the stage), the headers, the cookies as one header, the decoded body.
func localRequest(t *testing.T, base string, ev events.APIGatewayV2HTTPRequest) *http.Request {
	t.Helper()
	p := ev.RawPath
	if st := ev.RequestContext.Stage; st != "" && st != "$default" {
		p = strings.TrimPrefix(p, "/"+st)
	}
	u := base + p
	if ev.RawQueryString != "" {
		u += "?" + ev.RawQueryString
	}
	body := []byte(ev.Body)
	if ev.IsBase64Encoded {
		var err error
		if body, err = base64.StdEncoding.DecodeString(ev.Body); err != nil {
			t.Fatal(err)
		}
	}
	r, err := http.NewRequestWithContext(t.Context(), ev.RequestContext.HTTP.Method, u, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range ev.Headers {
		switch strings.ToLower(k) {
		case "host":
			r.Host = v
		case "content-length":
		default:
			r.Header.Set(k, v)
		}
	}
	if len(ev.Cookies) > 0 {
		r.Header.Set("Cookie", strings.Join(ev.Cookies, "; "))
	}
	return r
}

// ignoredHeaders differ between any two responses or are set by API Gateway itself.
var ignoredHeaders = []string{"Date", "X-Request-Id", "Content-Length"}

func TestLambdaMatchesLocal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Lambda bootstraps")
	}
	t.Parallel()
	present := map[string]bool{}
	for _, g := range groups.All() {
		present[g.Name] = true
	}
	var cases []e2eCase
	var names []string
	for _, c := range e2eCases() {
		if !present[c.group] {
			t.Logf("group %s is not wired yet: skipping %q", c.group, c.name)
			continue
		}
		cases = append(cases, c)
		if !slices.Contains(names, c.group) {
			names = append(names, c.group)
		}
	}
	bins := buildBootstraps(t, names)
	pwHash, err := password.Hash("correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	local := startLocal(t, newSite(t, pwHash))
	lambdaSite := newSite(t, pwHash) // one folder for every function, as on EFS
	fns := map[string]*function{}
	for _, n := range names {
		fns[n] = startFunction(t, bins[n], lambdaSite)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			payload, err := os.ReadFile(filepath.Join("testdata", "events", c.event))
			if err != nil {
				t.Fatal(err)
			}
			var ev events.APIGatewayV2HTTPRequest
			if err := json.Unmarshal(payload, &ev); err != nil {
				t.Fatal(err)
			}
			got := fns[c.group].invoke(t, payload)

			resp, err := http.DefaultTransport.RoundTrip(localRequest(t, local.URL, ev))
			if err != nil {
				t.Fatal(err)
			}
			wantBody, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}

			if got.StatusCode != c.status || resp.StatusCode != c.status {
				t.Errorf("status = %d, local %d, want %d", got.StatusCode, resp.StatusCode, c.status)
			}
			wantHeaders := map[string]string{}
			for k, v := range resp.Header {
				if k != "Set-Cookie" && !slices.Contains(ignoredHeaders, k) {
					wantHeaders[k] = strings.Join(v, ",")
				}
			}
			gotHeaders := map[string]string{}
			for k, v := range got.Headers {
				if !slices.Contains(ignoredHeaders, k) {
					gotHeaders[k] = v
				}
			}
			if a, b := fmt.Sprint(gotHeaders), fmt.Sprint(wantHeaders); a != b {
				t.Errorf("headers:\n lambda %s\n local  %s", a, b)
			}
			if a, b := mask([]byte(strings.Join(got.Cookies, "\n")), c.masks), mask([]byte(strings.Join(resp.Header["Set-Cookie"], "\n")), c.masks); a != b {
				t.Errorf("cookies:\n lambda %q\n local  %q", a, b)
			}
			if c.cookie && len(got.Cookies) == 0 {
				t.Errorf("no cookies in the Lambda response")
			}
			body := []byte(got.Body)
			if got.IsBase64Encoded {
				if body, err = base64.StdEncoding.DecodeString(got.Body); err != nil {
					t.Fatal(err)
				}
			}
			if got.IsBase64Encoded != c.binary {
				t.Errorf("isBase64Encoded = %v, want %v", got.IsBase64Encoded, c.binary)
			}
			if a, b := mask(body, c.masks), mask(wantBody, c.masks); a != b {
				t.Errorf("body:\n lambda %q\n local  %q", a, b)
			}
			if ev.RequestContext.HTTP.Method != http.MethodHead && len(wantBody) == 0 {
				t.Errorf("local body is empty: the case proves nothing")
			}
		})
	}
}

func mask(b []byte, res []*regexp.Regexp) string {
	s := string(b)
	for _, re := range res {
		s = re.ReplaceAllString(s, "<masked>")
	}
	return s
}
