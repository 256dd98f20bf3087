package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/content/password"
	"cms/content/sessions"
)

const resetSite = `
-- cms.config.yaml --
watch: none
-- resources/roles/admin.yaml --
permissions: []
-- users/ed.yaml --
id: ed
email: ed@example.com
name: Ed
password_hash: scrypt:00:00
roles: [admin]
-- users/other.yaml --
id: other
email: other@example.com
name: Other
password_hash: scrypt:00:00
roles: [admin]
`

// openSessions opens the site's session store as the server does.
func openSessions(t *testing.T, dir string) *sessions.Store {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	ss, err := sessions.Open(sessions.Options{Root: root, SweepInterval: -1, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return ss
}

func TestResetPassword(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, resetSite)
	ctx := context.Background()
	edTok, _, err := openSessions(t, dir).Create(ctx, "ed")
	if err != nil {
		t.Fatal(err)
	}
	otherTok, _, err := openSessions(t, dir).Create(ctx, "other")
	if err != nil {
		t.Fatal(err)
	}
	out, err := runStdin(t, "a new long password\n", "reset-password", "--site", dir, "--password-stdin", " ED@example.com")
	if err != nil {
		t.Fatalf("reset-password: %v\n%s", err, out)
	}
	if !strings.Contains(out, "ed@example.com") || !strings.Contains(out, "1 session") {
		t.Errorf("output = %q", out)
	}
	u := readUser(t, dir, "ed")
	if !password.Verify("a new long password", u["password_hash"].(string)) {
		t.Error("the new password does not verify")
	}
	if u["name"] != "Ed" || u["email"] != "ed@example.com" {
		t.Errorf("other fields changed: %v", u)
	}
	ss := openSessions(t, dir) // a fresh store reads the files
	if _, err := ss.Validate(ctx, string(edTok)); err == nil {
		t.Error("the user's session survived the reset")
	}
	if _, err := ss.Validate(ctx, string(otherTok)); err != nil {
		t.Errorf("another user's session ended: %v", err)
	}
}

// Prompted (not a terminal here): the password is read twice.
func TestResetPasswordPrompts(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, resetSite)
	out, err := runStdin(t, "a new long password\na new long password\n", "reset-password", "--site", dir, "ed@example.com")
	if err != nil {
		t.Fatalf("reset-password: %v\n%s", err, out)
	}
	if !strings.Contains(out, "Password: ") || !strings.Contains(out, "Confirm password: ") {
		t.Errorf("no prompts in %q", out)
	}
	if !password.Verify("a new long password", readUser(t, dir, "ed")["password_hash"].(string)) {
		t.Error("the new password does not verify")
	}
}

func TestResetPasswordRefuses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"unknown email", "a new long password\n", []string{"--password-stdin", "nobody@example.com"}, "no user with email nobody@example.com"},
		{"short password", "too short\n", []string{"--password-stdin", "ed@example.com"}, "Password must be at least 12 characters"},
		{"passwords differ", "a new long password\nanother long password\n", []string{"ed@example.com"}, "the passwords do not match"},
		{"no password", "", []string{"--password-stdin", "ed@example.com"}, "read the password"},
		{"no email", "", nil, "give the user's email"},
		{"two emails", "", []string{"ed@example.com", "other@example.com"}, "give the user's email"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := contenttest.WriteSite(t, resetSite)
			before, _ := os.ReadFile(filepath.Join(dir, "users", "ed.yaml"))
			out, err := runStdin(t, c.stdin, append([]string{"reset-password", "--site", dir}, c.args...)...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one containing %q\n%s", err, c.want, out)
			}
			if after, _ := os.ReadFile(filepath.Join(dir, "users", "ed.yaml")); string(after) != string(before) {
				t.Errorf("a refused reset changed the user file:\n%s", after)
			}
		})
	}
}
