package users

import (
	"net/http"

	"cms/content"
	"cms/content/access"
	"cms/content/sessions"
	"cms/handlers/authn"
	"cms/handlers/web"
)

// SessionView is a login session as GET /api/users/{id}/sessions shows it. ID is the session's
// public id, never its token or the token's hash; Current marks the caller's own session.
// LastSeenAt is when this server last saw the session (to the minute, since it started);
// UserAgent and Address describe the client that signed in.
type SessionView struct {
	ID         string `json:"id"`
	CreatedAt  string `json:"createdAt,omitempty"`
	ExpiresAt  string `json:"expiresAt"`
	LastSeenAt string `json:"lastSeenAt,omitempty"`
	UserAgent  string `json:"userAgent,omitempty"`
	Address    string `json:"address,omitempty"`
	Current    bool   `json:"current"`
}

// sessionOwner resolves the user whose sessions a request names and checks that the caller may
// see and end them: anyone their own; users:edit, over users the caller may manage, for others.
// Permissions are checked before the user is looked up, so nobody learns which ids exist.
func (a *api) sessionOwner(op string, r *http.Request) (p *access.Principal, id string, self bool, err error) {
	p, err = web.Authenticated(a.Auth, r)
	if err != nil {
		return nil, "", false, err
	}
	if p.TokenID != "" && r.PathValue("id") == "me" {
		return nil, "", false, web.BadRequest("An API token has no login sessions")
	}
	id, self, err = pathID(r, p)
	if err != nil {
		return nil, "", false, err
	}
	if self {
		return p, id, true, nil
	}
	if err := p.Require("users", "edit", ""); err != nil {
		return nil, "", false, err
	}
	u, err := a.Store.User(id)
	if err != nil {
		return nil, "", false, err
	}
	if err := a.mayManage(op, "change", p, u); err != nil {
		return nil, "", false, err
	}
	return p, id, false, nil
}

// GET /api/users/{id}/sessions: the user's live sessions, newest first.
func (a *api) listSessions(w http.ResponseWriter, r *http.Request) error {
	p, id, self, err := a.sessionOwner("users.sessions", r)
	if err != nil {
		return err
	}
	list, err := a.Sessions.List(r.Context(), id)
	if err != nil {
		return err
	}
	out := make([]SessionView, 0, len(list))
	for _, s := range list {
		v := SessionView{ID: s.ID, ExpiresAt: s.ExpiresISO(), UserAgent: s.UserAgent, Address: s.Address,
			Current: self && s.Hash == p.SessionID}
		if !s.CreatedAt.IsZero() {
			v.CreatedAt = s.CreatedAt.UTC().Format(sessions.TimeFormat)
		}
		if !s.LastSeen.IsZero() {
			v.LastSeenAt = s.LastSeen.UTC().Format(sessions.TimeFormat)
		}
		out = append(out, v)
	}
	noStore(w)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: out})
	return nil
}

// RevokedView is the body of DELETE /api/users/{id}/sessions.
type RevokedView struct {
	Revoked int `json:"revoked"`
}

// DELETE /api/users/{id}/sessions: end the user's sessions; callers ending their own keep the
// one they are using ("sign out everywhere else").
func (a *api) revokeSessions(w http.ResponseWriter, r *http.Request) error {
	p, id, self, err := a.sessionOwner("users.revokeSessions", r)
	if err != nil {
		return err
	}
	keep := ""
	if self {
		keep = p.SessionID
	}
	n, err := a.Sessions.RevokeUserExcept(r.Context(), id, keep)
	if err != nil {
		return err
	}
	noStore(w)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: RevokedView{Revoked: n}})
	return nil
}

// DELETE /api/users/{id}/sessions/{sid}: end one session. Ending one's current session signs
// one out, so its cookie is cleared as logout clears it.
func (a *api) revokeSession(w http.ResponseWriter, r *http.Request) error {
	const op = "users.revokeSession"
	p, id, self, err := a.sessionOwner(op, r)
	if err != nil {
		return err
	}
	sid := r.PathValue("sid")
	if len(sid) > 128 {
		return content.NotFoundf(op, "", "Session not found")
	}
	s, err := a.Sessions.RevokeID(r.Context(), id, sid)
	if err != nil {
		return err
	}
	if self && s.Hash == p.SessionID && p.ViaCookie {
		http.SetCookie(w, authn.ClearCookie(a.SecureCookies))
	}
	noStore(w)
	web.WriteJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}
