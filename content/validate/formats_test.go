package validate

import (
	"strings"
	"testing"
	"time"
)

func TestValidEmail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want bool
	}{
		{"a@b.co", true},
		{"first.last+tag@sub.example.com", true},
		{"o'neil@example.ie", true},
		{"josé@exämple.de", true},
		{"a@xn--p1ai.xn--p1ai", true},
		{"", false},
		{"a@b", false},
		{"a@b.c", false},
		{"a@b.c1", false},
		{"@b.com", false},
		{"a@", false},
		{"a@@b.com", false},
		{"a@b@c.com", false},
		{".a@b.com", false},
		{"a.@b.com", false},
		{"a..b@c.com", false},
		{"a b@c.com", false},
		{"a@b .com", false},
		{"a@-b.com", false},
		{"a@b-.com", false},
		{"a@b..com", false},
		{"a@.b.com", false},
		{"a\n@b.com", false},
		{"<a>@b.com", false},
		{strings.Repeat("a", 65) + "@b.com", false},
		{strings.Repeat("a", 64) + "@b.com", true},
		{"a@" + strings.Repeat("b", 64) + ".com", false},
		{"a@" + strings.Repeat(strings.Repeat("b", 60)+".", 5) + "com", false}, // 310 chars
	}
	for _, tt := range tests {
		if got := validEmail(tt.in); got != tt.want {
			t.Errorf("validEmail(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestValidURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want bool
	}{
		{"https://example.com", true},
		{"HTTPS://EXAMPLE.COM/Path", true},
		{"http://127.0.0.1:8080/a?b#c", true},
		{"http://[::1]/", true},
		{"https://user:pw@example.com", true},
		{"https://example.com/a%20b", true},
		{"", false},
		{"example.com", false},
		{"//example.com", false},
		{"/path", false},
		{"http:example.com", false},
		{"http://", false},
		{"http://:80", false},
		{"mailto:a@b.com", false},
		{"ftp://example.com", false},
		{"javascript://example.com/%0Aalert(1)", false},
		{"https://example.com/a b", false},
		{"https://exa\tmple.com", false},
		{" https://example.com", false},
		{"https://example.com/\x7f", false},
	}
	for _, tt := range tests {
		if got := validURL(tt.in); got != tt.want {
			t.Errorf("validURL(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestParseDate(t *testing.T) {
	t.Parallel()
	utc := func(y int, m time.Month, d, h, min, s int) time.Time {
		return time.Date(y, m, d, h, min, s, 0, time.UTC)
	}
	tests := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2024-01-31", utc(2024, 1, 31, 0, 0, 0), true},
		{"2024-01-31T10:20", utc(2024, 1, 31, 10, 20, 0), true},
		{"2024-01-31 10:20:30", utc(2024, 1, 31, 10, 20, 30), true},
		{"2024-01-31t10:20:30z", utc(2024, 1, 31, 10, 20, 30), true},
		{"2024-01-31T10:20:30+02:00", utc(2024, 1, 31, 8, 20, 30), true},
		{"2024-01-31T10:20Z", utc(2024, 1, 31, 10, 20, 0), true},
		{"2024-01-31T10:20:30.123456789Z", time.Date(2024, 1, 31, 10, 20, 30, 123456789, time.UTC), true},
		{"2024-02-30", time.Time{}, false},
		{"2024-13-01", time.Time{}, false},
		{"2024-1-31", time.Time{}, false},
		{"2024-01-31T1:20", time.Time{}, false},
		{"2024-01-31T25:00", time.Time{}, false},
		{"2024-01-31T10", time.Time{}, false},
		{"2024-01-31T10:20:30+0200", time.Time{}, false},
		{"31/01/2024", time.Time{}, false},
		{"", time.Time{}, false},
	}
	for _, tt := range tests {
		got, ok := parseDate(tt.in)
		if ok != tt.ok || !got.Equal(tt.want) {
			t.Errorf("parseDate(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseRule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		name    string
		code    string // "" for no problem
		warning bool
		check   func(rule) bool
	}{
		{in: "required", name: "required"},
		{in: " required ", name: "required"},
		{in: "min:3", name: "min", check: func(r rule) bool { return r.n == 3 }},
		{in: "max: 2.5 ", name: "max", check: func(r rule) bool { return r.n == 2.5 }},
		{in: "min:-1", name: "min", check: func(r rule) bool { return r.n == -1 }},
		{in: "size:0", name: "size"},
		{in: "min", name: "min", code: CodeInvalidRule},
		{in: "min:", name: "min", code: CodeInvalidRule},
		{in: "min:NaN", name: "min", code: CodeInvalidRule},
		{in: "min:Inf", name: "min", code: CodeInvalidRule},
		{in: "numeric_range:1,10", name: "numeric_range", check: func(r rule) bool { return r.lo == 1 && r.hi == 10 }},
		{in: "numeric_range: -5 , 5", name: "numeric_range", check: func(r rule) bool { return r.lo == -5 && r.hi == 5 }},
		{in: "numeric_range:1", name: "numeric_range", code: CodeInvalidRule},
		{in: "numeric_range:a,b", name: "numeric_range", code: CodeInvalidRule},
		{in: "regex:^a:b$", name: "regex", check: func(r rule) bool { return r.param == "^a:b$" && r.re.MatchString("a:b") }},
		{in: "regex:", name: "regex", code: CodeInvalidRule},
		{in: "regex:[", name: "regex", code: CodeInvalidRule},
		{in: "in:a, b,,c", name: "in", check: func(r rule) bool { return len(r.list) == 3 && r.list[1] == "b" }},
		{in: "in:", name: "in", code: CodeInvalidRule},
		{in: "not_in: , ", name: "not_in", code: CodeInvalidRule},
		{in: "after:2024-01-01", name: "after"},
		{in: "before:today", name: "before", code: CodeInvalidRule},
		{in: "hook:vat-number:EU:x", name: "hook", check: func(r rule) bool { return r.hook == "vat-number" && r.arg == "EU:x" }},
		{in: "hook:a", name: "hook", check: func(r rule) bool { return r.hook == "a" && r.arg == "" }},
		{in: "hook:-a", name: "hook", code: CodeInvalidRule},
		{in: "hook:a b", name: "hook", code: CodeInvalidRule},
		{in: "hook", name: "hook", code: CodeInvalidRule},
		{in: "hook:" + strings.Repeat("a", 201), name: "hook", code: CodeInvalidRule},
		{in: "url:x", name: "url", code: CodeInvalidRule, warning: true},
		{in: "email:", name: "email"},
		{in: "", code: CodeInvalidRule},
		{in: ":3", code: CodeInvalidRule},
		{in: "Required", name: "Required", code: CodeUnknownRule},
		{in: "between:1,2", name: "between", code: CodeUnknownRule},
	}
	for _, tt := range tests {
		r, p := parseRule(tt.in)
		code, warning := "", false
		if p != nil {
			code, warning = p.code, p.warning
			if p.message == "" {
				t.Errorf("parseRule(%q): problem without message", tt.in)
			}
		}
		if r.name != tt.name || code != tt.code || warning != tt.warning {
			t.Errorf("parseRule(%q) = name %q, code %q, warning %v; want %q, %q, %v", tt.in, r.name, code, warning, tt.name, tt.code, tt.warning)
		}
		if tt.check != nil && !tt.check(r) {
			t.Errorf("parseRule(%q) = %+v, parameters wrong", tt.in, r)
		}
	}
}
