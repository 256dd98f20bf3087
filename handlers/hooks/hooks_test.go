package hooks_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/content/validate"
	"cms/handlers/hooks"
	"cms/handlers/hooks/hooktest"
	"cms/handlers/web/webtest"
	"cms/wasmhooks"
	"cms/wasmhooks/hookrun"
)

var (
	_ hooks.Store       = (*fsstore.Store)(nil)
	_ hookrun.Modules   = (*fsstore.Store)(nil)
	_ hooks.Checker     = (*wasmhooks.Host)(nil)
	_ hookrun.Validator = (*wasmhooks.Host)(nil)
)

type env struct {
	dir    string
	store  *fsstore.Store
	host   *wasmhooks.Host
	h      http.Handler
	admin  string // settings view + edit
	viewer string // settings view
	nobody string
}

// callTimeout is the time limit of hook calls in these tests: generous, so that no call that
// should pass runs out of time on a loaded machine. loopTimeout is the limit of the one test
// whose module loops for ever, which the limit must stop: whatever the load, it ends in a time-out.
const (
	callTimeout = time.Minute
	loopTimeout = time.Second
)

func newEnv(t *testing.T) *env { return newEnvTimeout(t, callTimeout) }

func newEnvTimeout(t *testing.T, timeout time.Duration) *env {
	t.Helper()
	dir := t.TempDir()
	st := contenttest.OpenStore(t, dir)
	host, err := wasmhooks.New(wasmhooks.Options{Limits: wasmhooks.Limits{CallTimeout: timeout}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close(t.Context()) })
	auth := webtest.NewAuth(t)
	e := &env{dir: dir, store: st, host: host}
	e.admin = auth.Add(webtest.Token("admin"), "ada", webtest.Role("a", webtest.Grant("settings", "view", "edit")))
	e.viewer = auth.Add(webtest.Token("viewer"), "vera", webtest.Role("v", webtest.Grant("settings", "view")))
	e.nobody = auth.Add(webtest.Token("nobody"), "nora", webtest.Role("n", webtest.Grant("forms", "view", "edit", "delete")))
	h, err := hooks.New(hooks.Deps{Store: st, Host: host, Auth: auth, MaxModuleBytes: 1 << 20,
		Log: slog.New(slog.DiscardHandler), Now: func() time.Time { return time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	e.h = h
	return e
}

func (e *env) put(t *testing.T, name string, wasm []byte, token string) *result {
	t.Helper()
	w := webtest.Do(t, e.h, webtest.Request{Method: "PUT", Path: "/api/hooks/" + name, Body: wasm, Token: token,
		Header: http.Header{"Content-Type": {"application/wasm"}}})
	return &result{code: w.Code, body: w.Body.String()}
}

type result struct {
	code int
	body string
}

func (e *env) installed(t *testing.T, name string) bool {
	t.Helper()
	_, err1 := os.Stat(filepath.Join(e.dir, "resources", "hooks", name+".wasm"))
	_, err2 := os.Stat(filepath.Join(e.dir, "resources", "hooks", name+".meta.yaml"))
	return err1 == nil || err2 == nil
}

func errorCode(t *testing.T, body string) (string, string) {
	t.Helper()
	var e webtest.ErrorBody
	if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error.Code == "" {
		t.Fatalf("not an error envelope: %s", body)
	}
	return e.Error.Code, e.Error.Message
}

// limitModule reads a module of wasmhooks/testdata/limits, each a hook over one limit of the
// pre-scan (see the program that writes them there).
func limitModule(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "wasmhooks", "testdata", "limits", name+".wasm"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// limitModules are the modules of wasmhooks/testdata/limits with the limit each exceeds.
var limitModules = []struct{ name, limit string }{
	{"locals-4g", "locals per function"},
	{"locals-50m", "locals per function"},
	{"nested", "nested blocks per function"},
	{"branches", "compile cost per function"},
	{"table-grow", "elements per table"},
}

func TestUploadLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	wasm := hooktest.Answer(hooktest.Valid)
	sum := sha256.Sum256(wasm)
	r := e.put(t, "gate", wasm, e.admin)
	if r.code != http.StatusCreated {
		t.Fatalf("upload = %d %s", r.code, r.body)
	}
	var got struct {
		Data content.Hook `json:"data"`
	}
	json.Unmarshal([]byte(r.body), &got)
	want := content.Hook{Name: "gate", SHA256: hex.EncodeToString(sum[:]), Size: int64(len(wasm)), UploadedBy: "ada",
		UploadedAt: "2026-02-03T04:05:06.000Z", ABIVersion: 1}
	if got.Data != want {
		t.Errorf("metadata = %+v\nwant       %+v", got.Data, want)
	}
	if b, err := os.ReadFile(filepath.Join(e.dir, "resources/hooks/gate.wasm")); err != nil || string(b) != string(wasm) {
		t.Errorf("stored module differs: %v", err)
	}

	// Replacing answers 200.
	if r := e.put(t, "gate", hooktest.Answer(hooktest.Invalid), e.admin); r.code != http.StatusOK {
		t.Errorf("replace = %d %s", r.code, r.body)
	}
	w := webtest.Do(t, e.h, webtest.Request{Path: "/api/hooks", Token: e.viewer})
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"name":"gate"`) || !strings.Contains(w.Body.String(), `"uploadedBy":"ada"`) {
		t.Errorf("list = %d %s", w.Code, w.Body.String())
	}
	w = webtest.Do(t, e.h, webtest.Request{Path: "/api/hooks/gate", Token: e.viewer})
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"sha256":"`) {
		t.Errorf("get = %d %s", w.Code, w.Body.String())
	}
	w = webtest.Do(t, e.h, webtest.Request{Method: "DELETE", Path: "/api/hooks/gate", Token: e.admin})
	if w.Code != 200 || w.Body.String() != `{"data":{"deleted":true}}` {
		t.Errorf("delete = %d %s", w.Code, w.Body.String())
	}
	if e.installed(t, "gate") {
		t.Errorf("files remain after delete")
	}
	w = webtest.Do(t, e.h, webtest.Request{Method: "DELETE", Path: "/api/hooks/gate", Token: e.admin})
	if code, _ := errorCode(t, w.Body.String()); w.Code != 404 || code != "NOT_FOUND" {
		t.Errorf("second delete = %d %s", w.Code, w.Body.String())
	}
	w = webtest.Do(t, e.h, webtest.Request{Path: "/api/hooks/gate", Token: e.viewer})
	if w.Code != 404 {
		t.Errorf("get after delete = %d", w.Code)
	}
	w = webtest.Do(t, e.h, webtest.Request{Path: "/api/hooks", Token: e.viewer})
	if w.Code != 200 || w.Body.String() != `{"data":[]}` {
		t.Errorf("empty list = %d %s", w.Code, w.Body.String())
	}
}

func TestUploadRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		hook   string
		body   []byte
		ctype  string
		status int
		code   string
		reason string // in the message
	}{
		{"garbage bytes", "x", []byte("this is not wasm at all"), "application/wasm", 422, hooks.CodeRejected, "not a WebAssembly module"},
		{"forbidden import", "x", hooktest.Module{Response: hooktest.Valid, ImportEnv: true}.Bytes(), "application/wasm", 422, hooks.CodeRejected, "env"},
		{"missing export", "x", hooktest.Module{Response: hooktest.Valid, NoValidate: true}.Bytes(), "application/wasm", 422, hooks.CodeRejected, "validate"},
		{"smoke call traps", "x", hooktest.Module{Response: hooktest.Valid, TrapAbove: 1}.Bytes(), "application/wasm", 422, hooks.CodeRejected, ""},
		{"smoke call loops", "x", hooktest.Module{Response: hooktest.Valid, LoopAbove: 1}.Bytes(), "application/wasm", 422, hooks.CodeRejected, ""},
		{"smoke answer not JSON", "x", hooktest.Answer("nope"), "application/wasm", 422, hooks.CodeRejected, ""},
		{"too large", "x", make([]byte, 1<<20+1), "application/wasm", 413, "PAYLOAD_TOO_LARGE", ""},
		{"wrong content type", "x", hooktest.Answer(hooktest.Valid), "application/octet-stream", 415, "UNSUPPORTED_MEDIA_TYPE", ""},
		{"bad name", "Bad.Name", hooktest.Answer(hooktest.Valid), "application/wasm", 400, "BAD_REQUEST", ""},
		{"name too long", strings.Repeat("a", 65), hooktest.Answer(hooktest.Valid), "application/wasm", 400, "BAD_REQUEST", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			if tc.name == "smoke call loops" {
				e = newEnvTimeout(t, loopTimeout)
			}
			w := webtest.Do(t, e.h, webtest.Request{Method: "PUT", Path: "/api/hooks/" + tc.hook, Body: tc.body, Token: e.admin,
				Header: http.Header{"Content-Type": {tc.ctype}}})
			code, msg := errorCode(t, w.Body.String())
			if w.Code != tc.status || code != tc.code {
				t.Fatalf("= %d %s, want %d %s: %s", w.Code, code, tc.status, tc.code, w.Body.String())
			}
			if !strings.Contains(msg, tc.reason) {
				t.Errorf("message %q does not give the reason %q", msg, tc.reason)
			}
			if e.installed(t, tc.hook) {
				t.Errorf("a refused module was stored")
			}
		})
	}
}

