package redirects_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/content/seo/redirects"
)

var sites = []content.Site{
	{Handle: "default", URL: "https://example.com", Default: true},
	{Handle: "fr", URL: "https://example.fr/fr"},
}

var allowed = []string{"https://partner.example"}

func open(t *testing.T) (*redirects.Store, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "content", "seo", "redirects")
	s, err := redirects.Open(redirects.Options{Dir: dir, Sites: sites, AllowedOrigins: allowed, CheckEvery: -1, NoSync: true,
		LockFile: filepath.Join(filepath.Dir(dir), ".cms", "redirects.lock")})
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

func TestNormalizePath(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"/a", "/a"},
		{"/a/", "/a"},
		{"/", "/"},
		{" /a ", "/a"},
		{"/caf%c3%a9", "/caf%C3%A9"},
		{"/café", "/caf%C3%A9"},
		{"/%61bc", "/abc"},
		{"/a b", "/a%20b"},
		{"/a%2Fb", "/a%2Fb"}, // an encoded slash stays inside its segment
		{"", "!"},
		{"a", "!"},
		{"//evil.example", "!"},
		{"/\\evil.example", "!"},
		{"/a\\b", "!"},
		{"/a/../b", "!"},
		{"/a/./b", "!"},
		{"/a/%2e%2e/b", "!"},
		{"/a//b", "!"},
		{"/a?x=1", "!"},
		{"/a#top", "!"},
		{"/a%zz", "!"},
		{"/a%00b", "!"},
		{"/a\nb", "!"},
		{"javascript:alert(1)", "!"},
		{"/" + strings.Repeat("a", 3000), "!"},
	}
	for _, tt := range tests {
		got, err := redirects.NormalizePath(tt.in)
		if tt.want == "!" {
			if err == nil {
				t.Errorf("NormalizePath(%q) = %q, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("NormalizePath(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestNormalizeDestination(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"/new", "/new"},
		{"/new/?a=1#top", "/new?a=1#top"},
		{"/caf%c3%a9", "/caf%C3%A9"},
		{"https://partner.example/x", "https://partner.example/x"},
		{"HTTPS://Partner.Example:443/x?q=1", "https://partner.example:443/x?q=1"},
		{"https://partner.example", "https://partner.example/"},
		{"https://other.example/x", "!"},                // origin not allowed
		{"http://partner.example/x", "!"},               // another scheme is another origin
		{"https://user:pw@partner.example/x", "!"},      // credentials
		{"https://partner.example@evil.example/x", "!"}, // credentials hiding the host
		{"//partner.example/x", "!"},
		{"/\\partner.example", "!"},
		{"javascript:alert(1)", "!"},
		{"JavaScript:alert(1)", "!"},
		{"data:text/html,x", "!"},
		{"ftp://partner.example/x", "!"},
		{"new", "!"},
		{"/a/../b", "!"},
		{"https://partner.example/a/../b", "!"},
		{"/a\r\nLocation: x", "!"},
		{"", "!"},
	}
	for _, tt := range tests {
		got, err := redirects.NormalizeDestination(tt.in, allowed)
		if tt.want == "!" {
			if err == nil {
				t.Errorf("NormalizeDestination(%q) = %q, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("NormalizeDestination(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func save(t *testing.T, s *redirects.Store, id, site, src, dst string) error {
	t.Helper()
	_, _, err := s.Save(redirects.Redirect{ID: id, Site: site, Source: src, Destination: dst, Status: 301, Enabled: true}, "")
	return err
}

// rule returns the topology rule and redirects of a refusal.
func rule(t *testing.T, err error) (string, []string) {
	t.Helper()
	ce, ok := errors.AsType[*content.Error](err)
	if !ok || ce.Kind != content.Invalid || ce.Code != "SEO_INVALID_INPUT" {
		t.Fatalf("err = %v, want a 422 SEO_INVALID_INPUT", err)
	}
	d, ok := ce.Details.(redirects.TopologyDetails)
	if !ok {
		t.Fatalf("details = %#v (%v)", ce.Details, err)
	}
	return d.Rule, d.Redirects
}

func TestTopologyRefusals(t *testing.T) {
	t.Parallel()
	s, _ := open(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(save(t, s, "a", "default", "/a", "/b"))
	must(save(t, s, "c", "default", "/c", "/d"))
	tests := []struct {
		name, id, site, src, dst, rule string
		ids                            []string
	}{
		{"self", "x", "default", "/x", "/x/", redirects.RuleSelf, []string{"x"}},
		{"self, absolute on the site", "x", "default", "/x", "https://example.com/x?y=1", redirects.RuleSelf, []string{"x"}},
		{"duplicate source", "x", "default", "/a", "/z", redirects.RuleDuplicate, []string{"x", "a"}},
		{"chain: destination is a source", "x", "default", "/x", "/a", redirects.RuleChain, []string{"x", "a"}},
		{"chain: source is a destination", "x", "default", "/b", "/z", redirects.RuleChain, []string{"x", "a"}},
		{"cycle", "x", "default", "/b", "/a", redirects.RuleCycle, []string{"x", "a"}},
		{"cycle through an edit", "a", "default", "/a", "/a", redirects.RuleSelf, []string{"a"}},
	}
	for _, tt := range tests {
		err := save(t, s, tt.id, tt.site, tt.src, tt.dst)
		got, ids := rule(t, err)
		if got != tt.rule || strings.Join(ids, ",") != strings.Join(tt.ids, ",") {
			t.Errorf("%s: rule %s %v, want %s %v", tt.name, got, ids, tt.rule, tt.ids)
		}
	}
	// Other sites and disabled redirects take part in nothing.
	must(save(t, s, "fr-a", "fr", "/a", "/b"))
	_, _, err := s.Save(redirects.Redirect{ID: "off", Site: "default", Source: "/a", Destination: "/q", Status: 302}, "")
	must(err)
	if len(s.List("default")) != 3 || len(s.List("")) != 4 {
		t.Errorf("List = %v", s.List(""))
	}
	// Refused writes wrote nothing.
	if _, err := s.Get("x"); !content.IsNotFound(err) {
		t.Errorf("Get(x) = %v, want not found", err)
	}
}

func TestCheckRefusesBadValues(t *testing.T) {
	t.Parallel()
	s, _ := open(t)
	_, _, err := s.Save(redirects.Redirect{ID: "../x", Site: "nope", Source: "//x", Destination: "javascript:x", Status: 200}, "")
	ce, ok := errors.AsType[*content.Error](err)
	if !ok || ce.Kind != content.Invalid {
		t.Fatalf("err = %v", err)
	}
	for _, f := range []string{"id", "site", "source", "destination", "status"} {
		if len(ce.Fields[f]) == 0 {
			t.Errorf("no message for %s: %v", f, ce.Fields)
		}
	}
}

func TestLookupExactPerSite(t *testing.T) {
	t.Parallel()
	s, _ := open(t)
	for _, r := range []redirects.Redirect{
		{ID: "old", Site: "default", Source: "/old", Destination: "/new", Status: 301, Enabled: true},
		{ID: "q", Site: "default", Source: "/q", Destination: "/new?ref=q#top", Status: 308, Enabled: true},
		{ID: "ext", Site: "default", Source: "/partner", Destination: "https://partner.example/p", Status: 302, Enabled: true},
		{ID: "fr", Site: "fr", Source: "/old", Destination: "/nouveau", Status: 307, Enabled: true},
		{ID: "off", Site: "default", Source: "/off", Destination: "/new", Status: 301},
		{ID: "cafe", Site: "default", Source: "/café", Destination: "/coffee", Status: 301, Enabled: true},
	} {
		if _, _, err := s.Save(r, ""); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		site, path, query, want string
		status                  int
	}{
		{"default", "/old", "", "https://example.com/new", 301},
		{"default", "/old/", "", "https://example.com/new", 301},
		{"default", "/old", "a=1&b=2", "https://example.com/new?a=1&b=2", 301},
		{"default", "/q", "a=1", "https://example.com/new?ref=q#top", 308},
		{"default", "/partner", "x=1", "https://partner.example/p?x=1", 302},
		{"fr", "/old", "", "https://example.fr/fr/nouveau", 307},
		{"default", "/caf%c3%a9", "", "https://example.com/coffee", 301},
		{"default", "/old/x", "", "", 0}, // no prefix matching
		{"default", "/ol", "", "", 0},
		{"default", "/OLD", "", "", 0},
		{"default", "/off", "", "", 0}, // disabled
		{"fr", "/q", "", "", 0},        // another site's source
		{"nosite", "/old", "", "", 0},
	}
	for _, tt := range tests {
		loc, st, ok := s.Lookup(tt.site, tt.path, tt.query)
		if tt.want == "" {
			if ok {
				t.Errorf("Lookup(%s, %s) = %s %d, want no match", tt.site, tt.path, loc, st)
			}
			continue
		}
		if !ok || loc != tt.want || st != tt.status {
			t.Errorf("Lookup(%s, %s, %s) = %q %d %v, want %q %d", tt.site, tt.path, tt.query, loc, st, ok, tt.want, tt.status)
		}
	}
}

func TestHandEditsAreSeenAndBadFilesSkipped(t *testing.T) {
	t.Parallel()
	s, dir := open(t)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("hand.yaml", "version: 1\nid: hand\nsite: default\nsource: /hand\ndestination: /made\nstatus: 302\nenabled: true\n")
	if loc, _, ok := s.Lookup("default", "/hand", ""); !ok || loc != "https://example.com/made" {
		t.Fatalf("a new file is not seen: %q %v", loc, ok)
	}
	write("hand.yaml", "version: 1\nid: hand\nsite: default\nsource: /hand\ndestination: /remade-it\nstatus: 302\nenabled: true\n")
	if loc, _, _ := s.Lookup("default", "/hand", ""); loc != "https://example.com/remade-it" {
		t.Errorf("an edit in place is not seen: %q", loc)
	}
	write("extra.yaml", "version: 1\nid: extra\nsite: default\nsource: /e\ndestination: /f\nstatus: 301\nenabled: true\nwildcard: true\n")
	write("other.yaml", "version: 1\nid: not-other\nsite: default\nsource: /o\ndestination: /p\nstatus: 301\nenabled: true\n")
	write("js.yaml", "version: 1\nid: js\nsite: default\nsource: /js\ndestination: javascript:alert(1)\nstatus: 301\nenabled: true\n")
	if _, _, ok := s.Lookup("default", "/e", ""); ok {
		t.Error("a file with an unknown key is applied")
	}
	if _, _, ok := s.Lookup("default", "/js", ""); ok {
		t.Error("a javascript: destination is applied")
	}
	if _, _, ok := s.Lookup("default", "/o", ""); ok {
		t.Error("a file whose id is not its name is applied")
	}
	if p := s.Problems(); len(p) != 3 {
		t.Errorf("problems = %q", p)
	}
	if err := os.Remove(filepath.Join(dir, "hand.yaml")); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := s.Lookup("default", "/hand", ""); ok {
		t.Error("a removed file is still applied")
	}
}

func TestRevisionsCompareAndSwap(t *testing.T) {
	t.Parallel()
	s, _ := open(t)
	r, created, err := s.Save(redirects.Redirect{ID: "a", Site: "default", Source: "/a", Destination: "/b", Status: 301, Enabled: true}, "")
	if err != nil || !created || len(r.Revision) != 64 {
		t.Fatalf("Save = %+v %v %v", r, created, err)
	}
	r.Destination = "/c"
	if _, _, err := s.Save(r, "0000"); content.KindOf(err) != content.Conflict {
		t.Errorf("a stale revision: %v, want a conflict", err)
	}
	r2, created, err := s.Save(r, r.Revision)
	if err != nil || created || r2.Destination != "/c" || r2.Revision == r.Revision {
		t.Fatalf("Save = %+v %v %v", r2, created, err)
	}
	if err := s.Delete("a", r.Revision); content.KindOf(err) != content.Conflict {
		t.Errorf("Delete with a stale revision: %v", err)
	}
	if err := s.Delete("a", r2.Revision); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("a", ""); !content.IsNotFound(err) {
		t.Errorf("Delete again: %v", err)
	}
}

func TestMovedCreatesA301AndRepointsWithoutChains(t *testing.T) {
	t.Parallel()
	s, _ := open(t)
	if err := save(t, s, "older", "default", "/oldest", "/blog/first"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Moved("default", "/blog/first", "/blog/second"); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"/blog/first": "https://example.com/blog/second",
		"/oldest":     "https://example.com/blog/second", // repointed: one hop, no chain
	} {
		if loc, st, ok := s.Lookup("default", path, ""); !ok || loc != want || st != 301 {
			t.Errorf("Lookup(%s) = %q %d %v, want %q 301", path, loc, st, ok, want)
		}
	}
	// Renamed back: the page at /blog/first is live again, so nothing redirects it.
	if _, err := s.Moved("default", "/blog/second", "/blog/first"); err != nil {
		t.Fatal(err)
	}
	if loc, _, ok := s.Lookup("default", "/blog/first", ""); ok {
		t.Errorf("/blog/first still redirects to %s", loc)
	}
	for path, want := range map[string]string{
		"/blog/second": "https://example.com/blog/first",
		"/oldest":      "https://example.com/blog/first",
	} {
		if loc, _, ok := s.Lookup("default", path, ""); !ok || loc != want {
			t.Errorf("Lookup(%s) = %q %v, want %q", path, loc, ok, want)
		}
	}
	// Every redirect left obeys the topology rules: re-saving each one is accepted.
	for _, r := range s.List("default") {
		if _, _, err := s.Save(r, r.Revision); err != nil {
			t.Errorf("%s (%s → %s) breaks a rule: %v", r.ID, r.Source, r.Destination, err)
		}
	}
	if w, err := s.Moved("default", "/same", "/same/"); err != nil || len(w) != 0 {
		t.Errorf("Moved to the same path wrote %v, %v", w, err)
	}
}

// FuzzNormalizePath: a normalised path is a fixed point, and Lookup's fast path agrees with it.
func FuzzNormalizePath(f *testing.F) {
	for _, s := range []string{"/a", "/a/", "/caf%c3%a9", "/a/../b", "//x", "/a%2Fb", "/a:b@c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		n, err := redirects.NormalizePath(p)
		if err != nil {
			return
		}
		if again, err := redirects.NormalizePath(n); err != nil || again != n {
			t.Fatalf("NormalizePath(%q) = %q, but NormalizePath(%q) = %q, %v", p, n, n, again, err)
		}
		if redirects.IsNormal(p) && n != p {
			t.Fatalf("IsNormal(%q) but it normalises to %q", p, n)
		}
	})
}

func TestApplies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		method, path, cp string
		want             bool
	}{
		{"GET", "/old", "", true},
		{"HEAD", "/old", "", true},
		{"POST", "/old", "", false},
		{"PUT", "/old", "", false},
		{"DELETE", "/old", "", false},
		{"GET", "/api/public/entries/blog", "", false},
		{"GET", "/api", "", false},
		{"GET", "/cp/entries", "", false},
		{"GET", "/cp", "", false},
		{"GET", "/admin/x", "/admin", false},
		{"GET", "/cp/x", "/admin", true}, // /cp is a page when the CP lives elsewhere
		{"GET", "/assets/photo.jpg", "", false},
		{"GET", "/apis", "", true},
		{"GET", "/assets-old", "", true},
	}
	for _, tt := range tests {
		if got := redirects.Applies(tt.method, tt.path, tt.cp); got != tt.want {
			t.Errorf("Applies(%s, %s, %q) = %v, want %v", tt.method, tt.path, tt.cp, got, tt.want)
		}
	}
}

// FuzzNormalizeDestination: an accepted destination is a fixed point, starts with one "/" or
// is an http(s) URL on an allowed origin, and carries no control character.
func FuzzNormalizeDestination(f *testing.F) {
	for _, s := range []string{"/a", "https://partner.example/x?y=1#z", "//x", "javascript:x", "/a/../b", "HTTPS://PARTNER.EXAMPLE:443"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, d string) {
		n, err := redirects.NormalizeDestination(d, allowed)
		if err != nil {
			return
		}
		if again, err := redirects.NormalizeDestination(n, allowed); err != nil || again != n {
			t.Fatalf("%q → %q → %q, %v", d, n, again, err)
		}
		ok := strings.HasPrefix(n, "/") && !strings.HasPrefix(n, "//") ||
			strings.HasPrefix(n, "https://partner.example/") || strings.HasPrefix(n, "https://partner.example:443/")
		if !ok || strings.ContainsAny(n, "\x00\r\n\t\\") {
			t.Fatalf("%q → %q", d, n)
		}
	})
}

// TestLookupDuringWrites: lookups run while redirects are written (go test -race).
func TestLookupDuringWrites(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "r")
	s, err := redirects.Open(redirects.Options{Dir: dir, Sites: sites, CheckEvery: time.Millisecond, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 30 {
			_ = save(t, s, fmt.Sprintf("r%d", i), "default", fmt.Sprintf("/o%d", i), "/n")
		}
	}()
	for {
		select {
		case <-done:
			if _, _, ok := s.Lookup("default", "/o29", ""); !ok {
				t.Error("the last write is not seen")
			}
			return
		default:
			s.Lookup("default", "/o1", "q=1")
		}
	}
}
