package validate

import (
	"net/url"
	"strings"
	"unicode"
)

// maxEmailLen is the longest address SMTP can carry (RFC 5321 path limit less the brackets).
const maxEmailLen = 254

// validURL reports whether s is an absolute http or https URL with a host. White space and
// control characters are refused even where url.Parse would let them through.
func validURL(s string) bool {
	if s == "" || strings.IndexFunc(s, func(c rune) bool { return unicode.IsSpace(c) || unicode.IsControl(c) }) >= 0 {
		return false
	}
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return false
	}
	return u.Opaque == "" && u.Hostname() != ""
}

// validEmail is a sane check, not RFC 5322: one '@', a dot-atom local part of at most 64
// characters, and a domain of at least two labels whose last one (the TLD) has two or more
// letters. Unicode letters are allowed (RFC 6531); quoted local parts and IP literals are not.
func validEmail(s string) bool {
	if len(s) > maxEmailLen {
		return false
	}
	local, domain, ok := strings.Cut(s, "@")
	if !ok || strings.Contains(domain, "@") || local == "" || len(local) > 64 {
		return false
	}
	if local[0] == '.' || local[len(local)-1] == '.' || strings.Contains(local, "..") {
		return false
	}
	for _, c := range local {
		if !(unicode.IsLetter(c) || unicode.IsDigit(c) || strings.ContainsRune(".!#$%&'*+/=?^_`{|}~-", c)) {
			return false
		}
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, c := range l {
			if !(unicode.IsLetter(c) || unicode.IsDigit(c) || c == '-') {
				return false
			}
		}
	}
	tld := labels[len(labels)-1]
	if len([]rune(tld)) < 2 {
		return false
	}
	for _, c := range tld {
		if !unicode.IsLetter(c) {
			// An ASCII-encoded IDN TLD (xn--...) is letters, digits and dashes.
			return strings.HasPrefix(strings.ToLower(tld), "xn--")
		}
	}
	return true
}
