// Package password hashes and verifies passwords in the format existing sites use:
// "scrypt:<salt hex>:<key hex>", scrypt with N=16384, r=8, p=1 and a 64-byte key, the salt being
// the raw decoded bytes. It also holds the password policy.
package password

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/scrypt"
)

// scrypt parameters of the hash format.
const (
	N       = 16384
	R       = 8
	P       = 1
	KeyLen  = 64
	SaltLen = 32
)

// Policy bounds, in characters.
const (
	MinLength = 12
	MaxLength = 128
)

// Hash returns a new hash of pw with a fresh random salt.
func Hash(pw string) (string, error) {
	salt := make([]byte, SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("read random salt: %w", err)
	}
	key, err := scrypt.Key([]byte(pw), salt, N, R, P, KeyLen)
	if err != nil {
		return "", fmt.Errorf("derive key: %w", err)
	}
	return "scrypt:" + hex.EncodeToString(salt) + ":" + hex.EncodeToString(key), nil
}

// Verify reports whether pw matches stored. A malformed stored hash never matches. The key
// length compared is the stored key's length, so hashes with other lengths keep working.
func Verify(pw, stored string) bool {
	parts := strings.Split(stored, ":")
	if len(parts) != 3 || parts[0] != "scrypt" {
		return false
	}
	salt, err1 := hex.DecodeString(parts[1])
	want, err2 := hex.DecodeString(parts[2])
	if err1 != nil || err2 != nil || len(want) == 0 || len(want) > 1024 {
		return false
	}
	got, err := scrypt.Key([]byte(pw), salt, N, R, P, len(want))
	if err != nil {
		return false
	}
	return subtle.ConstantTimeCompare(got, want) == 1
}

// dummyHash is verified against when a login names an unknown user, so that a wrong email and a
// wrong password cost the same time.
const dummyHash = "scrypt:00000000000000000000000000000000000000000000000000000000000000ff:" +
	"00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"

// VerifyDummy spends the time of one verification and returns false.
func VerifyDummy(pw string) bool {
	Verify(pw, dummyHash)
	return false
}

// CheckPolicy returns a client-safe message when pw breaks the policy, or "".
func CheckPolicy(pw string) string {
	n := utf8.RuneCountInString(pw)
	switch {
	case n < MinLength:
		return fmt.Sprintf("Password must be at least %d characters", MinLength)
	case n > MaxLength:
		return fmt.Sprintf("Password must be at most %d characters", MaxLength)
	}
	return ""
}
