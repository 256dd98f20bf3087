package content

import "testing"

func TestSitePagePaths(t *testing.T) {
	tests := []struct {
		policy, path, pagePath, link, absolute string
	}{
		{"", "/blog/x", "/blog/x", "/de/blog/x", "https://example.com/de/blog/x"},
		{SlashNever, "/blog/x", "/blog/x", "/de/blog/x", "https://example.com/de/blog/x"},
		{SlashPreserve, "/blog/x", "/blog/x", "/de/blog/x", "https://example.com/de/blog/x"},
		{SlashAlways, "/blog/x", "/blog/x/", "/de/blog/x/", "https://example.com/de/blog/x/"},
		{SlashAlways, "/", "/", "/de/", "https://example.com/de/"},
		{SlashAlways, "/x/", "/x/", "/de/x/", "https://example.com/de/x/"},
	}
	for _, tt := range tests {
		s := Site{URL: "https://example.com/de", TrailingSlash: tt.policy}
		if got := s.PagePath(tt.path); got != tt.pagePath {
			t.Errorf("%q PagePath(%q) = %q, want %q", tt.policy, tt.path, got, tt.pagePath)
		}
		if got := s.PageLink(tt.path); got != tt.link {
			t.Errorf("%q PageLink(%q) = %q, want %q", tt.policy, tt.path, got, tt.link)
		}
		if got := s.PageAbsolute(tt.path); got != tt.absolute {
			t.Errorf("%q PageAbsolute(%q) = %q, want %q", tt.policy, tt.path, got, tt.absolute)
		}
	}
}

func TestSiteCanonicalRequest(t *testing.T) {
	tests := []struct {
		policy, path, want string
		redirect           bool
	}{
		{"", "/", "/", false},
		{"", "/about", "/about", false},
		{"", "/about/", "/about", true},
		{SlashNever, "/about//", "/about", true},
		{SlashNever, "//", "/", true},
		{SlashAlways, "/", "/", false},
		{SlashAlways, "/about", "/about/", true},
		{SlashAlways, "/about/", "/about/", false},
		{SlashAlways, "/about//", "/about/", true},
		{SlashAlways, "/blog/2024/x", "/blog/2024/x/", true},
		{SlashAlways, "/sitemap.xml", "/sitemap.xml", false},
		{SlashAlways, "/robots.txt", "/robots.txt", false},
		{SlashPreserve, "/about", "/about", false},
		{SlashPreserve, "/about/", "/about/", false},
	}
	for _, tt := range tests {
		s := Site{URL: "https://example.com", TrailingSlash: tt.policy}
		got, redirect := s.CanonicalRequest(tt.path)
		if got != tt.want || redirect != tt.redirect {
			t.Errorf("%q CanonicalRequest(%q) = %q, %v; want %q, %v", tt.policy, tt.path, got, redirect, tt.want, tt.redirect)
		}
	}
}
