package guest

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// The exported functions only move bytes in and out of memory; serve is the rest of the
// protocol, tested here without WebAssembly. The host's tests run the SDK inside wazero.

func TestServe(t *testing.T) {
	t.Parallel()
	echo := func(r Request) Response {
		return Invalid(r.Params.Arg, r.Field+"="+r.Value.(string)+" in "+r.Locale)
	}
	tests := []struct {
		name    string
		h       Handler
		in      string
		want    string
		wantErr string
	}{
		{"valid", func(Request) Response { return Valid() }, `{"abi":1,"value":1}`, `{"valid":true}`, ""},
		{"invalid", echo, `{"abi":1,"field":"vat","value":"x","params":{"arg":"eu_code"},"data":{"vat":"x"},"locale":"de"}`,
			`{"valid":false,"message":"vat=x in de","code":"eu_code"}`, ""},
		{"valid drops message", func(Request) Response { return Response{Valid: true, Message: "m", Code: "c"} }, `{}`, `{"valid":true}`, ""},
		{"no handler", nil, `{}`, "", "no handler registered"},
		{"bad request", echo, `{"value":`, "", "decode request"},
		{"panic", func(Request) Response { panic("boom") }, `{}`, "", "handler panicked: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := serve(tt.h, []byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("serve error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("serve = %s, %v; want %s", got, err, tt.want)
			}
		})
	}
}

func TestServeTruncatesMessage(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("ü", MaxMessageRunes+10)
	out, err := serve(func(Request) Response { return Invalid("c", long) }, []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	msg := strings.TrimSuffix(strings.TrimPrefix(string(out), `{"valid":false,"message":"`), `","code":"c"}`)
	if n := utf8.RuneCountInString(msg); n != MaxMessageRunes || !utf8.ValidString(msg) {
		t.Errorf("message has %d runes (valid UTF-8: %v), want %d", n, utf8.ValidString(msg), MaxMessageRunes)
	}
}

func TestStringValue(t *testing.T) {
	t.Parallel()
	if s, ok := (Request{Value: "a"}).StringValue(); !ok || s != "a" {
		t.Errorf(`StringValue of "a" = %q, %v`, s, ok)
	}
	if _, ok := (Request{Value: 1.0}).StringValue(); ok {
		t.Error("StringValue of a number reports a string")
	}
}