// TestUploadOverLimits uploads modules that would kill the process or hold a core for seconds
// if they were compiled: each is refused with 422 HOOK_REJECTED naming the limit, nothing is
// stored, and the service goes on working.
func TestUploadOverLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, m := range limitModules {
		t.Run(m.name, func(t *testing.T) {
			w := webtest.Do(t, e.h, webtest.Request{Method: "PUT", Path: "/api/hooks/" + m.name, Body: limitModule(t, m.name), Token: e.admin,
				Header: http.Header{"Content-Type": {"application/wasm"}}})
			var body struct {
				Error struct {
					Code, Message, Limit string
					Max                  uint64
				}
			}
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
				t.Fatalf("not JSON: %s", w.Body)
			}
			if w.Code != http.StatusUnprocessableEntity || body.Error.Code != hooks.CodeRejected {
				t.Fatalf("upload = %d %s, want 422 %s", w.Code, w.Body, hooks.CodeRejected)
			}
			if !strings.HasPrefix(body.Error.Message, "Hook module rejected: module exceeds a limit: ") ||
				!strings.HasSuffix(body.Error.Message, " "+m.limit) || body.Error.Limit != m.limit || body.Error.Max == 0 {
				t.Errorf("error = %+v, want the limit %q named in the message and the details", body.Error, m.limit)
			}
			if e.installed(t, m.name) {
				t.Errorf("a refused module was stored")
			}
		})
	}
	if r := e.put(t, "gate", hooktest.Answer(hooktest.Valid), e.admin); r.code != http.StatusCreated {
		t.Errorf("upload of a good module afterwards = %d %s", r.code, r.body)
	}
}

