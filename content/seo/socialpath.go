package seo

import "strings"

// socialPrefix is where the website serves generated social images (seo.socialImages).
const socialPrefix = "/_social"

// homeCard names the home page's card.
const homeCard = "_home"

// SocialImagePath is the path inside a site of the generated social image of the page at
// pagePath: "/_social/blog/hello.png" for "/blog/hello", "/_social/_home.png" for "/" (no slug starts with "_").
func SocialImagePath(pagePath string) string {
	p := strings.Trim(pagePath, "/")
	if p == "" {
		p = homeCard
	}
	return socialPrefix + "/" + p + ".png"
}

// SocialImagePage is the inverse of [SocialImagePath]: the page path a social image path
// stands for, and false for a path that is not one.
func SocialImagePage(p string) (string, bool) {
	rest, ok := strings.CutPrefix(p, socialPrefix+"/")
	if !ok {
		return "", false
	}
	rest, ok = strings.CutSuffix(rest, ".png")
	if !ok || rest == "" || strings.HasSuffix(rest, "/") {
		return "", false
	}
	if rest == homeCard {
		return "/", true
	}
	return "/" + rest, true
}

// IsSocialImagePath reports whether a path inside a site lies under the social images' prefix.
func IsSocialImagePath(p string) bool { return strings.HasPrefix(p, socialPrefix+"/") }
