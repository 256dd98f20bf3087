package content_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"cms/content"
)

func TestValidHandle(t *testing.T) {
	t.Parallel()
	tests := map[string]bool{
		"blog": true, "case-studies": true, "a_b": true, "A1": true, "0": true,
		"": false, "..": false, ".hidden": false, "a/b": false, "%2F": false, "a b": false,
		"-a": false, "_a": false, "a.md": false, "é": false, "a\x00": false, strings.Repeat("a", 201): false,
	}
	for in, want := range tests {
		if got := content.ValidHandle(in); got != want {
			t.Errorf("ValidHandle(%q) = %v, want %v", in, got, want)
		}
	}
}

func FuzzValidHandle(f *testing.F) {
	for _, s := range []string{"blog", "..", "a/b", "%2e%2e", "a\\b", "con"} {
		f.Add(s)
	}
	spec := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)
	f.Fuzz(func(t *testing.T, s string) {
		if want := len(s) <= content.MaxHandleLen && spec.MatchString(s); content.ValidHandle(s) != want {
			t.Fatalf("ValidHandle(%q) = %v, the rule says %v", s, !want, want)
		}
		if !content.ValidHandle(s) {
			return
		}
		// Anything accepted must be safe as a single file-name component.
		if strings.ContainsAny(s, "/\\.%\x00 ") || s == "" {
			t.Fatalf("ValidHandle accepted %q", s)
		}
	})
}

func TestMapKeepsOrderThroughJSON(t *testing.T) {
	t.Parallel()
	var m content.Map
	if err := json.Unmarshal([]byte(`{"z":1,"a":{"y":true,"b":[1.5,"x",null]},"m":"s"}`), &m); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(&m)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `{"z":1,"a":{"y":true,"b":[1.5,"x",null]},"m":"s"}` {
		t.Errorf("round trip = %s", out)
	}
	if _, ok := m.Value("z").(int64); !ok {
		t.Errorf("integral number decoded as %T, want int64", m.Value("z"))
	}
	m.Delete("a")
	m.Set("n", "new")
	if got := strings.Join(m.Keys(), ","); got != "z,m,n" {
		t.Errorf("keys after delete/set = %s", got)
	}
	c := m.Clone()
	c.Set("z", "changed")
	if m.Value("z") != int64(1) {
		t.Error("Clone shares values with the original")
	}
}

func TestErrorKinds(t *testing.T) {
	t.Parallel()
	base := content.NotFoundf("op", "p", "missing %s", "x")
	wrapped := errors.Join(errors.New("ctx"), base)
	if content.KindOf(wrapped) != content.NotFound || !content.IsNotFound(wrapped) {
		t.Errorf("KindOf(wrapped) = %v", content.KindOf(wrapped))
	}
	if content.KindOf(errors.New("plain")) != content.Internal {
		t.Error("a plain error is not Internal")
	}
	fe := content.FieldErrors{}
	if fe.Err("op", "m") != nil {
		t.Error("empty FieldErrors produced an error")
	}
	fe.Add("title", "This field is required")
	err := fe.Err("op", "Validation failed")
	if content.KindOf(err) != content.Invalid || !strings.Contains(err.Error(), "title: This field is required") {
		t.Errorf("FieldErrors.Err = %v", err)
	}
}

func TestEntryURL(t *testing.T) {
	t.Parallel()
	e := &content.Entry{Collection: "blog", Slug: "hello-world", CreatedAt: "2026-03-07T23:30:00.000Z"}
	tests := []struct{ route, want string }{
		{"", "/hello-world"},
		{"/blog/{slug}", "/blog/hello-world"},
		{"/blog/{year}/{month}/{day}/{slug}", "/blog/2026/03/07/hello-world"},
		{"/{collection}/{slug}", "/blog/hello-world"},
		{"/static", "/static"},
	}
	for _, tt := range tests {
		if got := content.EntryURL(&content.Collection{Route: tt.route}, e); got != tt.want {
			t.Errorf("route %q = %q, want %q", tt.route, got, tt.want)
		}
	}
	if got := content.EntryURL(&content.Collection{Route: "/{year}/{slug}"}, &content.Entry{Slug: "x"}); got != "" {
		t.Errorf("date route without createdAt = %q, want empty", got)
	}
	// Date parts are the date as written, whatever its offset: not moved to another day in UTC.
	dated := &content.Collection{Route: "/{year}/{month}/{day}/{slug}"}
	for createdAt, want := range map[string]string{
		"2026-04-30T23:30:00-05:00": "/2026/04/30/x",
		"2026-05-01T01:00:00+02:00": "/2026/05/01/x",
		"2026-12-31":                "/2026/12/31/x",
		"2026-12-31 22:00:00":       "/2026/12/31/x",
		"not a date":                "",
		"2026-13-01T00:00:00Z":      "",
	} {
		if got := content.EntryURL(dated, &content.Entry{Slug: "x", CreatedAt: createdAt}); got != want {
			t.Errorf("createdAt %q: %q, want %q", createdAt, got, want)
		}
	}
}