func TestAuthorization(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	hooktest.Install(t, e.store, "gate", hooktest.Answer(hooktest.Valid))
	wasm := hooktest.Answer(hooktest.Valid)
	endpoints := []struct {
		method, path string
		edit         bool
	}{
		{"GET", "/api/hooks", false},
		{"GET", "/api/hooks/gate", false},
		{"PUT", "/api/hooks/gate", true},
		{"DELETE", "/api/hooks/gate", true},
	}
	for _, ep := range endpoints {
		t.Run(ep.method+" "+ep.path, func(t *testing.T) {
			t.Parallel()
			req := func(token string) webtest.Request {
				return webtest.Request{Method: ep.method, Path: ep.path, Token: token, Body: wasm, Header: http.Header{"Content-Type": {"application/wasm"}}}
			}
			check := func(token string, status int, code string) {
				t.Helper()
				w := webtest.Do(t, e.h, req(token))
				if got, _ := errorCode(t, w.Body.String()); w.Code != status || got != code {
					t.Errorf("token %q: %d %s, want %d %s", token, w.Code, got, status, code)
				}
			}
			check("", 401, "AUTHENTICATION_ERROR")
			check(e.nobody, 403, "AUTHORIZATION_ERROR")
			if ep.edit {
				check(e.viewer, 403, "AUTHORIZATION_ERROR")
			}
		})
	}
	if !e.installed(t, "gate") {
		t.Errorf("refused requests removed the hook")
	}
}

