package sessions_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/content/sessions"
)

// A user's sessions are listed newest first with the client that signed in and when this
// process last saw each; another user's are not, and no token or hash appears in a listing.
func TestListSessions(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	ctx := context.Background()
	oldTok, old, err := f.st.CreateFor(ctx, "ann", sessions.Client{UserAgent: "Firefox " + strings.Repeat("x", 400), Address: "192.0.2.7"})
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(time.Minute)
	_, fresh, err := f.st.CreateFor(ctx, "ann", sessions.Client{UserAgent: "Chromium"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.st.Create(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(5 * time.Minute)
	if _, err := f.st.Validate(ctx, string(oldTok)); err != nil {
		t.Fatal(err)
	}
	seen := f.clock.Now().Truncate(time.Second)

	list, err := f.st.List(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != fresh.ID || list[1].ID != old.ID {
		t.Fatalf("List = %+v, want ann's two sessions newest first", list)
	}
	if got := list[1]; !strings.HasPrefix(got.UserAgent, "Firefox x") || len(got.UserAgent) > 256 || got.Address != "192.0.2.7" {
		t.Errorf("client of the first session = %q %q, want the Firefox user agent clipped to 256 bytes and 192.0.2.7", got.UserAgent, got.Address)
	}
	if !list[1].LastSeen.Equal(seen) {
		t.Errorf("LastSeen = %v, want %v (the validation)", list[1].LastSeen, seen)
	}
	if list[0].UserAgent != "Chromium" || list[0].Address != "" {
		t.Errorf("client of the second session = %q %q", list[0].UserAgent, list[0].Address)
	}

	// The client survives a restart: it is in the file.
	g, err := sessions.Open(sessions.Options{Root: f.root, Duration: time.Hour, SweepInterval: -1, NoSync: true, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	again, err := g.List(ctx, "ann")
	if err != nil || len(again) != 2 || again[1].Address != "192.0.2.7" || !again[1].LastSeen.IsZero() {
		t.Errorf("after a restart List = %+v, %v; want the same sessions, clients kept, not seen yet", again, err)
	}
}

// RevokeID ends one session of its user; an id of another user's session is not found and
// ends nothing.
func TestRevokeID(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	ctx := context.Background()
	keepTok, _, _ := f.st.Create(ctx, "ann")
	endTok, end, _ := f.st.Create(ctx, "ann")
	bobTok, bob, _ := f.st.Create(ctx, "bob")
	for _, tok := range []sessions.Token{keepTok, endTok, bobTok} {
		if _, err := f.st.Validate(ctx, string(tok)); err != nil { // cached, as in use
			t.Fatal(err)
		}
	}
	if _, err := f.st.RevokeID(ctx, "ann", bob.ID); content.KindOf(err) != content.NotFound {
		t.Errorf("revoking bob's session as ann: err = %v, want NotFound", err)
	}
	if got, err := f.st.RevokeID(ctx, "ann", end.ID); err != nil || got.ID != end.ID {
		t.Fatalf("RevokeID = %+v, %v", got, err)
	}
	if _, err := f.st.Validate(ctx, string(endTok)); content.KindOf(err) != content.Unauthenticated {
		t.Errorf("the revoked session still validates: %v", err)
	}
	for _, tok := range []sessions.Token{keepTok, bobTok} {
		if _, err := f.st.Validate(ctx, string(tok)); err != nil {
			t.Errorf("another session ended too: %v", err)
		}
	}
	if _, err := f.st.RevokeID(ctx, "ann", end.ID); content.KindOf(err) != content.NotFound {
		t.Errorf("revoking it again: err = %v, want NotFound", err)
	}
}

// RevokeUserExcept ends every other session of the user, and the one kept still counts
// towards MaxPerUser afterwards.
func TestRevokeUserExcept(t *testing.T) {
	t.Parallel()
	f := open(t, func(o *sessions.Options) { o.MaxPerUser = 2 })
	ctx := context.Background()
	keepTok, keep, _ := f.st.Create(ctx, "ann")
	t2, _, _ := f.st.Create(ctx, "ann")
	bobTok, _, _ := f.st.Create(ctx, "bob")
	n, err := f.st.RevokeUserExcept(ctx, "ann", keep.Hash)
	if err != nil || n != 1 {
		t.Fatalf("RevokeUserExcept = %d, %v; want 1 removed", n, err)
	}
	if _, err := f.st.Validate(ctx, string(t2)); err == nil {
		t.Error("the other session still validates")
	}
	for _, tok := range []sessions.Token{keepTok, bobTok} {
		if _, err := f.st.Validate(ctx, string(tok)); err != nil {
			t.Errorf("a kept session ended: %v", err)
		}
	}
	// Two more sessions with a cap of two end the kept one, the oldest.
	f.clock.Advance(time.Second)
	f.st.Create(ctx, "ann")
	f.clock.Advance(time.Second)
	f.st.Create(ctx, "ann")
	if list, _ := f.st.List(ctx, "ann"); len(list) != 2 || list[0].ID == keep.ID || list[1].ID == keep.ID {
		t.Errorf("after two more logins ann has %+v; want two sessions without the kept (oldest) one", list)
	}
}
