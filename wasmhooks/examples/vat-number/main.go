//go:build wasip1

// Command vat-number is an example validation hook: it checks the format and check digits of EU
// VAT identification numbers and answers invalid_vat when they are wrong.
//
// It knows a documented subset of the EU formats:
//
//	AT  ATU + 8 digits, the last a check digit over the first seven
//	BE  BE + 10 digits starting with 0 or 1, the last two 97 - (first eight mod 97)
//	DE  DE + 9 digits, the last an ISO 7064 MOD 11,10 check digit
//	IT  IT + 11 digits, the last a Luhn check digit
//	NL  NL + 9 digits + B + 2 digits: the 9 digits pass the weighted mod-11 test (legal
//	    entities), or the whole number passes ISO 7064 MOD 97-10 (sole traders since 2020)
//
// Numbers from other countries are refused as unsupported. Spaces, dots and dashes are ignored,
// letters may be lower case, and an empty value passes (required is a separate rule).
//
// The rule's argument restricts the countries: hook:vat-number:DE accepts only German numbers,
// hook:vat-number:DE,AT German or Austrian ones; hook:vat-number or hook:vat-number:EU accepts
// every supported country. Build it with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -ldflags='-s -w' -o vat-number.wasm .
package main

import (
	"strings"

	"cms/wasmhooks/guest"
)

const code = "invalid_vat"

// checks maps a country prefix to the test for the rest of the number.
var checks = map[string]func(string) bool{
	"AT": checkAT,
	"BE": checkBE,
	"DE": checkDE,
	"IT": checkIT,
	"NL": checkNL,
}

func init() { guest.Handle(check) }

func check(req guest.Request) guest.Response {
	s, ok := req.StringValue()
	if !ok {
		return guest.Invalid(code, "A VAT number must be text.")
	}
	vat := normalise(s)
	if vat == "" {
		return guest.Valid()
	}
	if len(vat) < 4 {
		return guest.Invalid(code, "This is not a VAT number.")
	}
	country, rest := vat[:2], vat[2:]
	if !allowed(req.Params.Arg, country) {
		return guest.Invalid(code, "VAT numbers from "+country+" are not accepted here.")
	}
	test, ok := checks[country]
	if !ok {
		return guest.Invalid(code, "VAT numbers from "+country+" cannot be checked.")
	}
	if !test(rest) {
		return guest.Invalid(code, "This "+country+" VAT number is not valid.")
	}
	return guest.Valid()
}

// normalise upper-cases s and drops the separators people type.
func normalise(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '.', '-', '\t':
			return -1
		}
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, s)
}

// allowed reports whether the rule's argument admits country. "" and "EU" admit all.
func allowed(arg, country string) bool {
	arg = strings.ToUpper(strings.TrimSpace(arg))
	if arg == "" || arg == "EU" {
		return true
	}
	for c := range strings.SplitSeq(arg, ",") {
		if strings.TrimSpace(c) == country {
			return true
		}
	}
	return false
}

// digits returns the digits of s, or nil if s has length n and is not all digits.
func digits(s string, n int) []int {
	if len(s) != n {
		return nil
	}
	d := make([]int, n)
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return nil
		}
		d[i] = int(s[i] - '0')
	}
	return d
}

func checkAT(s string) bool {
	if !strings.HasPrefix(s, "U") {
		return false
	}
	d := digits(s[1:], 8)
	if d == nil {
		return false
	}
	sum := 0
	for i, v := range d[:7] {
		if i%2 == 1 {
			v *= 2
			v = v/10 + v%10
		}
		sum += v
	}
	return (10-(sum+4)%10)%10 == d[7]
}

func checkBE(s string) bool {
	if len(s) == 9 {
		s = "0" + s // the old nine-digit form
	}
	d := digits(s, 10)
	if d == nil || d[0] > 1 {
		return false
	}
	n := 0
	for _, v := range d[:8] {
		n = n*10 + v
	}
	return 97-n%97 == d[8]*10+d[9]
}

func checkDE(s string) bool {
	d := digits(s, 9)
	if d == nil || d[0] == 0 {
		return false
	}
	product := 10
	for _, v := range d[:8] {
		sum := (v + product) % 10
		if sum == 0 {
			sum = 10
		}
		product = 2 * sum % 11
	}
	want := 11 - product
	if want == 10 {
		want = 0
	}
	return want == d[8]
}

func checkIT(s string) bool {
	d := digits(s, 11)
	if d == nil {
		return false
	}
	sum := 0
	for i, v := range d {
		if i%2 == 1 {
			v *= 2
			if v > 9 {
				v -= 9
			}
		}
		sum += v
	}
	return sum%10 == 0
}

func checkNL(s string) bool {
	if len(s) != 12 || s[9] != 'B' || digits(s[10:], 2) == nil {
		return false
	}
	d := digits(s[:9], 9)
	if d == nil {
		return false
	}
	sum := 0
	for i, v := range d[:8] {
		sum += v * (9 - i)
	}
	if sum%11 != 10 && sum%11 == d[8] {
		return true
	}
	// Sole traders: "NL" + the number, letters as 10..35, must be 1 mod 97.
	rem := 0
	for _, r := range "NL" + s {
		v := int(r - '0')
		if r >= 'A' {
			v = int(r-'A') + 10
			rem = (rem*100 + v) % 97
			continue
		}
		rem = (rem*10 + v) % 97
	}
	return rem == 1
}

func main() {}
