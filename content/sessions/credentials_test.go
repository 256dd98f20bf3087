package sessions_test

import (
	"context"
	"errors"
	"testing"

	"cms/content"
	"cms/content/password"
	"cms/content/sessions"
)

// users is a fixed user list standing in for the store's users/ folder.
type users map[string]*content.User

func (u users) UserByEmail(email string) (*content.User, error) {
	if x, ok := u[email]; ok {
		return x, nil
	}
	return nil, content.NotFoundf("test", "", "User not found")
}

func TestPasswordValidator(t *testing.T) {
	t.Parallel()
	hash, err := password.Hash("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	v := sessions.NewPasswordValidator(users{
		"admin@example.com":  {ID: "admin", Email: "admin@example.com", PasswordHash: hash},
		"broken@example.com": {ID: "broken", Email: "broken@example.com", PasswordHash: "plaintext"},
	}, 0)
	cases := []struct {
		name, email, pw string
		wantID          string
	}{
		{"match", "admin@example.com", "correct horse battery", "admin"},
		{"wrong password", "admin@example.com", "correct horse battery!", ""},
		{"unknown email", "nobody@example.com", "correct horse battery", ""},
		{"malformed stored hash", "broken@example.com", "plaintext", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			u, err := v.Validate(t.Context(), c.email, c.pw)
			if c.wantID != "" {
				if err != nil || u.ID != c.wantID {
					t.Fatalf("Validate = %v, %v", u, err)
				}
				return
			}
			ce, ok := errors.AsType[*content.Error](err)
			if !ok || ce.Kind != content.Unauthenticated || ce.Message != "Invalid credentials" {
				t.Fatalf("err = %v, want Unauthenticated \"Invalid credentials\"", err)
			}
		})
	}
}

func TestPasswordValidatorWaitsForSlot(t *testing.T) {
	t.Parallel()
	v := sessions.NewPasswordValidator(users{}, 1)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	// One slot free: a cancelled context may still win it or give up; both end without scrypt
	// blocking forever. With the slot taken, it must give up.
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = v.Validate(context.Background(), "x@example.com", "pw")
	}()
	<-done
	if _, err := v.Validate(ctx, "x@example.com", "pw"); err == nil {
		t.Fatal("cancelled validation succeeded")
	}
}
