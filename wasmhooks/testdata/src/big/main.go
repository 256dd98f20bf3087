//go:build wasip1

// Command big is a benchmark hook of about 4 MB: it checks addresses with net/mail, net/url and
// regular expressions, so it links far more code than the examples and shows what compiling a
// large module costs. BenchmarkCheck4MB builds it; it is not committed.
package main

import (
	"net/mail"
	"net/url"
	"regexp"

	"cms/wasmhooks/guest"
)

func init() { guest.Handle(check) }

func check(req guest.Request) guest.Response {
	s, _ := req.StringValue()
	if _, err := mail.ParseAddress(s); err == nil {
		return guest.Valid()
	}
	if _, err := url.Parse(s); err != nil {
		return guest.Invalid("invalid_address", "Neither an e-mail address nor a URL.")
	}
	if req.Params.Arg != "" {
		re, err := regexp.Compile(req.Params.Arg)
		if err != nil || !re.MatchString(s) {
			return guest.Invalid("no_match", "The value does not match.")
		}
	}
	return guest.Valid()
}

func main() {}
