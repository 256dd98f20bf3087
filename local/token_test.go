package main

import (
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/content/sessions"
)

const tokenCLISite = `
-- cms.config.yaml --
watch: none
-- resources/roles/reader.yaml --
permissions:
  - resource: entries
    actions: [view]
-- resources/roles/writer.yaml --
permissions:
  - resource: entries
    actions: [view, edit]
-- users/ed.yaml --
id: ed
email: ed@example.com
name: Ed
password_hash: scrypt:00:00
roles: [reader]
`

// TestTokenCLI: create prints the token once (on stdout alone, for scripts), list shows it
// without the secret, revoke ends it; a token bound to a user cannot exceed that user.
func TestTokenCLI(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, tokenCLISite)
	out, msg, err := runSplit(t, "token", "create", "--site", dir, "--name", "Site build", "--role", "reader", "--expires", "30d")
	tok := strings.TrimSpace(out)
	if err != nil || !sessions.IsAPIToken(tok) || strings.Contains(msg, tok) || !strings.Contains(msg, "shown once") {
		t.Fatalf("create: %v\nstdout %q\nstderr %q", err, out, msg)
	}
	ss := openSessions(t, dir)
	rec, err := ss.ValidateAPIToken(t.Context(), tok)
	if err != nil || rec.Role != "reader" || rec.Name != "Site build" {
		t.Fatalf("validate: %+v %v", rec, err)
	}
	out, _, err = runSplit(t, "token", "list", "--site", dir)
	if err != nil || !strings.Contains(out, rec.ID) || !strings.Contains(out, "Site build") || strings.Contains(out, tok[len(tok)-64:]) {
		t.Fatalf("list: %v\n%s", err, out)
	}
	if _, msg, err := runSplit(t, "token", "create", "--site", dir, "--name", "x", "--role", "writer", "--user", "ed"); err == nil || !strings.Contains(err.Error(), "entries:edit") {
		t.Errorf("a token stronger than its user: %v %s", err, msg)
	}
	if _, _, err := runSplit(t, "token", "create", "--site", dir, "--name", "x", "--role", "reader", "--expires", "forever"); err == nil {
		t.Error("a bad lifetime was accepted")
	}
	if _, _, err := runSplit(t, "token", "create", "--site", dir, "--name", "x", "--role", "nope"); err == nil {
		t.Error("an unknown role was accepted")
	}
	out, _, err = runSplit(t, "token", "revoke", "--site", dir, rec.ID)
	if err != nil || !strings.Contains(out, "revoked") {
		t.Fatalf("revoke: %v %s", err, out)
	}
	if _, err := openSessions(t, dir).ValidateAPIToken(t.Context(), tok); err == nil {
		t.Error("the revoked token still validates")
	}
	if _, _, err := runSplit(t, "token", "frobnicate", "--site", dir); err == nil {
		t.Error("an unknown subcommand succeeded")
	}
}

// A store's error reaches the terminal as its message, without the operation name that
// prefixes it for logs ("sessions.RevokeAPIToken: nope: ...").
func TestCLIMessageOfAStoreError(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, tokenCLISite)
	_, _, err := runSplit(t, "token", "revoke", "--site", dir, "nope")
	if err == nil || cliMessage(err) != `API token "nope" not found` {
		t.Errorf("revoke an unknown token: %v, shown as %q", err, cliMessage(err))
	}
}