func TestRunner(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r, err := hookrun.NewRunner(e.store, e.host)
	if err != nil {
		t.Fatal(err)
	}
	if r.Installed("gate") {
		t.Errorf("Installed before install")
	}
	_, err = r.RunHook(t.Context(), validate.HookCall{Name: "gate", Field: "x", Value: "v"})
	if ce, ok := err.(*content.Error); !ok || ce.Kind != content.Unavailable || ce.Code != validate.CodeHookUnavailable {
		t.Fatalf("missing hook: err = %v, want Unavailable HOOK_UNAVAILABLE", err)
	}
	hooktest.Install(t, e.store, "gate", hooktest.Answer(hooktest.Invalid))
	if !r.Installed("gate") {
		t.Errorf("not Installed after install")
	}
	data := content.NewMap(1)
	data.Set("x", "v")
	res, err := r.RunHook(t.Context(), validate.HookCall{Name: "gate", Arg: "EU", Form: "f", Field: "x", Value: "v", Data: data, Locale: "en"})
	if err != nil || res.Valid || res.Message != "Rejected by the test hook" || res.Code != "test_reject" {
		t.Errorf("RunHook = %+v, %v", res, err)
	}
	// A module whose bytes no longer match the metadata fails the call (the field fails), but it
	// is not "missing" (which would refuse the whole request).
	if err := os.WriteFile(filepath.Join(e.dir, "resources/hooks/gate.wasm"), hooktest.Answer(hooktest.Valid), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh, _ := wasmhooks.New(wasmhooks.Options{})
	defer fresh.Close(t.Context())
	r2, _ := hookrun.NewRunner(e.store, fresh)
	if _, err := r2.RunHook(t.Context(), validate.HookCall{Name: "gate", Field: "x", Value: "v"}); err == nil || content.KindOf(err) == content.Unavailable {
		t.Errorf("tampered module: err = %v, want a failure that is not Unavailable", err)
	}
	if _, err := hookrun.NewRunner(nil, e.host); err == nil {
		t.Errorf("NewRunner without modules: no error")
	}
}

// TestRunnerModuleOverLimits is a module over a limit dropped into resources/hooks by hand,
// never checked: the hook call fails, as for any module that does not compile (the field
// fails with "Could not be validated"), without compiling it; and other hooks go on working.
func TestRunnerModuleOverLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r, err := hookrun.NewRunner(e.store, e.host)
	if err != nil {
		t.Fatal(err)
	}
	hooktest.Install(t, e.store, "good", hooktest.Answer(hooktest.Valid))
	for _, m := range limitModules {
		hooktest.Install(t, e.store, m.name, limitModule(t, m.name))
		for range 2 { // the second call finds the module remembered as broken
			_, err := r.RunHook(t.Context(), validate.HookCall{Name: m.name, Form: "f", Field: "x", Value: "v"})
			ce, ok := errors.AsType[*content.Error](err)
			if !ok || ce.Kind != content.Internal || ce.Message != "validation hook failed" || !strings.Contains(err.Error(), m.limit) {
				t.Errorf("%s: RunHook = %v, want the failure of the hook naming the limit %q", m.name, err, m.limit)
			}
		}
	}
	if res, err := r.RunHook(t.Context(), validate.HookCall{Name: "good", Form: "f", Field: "x", Value: "v"}); err != nil || !res.Valid {
		t.Errorf("good hook afterwards: %+v, %v", res, err)
	}
}

func TestNewNeedsDeps(t *testing.T) {
	t.Parallel()
	if _, err := hooks.New(hooks.Deps{}); err == nil {
		t.Error("New without Store and Host: no error")
	}
}
