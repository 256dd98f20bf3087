package sessions

import (
	"context"
	"encoding/hex"
	"runtime"
	"strings"

	"cms/content"
	"cms/content/password"
)

// UserLookup finds a user by email; the "yaml" user provider (the store's users/ folder)
// implements it.
type UserLookup interface {
	// UserByEmail returns a NotFound error when no user has the (normalised) email.
	UserByEmail(email string) (*content.User, error)
}

// PasswordValidator is the "password" credential driver: it checks an email and password against
// the user's scrypt hash. An unknown email and a wrong password cost the same time, and at most a
// fixed number of scrypt computations (16 MiB of memory each) run at once, so a burst of logins
// queues instead of exhausting memory.
type PasswordValidator struct {
	users UserLookup
	slots chan struct{}
}

// NewPasswordValidator returns the password driver over users. maxConcurrent bounds parallel
// verifications; 0 means GOMAXPROCS.
func NewPasswordValidator(users UserLookup, maxConcurrent int) *PasswordValidator {
	if maxConcurrent <= 0 {
		maxConcurrent = runtime.GOMAXPROCS(0)
	}
	return &PasswordValidator{users: users, slots: make(chan struct{}, maxConcurrent)}
}

// Validate returns the user whose email and password match, or an Unauthenticated error
// "Invalid credentials" for an unknown email or a wrong password alike. It returns the context's
// error if ctx ends while it waits for a free slot.
func (v *PasswordValidator) Validate(ctx context.Context, email, pw string) (*content.User, error) {
	const op = "sessions.PasswordValidator"
	select {
	case v.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-v.slots }()
	u, err := v.users.UserByEmail(email)
	if err != nil && !content.IsNotFound(err) {
		password.VerifyDummy(pw)
		return nil, err
	}
	if u == nil || !wellFormedHash(u.PasswordHash) {
		// Spend the time of a real check so the answer does not reveal whether the email exists.
		password.VerifyDummy(pw)
		return nil, content.Unauthenticatedf(op, "Invalid credentials")
	}
	if !password.Verify(pw, u.PasswordHash) {
		return nil, content.Unauthenticatedf(op, "Invalid credentials")
	}
	return u, nil
}

// wellFormedHash reports whether password.Verify would run scrypt on h; a broken hash would
// otherwise answer faster than a wrong password does.
func wellFormedHash(h string) bool {
	parts := strings.Split(h, ":")
	if len(parts) != 3 || parts[0] != "scrypt" {
		return false
	}
	_, err1 := hex.DecodeString(parts[1])
	key, err2 := hex.DecodeString(parts[2])
	return err1 == nil && err2 == nil && len(key) > 0 && len(key) <= 1024
}
