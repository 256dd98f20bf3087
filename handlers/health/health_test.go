package health_test

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"cms/handlers/health"
	"cms/handlers/web/webtest"
)

type report struct {
	Status string
	Checks []struct{ Name, Status, Error string }
}

func TestHealth(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, d := range []string{"content", "resources"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	h, err := health.New(health.Deps{Folders: []health.Folder{
		{Name: "content", Path: filepath.Join(dir, "content"), Writable: true},
		{Name: "resources", Path: filepath.Join(dir, "resources")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	w := webtest.Do(t, h, webtest.Request{Path: "/api/health/live"})
	if w.Code != 200 || w.Header().Get("Cache-Control") != "no-store, max-age=0" {
		t.Errorf("live: %d %v", w.Code, w.Header())
	}
	w = webtest.Do(t, h, webtest.Request{Path: "/api/health/ready"})
	var r report
	webtest.DecodeJSON(t, w, &r)
	if w.Code != 200 || r.Status != "ok" || len(r.Checks) != 2 {
		t.Errorf("ready: %d %+v", w.Code, r)
	}

	// A missing folder makes ready fail and names the check.
	if err := os.Remove(filepath.Join(dir, "resources")); err != nil {
		t.Fatal(err)
	}
	w = webtest.Do(t, h, webtest.Request{Path: "/api/health/ready"})
	r = report{}
	webtest.DecodeJSON(t, w, &r)
	if w.Code != http.StatusServiceUnavailable || r.Status != "unavailable" {
		t.Fatalf("ready without resources: %d %+v", w.Code, r)
	}
	for _, c := range r.Checks {
		want := "ok"
		if c.Name == "resources" {
			want = "unavailable"
		}
		if c.Status != want {
			t.Errorf("check %s = %s, want %s", c.Name, c.Status, want)
		}
	}
	if w := webtest.Do(t, h, webtest.Request{Method: "POST", Path: "/api/health/live"}); w.Code != 405 {
		t.Errorf("POST live = %d, want 405", w.Code)
	}
}

func TestReadyFolderIsAFile(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "content")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, _ := health.New(health.Deps{Folders: []health.Folder{{Name: "content", Path: file, Writable: true}}})
	w := webtest.Do(t, h, webtest.Request{Path: "/api/health/ready"})
	var r report
	webtest.DecodeJSON(t, w, &r)
	if w.Code != 503 || r.Checks[0].Error != "not a folder" {
		t.Errorf("ready with a file instead of a folder = %d %+v", w.Code, r)
	}
}

// A failing probe (git sync) leaves the service ready but degraded: 200, not 503.
func TestReadyDegradedByAProbe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	failing := errors.New("Site: push to origin: non-fast-forward update")
	var fail bool
	h, _ := health.New(health.Deps{
		Folders: []health.Folder{{Name: "content", Path: dir, Writable: true}},
		Probes: []health.Probe{{Name: "git", Check: func() error {
			if fail {
				return failing
			}
			return nil
		}}},
	})
	for _, c := range []struct {
		fail   bool
		status string
		git    string
	}{{false, "ok", "ok"}, {true, "degraded", "degraded"}} {
		fail = c.fail
		w := webtest.Do(t, h, webtest.Request{Path: "/api/health/ready"})
		var r report
		webtest.DecodeJSON(t, w, &r)
		if w.Code != 200 || r.Status != c.status || len(r.Checks) != 2 || r.Checks[1].Name != "git" || r.Checks[1].Status != c.git {
			t.Errorf("fail=%v: ready = %d %+v", c.fail, w.Code, r)
		}
		if c.fail && r.Checks[1].Error != failing.Error() {
			t.Errorf("git check error = %q", r.Checks[1].Error)
		}
	}
}