func TestMapLargeAndSmall(t *testing.T) {
	t.Parallel()
	for _, n := range []int{3, 12, 13, 40} {
		m := content.NewMap(0)
		for i := range n {
			m.Set(fmt.Sprintf("k%02d", i), int64(i))
		}
		m.Set("k01", "changed")
		m.Delete("k00")
		if m.Len() != n-1 || m.Value("k01") != "changed" || m.Keys()[0] != "k01" {
			t.Fatalf("n=%d: len %d, k01 %v, first %s", n, m.Len(), m.Value("k01"), m.Keys()[0])
		}
		for i := 1; i < n; i++ {
			k := fmt.Sprintf("k%02d", i)
			if _, ok := m.Get(k); !ok {
				t.Fatalf("n=%d: %s missing after delete", n, k)
			}
		}
		if _, ok := m.Get("k00"); ok {
			t.Fatalf("n=%d: deleted key still present", n)
		}
	}
}

func TestShorten(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{strings.Repeat("a", 64), strings.Repeat("a", 64)},
		{strings.Repeat("a", 65), strings.Repeat("a", 64) + "…"},
		{strings.Repeat("é", 40), strings.Repeat("é", 32) + "…"},             // 2-byte characters, cut between them
		{"a" + strings.Repeat("€", 30), "a" + strings.Repeat("€", 21) + "…"}, // 3-byte characters
	} {
		if got := content.Shorten(tt.in); got != tt.want {
			t.Errorf("Shorten(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Field finds a field in a tab, in a tab's section or in a later tab; when a handle repeats,
// the first in the order of Fields wins (a tab's fields before its sections').
func TestBlueprintField(t *testing.T) {
	t.Parallel()
	f := func(handle, display string) content.Field {
		return content.Field{Handle: handle, Display: display}
	}
	bp := &content.Blueprint{Tabs: []content.Tab{
		{Handle: "main", Fields: []content.Field{f("title", "Title")},
			Sections: []content.Section{{Handle: "meta", Fields: []content.Field{f("summary", "Summary"), f("title", "Shadowed")}}}},
		{Handle: "seo", Fields: []content.Field{f("meta_title", "Meta title"), f("summary", "Shadowed too")}},
	}}
	for _, tc := range []struct {
		handle, display string
		ok              bool
	}{
		{"title", "Title", true},
		{"summary", "Summary", true},
		{"meta_title", "Meta title", true},
		{"missing", "", false},
	} {
		got, ok := bp.Field(tc.handle)
		if ok != tc.ok || ok && got.Display != tc.display {
			t.Errorf("Field(%q) = %q, %v; want %q, %v", tc.handle, got.Display, ok, tc.display, tc.ok)
		}
		// The same as searching the list Fields returns.
		var want content.Field
		found := false
		for _, x := range bp.Fields() {
			if x.Handle == tc.handle {
				want, found = x, true
				break
			}
		}
		if found != ok || found && want.Display != got.Display {
			t.Errorf("Field(%q) disagrees with Fields", tc.handle)
		}
	}
	var none *content.Blueprint
	if _, ok := none.Field("title"); ok {
		t.Error("a nil blueprint has a field")
	}
}

// IsName accepts what ^[a-z0-9][a-z0-9-]{0,max-1}$ (lower) or ^[A-Za-z0-9][A-Za-z0-9<more>]{0,max-1}$
// would, and nothing else.
func TestIsName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s     string
		max   int
		lower bool
		more  string
		want  bool
	}{
		{"default", 64, true, "-", true},
		{"a", 1, true, "-", true},
		{"my-site-2", 64, true, "-", true},
		{strings.Repeat("a", 64), 64, true, "-", true},
		{strings.Repeat("a", 65), 64, true, "-", false},
		{"", 64, true, "-", false},
		{"-site", 64, true, "-", false},
		{"Site", 64, true, "-", false},
		{"Site", 64, false, "-", true},
		{"my_site", 64, true, "-", false},
		{"my_site", 64, true, "_-", true},
		{"_site", 64, true, "_-", false},
		{"a/b", 64, false, "_-", false},
		{"a.b", 64, false, "_-", false},
		{"caf\u00e9", 64, false, "_-", false},
		{"a\x00", 64, false, "_-", false},
		{"a\xe9", 64, false, "\xe9", false}, // more holds ASCII only
	}
	for _, tt := range tests {
		if got := content.IsName(tt.s, tt.max, tt.lower, tt.more); got != tt.want {
			t.Errorf("IsName(%q, %d, %v, %q) = %v, want %v", tt.s, tt.max, tt.lower, tt.more, got, tt.want)
		}
	}
	// Against the patterns it replaced, over every string of up to 3 bytes from a small alphabet.
	site := regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,2}$`)
	id := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,2}$`)
	alpha := "aZ0-_./\xe9"
	var all func(prefix string, n int)
	all = func(prefix string, n int) {
		if got, want := content.IsName(prefix, 3, true, "-"), site.MatchString(prefix); got != want {
			t.Errorf("IsName(%q, 3, true, \"-\") = %v, the pattern says %v", prefix, got, want)
		}
		if got, want := content.IsName(prefix, 3, false, "_-"), id.MatchString(prefix); got != want {
			t.Errorf("IsName(%q, 3, false, \"_-\") = %v, the pattern says %v", prefix, got, want)
		}
		if n < 4 {
			for i := 0; i < len(alpha); i++ {
				all(prefix+alpha[i:i+1], n+1)
			}
		}
	}
	all("", 0)
}
