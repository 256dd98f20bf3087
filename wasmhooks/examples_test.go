package wasmhooks_test

import (
	"strings"
	"testing"

	"cms/wasmhooks"
)

func TestExamples(t *testing.T) {
	t.Parallel()
	h := newHost(t, wasmhooks.Options{})
	email := testModule(t, "disposable-email")
	vat := testModule(t, "vat-number")

	tests := []struct {
		name     string
		module   wasmhooks.Module
		value    any
		arg      string
		locale   string
		want     bool   // valid
		wantCode string // when invalid
		wantMsg  string // a part of the message, when invalid
	}{
		{name: "email/ordinary", module: email, value: "ann@example.com", want: true},
		{name: "email/disposable", module: email, value: "ann@mailinator.com", wantCode: "disposable_email", wantMsg: "permanent e-mail address"},
		{name: "email/subdomain and case", module: email, value: " Ann@Mx.YOPMAIL.com. ", wantCode: "disposable_email"},
		{name: "email/german", module: email, value: "ann@trashmail.com", locale: "de-AT", wantCode: "disposable_email", wantMsg: "Wegwerfadresse"},
		{name: "email/lookalike domain", module: email, value: "ann@notmailinator.com", want: true},
		{name: "email/empty", module: email, value: "", want: true},
		{name: "email/not a string", module: email, value: 42.0, want: true},

		{name: "vat/DE", module: vat, value: "DE136695976", want: true},
		{name: "vat/DE spaced lower case", module: vat, value: "de 136 695 976", want: true},
		{name: "vat/DE bad check digit", module: vat, value: "DE136695977", wantCode: "invalid_vat", wantMsg: "DE VAT number is not valid"},
		{name: "vat/DE too short", module: vat, value: "DE13669597", wantCode: "invalid_vat"},
		{name: "vat/AT", module: vat, value: "ATU13585627", want: true},
		{name: "vat/AT bad check digit", module: vat, value: "ATU13585626", wantCode: "invalid_vat"},
		{name: "vat/BE", module: vat, value: "BE0428759497", want: true},
		{name: "vat/BE nine digits", module: vat, value: "BE428759497", want: true},
		{name: "vat/BE bad check", module: vat, value: "BE0428759498", wantCode: "invalid_vat"},
		{name: "vat/IT", module: vat, value: "IT00743110157", want: true},
		{name: "vat/IT bad check digit", module: vat, value: "IT00743110158", wantCode: "invalid_vat"},
		{name: "vat/NL mod 11", module: vat, value: "NL123456782B01", want: true},
		{name: "vat/NL mod 97", module: vat, value: "NL000099998B57", want: true},
		{name: "vat/NL bad", module: vat, value: "NL123456783B01", wantCode: "invalid_vat"},
		{name: "vat/unsupported country", module: vat, value: "FR40303265045", wantCode: "invalid_vat", wantMsg: "cannot be checked"},
		{name: "vat/restricted to DE", module: vat, value: "ATU13585627", arg: "DE", wantCode: "invalid_vat", wantMsg: "not accepted"},
		{name: "vat/restricted list", module: vat, value: "ATU13585627", arg: "de, at", want: true},
		{name: "vat/EU", module: vat, value: "IT00743110157", arg: "EU", want: true},
		{name: "vat/empty", module: vat, value: "", want: true},
		{name: "vat/not a string", module: vat, value: 12.0, wantCode: "invalid_vat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := request(tt.value, tt.arg)
			if tt.locale != "" {
				req.Locale = tt.locale
			}
			got, err := h.Validate(t.Context(), tt.module, req)
			if err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if got.Valid != tt.want {
				t.Fatalf("Valid = %v, want %v (response %+v)", got.Valid, tt.want, got)
			}
			if tt.want {
				return
			}
			if got.Code != tt.wantCode {
				t.Errorf("Code = %q, want %q", got.Code, tt.wantCode)
			}
			if got.Message == "" || !strings.Contains(got.Message, tt.wantMsg) {
				t.Errorf("Message = %q, want one containing %q", got.Message, tt.wantMsg)
			}
		})
	}
}
