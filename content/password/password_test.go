package password_test

import (
	"strings"
	"testing"

	"cms/content/password"
)

// A hash written by the system we follow for "correct horse battery" must verify.
const madoriHash = "scrypt:179643ed51a217af27b21cdcbc0ee4a1d578bbc51713e2326618de505d7db51a:ec070ddf8c7d314e683c6b634c4dc1103c6a69760236bed841c9dc606eb435c21aba4acd8ad10799c603aa5c5db5bbbaea6024d111413792881bd77fe1f833e8"

func TestVerify(t *testing.T) {
	t.Parallel()
	fresh, err := password.Hash("a long enough password")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, pw, stored string
		want             bool
	}{
		{"existing site hash", "correct horse battery", madoriHash, true},
		{"existing site hash, wrong password", "correct horse batter", madoriHash, false},
		{"fresh hash", "a long enough password", fresh, true},
		{"fresh hash, wrong password", "a long enough passwore", fresh, false},
		{"wrong scheme", "x", "bcrypt:00:00", false},
		{"too few parts", "x", "scrypt:00", false},
		{"bad hex", "x", "scrypt:zz:zz", false},
		{"empty key", "x", "scrypt:00:", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := password.Verify(tt.pw, tt.stored); got != tt.want {
				t.Errorf("Verify(%q) = %v, want %v", tt.pw, got, tt.want)
			}
		})
	}
}

func TestHashFormat(t *testing.T) {
	t.Parallel()
	a, _ := password.Hash("same password here")
	b, _ := password.Hash("same password here")
	if a == b {
		t.Error("two hashes of one password are equal; salts must differ")
	}
	parts := strings.Split(a, ":")
	if len(parts) != 3 || parts[0] != "scrypt" || len(parts[1]) != 64 || len(parts[2]) != 128 {
		t.Errorf("hash %q is not scrypt:<64 hex>:<128 hex>", a)
	}
}

func TestCheckPolicy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pw   string
		want string
	}{
		{strings.Repeat("a", 11), "Password must be at least 12 characters"},
		{strings.Repeat("a", 12), ""},
		{strings.Repeat("é", 12), ""},
		{strings.Repeat("a", 128), ""},
		{strings.Repeat("a", 129), "Password must be at most 128 characters"},
	}
	for _, tt := range tests {
		if got := password.CheckPolicy(tt.pw); got != tt.want {
			t.Errorf("CheckPolicy(len %d) = %q, want %q", len(tt.pw), got, tt.want)
		}
	}
}
