package wasmhooks_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"cms/wasmhooks"
)

// FuzzDecodeResponse feeds the parser of guest output, which is untrusted, arbitrary bytes.
// Whatever it accepts must be JSON, within the limits of ABI v1, and survive a round trip.
func FuzzDecodeResponse(f *testing.F) {
	for _, seed := range []string{
		`{"valid":true}`,
		`{"valid":false,"message":"Please use a permanent address.","code":"disposable_email"}`,
		` {"code":"x","valid":false} `,
		`{"valid":true,"future":{"field":[1,2,3]}}`,
		`{"valid":false,"message":"` + strings.Repeat("é", 512) + `"}`,
		`{"valid":false,"message":"` + strings.Repeat("é", 513) + `"}`,
		`{"valid":false,"code":"` + strings.Repeat("c", 65) + `"}`,
		`{"valid":false,"code":"no spaces"}`,
		`{"valid":false,"message":"\u0000\ud800"}`,
		`{"valid":"yes"}`,
		`{"valid":null}`,
		`{"valid":true,"valid":false}`,
		`{"valid":true}{"valid":false}`,
		`{}`, `null`, `[]`, `true`, ``, "\xff", `{"valid":true,"message":"\xff"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := wasmhooks.DecodeResponse(b)
		if err != nil {
			return
		}
		if !json.Valid(b) || !utf8.Valid(b) {
			t.Fatalf("accepted %q, which is not UTF-8 JSON", b)
		}
		if n := utf8.RuneCountInString(r.Message); n > 512 {
			t.Fatalf("accepted a message of %d characters", n)
		}
		if len(r.Code) > 64 || strings.ContainsAny(r.Code, " \"<>&\x00") {
			t.Fatalf("accepted code %q", r.Code)
		}
		out, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		again, err := wasmhooks.DecodeResponse(out)
		if err != nil || again != r {
			t.Fatalf("round trip of %+v gave %+v, %v", r, again, err)
		}
	})
}
