//go:build !race

package cpbrowser

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cms/content/password"
)

// validToken reports whether a session token still authenticates.
func validToken(t *testing.T, s *site, tok string) bool {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "GET", s.url+"/api/auth/validate", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode == http.StatusOK
}

// TestSessionsAndWhereUsed: the signed-in user sees their sessions with this one marked and
// ends another; an administrator ends all of another user's sessions; an asset's details list
// the entries that use it, with links, and deleting it names them first.
func TestSessionsAndWhereUsed(t *testing.T) {
	hash, err := password.Hash(adminPassword)
	if err != nil {
		t.Fatal(err)
	}
	s := startSite(t, `
-- users/ed.yaml --
id: ed
email: ed@example.com
name: Ed Editor
password_hash: `+hash+`
roles: [editor]
-- public/assets/photos/hero.png --
PNG
-- content/collections/blog/hero-post.md --
---
title: Hero post
status: published
cover: photos/hero.png
---
A post with a cover.
`)
	b := newBrowser(t)
	b.expect("/api/git/status")
	b.signIn(s)
	other := newAPIClient(t, s) // the administrator signed in elsewhere too
	ed := &apiClient{t: t, base: s.url}
	var login struct{ Token string }
	ed.do("POST", "/api/auth/login", map[string]string{"email": "ed@example.com", "password": adminPassword}, &login)

	t.Run("own sessions", func(t *testing.T) {
		b.t = t
		b.run(chromedp.Navigate(s.url + "/cp/account"))
		b.waitJS(`document.querySelectorAll('.sessions-panel tr[data-session]').length === 2`)
		if cur := b.text(`.sessions-panel tr.current`); !strings.Contains(cur, "This session") || !strings.Contains(cur, "Chrome") {
			t.Errorf("current session row = %q, want Chrome marked as this session", cur)
		}
		b.shot("account-sessions")
		b.click(`.sessions-panel tr:not(.current) button`)
		b.waitText(`.sessions-panel .notice`, "Ended the session")
		b.waitJS(`document.querySelectorAll('.sessions-panel tr[data-session]').length === 1 && document.querySelector('.sessions-panel tr.current')`)
		if validToken(t, s, other.token) {
			t.Error("the ended session still authenticates")
		}
		b.checkConsole()
	})

	t.Run("another user's sessions", func(t *testing.T) {
		b.t = t
		b.run(chromedp.Navigate(s.url + "/cp/users/ed"))
		b.waitJS(`document.querySelectorAll('.sessions-panel tr[data-session]').length === 1`)
		if b.text(`.sessions-panel tr.current`) != "" {
			t.Error("another user's session is marked as this session")
		}
		b.shot("user-sessions")
		b.expectDialog("End every session of this user?")
		b.click(`.sessions-panel .actions button`)
		b.waitText(`.sessions-panel .notice`, "Ended 1 session.")
		if validToken(t, s, login.Token) {
			t.Error("Ed's session still authenticates")
		}
		b.checkConsole()
	})

	t.Run("where used", func(t *testing.T) {
		b.t = t
		b.run(chromedp.Navigate(s.url + "/cp/media?directory=photos"))
		b.click(`.tile[data-path="photos/hero.png"]`)
		b.waitText(`.asset-details .usage`, "Entry “Hero post” (blog)")
		if href := eval[string](b, `document.querySelector('.asset-details .usage a').getAttribute('href')`); href != "/cp/entries/blog/hero-post" {
			t.Errorf("the use links to %q", href)
		}
		b.shot("asset-where-used")
		b.expectDialog("hero.png is used in 1 place")
		b.click(`.asset-details button.danger`)
		b.waitText(`main .notice`, "Deleted hero.png")
		if !b.sawDialog("• Entry “Hero post” (blog)") {
			t.Error("the delete question did not name the entry that uses the file")
		}
		b.checkConsole()
	})
}
