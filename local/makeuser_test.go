package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/content/frontmatter"
	"cms/content/password"
)

const makeUserSite = `
-- cms.config.yaml --
watch: none
-- resources/roles/admin.yaml --
permissions: []
-- resources/roles/editor.yaml --
permissions: []
-- users/taken.yaml --
id: taken
email: taken@example.com
name: Taken
password_hash: scrypt:00:00
`

// runStdin runs a command in-process with the given standard input.
func runStdin(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(t.Context(), args, func(string) string { return "" }, strings.NewReader(stdin), &out, &out)
	return out.String(), err
}

func readUser(t *testing.T, dir, id string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "users", id+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := frontmatter.ParseYAMLMap(b, 1)
	if err != nil {
		t.Fatal(err)
	}
	return m.Plain()
}

func TestMakeUserScripted(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, makeUserSite)
	out, err := runStdin(t, "a good long password\n", "make-user", "--site", dir, "--id", "ed", "--email", " Ed@Example.com ",
		"--name", "Ed Itor", "--roles", "editor, admin", "--password-stdin")
	if err != nil {
		t.Fatalf("make-user: %v\n%s", err, out)
	}
	if !strings.Contains(out, "User created: users/ed.yaml") || strings.Contains(out, "Password") {
		t.Errorf("output = %q", out)
	}
	u := readUser(t, dir, "ed")
	if u["email"] != "ed@example.com" || u["name"] != "Ed Itor" || len(u["roles"].([]any)) != 2 || u["created_at"] == nil {
		t.Errorf("user file = %v", u)
	}
	if !password.Verify("a good long password", u["password_hash"].(string)) {
		t.Error("stored hash does not verify")
	}
	if fi, _ := os.Stat(filepath.Join(dir, "users/ed.yaml")); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
}

func TestMakeUserPrompts(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, makeUserSite)
	// Email, name, password twice, roles (no default: the answer is the only role granted).
	out, err := runStdin(t, "new@example.com\nNew Person\na good long password\na good long password\neditor\n", "make-user", "--site", dir)
	if err != nil {
		t.Fatalf("make-user: %v\n%s", err, out)
	}
	for _, prompt := range []string{"Email: ", "Display name: ", "Password: ", "Confirm password: ", "Roles, comma-separated (available: admin,editor): "} {
		if !strings.Contains(out, prompt) {
			t.Errorf("no prompt %q in %q", prompt, out)
		}
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "users"))
	var created string
	for _, e := range ents {
		if e.Name() != "taken.yaml" {
			created = strings.TrimSuffix(e.Name(), ".yaml")
		}
	}
	if len(created) != 36 {
		t.Fatalf("files = %v; want a UUID-named user", ents)
	}
	if u := readUser(t, dir, created); u["email"] != "new@example.com" || fmt.Sprint(u["roles"]) != "[editor]" {
		t.Errorf("user = %v", u)
	}
}

func TestMakeUserRefuses(t *testing.T) {
	t.Parallel()
	scripted := func(extra ...string) []string {
		return append([]string{"make-user", "--email", "x@example.com", "--name", "X", "--roles", "editor", "--password-stdin"}, extra...)
	}
	cases := []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"duplicate email", "a good long password\n", []string{"make-user", "--email", "TAKEN@example.com", "--name", "X", "--roles", "editor", "--password-stdin"}, "a user with email taken@example.com already exists"},
		{"duplicate id", "a good long password\n", scripted("--id", "taken"), `a user with id "taken" already exists`},
		{"bad id", "a good long password\n", scripted("--id", "../x"), "invalid user id"},
		{"short password", "too short\n", scripted(), "Password must be at least 12 characters"},
		{"long password", strings.Repeat("p", 129) + "\n", scripted(), "Password must be at most 128 characters"},
		{"no password", "", scripted(), "read the password"},
		{"unknown role", "a good long password\n", []string{"make-user", "--email", "x@example.com", "--name", "X", "--roles", "wizard", "--password-stdin"}, `unknown role "wizard"`},
		{"missing flags", "a good long password\n", []string{"make-user", "--email", "x@example.com", "--password-stdin"}, "--password-stdin needs --name, --roles"},
		{"bad email prompt", "not-an-email\n", []string{"make-user"}, `"not-an-email" is not an email address`},
		{"blank name prompt", "x@example.com\n  \n", []string{"make-user"}, "the name must not be empty"},
		{"passwords differ", "x@example.com\nX\na good long password\na different password\n", []string{"make-user"}, "the passwords do not match"},
		{"weak prompted password", "x@example.com\nX\nshort\n", []string{"make-user"}, "Password must be at least 12 characters"},
		{"input ends", "x@example.com\n", []string{"make-user"}, "no answer"},
		// Enter at the roles prompt once granted every role, admin included.
		{"empty roles answer", "x@example.com\nX\na good long password\na good long password\n\n", []string{"make-user"}, "choose at least one role"},
		{"blank roles answer", "x@example.com\nX\na good long password\na good long password\n , \n", []string{"make-user"}, "choose at least one role"},
		{"empty roles flag", "a good long password\n", []string{"make-user", "--email", "x@example.com", "--name", "X", "--roles", "", "--password-stdin"}, "--password-stdin needs --roles"},
		{"stray argument", "", []string{"make-user", "bob"}, "takes no arguments"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := contenttest.WriteSite(t, makeUserSite)
			out, err := runStdin(t, c.stdin, append(c.args, "--site", dir)...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one containing %q\n%s", err, c.want, out)
			}
			if ents, _ := os.ReadDir(filepath.Join(dir, "users")); len(ents) != 1 {
				t.Errorf("a refused user was written: %v", ents)
			}
		})
	}
}
