//go:build wasip1

// Command disposable-email is an example validation hook: it rejects e-mail addresses at
// well-known disposable (throw-away) mail domains, including their subdomains, with the code
// disposable_email. Values that are empty, not strings or not addresses pass: checking the shape
// of an address is the job of the built-in email rule, not of this hook.
//
// Use it in a blueprint as hook:disposable-email. Build it with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -ldflags='-s -w' -o disposable-email.wasm .
package main

import (
	"strings"

	"cms/wasmhooks/guest"
)

// disposable lists a few well-known throw-away domains. A real hook would carry a longer list.
var disposable = map[string]bool{
	"10minutemail.com":  true,
	"dispostable.com":   true,
	"getnada.com":       true,
	"guerrillamail.com": true,
	"mailinator.com":    true,
	"maildrop.cc":       true,
	"sharklasers.com":   true,
	"temp-mail.org":     true,
	"trashmail.com":     true,
	"yopmail.com":       true,
}

var messages = map[string]string{
	"en": "Please use a permanent e-mail address, not a disposable one.",
	"de": "Bitte verwenden Sie eine dauerhafte E-Mail-Adresse, keine Wegwerfadresse.",
}

func init() { guest.Handle(check) }

func check(req guest.Request) guest.Response {
	s, _ := req.StringValue()
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return guest.Valid()
	}
	domain := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s[at+1:])), ".")
	for domain != "" {
		if disposable[domain] {
			return guest.Invalid("disposable_email", message(req.Locale))
		}
		// Try the parent domain, so that x.mailinator.com is caught as well.
		_, parent, ok := strings.Cut(domain, ".")
		if !ok {
			break
		}
		domain = parent
	}
	return guest.Valid()
}

func message(locale string) string {
	lang := locale
	if i := strings.IndexAny(locale, "-_"); i >= 0 {
		lang = locale[:i]
	}
	if m, ok := messages[strings.ToLower(lang)]; ok {
		return m
	}
	return messages["en"]
}

func main() {}
