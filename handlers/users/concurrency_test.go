package users_test

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"

	"cms/handlers/auth/authtest"
	"cms/handlers/web/webtest"
)

// A user editing their own profile while an administrator changes their roles or password must
// not write the old record back: every trial's demotion and password reset survives, whatever
// order the requests interleave in (once 29 of 30 demotions were undone, both requests 200).
func TestOverlappingUpdatesKeepEveryChange(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	admin := e.Token(t, "alice")
	const trials, selfEdits = 24, 4
	type trial struct {
		id, token string
		resetPW   bool // the admin resets the password instead of demoting
	}
	ts := make([]trial, trials)
	for i := range ts {
		id := e.newID("bob")
		e.AddUser(t, id, "viewer", "spare")
		ts[i] = trial{id: id, token: e.Token(t, id), resetPW: i%8 == 7}
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for _, tr := range ts {
		wg.Go(func() {
			<-start
			req := webtest.Request{Method: "PUT", Path: "/api/users/" + tr.id, Token: admin, Body: map[string]any{"roles": []string{"spare"}}}
			if tr.resetPW {
				req = webtest.Request{Method: "POST", Path: "/api/users/" + tr.id + "/password", Token: admin, Body: map[string]any{"newPassword": "reset by the admin"}}
			}
			if w := e.do(t, req); w.Code != http.StatusOK {
				t.Errorf("%s: admin got %d %s", tr.id, w.Code, w.Body)
			}
		})
		for j := range selfEdits {
			wg.Go(func() {
				<-start
				w := e.do(t, webtest.Request{Method: "PUT", Path: "/api/users/me", Token: tr.token, Body: map[string]any{"name": fmt.Sprintf("Bob %d", j)}})
				// The admin's change may end the session first; then the edit is refused as a whole.
				if w.Code != http.StatusOK && w.Code != http.StatusUnauthorized {
					t.Errorf("%s: self edit got %d %s", tr.id, w.Code, w.Body)
				}
			})
		}
	}
	close(start)
	wg.Wait()
	lost := 0
	for _, tr := range ts {
		u, err := e.Store.User(tr.id)
		if err != nil {
			t.Fatal(err)
		}
		if tr.resetPW && u.PasswordHash == authtest.PasswordHash || !tr.resetPW && !slices.Equal(u.Roles, []string{"spare"}) {
			lost++
			t.Errorf("%s: the admin's change was lost: roles %v, password reset %v", tr.id, u.Roles, u.PasswordHash != authtest.PasswordHash)
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d admin changes lost", lost, trials)
	}
}
